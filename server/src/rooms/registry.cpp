#include "rooms/registry.hpp"

#include <algorithm>
#include <atomic>
#include <vector>

#include <boost/asio/post.hpp>

#include <spdlog/spdlog.h>

#include "base/random.hpp"
#include "room/room_logic.hpp"

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
    : io_(io),
      shared_services_(std::make_shared<RoomServices>(std::move(services))),
      services_(*shared_services_),
      limits_(limits) {
  // A finished game nobody has open leaves memory at once by default: its replacement's
  // players may be arriving, and it comes back from storage when it is opened again.
  services_.finished_idle = [this](const std::shared_ptr<Room>& room) {
    if (limits_.finished_room_ttl_s == 0) retire(room, steady_ms(), -1);
  };
}

RoomRegistry::~RoomRegistry() { alive_->store(false); }

Room::Strand RoomRegistry::make_strand() { return boost::asio::make_strand(io_); }

void RoomRegistry::set_bots(BotPool* bots) {
  services_.bots = bots;
  services_.make_rematch = [this](std::vector<RoomAction> actions, std::function<void(std::string)> done) {
    create_rematch(std::move(actions), done);
  };
}

void RoomRegistry::create_rematch(std::vector<RoomAction> actions, const std::function<void(std::string)>& done) {
  create_room([this, actions = std::move(actions), done](std::shared_ptr<Room> blank) mutable {
    if (!blank) return done({});
    const std::string id = blank->id();
    // The seats come with their hashes: each new token is kept only sealed in the old room.
    struct Seating {
      RestoredRoom seated;
      std::atomic<std::size_t> left{0};
      std::atomic<bool> ok{true};
    };
    auto seating = std::make_shared<Seating>();
    std::int64_t version = 1;
    seating->seated.actions = actions;
    seating->left = actions.size();
    seating->seated.version = 1 + static_cast<std::int64_t>(actions.size());
    // All queued at once: the writer stores them in order, then the room is seated.
    const auto seat = [this, id, seating, done] {
      if (!seating->ok) {
        spdlog::error("room {}: the rematch's seats could not be stored", id);
        return done({});
      }
      auto room = Room::restore(make_strand(), id, shared_services_, seating->seated);
      auto* ok = std::get_if<std::shared_ptr<Room>>(&room);
      if (ok == nullptr) {
        spdlog::error("room {}: the rematch could not be seated: {}", id, std::get<std::string>(room));
        return done({});
      }
      add(*ok);
      done(id);
    };
    if (actions.empty()) return seat();
    for (const RoomAction& a : actions) {
      ++version;
      services_.persistence.persist_async(id, version, 1, a, [seating, seat](bool stored) {
        if (!stored) seating->ok = false;
        if (seating->left.fetch_sub(1) == 1) seat();
      });
    }
  }, true);
}

void RoomRegistry::create(RoomCallback done) { create_room(std::move(done), !shared_); }

void RoomRegistry::create_room(RoomCallback done, bool serve_here) {
  std::string id;
  {
    std::lock_guard lock(mu_);
    if (rooms_.size() >= limits_.max_rooms) return done(nullptr);
    do id = random_id(kRoomIdBytes);
    while (rooms_.contains(id));
    rooms_.emplace(id, nullptr);  // reserve the id and a place under the cap
    absent_.forget(id);
    misses_.erase(id);
  }
  auto stored = [this, id, serve_here, done = std::move(done)](bool ok) {
    if (!ok) {
      {
        std::lock_guard lock(mu_);
        rooms_.erase(id);
      }
      return done(nullptr);
    }
    auto room = std::make_shared<Room>(make_strand(), id, shared_services_);
    {
      std::lock_guard lock(mu_);
      if (serve_here) rooms_[id] = room;
      else rooms_.erase(id);  // stored for whichever node is asked for it first
    }
    services_.metrics.rooms_created.fetch_add(1, std::memory_order_relaxed);
    spdlog::info("room {}: created", id);
    done(std::move(room));
  };
  if (serve_here) services_.persistence.room_created(id, unix_ms(), std::move(stored));
  else services_.persistence.room_created_unowned(id, unix_ms(), std::move(stored));
}

void RoomRegistry::add(std::shared_ptr<Room> room) {
  std::lock_guard lock(mu_);
  absent_.forget(room->id());
  rooms_[room->id()] = std::move(room);
}

std::shared_ptr<Room> RoomRegistry::find_loaded(std::string_view id) const {
  std::lock_guard lock(mu_);
  const auto it = rooms_.find(std::string(id));
  return it != rooms_.end() ? it->second : nullptr;
}

std::optional<std::shared_ptr<Room>> RoomRegistry::find_cached(std::string_view id) const {
  if (!valid_room_id(id)) return nullptr;
  std::lock_guard lock(mu_);
  if (const auto it = rooms_.find(std::string(id)); it != rooms_.end()) return it->second;
  if (!loader_) return nullptr;
  if (absent_.contains(id, steady_ms())) {
    services_.metrics.lookups_remembered.fetch_add(1, std::memory_order_relaxed);
    return nullptr;
  }
  return std::nullopt;
}

void RoomRegistry::set_shared_storage(bool shared) {
  std::lock_guard lock(mu_);
  shared_ = shared;
  absent_.set_ttl_ms(shared ? kSharedMissTtlMs : kMissTtlMs);
}

bool RoomRegistry::handoff_wanted(const std::string& id) const {
  std::lock_guard lock(mu_);
  const auto it = loading_.find(id);
  return it == loading_.end() || it->second.handoff;
}

void RoomRegistry::find(std::string_view id_view, RoomCallback done, bool handoff) {
  if (!valid_room_id(id_view)) return done(nullptr);
  std::string id(id_view);
  {
    std::unique_lock lock(mu_);
    const auto it = rooms_.find(id);
    if (it != rooms_.end() || !loader_ || absent_.contains(id, steady_ms())) {
      auto room = it != rooms_.end() ? it->second : nullptr;
      lock.unlock();
      if (it == rooms_.end() && loader_) services_.metrics.lookups_remembered.fetch_add(1, std::memory_order_relaxed);
      return done(std::move(room));
    }
    Load& load = loading_[id];
    load.handoff = load.handoff || handoff;
    auto& waiters = load.waiters;
    waiters.push_back(std::move(done));
    if (waiters.size() > 1) return;  // a load of this id is on its way
    if (loading_.size() > kMaxLoads) {
      // Storage is not asked: everyone waiting for this id hears Busy (retry shortly).
      auto busy = std::move(waiters);
      loading_.erase(id);
      misses_[id] = {Miss::Busy, steady_ms() + 1000};
      lock.unlock();
      services_.metrics.lookups_busy.fetch_add(1, std::memory_order_relaxed);
      for (auto& d : busy) d(nullptr);
      return;
    }
  }
  services_.metrics.storage_lookups.fetch_add(1, std::memory_order_relaxed);
  try {
    loader_(id, load_answer(id));
  } catch (const std::exception& e) {
    // The answer given to the loader is dropped with it and answers the waiters.
    spdlog::error("room {}: loading it failed: {}", id, e.what());
  }
}

RoomRegistry::RoomCallback RoomRegistry::load_answer(const std::string& id) {
  struct Once {
    // A constructor of its own: clang 14 (the fuzz and sanitizer builds) has no
    // parenthesized aggregate initialization for make_shared.
    Once(RoomRegistry* r, std::shared_ptr<std::atomic<bool>> a, std::string i)
        : registry(r), alive(std::move(a)), id(std::move(i)) {}
    Once(const Once&) = delete;
    Once& operator=(const Once&) = delete;
    RoomRegistry* registry;
    std::shared_ptr<std::atomic<bool>> alive;
    std::string id;
    std::atomic<bool> answered{false};
    void answer(std::shared_ptr<Room> room) {
      if (answered.exchange(true) || !alive->load()) return;
      registry->loaded(id, std::move(room));
    }
    ~Once() {
      if (answered.load() || !alive->load()) return;
      spdlog::error("room {}: its load ended without an answer (an error on the way); answered as unavailable", id);
      registry->note_miss(id, Miss::Unavailable);
      answer(nullptr);
    }
  };
  auto once = std::make_shared<Once>(this, alive_, id);
  return [once](std::shared_ptr<Room> room) { once->answer(std::move(room)); };
}

void RoomRegistry::loaded(const std::string& id, std::shared_ptr<Room> room) {
  std::vector<RoomCallback> waiters;
  {
    std::lock_guard lock(mu_);
    const auto it = loading_.find(id);
    if (room) {
      room = rooms_.try_emplace(id, std::move(room)).first->second;
      absent_.forget(id);
    } else if (it == loading_.end() || !it->second.explained) {
      // Not there (the loader noted nothing else: not elsewhere, not unreachable); an older
      // note (busy, moving) no longer says why.
      absent_.remember(id, steady_ms());
      misses_.erase(id);
    }
    if (it != loading_.end()) {
      waiters = std::move(it->second.waiters);
      loading_.erase(it);
    }
  }
  for (auto& done : waiters) {
    try {
      done(room);
    } catch (const std::exception& e) {
      spdlog::error("room {}: a lookup's answer failed: {}", id, e.what());
    }
  }
}

void RoomRegistry::note_miss(const std::string& id, Miss why) {
  std::lock_guard lock(mu_);
  misses_[id] = {why, steady_ms() + 10'000};
  if (const auto it = loading_.find(id); it != loading_.end()) it->second.explained = true;
}

RoomRegistry::Miss RoomRegistry::miss(std::string_view id) const {
  std::lock_guard lock(mu_);
  const auto it = misses_.find(std::string(id));
  return it != misses_.end() && it->second.second > steady_ms() ? it->second.first : Miss::NotFound;
}

void RoomRegistry::evict(const std::string& id, std::function<void()> after) {
  std::shared_ptr<Room> room = find_loaded(id);
  if (!room) {
    if (after) after();
    return;
  }
  boost::asio::post(room->strand(), [this, room, after = std::move(after)] {
    room->evict();
    {
      std::lock_guard lock(mu_);
      const auto it = rooms_.find(room->id());
      if (it != rooms_.end() && it->second == room) rooms_.erase(it);
    }
    services_.metrics.rooms_moved.fetch_add(1, std::memory_order_relaxed);
    spdlog::info("room {}: left this node (its clients reconnect through the front)", room->id());
    if (after) after();
  });
}

void RoomRegistry::evict_all() {
  std::vector<std::string> ids;
  {
    std::lock_guard lock(mu_);
    for (const auto& [id, room] : rooms_) {
      if (room) ids.push_back(id);
    }
  }
  for (const auto& id : ids) evict(id);
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

std::int64_t RoomRegistry::ttl_ms(const Room& room) const {
  // A finished game leaves memory soon (it is stored, and comes back from storage when its
  // link, record or rematch is asked for); a game going on, or a lobby, waits for its players.
  if (room.phase() == protocol::RoomPhase::Finished) {
    // 0: retired as its last connection closes (finished_idle). What the sweep finds is one
    // loaded back from storage, for a link or a record: it waits a little for its client.
    if (limits_.finished_room_ttl_s == 0) return 5000;
    return std::int64_t{std::min(limits_.finished_room_ttl_s, limits_.room_ttl_s)} * 1000;
  }
  return std::int64_t{room.seated() > 0 ? limits_.room_ttl_s : limits_.empty_room_ttl_s} * 1000;
}

std::size_t RoomRegistry::expire(std::int64_t now_steady_ms) {
  // A first look from here (the counters are atomics) picks the candidates; the decision is
  // the room's own, on its strand, where attach also runs: an upgrade that found the room
  // a moment ago is either attached first (the room stays) or refused (it reconnects and
  // finds the room gone), never left in a room that storage no longer has.
  std::vector<std::shared_ptr<Room>> idle;
  {
    std::lock_guard lock(mu_);
    std::erase_if(misses_, [&](const auto& m) { return m.second.second <= steady_ms(); });
    for (const auto& [id, room] : rooms_) {
      const std::int64_t since = room ? room->idle_since_ms() : 0;
      if (room && room->connections() == 0 && since != 0 && now_steady_ms - since > ttl_ms(*room)) idle.push_back(room);
    }
  }
  for (auto& room : idle) {
    boost::asio::post(room->strand(), [this, room, now_steady_ms] { retire(room, now_steady_ms, ttl_ms(*room)); });
  }
  return idle.size();
}

void RoomRegistry::retire(const std::shared_ptr<Room>& room, std::int64_t now_steady_ms, std::int64_t ttl_ms) {
  if (!room->retire_if_idle(now_steady_ms, ttl_ms)) return;
  {
    std::lock_guard lock(mu_);
    const auto it = rooms_.find(room->id());
    if (it != rooms_.end() && it->second == room) rooms_.erase(it);
  }
  // A turn-based game stays stored: it is woken for its deadlines and loaded when opened.
  if (!room->keeps_stored()) services_.persistence.room_removed(room->id());
  services_.metrics.rooms_expired.fetch_add(1, std::memory_order_relaxed);
  spdlog::info("room {}: expired ({} without connections)", room->id(), protocol::phase_name(room->phase()));
}

}  // namespace carc::server
