#include "sqlite_persistence.hpp"

#include <unistd.h>

#include <algorithm>
#include <optional>

#include <spdlog/spdlog.h>

#include "carc/protocol/record.hpp"
#include "carc/protocol/room_state.hpp"

namespace carc::server {

using nlohmann::json;

namespace {

template <class... F>
struct Overload : F... {
  using F::operator()...;
};
template <class... F>
Overload(F...) -> Overload<F...>;  // clang before 17 deduces no aggregate (the fuzz build)

std::string phase_of(const RoomAction& a) { return std::holds_alternative<GameStarted>(a) ? "playing" : ""; }

// A move entry through the record parser, so stored moves read exactly like records.
std::optional<Move> parse_move(const json& entry, std::string* why) {
  auto parsed = protocol::parse_record(json{{"players", kMaxPlayers}, {"moves", json::array({entry})}});
  if (const auto* err = std::get_if<protocol::RecordError>(&parsed)) {
    *why = err->message;
    return std::nullopt;
  }
  return std::get<protocol::Record>(parsed).moves.at(0);
}

}  // namespace

std::string encode_action(std::int64_t version, std::int64_t game_version, const RoomAction& action) {
  json j = std::visit(
      Overload{
          [](const SeatTaken& s) {
            json out{{"type", "seat"}, {"seat", s.seat}, {"name", s.name}, {"token_hash", s.token_hash}};
            if (s.bot) out["bot"] = protocol::bot_level_name(*s.bot);
            if (s.host) out["host"] = true;
            return out;
          },
          [](const SeatFreed& f) {
            return json{{"type", "freed"}, {"seat", f.seat}, {"reason", static_cast<int>(f.reason)}};
          },
          [](const SettingsChanged& c) {
            return json{{"type", "settings"},
                        {"turn_seconds", c.turn_seconds ? json(*c.turn_seconds) : json(nullptr)},
                        {"away_seconds", c.away_seconds ? json(*c.away_seconds) : json(nullptr)}};
          },
          [](const RematchCreated& r) { return json{{"type", "rematch"}, {"room", r.room}}; },
          [](const GameStarted& g) {
            return json{{"type", "start"}, {"players", g.players}, {"seed", g.seed}, {"time", g.time_ms}};
          },
          [](const MovePlayed& m) {
            json out{{"type", "move"}, {"index", m.index}, {"seat", m.seat}, {"move", protocol::move_json(m.move)},
                     {"time", m.time_ms}};
            if (m.automatic) out["auto"] = true;
            return out;
          },
          [](const ChatPosted& c) {
            return json{{"type", "chat"},
                        {"id", c.id},
                        {"seat", c.seat ? json(*c.seat) : json(nullptr)},
                        {"name", c.name},
                        {"text", c.text},
                        {"time", c.time_ms}};
          },
      },
      action);
  j["v"] = version;
  j["gv"] = game_version;
  return j.dump();
}

std::variant<RestoredRoom, std::string> decode_room(const StoredRoom& stored) {
  RestoredRoom r;
  r.version = std::max<std::int64_t>(stored.version, 1);
  for (const StoredAction& a : stored.actions) {
    const std::string where = "action " + std::to_string(a.seq) + ": ";
    json j = json::parse(a.payload, nullptr, false);
    if (!j.is_object() || !j.contains("type") || !j["type"].is_string()) return where + "not a stored action";
    try {
      const std::string type = j["type"].get<std::string>();
      if (type == "seat") {
        std::optional<protocol::BotLevel> bot;
        if (j.contains("bot")) {
          bot = protocol::bot_level_from_name(j.at("bot").get<std::string>());
          if (!bot) return where + "unknown bot level";
        }
        r.actions.push_back(SeatTaken{j.at("seat").get<int>(), j.at("name").get<std::string>(),
                                      j.at("token_hash").get<std::string>(), bot, j.value("host", false)});
      } else if (type == "start") {
        r.actions.push_back(GameStarted{j.at("players").get<int>(), j.at("seed").get<std::uint64_t>(),
                                        j.value("time", std::int64_t{0})});
      } else if (type == "move") {
        std::string why;
        auto move = parse_move(j.at("move"), &why);
        if (!move) return where + why;
        r.actions.push_back(MovePlayed{j.at("index").get<int>(), j.at("seat").get<int>(), *move,
                                       j.value("auto", false), j.value("time", std::int64_t{0})});
      } else if (type == "chat") {
        const json& seat = j.at("seat");
        r.actions.push_back(ChatPosted{j.at("id").get<std::int64_t>(),
                                       seat.is_null() ? std::nullopt : std::optional<int>(seat.get<int>()),
                                       j.at("name").get<std::string>(), j.at("text").get<std::string>(),
                                       j.at("time").get<std::int64_t>()});
      } else if (type == "freed") {
        const int reason = j.at("reason").get<int>();
        if (reason < 0 || reason > 2) return where + "unknown reason";
        r.actions.push_back(SeatFreed{j.at("seat").get<int>(), static_cast<SeatFreed::Reason>(reason)});
      } else if (type == "settings") {
        const auto opt = [&](const char* k) {
          return j.at(k).is_null() ? std::optional<int>() : std::optional<int>(j.at(k).get<int>());
        };
        r.actions.push_back(SettingsChanged{opt("turn_seconds"), opt("away_seconds")});
      } else if (type == "rematch") {
        r.actions.push_back(RematchCreated{j.at("room").get<std::string>()});
      } else {
        return where + "unknown type \"" + type + "\"";
      }
      r.version = std::max(r.version, j.at("v").get<std::int64_t>());
      r.game_version = std::max(r.game_version, j.at("gv").get<std::int64_t>());
    } catch (const json::exception& e) {
      return where + e.what();
    }
  }
  return r;
}

// ---------------------------------------------------------------------------------------
SqlitePersistence::SqlitePersistence(Storage& storage, int crash_after_moves)
    : storage_(storage), crash_after_moves_(crash_after_moves), writer_([this] { writer_loop(); }) {}

SqlitePersistence::~SqlitePersistence() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  wake_.notify_all();
  writer_.join();  // the writer empties its queue first
}

bool SqlitePersistence::room_created(std::string_view room, std::int64_t created_ms) {
  StoredRoom r;
  r.id = std::string(room);
  r.phase = "lobby";
  r.settings = "{}";
  r.version = 1;
  r.created_ms = created_ms;
  if (storage_.create_room(r)) return true;
  spdlog::error("storage: {}", storage_.last_error());
  return false;
}

bool SqlitePersistence::persist(std::string_view room, std::int64_t version, std::int64_t game_version,
                                const RoomAction& action) {
  std::mutex m;
  std::condition_variable cv;
  std::optional<bool> result;
  persist_async(room, version, game_version, action, [&](bool ok) {
    std::lock_guard lock(m);
    result = ok;
    cv.notify_one();
  });
  std::unique_lock lock(m);
  cv.wait(lock, [&] { return result.has_value(); });
  return *result;
}

void SqlitePersistence::persist_async(std::string_view room, std::int64_t version, std::int64_t game_version,
                                      const RoomAction& action, std::function<void(bool)> done) {
  Pending p;
  p.append.room = std::string(room);
  p.append.payload = encode_action(version, game_version, action);
  p.append.version = version;
  p.append.phase = phase_of(action);
  if (const auto* seat = std::get_if<SeatTaken>(&action)) p.append.seat = StoredSeat{seat->seat, seat->name, seat->token_hash};
  p.move = std::holds_alternative<MovePlayed>(action);
  p.done = std::move(done);
  enqueue(std::move(p));
}

void SqlitePersistence::enqueue(Pending p) {
  {
    std::lock_guard lock(mu_);
    if (!stopping_) {
      queue_.push_back(std::move(p));
      ++queued_;
      wake_.notify_one();
      return;
    }
  }
  // After shutdown began (nothing should still come): written here, on the caller's thread.
  std::vector<Pending> one;
  one.push_back(std::move(p));
  std::vector<std::pair<std::string, std::int64_t>> none;
  write(one, none);
}

void SqlitePersistence::version_changed(std::string_view room, std::int64_t version) {
  std::lock_guard lock(mu_);
  if (stopping_) {
    if (!storage_.set_version(std::string(room), version)) spdlog::warn("storage: {}", storage_.last_error());
    return;
  }
  auto [it, added] = versions_.try_emplace(std::string(room), version);
  if (!added) it->second = std::max(it->second, version);
  ++queued_;
  wake_.notify_one();
}

void SqlitePersistence::drain() {
  std::unique_lock lock(mu_);
  const std::uint64_t target = queued_;
  written_.wait(lock, [&] { return done_ >= target || (stopping_ && writer_done_); });
}

SqlitePersistence::Stats SqlitePersistence::stats() const {
  std::lock_guard lock(mu_);
  return stats_;
}

void SqlitePersistence::writer_loop() {
  std::unique_lock lock(mu_);
  for (;;) {
    wake_.wait(lock, [&] { return stopping_ || !queue_.empty() || !versions_.empty(); });
    if (queue_.empty() && versions_.empty()) break;  // stopping, and nothing left
    std::vector<Pending> batch;
    batch.swap(queue_);
    std::vector<std::pair<std::string, std::int64_t>> versions(versions_.begin(), versions_.end());
    versions_.clear();
    const std::uint64_t taken = queued_;
    lock.unlock();
    write(batch, versions);
    lock.lock();
    if (!batch.empty()) {
      ++stats_.batches;
      stats_.actions += batch.size();
      stats_.largest = std::max<std::uint64_t>(stats_.largest, batch.size());
    }
    done_ = taken;
    written_.notify_all();
  }
  writer_done_ = true;
  written_.notify_all();
}

void SqlitePersistence::answer(Pending& p, bool ok) {
  if (ok && p.move && crash_after_moves_ > 0 && ++moves_ >= crash_after_moves_) {
    spdlog::warn("CARC_CRASH_AFTER_PERSIST: exiting after a durable write, before its broadcast");
    spdlog::default_logger()->flush();
    ::_exit(86);
  }
  try {
    p.done(ok);
  } catch (const std::exception& e) {
    spdlog::error("storage: a persist callback threw: {}", e.what());
  }
}

// On the writer thread (or the caller's after shutdown began): never under mu_.
void SqlitePersistence::write(std::vector<Pending>& batch,
                              std::vector<std::pair<std::string, std::int64_t>>& versions) {
  std::vector<ActionAppend> appends;
  appends.reserve(batch.size());
  for (Pending& p : batch) appends.push_back(std::move(p.append));
  if (storage_.commit_batch(appends, versions)) {
    for (Pending& p : batch) answer(p, true);
    return;
  }
  const std::string why = storage_.last_error();
  if (appends.size() <= 1) {
    // Nothing to tell apart: the one action (if any) cannot be stored.
    if (appends.empty()) {
      spdlog::warn("storage: {}", why);
    } else {
      spdlog::error("storage: {} (the change is refused as unavailable)", why);
    }
    for (Pending& p : batch) answer(p, false);
    return;
  }
  // One bad action must not make the others unavailable: each in its own transaction.
  spdlog::warn("storage: {}; retrying its {} action(s) one by one", why, appends.size());
  {
    std::lock_guard lock(mu_);
    ++stats_.fallbacks;
  }
  std::vector<std::string> failed_rooms;  // later actions of a room that failed fail too (order)
  for (std::size_t i = 0; i < batch.size(); ++i) {
    const ActionAppend& a = appends[i];
    bool ok = std::find(failed_rooms.begin(), failed_rooms.end(), a.room) == failed_rooms.end();
    if (ok) ok = storage_.append_action(a.room, a.payload, a.version, a.phase, a.seat ? &*a.seat : nullptr);
    if (!ok) {
      spdlog::error("storage: {} (the change is refused as unavailable)",
                    std::find(failed_rooms.begin(), failed_rooms.end(), a.room) == failed_rooms.end()
                        ? storage_.last_error()
                        : "append_action " + a.room + ": an earlier action of the room failed");
      failed_rooms.push_back(a.room);
    }
    answer(batch[i], ok);
  }
  if (!versions.empty() && !storage_.commit_batch({}, versions)) spdlog::warn("storage: {}", storage_.last_error());
}

void SqlitePersistence::room_finished(std::string_view room, std::int64_t) {
  if (!storage_.set_phase(std::string(room), "finished")) spdlog::error("storage: {}", storage_.last_error());
}

void SqlitePersistence::room_removed(std::string_view room) {
  if (!storage_.remove_room(std::string(room))) spdlog::error("storage: {}", storage_.last_error());
}

}  // namespace carc::server
