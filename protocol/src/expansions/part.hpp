// An expansion as a part of the protocol (docs/expansions.md): what the wire says of it
// that base code does not. A part fills in what it has and leaves the rest null; base
// code asks every part (registry.cpp), in expansion id order. Adding an expansion is a
// folder of its own here and one line in registry.cpp (as in core/src/expansions/).
//
//   events   its ExpansionEvents (game.hpp) as JSON (records, replays) and as event
//            history bytes, tag first_tag + kind (event_history.cpp);
//   flags    the keys it adds to base values: the action instead of a figure of a
//            placement (`action_key`), marks of a scored feature (`scored`, each one bit
//            of the history's flag byte), a tile segment's marks (`segment_json`);
//   tokens   the per-seat supply it keeps (Game::tokens): the players[] key for it and
//            each kind's name;
//   rows     its rows in the result's breakdown: what it takes of a scored feature and of
//            its events (EventHistory::Totals::rows[id]), and their keys.
//   play     the keys it adds to a `play` message, the message of a step inside a turn
//            (Game::in_stage) and the refusal codes of its actions and steps;
//   view     what it adds to the public state: top-level keys, `turn` keys, keys of each
//            `turn.legal[]` entry, and board entries listing every figure of a tile.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "carc/protocol/event_history.hpp"
#include "carc/protocol/json.hpp"
#include "history_bytes.hpp"

namespace carc::protocol::detail {

using Rows = EventHistory::Totals::Rows;

// A mark of a scored feature: `"<key>":true` when `holds`, bit `bit` of the history's flags.
struct ScoredFlag {
  std::uint8_t bit = 0;
  std::string_view key{};
  bool (*holds)(const FeatureScored& s) = nullptr;
};

// A row of the result's breakdown: its key, in "game" or "end", and whether a record's
// replay lists it too (a replay's kind rows keep the shares other rows split off).
struct RowKey {
  std::string_view key{};
  bool end = false;
  bool in_record = false;
};

struct ProtocolPart {
  Expansion id;
  // ---- events ----
  json (*event_json)(const ExpansionEvent& e) = nullptr;
  std::uint8_t first_tag = 0;  // the history tag of kind 0; kinds tags in all
  std::uint8_t kinds = 0;
  // Appends an event's bytes after its tag (`turn`: the turn being played).
  void (*encode)(history::Bytes& b, const ExpansionEvent& e, int turn) = nullptr;
  // Writes the fields of the entry of `kind` whose bytes start at `at` (after `{"id":N`,
  // up to and with its closing brace); returns the offset after it.
  std::size_t (*write)(std::string& out, std::uint8_t kind, const history::Bytes& b, std::size_t at) = nullptr;
  // ---- flags on base events ----
  std::string_view action_key{};  // a placement's action instead of a figure: `"<key>":{"x","y"}`
  std::array<ScoredFlag, 2> scored{};
  void (*segment_json)(const Segment& s, json& out) = nullptr;  // GET /api/tiles
  // ---- tokens ----
  std::string_view tokens_key{};                    // the players[] key of the supply
  std::string_view (*token_name)(int k) = nullptr;  // each kind's key in it
  // ---- rows ----
  std::uint8_t kinds_shown = 0;  // kinds of feature it adds to the kind rows (bit per Kind)
  std::array<RowKey, EventHistory::Totals::kRows> rows{};
  // A scored feature's points for winner `seat`: moves what belongs to its rows out of
  // `base` (what the kind's row gets); returns the row that took the whole, or -1.
  int (*count_scored)(const FeatureScored& s, std::size_t seat, int& base, Rows& rows) = nullptr;
  // What one of its events adds to its rows.
  void (*count_event)(const ExpansionEvent& e, Rows& rows) = nullptr;
  // ---- record keys ----
  // The keys it adds to a placement (a record entry): read into `m`, the steps made inside
  // the turn (Move::step) that the entry lists into `steps`; false with `why` when a value
  // is malformed. Asked only in games with this expansion.
  bool (*read_move)(const json& entry, Move& m, std::vector<Cell>* steps, std::string* why) = nullptr;
  // Writes them, with the steps that followed the placement.
  void (*write_move)(const Move& m, std::span<const Cell> steps, json& out) = nullptr;
  // Keys it adds to a replay's result, from the game before end-of-game scoring.
  void (*result_json)(const Game& g, json& out) = nullptr;
  // ---- play ----
  // Its events are kept in the room's history as their JSON (event_json) when it has no
  // `encode`; `merge` may fold an event into the entry before it (true: folded).
  json (*history_json)(const ExpansionEvent& e) = nullptr;  // the entry (else event_json)
  bool (*merge)(json& entry, const ExpansionEvent& next) = nullptr;
  std::string_view elsewhere_key{};           // a placed event's key for Move::figure_cell
  std::string_view step_type{};               // the message type of a step ("" none)
  std::string_view step_code{};               // the refusal of a step the rules forbid
  std::array<std::string_view, 3> target_codes{};  // the refusal of each action kind (0 unused)
  // ---- public state (room_state.cpp): keys it appends, each starting with a comma ----
  void (*state_keys)(const Game* g, const Ruleset& rules, std::string& out) = nullptr;  // the top level
  void (*turn_keys)(const Game& g, std::string& out) = nullptr;           // `turn`
  void (*legal_keys)(const Game& g, const LegalMove& m, std::string& out) = nullptr;  // a turn.legal[] entry
  // Keys it adds to a tile of GET /api/tiles (its features are written already).
  void (*tile_json)(const TileDef& d, json& tile) = nullptr;
};


// The part of an expansion, or null when the protocol has nothing of it.
const ProtocolPart* protocol_part(Expansion e);
// The part whose history tags hold `tag`, or null.
const ProtocolPart* protocol_part_of_tag(std::uint8_t tag);
// The key of a placement's action instead of a figure ("" when no part has one).
std::string_view action_key();
// Every part's marks of a scored feature, in expansion id order.
std::span<const ScoredFlag> scored_flags();
// A placed event's key for the figure's other tile ("" when no part has one).
std::string_view elsewhere_key();
// The message type of a step inside a turn, when a part has one ("" when none is `t`).
bool is_step_type(std::string_view t);
// The name of refusal slot `k` (ErrorCode::PartCode0 + k; "" when unused) and the slot of an action's or
// a step's refusal (-1: none).
std::string_view part_code_name(int k);
int target_code_slot(std::uint8_t kind);
int step_code_slot();
// Whether a game of `set` lists every figure of a board entry (figures may stand on other
// tiles than the one placed: Ruleset::elsewhere_part).
bool figure_lists(ExpansionSet set);

}  // namespace carc::protocol::detail
