#include "registry.hpp"

#include <vector>

#include <spdlog/spdlog.h>

#include "random.hpp"
#include "room_logic.hpp"

namespace carc::server {

bool valid_room_id(std::string_view id) {
  if (id.size() < 10 || id.size() > 64) return false;
  for (char c : id) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
    if (!ok) return false;
  }
  return true;
}

RoomRegistry::RoomRegistry(boost::asio::io_context& io, RoomServices services, const Limits& limits)
    : io_(io), services_(services), limits_(limits) {}

Room::Strand RoomRegistry::make_strand() { return boost::asio::make_strand(io_); }

void RoomRegistry::set_bots(BotPool* bots) {
  services_.bots = bots;
  services_.make_rematch = [this](std::vector<RoomAction> actions, std::function<void(std::string)> done) {
    create_rematch(std::move(actions), done);
  };
}

void RoomRegistry::create_rematch(std::vector<RoomAction> actions, const std::function<void(std::string)>& done) {
  auto blank = create();
  if (!blank) return done({});
  const std::string id = blank->id();
  // Each human's seat token is derived from their old one (rematch_token), so the old room
  // can hand it out again later, also after a restart.
  RestoredRoom seated;
  std::int64_t version = 1;
  for (RoomAction& a : actions) {
    if (auto* s = std::get_if<SeatTaken>(&a); s != nullptr && !s->bot) s->token_hash = sha256_hex(rematch_token(s->token_hash, id));
    ++version;
    if (!services_.persistence.persist(id, version, 1, a)) {
      spdlog::error("room {}: the rematch's seats could not be stored", id);
      return done({});
    }
    seated.actions.push_back(a);
  }
  seated.version = version;
  auto room = Room::restore(make_strand(), id, services_, seated);
  auto* ok = std::get_if<std::shared_ptr<Room>>(&room);
  if (ok == nullptr) {
    spdlog::error("room {}: the rematch could not be seated: {}", id, std::get<std::string>(room));
    return done({});
  }
  add(*ok);
  done(id);
}

std::shared_ptr<Room> RoomRegistry::create() {
  std::string id;
  {
    std::lock_guard lock(mu_);
    if (rooms_.size() >= limits_.max_rooms) return nullptr;
    do id = random_id(kRoomIdBytes);
    while (rooms_.contains(id));
    rooms_.emplace(id, nullptr);  // reserve the id and a place under the cap
  }
  if (!services_.persistence.room_created(id, unix_ms())) {
    std::lock_guard lock(mu_);
    rooms_.erase(id);
    return nullptr;
  }
  auto room = std::make_shared<Room>(make_strand(), id, services_);
  {
    std::lock_guard lock(mu_);
    rooms_[id] = room;
  }
  services_.metrics.rooms_created.fetch_add(1, std::memory_order_relaxed);
  spdlog::info("room {}: created", id);
  return room;
}

void RoomRegistry::add(std::shared_ptr<Room> room) {
  std::lock_guard lock(mu_);
  rooms_[room->id()] = std::move(room);
}

std::shared_ptr<Room> RoomRegistry::find(std::string_view id) const {
  if (!valid_room_id(id)) return nullptr;
  {
    std::lock_guard lock(mu_);
    const auto it = rooms_.find(std::string(id));
    if (it != rooms_.end()) return it->second;
  }
  if (!loader_) return nullptr;
  auto room = loader_(id);
  if (!room) return nullptr;
  std::lock_guard lock(mu_);
  return rooms_.try_emplace(std::string(id), std::move(room)).first->second;
}

std::size_t RoomRegistry::size() const {
  std::lock_guard lock(mu_);
  return rooms_.size();
}

Metrics::RoomCounts RoomRegistry::counts() const {
  Metrics::RoomCounts c;
  std::lock_guard lock(mu_);
  for (const auto& [id, room] : rooms_) {
    if (!room) continue;
    const auto m = room->memory();
    c.engine_bytes += static_cast<std::int64_t>(m.engine);
    c.history_bytes += static_cast<std::int64_t>(m.history);
    c.view_bytes += static_cast<std::int64_t>(m.view);
    c.other_bytes += static_cast<std::int64_t>(m.other);
    switch (room->phase()) {
      case protocol::RoomPhase::Lobby: ++c.lobby; break;
      case protocol::RoomPhase::Playing: ++c.playing; break;
      case protocol::RoomPhase::Finished: ++c.finished; break;
    }
  }
  return c;
}

void RoomRegistry::for_each(const std::function<void(const std::shared_ptr<Room>&)>& fn) const {
  std::vector<std::shared_ptr<Room>> all;
  {
    std::lock_guard lock(mu_);
    all.reserve(rooms_.size());
    for (const auto& [id, room] : rooms_) {
      if (room) all.push_back(room);
    }
  }
  for (const auto& r : all) fn(r);
}

std::size_t RoomRegistry::expire(std::int64_t now_steady_ms) {
  // A finished game leaves memory soon (it is stored, and comes back from storage when its
  // link, record or rematch is asked for); a game going on, or a lobby, waits for its players.
  const auto ttl_ms = [&](const Room& room) -> std::int64_t {
    if (room.phase() == protocol::RoomPhase::Finished) {
      return std::int64_t{std::min(limits_.finished_room_ttl_s, limits_.room_ttl_s)} * 1000;
    }
    return std::int64_t{room.seated() > 0 ? limits_.room_ttl_s : limits_.empty_room_ttl_s} * 1000;
  };
  std::vector<std::shared_ptr<Room>> gone;
  {
    std::lock_guard lock(mu_);
    for (auto it = rooms_.begin(); it != rooms_.end();) {
      const auto& room = it->second;
      const std::int64_t idle = room ? room->idle_since_ms() : 0;
      if (room && room->connections() == 0 && idle != 0 && now_steady_ms - idle > ttl_ms(*room)) {
        gone.push_back(room);
        it = rooms_.erase(it);
      } else {
        ++it;
      }
    }
  }
  for (const auto& room : gone) {
    services_.persistence.room_removed(room->id());
    services_.metrics.rooms_expired.fetch_add(1, std::memory_order_relaxed);
    spdlog::info("room {}: expired ({} without connections)", room->id(), protocol::phase_name(room->phase()));
  }
  return gone.size();
}

}  // namespace carc::server
