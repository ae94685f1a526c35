// The one hook through which every accepted change of a room passes before it is broadcast
// (docs/durability.md). A room's game is a pure function of its seed, its seats and the ordered
// accepted actions, so these records are enough to rebuild it (Room::restore).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "carc/core/game.hpp"
#include "carc/protocol/messages.hpp"

namespace carc::server {

// A seat is taken at the end of the lobby's seat list (a human or a computer player).
struct SeatTaken {
  int seat;
  std::string name;
  std::string token_hash;  // sha256_hex of the token (never the token); empty for a computer player
  std::optional<protocol::BotLevel> bot;  // set for a computer player
  bool host = false;  // this seat becomes the host (the first human to sit; a rematch's old host)
  // The public key things are sealed to for the token's holder (seat_seal.hpp); empty for a
  // computer player and for seats stored before seats had one.
  std::string seal_key = {};
};
// A lobby seat is given up (leave), kicked by the host, or a computer player removed: the
// seats after it move up by one, and its token stops working.
struct SeatFreed {
  enum class Reason : std::uint8_t { Left, Kicked, BotRemoved };
  int seat;
  Reason reason;
};
// The room's clock (docs/protocol.md, settings): the whole new setting, nullopt = no clock / wait forever.
struct SettingsChanged {
  std::optional<int> turn_seconds;
  std::optional<int> away_seconds;
  ExpansionSet expansions = {};  // the game's expansions (docs/expansions.md)
  protocol::Pace pace = protocol::Pace::Live;
  int bank_seconds = protocol::kDefaultBankSeconds;
  int increment_seconds = protocol::kDefaultIncrementSeconds;
  // Hints on or off as the host set them; none: the default, which follows the
  // seats (on when exactly one human plays against computer players).
  std::optional<bool> hints = std::nullopt;
  OptionSet options = {};  // the game's rule options (docs/options.md)
};
// The room's webhook (docs/turn-based.md), set or removed by the host: a secret of the room.
struct WebhookChanged {
  std::optional<protocol::WebhookSetting> hook;
};
// A seat's Web Push subscription (docs/turn-based.md); an empty endpoint removes it.
struct PushChanged {
  int seat = 0;
  std::string endpoint;
  std::string p256dh;
  std::string auth;
};
struct GameStarted {
  int players;
  std::uint64_t seed;
  std::int64_t time_ms = 0;  // unix ms: the first turn's clock starts here
};
struct MovePlayed {
  int index;  // 0, 1, ... over the player's moves (automatic discards are not actions)
  Seat seat;
  Move move;
  bool automatic = false;    // made by a computer player for an absent human ("auto" in records)
  std::int64_t time_ms = 0;  // unix ms: the next turn's clock starts here
};
struct ChatPosted {
  std::int64_t id;
  std::optional<int> seat;
  std::string name;
  std::string text;
  std::int64_t time_ms;
};
// The finished room's rematch: the new room's id and, for each seat of the
// finished game, its player's new seat token sealed to the old seat (seat_seal.hpp); "=" when
// the player keeps their token (a seat stored before seats had a seal key, whose player was
// away when the rematch was made); empty for a computer player. No seats at all: a rematch
// made before tokens were sealed, whose tokens are derived (rematch_token).
struct RematchCreated {
  std::string room;
  std::vector<std::string> seats = {};
};
// A hint given: counted for `seat` in players[].hints, once in game move `turn`
// (the moves played when it was asked), so the counts survive a restart.
struct HintGiven {
  int seat = 0;
  int turn = 0;
};
// A seat bound to its player (docs/community.md#ratings): the public id of the first player
// key the seat was shown to (keys/player_id.hpp), never the key. The first binding wins; a
// finished game binds no more. Results and ratings name the seat's player by it.
struct PlayerBound {
  int seat = 0;
  std::string player;
};
// The room's games are never rated (docs/community.md#ratings): an unrated tournament's table
// (docs/tournaments.md) stores it before its start. Its seats bind no player, and its result
// rates nobody, whoever's keys the seats are shown to.
struct NeverRated {};
// The game ended before its last tile because its tournament settled the table
// (docs/tournaments.md#rounds): its round's deadline passed. `seat` was on move and loses on
// time (gone, below every seat still there; -1: none), every seat keeps its score so far, and
// no move is accepted after it. Stored like a move, so the log says why the game ended.
struct GameSettled {
  enum class Reason : std::uint8_t { RoundDeadline };
  Reason reason = Reason::RoundDeadline;
  int seat = -1;
  std::int64_t time_ms = 0;
};
using RoomAction = std::variant<SeatTaken, SeatFreed, SettingsChanged, GameStarted, MovePlayed, ChatPosted,
                                RematchCreated, WebhookChanged, PushChanged, HintGiven, PlayerBound, NeverRated,
                                GameSettled>;

// What storage gives back to rebuild a room: its accepted actions in order (Room::restore
// replays them), and the highest versions stored with them or bumped since.
struct RestoredRoom {
  std::vector<RoomAction> actions;
  std::int64_t version = 1;       // the next change gets at least version + 1
  std::int64_t game_version = 1;  // version of the last change of the game itself
};

// Every call returns at once: nothing here may block a room's strand or an I/O thread
// (over a network a blocked thread would stall every connection it serves). Answers come
// through `done(ok)`, from any thread; the caller posts back where it needs to be.
class Persistence {
 public:
  using Done = std::function<void(bool)>;
  virtual ~Persistence() = default;
  // A new empty room, stored before `done(true)`; `done(false)` if it cannot be (the
  // creation is refused as unavailable).
  virtual void room_created(std::string_view room, std::int64_t created_ms, Done done) = 0;
  // Several nodes: stored without an owner, for whichever node is asked for it first.
  virtual void room_created_unowned(std::string_view room, std::int64_t created_ms, Done done) {
    room_created(room, created_ms, std::move(done));
  }
  // `version` is the state version the change produces; `game_version` the version of the
  // last game change including this one (both continue after a restore). `done(true)` once
  // the action is durable: a store may gather the actions of many rooms into one commit.
  // The room applies and broadcasts the change only then, and holds its later requests
  // meanwhile; on `done(false)` it refuses the request with `unavailable` and applies
  // nothing. Called on the room's strand.
  virtual void persist_async(std::string_view room, std::int64_t version, std::int64_t game_version,
                             const RoomAction& action, Done done) = 0;
  // Queued, not waited for.
  virtual void room_finished(std::string_view room, std::int64_t finished_ms) = 0;
  virtual void room_removed(std::string_view room) = 0;
  // Every new version, so versions continue after a restart (never go back); cheap,
  // not waited for on disk.
  virtual void version_changed(std::string_view room, std::int64_t version) { (void)room, (void)version; }
  // Blocks until every change handed over so far is stored and answered (shutdown).
  virtual void drain() {}
  // The server's I/O threads hand their writes over in bursts (every room that had a move
  // in one round of the event loop). With `defer` set, the store wakes its writer once a
  // burst instead of once a write: `defer(f)` must run `f` soon, after what the calling
  // thread has queued already (the server posts it to its io_context). Unset: at once.
  using Defer = std::function<void(std::function<void()>)>;
  virtual void defer_wakes(Defer defer) { (void)defer; }
};

// Keeps nothing: rooms live as long as the process.
class NullPersistence final : public Persistence {
 public:
  void room_created(std::string_view, std::int64_t, Done done) override { done(true); }
  void persist_async(std::string_view, std::int64_t, std::int64_t, const RoomAction&, Done done) override {
    done(true);
  }
  void room_finished(std::string_view, std::int64_t) override {}
  void room_removed(std::string_view) override {}
};

}  // namespace carc::server
