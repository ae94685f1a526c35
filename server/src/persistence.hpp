// The one hook through which every accepted change of a room passes before it is broadcast
// (issue 4). A room's game is a pure function of its seed, its seats and the ordered
// accepted actions, so these records are enough to rebuild it (Room::restore).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "carc/core/game.hpp"

namespace carc::server {

struct SeatTaken {
  int seat;
  std::string name;
  std::string token_hash;  // sha256_hex of the token: the token itself is never stored
};
struct GameStarted {
  int players;
  std::uint64_t seed;
};
struct MovePlayed {
  int index;  // 0, 1, ... over the player's moves (automatic discards are not actions)
  Seat seat;
  Move move;
};
struct ChatPosted {
  std::int64_t id;
  std::optional<int> seat;
  std::string name;
  std::string text;
  std::int64_t time_ms;
};
using RoomAction = std::variant<SeatTaken, GameStarted, MovePlayed, ChatPosted>;

class Persistence {
 public:
  virtual ~Persistence() = default;
  // Each returns false when the change cannot be stored now: the room then refuses the
  // request with `unavailable` and applies nothing. Called on the room's strand.
  virtual bool room_created(std::string_view room, std::int64_t created_ms) = 0;
  // `version` is the state version the change produces; `game_version` the version of the
  // last game change including this one (both continue after a restore).
  virtual bool persist(std::string_view room, std::int64_t version, std::int64_t game_version,
                       const RoomAction& action) = 0;
  // The same, answered through `done(ok)` once the action is durable, from any thread: a
  // store may gather the actions of many rooms into one commit. The room applies and
  // broadcasts the change only then, and holds its later requests meanwhile.
  virtual void persist_async(std::string_view room, std::int64_t version, std::int64_t game_version,
                             const RoomAction& action, std::function<void(bool)> done) {
    done(persist(room, version, game_version, action));
  }
  virtual void room_finished(std::string_view room, std::int64_t finished_ms) = 0;
  virtual void room_removed(std::string_view room) = 0;
  // Every new version, so versions continue after a restart (never go back); cheap,
  // not waited for on disk.
  virtual void version_changed(std::string_view room, std::int64_t version) { (void)room, (void)version; }
  // Blocks until every change handed over so far is stored and answered (shutdown).
  virtual void drain() {}
};

// Keeps nothing: rooms live as long as the process.
class NullPersistence final : public Persistence {
 public:
  bool room_created(std::string_view, std::int64_t) override { return true; }
  bool persist(std::string_view, std::int64_t, std::int64_t, const RoomAction&) override { return true; }
  void room_finished(std::string_view, std::int64_t) override {}
  void room_removed(std::string_view) override {}
};

}  // namespace carc::server
