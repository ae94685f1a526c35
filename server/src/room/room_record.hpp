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

// A Move as the record keeps it: 18 bytes instead of a Move's 52 (docs/hot-path.md#memory).
// Cells fit 16 bits: the engine's board is 128 cells wide (core/include/carc/core/game.hpp).
struct RecordedMove {
  std::int16_t x = 0, y = 0;            // the placement's cell (a step's target)
  std::int16_t action_x = 0, action_y = 0;
  std::int16_t figure_x = 0, figure_y = 0;
  std::uint8_t tile = 0;
  std::uint8_t bits = 0;                // type (2), rotation (2), extra, has action, has figure cell
  std::uint8_t meeple = kNone;          // a Port, or kNone
  std::uint8_t figure = 0;
  std::uint8_t action_kind = 0;
  std::uint8_t action_port = kNone;     // a Port, or kNone
  static constexpr std::uint8_t kNone = 0xFF;

  static RecordedMove of(const Move& m);
  Move move() const;
};

class RoomRecord {
  std::vector<RecordedMove> moves_;
  std::vector<std::uint8_t> automatic_;  // 1 where moves_ was made for an absent human
  std::string result_;                   // the result object's text, once finished
  std::size_t expected_ = 0;             // the game's draws (reserve)

  void push(const Move& m);

 public:
  // A game of `draws` tiles (each one placement or discard): the record doubles up to that
  // size, then 16 entries at a time (steps), so that a finished game holds little more than
  // it needs.
  void reserve(std::size_t draws) { expected_ = draws; }
  // After a move: the engine's events (the move itself first, then automatic discards).
  void add(const std::vector<Event>& events, bool automatic);
  // A step inside a turn (Move::Type::Step): the record lists it in the placement's entry.
  void add_step(const Move& m) { push(m); }
  std::size_t size() const { return moves_.size(); }
  Move at(std::size_t i) const { return moves_[i].move(); }
  void finish(std::string result_text) { result_ = std::move(result_text); }
  const std::string& result() const { return result_; }
  std::string json(int players, bool finished, ExpansionSet expansions, OptionSet options = {}) const;
  std::size_t memory_bytes() const;
};

}  // namespace carc::server
