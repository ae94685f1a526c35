// A game's record as it is played: every placement and discard in order (the engine's
// automatic discards too), which of them were made for an absent human, and the result
// once the game is over. GET /api/rooms/<id>/record serves it (docs/record-format.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "carc/core/game.hpp"

namespace carc::server {

class RoomRecord {
  std::vector<Move> moves_;
  std::vector<std::uint8_t> automatic_;  // 1 where moves_ was made for an absent human
  std::string result_;                   // the result object's text, once finished

 public:
  // Every drawn tile is one placement or discard: reserved once, not doubled on the way.
  void reserve();
  // After a move: the engine's events (the move itself first, then automatic discards).
  void add(const std::vector<Event>& events, bool automatic);
  // A step inside a turn (Move::Type::Step): the record lists it in the placement's entry.
  void add_step(const Move& m) { moves_.push_back(m); }
  void finish(std::string result_text) { result_ = std::move(result_text); }
  const std::string& result() const { return result_; }
  std::string json(int players, bool finished, ExpansionSet expansions, OptionSet options = {}) const;
  std::size_t memory_bytes() const;
};

}  // namespace carc::server
