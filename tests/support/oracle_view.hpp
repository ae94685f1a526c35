// The test oracle for the public state: the state built as a JSON document, the way the
// server did before it wrote patches from what changed (nlohmann::json trees, json::diff).
// Slow and simple on purpose: the text writer and the patcher of room_state.hpp must
// agree with it on every document (docs/architecture.md).
#pragma once

#include <deque>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "carc/core/game.hpp"
#include "carc/protocol/room_state.hpp"

namespace carc::test {

using nlohmann::json;

// `turn.legal`: every legal placement of the current tile with its meeple ports.
json oracle_legal(const Game& g);

// The room's events, in order, with ids and turn numbers (append-only).
class OracleEvents {
 public:
  // Appends the public events among `events` (no draws, no meeple returns).
  void append(const std::vector<Event>& events);
  void append_started();
  const json& list() const { return list_; }
  // turn.number: both parts of a builder's turn (Traders & Builders) have the number of part 1.
  int turn_number(bool in_extra_part) const { return in_extra_part ? next_turn_ - 1 : next_turn_; }

 private:
  void add(json entry);
  json list_ = json::array();
  int next_turn_ = 1;
};

json oracle_chat_line(const protocol::ChatLine& c);

// The whole public state. `events` holds every event of the game so far (for the result's
// breakdown once it is finished).
json oracle_state(const protocol::RoomFacts& f, const OracleEvents& log, const std::deque<protocol::ChatLine>& chat,
                  const std::vector<Event>& all_events);

}  // namespace carc::test
