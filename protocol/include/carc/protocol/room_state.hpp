// The public state of a room (docs/protocol.md, docs/protocol-details.md) as JSON text: the
// whole document for a welcome or a resync, and the RFC 6902 operations that one change
// makes to it (StatePatcher). Both are written from the same facts by the same functions,
// and neither builds a JSON tree. Secrets never get here: the facts hold public values
// only (the game is read through its public queries: no seed, no bag order).
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "carc/core/game.hpp"
#include "carc/protocol/event_history.hpp"
#include "carc/protocol/messages.hpp"

namespace carc::protocol {

enum class RoomPhase : std::uint8_t { Lobby, Playing, Finished };
std::string_view phase_name(RoomPhase p);  // "lobby", "playing", "finished"
std::string_view seat_color(int seat);      // "red", "blue", "green", "yellow", "black", "pink"

struct SeatFacts {
  std::string_view name;
  bool connected = false;
  std::optional<BotLevel> bot;  // a computer player
  bool away = false;            // a computer player makes this human's turns
  std::optional<std::int64_t> bank_ms;  // turn-based: the bank left at the start of the turn
  int hints = 0;                        // hints this seat was given this game
};

// The room's clock: live clocks, or a turn-based bank (docs/turn-based.md).
struct ClockSettings {
  std::optional<int> turn_seconds;                       // none: no clock
  std::optional<int> away_seconds = kDefaultAwaySeconds;  // none: wait forever
  ExpansionSet expansions = {};                           // the room's expansions (docs/expansions.md)
  Pace pace = Pace::Live;
  int bank_seconds = kDefaultBankSeconds;
  int increment_seconds = kDefaultIncrementSeconds;
  bool webhook = false;  // whether the host set one (its URL is never public)
  bool hints = false;    // whether players may ask for a hint (the room's choice or its default)
  OptionSet options = {};  // the room's rule options (docs/options.md)
  bool turn_based() const { return pace == Pace::TurnBased; }
  // The rules of the room's expansions and options.
  const Ruleset& rules() const { return ruleset(expansions, options); }
  bool operator==(const ClockSettings&) const = default;
};

struct ChatLine {
  std::int64_t id = 0;
  std::optional<int> seat;
  std::string name;
  std::string text;
  std::int64_t time_ms = 0;
};
inline constexpr std::size_t kChatKept = 100;

// Everything public about a room, as of one version.
struct RoomFacts {
  std::string_view room;
  RoomPhase phase = RoomPhase::Lobby;
  std::span<const SeatFacts> seats;
  int host = -1;  // the host's seat, -1 if none
  int spectators = 0;
  ClockSettings settings;
  std::optional<std::int64_t> deadline_ms;  // the current turn's clock, unix ms
  std::string_view rematch;                 // the rematch room's id, empty if none
  const Game* game = nullptr;               // null in the lobby
  // turn.number: counts turns, so both parts of a turn with an extra part share one
  // (docs/expansions.md); 0: moves_played() + 1 (the same without extra parts).
  int turn_number = 0;
  std::string_view result;                  // the result object's JSON text, empty until finished
  // players[].projected: what the end scoring would add now (projection.hpp), per seat.
  std::array<int, kMaxPlayers> projected{};
};

// The whole state, as one JSON object.
void write_state(std::string& out, const RoomFacts& f, const EventHistory& events,
                 const std::deque<ChatLine>& chat);

// Its parts.
void write_player(std::string& out, const RoomFacts& f, int seat);
void write_turn(std::string& out, const RoomFacts& f);  // null outside a running game
void write_legal(std::string& out, const Game& g);      // turn.legal
void write_board_tile(std::string& out, const BoardTile& t);
// In rooms whose expansions list every figure of a tile (docs/protocol.md): the entry with
// `"meeples":[...]` (`figures`: that list's text) instead of `"meeple"`.
void write_board_tile_list(std::string& out, const BoardTile& t, std::string_view figures);
// The `meeples` list of placed tile `index` ("[]" without a game).
std::string board_figures(const Game* g, int index);
// The expansions' top-level keys of the public state, each `"key"` with its value's text.
std::vector<std::pair<std::string, std::string>> expansion_state_keys(const RoomFacts& f);
void write_chat_line(std::string& out, const ChatLine& c);
void write_settings(std::string& out, const ClockSettings& s);
// The result object of a finished game: final scores, winners, the breakdown by kind.
std::string result_text(const Game& g, const EventHistory& events);
// A game its tournament ended before its last tile (docs/tournaments.md#rounds): why, the
// seat that was on move and lost on time (-1: none), and every seat ranked below the seats
// still there (that one, and those whose last turn a computer player made).
struct Settlement {
  std::string_view reason = "round_deadline";
  int seat = -1;
  std::vector<int> gone;
};
// Its result: the scores so far (no end-of-game scoring), the winners among the seats not
// gone (all seats when every one is), the breakdown, and `"settled"` (docs/protocol.md).
std::string result_text(const Game& g, const EventHistory& events, const Settlement& settled);

// Turns what one change touched into RFC 6902 operations against the state as last
// published. It mirrors the few scalar values of the state (seats, scores, supplies, held
// tiles, bag counts, phase, turn...) so that `sync` emits a `replace` for each one that
// changed; arrays that only grow (board, events, chat) get their `add`s from the change
// itself. One change = begin(), the calls that apply, sync(), frame().
class StatePatcher {
 public:
  // Mirrors `f` as the published state (a new room, a restored one).
  void reset(const RoomFacts& f, int board_size, int chat_size);

  void begin(std::int64_t version);
  void board_added(const TilePlaced& p, int seat);  // the tile placed by `p` (appended)
  void meeple_returned(int tile_index);
  // The public events of `events` (appended to `history`) and the board changes they make.
  void game_events(EventHistory& history, const std::vector<Event>& events);
  void events_started(EventHistory& history);
  void chat_added(const ChatLine& c, bool dropped_first);
  // Every changed scalar (and the whole turn when the game moved).
  void sync(const RoomFacts& f);
  bool empty() const { return first_; }
  std::size_t memory_bytes() const;
  // The patch frame: {"type":"patch","version":N,"ops":[...]}.
  std::string take_frame();

 private:
  struct SeatMirror {
    std::string name;
    std::optional<BotLevel> bot;
    bool connected = false, away = false, host = false;
    std::optional<std::int64_t> bank_ms;
    int score = 0, projected = 0, meeples = kMeeplesPerPlayer, hints = 0;
    std::optional<Tile> tile;
    std::array<int, kFigureKinds> figures{};
    std::array<int, kMaxTokenKinds> tokens{};
  };
  // `{"op":"<kind>","path":"<path>` (the caller may add to the path), then `","value":`.
  std::string& op(std::string_view kind, std::string_view path);
  std::string& value();
  std::string& replace(std::string_view path);
  void players(const RoomFacts& f);
  static SeatMirror seat_of(const RoomFacts& f, int seat);
  static std::optional<std::array<int, 4>> turn_key(const RoomFacts& f);
  void expansion_keys(const RoomFacts& f);
  void board_figures_changed(const RoomFacts& f);
  void keep_bag(const std::array<int, kTileKinds>& bag);

  std::string frame_;
  bool first_ = true;
  std::vector<SeatMirror> seats_;
  RoomPhase phase_ = RoomPhase::Lobby;
  int spectators_ = 0;
  ClockSettings settings_;
  std::string rematch_;
  bool result_ = false;
  int bag_left_ = 0;
  std::array<std::uint8_t, kTileKinds> bag_{};  // a count a kind: a few copies at most
  std::optional<std::array<int, 4>> turn_;  // number, seat, tile, step inside the turn
  std::vector<std::pair<std::string, std::string>> keys_;  // the expansions' top-level keys
  bool lists_ = false;                   // board entries list every figure (`meeples`)
  std::vector<std::string> figures_;     // each board entry's `meeples` text (lists_)
  std::optional<std::int64_t> deadline_;
  int board_size_ = 1;
  int chat_size_ = 0;
};

}  // namespace carc::protocol
