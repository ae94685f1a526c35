// Game records (`carcassonne-record/1`, docs/record-format.md): parsing, writing and replaying.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "carc/core/game.hpp"

namespace carc::protocol {

struct Record {
  int players = 0;
  ExpansionSet expansions;
  OptionSet options;  // the rule options (docs/options.md)
  std::vector<Move> moves;
  bool final = true;
};

struct RecordError {
  std::string message;
  std::optional<int> move;  // index of the offending move, if any
};

// Parses a record's JSON. Never throws; shape errors name the move index when there is one.
std::variant<Record, RecordError> parse_record(const nlohmann::json& j);
// `expansions` and `options` are written only when not empty, so a base game's record is as it
// always was.
nlohmann::json record_json(int players, const std::vector<Move>& moves, bool final, ExpansionSet expansions = {},
                           OptionSet options = {});

// The `expansions` of a record or a request: absent or null or [] is the base game; an
// unknown, repeated or unimplemented id is an error with a message (docs/expansions.md).
std::variant<ExpansionSet, std::string> parse_expansions(const nlohmann::json* value);
nlohmann::json expansions_json(ExpansionSet set);  // their names (expansion_name), in id order
// The same for a room (POST /api/rooms, lobby settings): every expansion a record may
// name is offered in rooms too (kept apart so that a room can lag behind records again).
std::variant<ExpansionSet, std::string> parse_room_expansions(const nlohmann::json* value);
// The `options` of a record or a request, alike (docs/options.md): absent, null or [] is none;
// an unknown or repeated id is an error with a message.
std::variant<OptionSet, std::string> parse_options(const nlohmann::json* value);
nlohmann::json options_json(OptionSet set);  // their ids, in list order; [] for none

// Replays a record and returns the result object of docs/record-format.md (scores_after_move,
// final_scores, meeples_in_supply, winners, plus a "breakdown" and "events"), or the error
// with the index of the refused move.
std::variant<nlohmann::json, RecordError> replay(const Record& r);

// The result object's end-of-game breakdown, built from the events of a whole game:
// [{"seat","game":{"road","city","monastery"},"end":{"road","city","monastery","field"},"total"}];
// with an expansion, the kinds and rows its part adds (protocol/src/expansions/); without
// "field" when no figure of the game may stand on a field (docs/options.md: no_fields).
nlohmann::json breakdown_json(int players, const std::vector<Event>& events, ExpansionSet expansions = {},
                              OptionSet options = {});
// Whether some figure of this ruleset may stand on a field (the breakdown's fields row).
bool fields_played(const Ruleset& rules);

// Convert a move from the core to its record entry and back. parse_move never throws: a
// shape error gives nullopt with `*why` set. (The compact stored form: move_codec.hpp.)
// The keys an expansion adds are read and written by its part (protocol/src/expansions/):
// parse_move with the game's expansions, and the steps the entry lists (Move::step) after
// it; move_json with the steps that followed the placement.
nlohmann::json move_json(const Move& m);
nlohmann::json move_json(const Move& m, std::span<const Cell> steps);
std::optional<Move> parse_move(const nlohmann::json& entry, std::string* why);
std::optional<Move> parse_move(const nlohmann::json& entry, std::string* why, ExpansionSet expansions,
                               std::vector<Cell>* steps);

}  // namespace carc::protocol
