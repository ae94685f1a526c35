// An expansion as a part of the protocol (docs/expansions.md): what the wire says of it
// that base code does not. A part fills in what it has and leaves the rest null; base
// code asks every part of a game's set, in expansion id order. Adding an expansion is a
// folder beside traders/ and one line in registry.cpp (as in core/src/expansions/).
//
//   events   its ExpansionEvents (game.hpp) as JSON (records, replays) and as event
//            history bytes, tag first_tag + kind (event_history.cpp);
//   tokens   the per-seat supply it keeps (Game::tokens): the public state's key for it
//            and each kind's name;
//   totals   what its events add to the result's breakdown (EventHistory::Totals).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "carc/protocol/event_history.hpp"
#include "carc/protocol/json.hpp"
#include "history_bytes.hpp"

namespace carc::protocol::detail {

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
  // What an event adds to the result's breakdown.
  void (*count)(const ExpansionEvent& e, EventHistory::Totals& t) = nullptr;
  // ---- tokens ----
  std::string_view tokens_key;                      // the players[] key of the supply
  std::string_view (*token_name)(int k) = nullptr;  // each kind's key in it
};

// The part of an expansion, or null when the protocol has nothing of it.
const ProtocolPart* protocol_part(Expansion e);
// The part whose history tags hold `tag`, or null.
const ProtocolPart* protocol_part_of_tag(std::uint8_t tag);

const ProtocolPart& traders_protocol();  // traders/traders.cpp

}  // namespace carc::protocol::detail
