#include "sqlite_persistence.hpp"

#include <unistd.h>

#include <spdlog/spdlog.h>

#include "carc/protocol/record.hpp"
#include "carc/protocol/view.hpp"

namespace carc::server {

using nlohmann::json;

namespace {

template <class... F>
struct Overload : F... {
  using F::operator()...;
};

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
            return json{{"type", "seat"}, {"seat", s.seat}, {"name", s.name}, {"token_hash", s.token_hash}};
          },
          [](const GameStarted& g) { return json{{"type", "start"}, {"players", g.players}, {"seed", g.seed}}; },
          [](const MovePlayed& m) {
            return json{{"type", "move"}, {"index", m.index}, {"seat", m.seat}, {"move", protocol::move_json(m.move)}};
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
        const auto seat = j.at("seat").get<int>();
        if (seat != static_cast<int>(r.seats.size())) return where + "seat " + std::to_string(seat) + " out of order";
        r.seats.push_back({j.at("name").get<std::string>(), j.at("token_hash").get<std::string>()});
      } else if (type == "start") {
        if (r.seed) return where + "the game started twice";
        if (j.at("players").get<int>() != static_cast<int>(r.seats.size())) return where + "players do not match seats";
        r.seed = j.at("seed").get<std::uint64_t>();
      } else if (type == "move") {
        std::string why;
        auto move = parse_move(j.at("move"), &why);
        if (!move) return where + why;
        const int index = j.at("index").get<int>();
        if (index != static_cast<int>(r.moves.size())) return where + "move " + std::to_string(index) + " out of order";
        r.moves.push_back(MovePlayed{index, j.at("seat").get<int>(), *move});
      } else if (type == "chat") {
        const json& seat = j.at("seat");
        r.chat.push_back(ChatPosted{j.at("id").get<std::int64_t>(),
                                    seat.is_null() ? std::nullopt : std::optional<int>(seat.get<int>()),
                                    j.at("name").get<std::string>(), j.at("text").get<std::string>(),
                                    j.at("time").get<std::int64_t>()});
        if (r.chat.size() > 2 * protocol::kChatKept) r.chat.erase(r.chat.begin(), r.chat.end() - protocol::kChatKept);
      } else {
        return where + "unknown type \"" + type + "\"";
      }
      r.version = std::max(r.version, j.at("v").get<std::int64_t>());
      r.game_version = std::max(r.game_version, j.at("gv").get<std::int64_t>());
    } catch (const json::exception& e) {
      return where + e.what();
    }
  }
  if (r.chat.size() > protocol::kChatKept) r.chat.erase(r.chat.begin(), r.chat.end() - protocol::kChatKept);
  return r;
}

// ---------------------------------------------------------------------------------------
SqlitePersistence::SqlitePersistence(Storage& storage, int crash_after_moves)
    : storage_(storage), crash_after_moves_(crash_after_moves) {}

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
  const auto* seat = std::get_if<SeatTaken>(&action);
  StoredSeat stored_seat;
  if (seat != nullptr) stored_seat = StoredSeat{seat->seat, seat->name, seat->token_hash};
  if (!storage_.append_action(std::string(room), encode_action(version, game_version, action), version,
                              phase_of(action), seat != nullptr ? &stored_seat : nullptr)) {
    spdlog::error("storage: {} (the change is refused as unavailable)", storage_.last_error());
    return false;
  }
  if (crash_after_moves_ > 0 && std::holds_alternative<MovePlayed>(action) && ++moves_ >= crash_after_moves_) {
    spdlog::warn("CARC_CRASH_AFTER_PERSIST: exiting after a durable write, before its broadcast");
    spdlog::default_logger()->flush();
    ::_exit(86);
  }
  return true;
}

void SqlitePersistence::room_finished(std::string_view room, std::int64_t) {
  if (!storage_.set_phase(std::string(room), "finished")) spdlog::error("storage: {}", storage_.last_error());
}

void SqlitePersistence::room_removed(std::string_view room) {
  if (!storage_.remove_room(std::string(room))) spdlog::error("storage: {}", storage_.last_error());
}

void SqlitePersistence::version_changed(std::string_view room, std::int64_t version) {
  if (!storage_.set_version(std::string(room), version)) spdlog::warn("storage: {}", storage_.last_error());
}

}  // namespace carc::server
