// What the load generator reads from a frame, without parsing the rest: the version, the
// new turn (seat and legal placements) and whether the game ended. Each frame is scanned
// once; nothing is built but the turn the room's players need.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

namespace carc::load {

struct Legal {
  int x = 0, y = 0, rotation = 0;
  std::array<std::array<char, 3>, 8> meeples{};  // port names, NUL-terminated
  int meeple_count = 0;
};

struct Turn {
  int seat = -1;
  std::vector<Legal> legal;
};

// The frame's "version", or -1.
std::int64_t frame_version(std::string_view frame);

enum class TurnChange { None, Ended, New };
// A patch that replaces "/turn": the new turn in `out` (New), or null (Ended).
TurnChange scan_turn(std::string_view frame, Turn& out);
// Parses a turn object ({"seat":..,"legal":[...]}, other keys skipped) at the start of `text`.
bool parse_turn(std::string_view text, Turn& out);

// A patch that sets "/phase" to `phase`.
bool sets_phase(std::string_view frame, std::string_view phase);

}  // namespace carc::load
