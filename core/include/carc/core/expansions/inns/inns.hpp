// Inns & Cathedrals (docs/expansions/inns-cathedrals.md): its figure, the big meeple, and the
// marks its tiles print on segments (Segment::marks bits 0-1): an inn on a road, a cathedral in
// a city.
#pragma once

#include <cstdint>

#include "carc/core/tiles.hpp"

namespace carc::inns {

inline constexpr Figure kBig = static_cast<Figure>(2);  // in moves and records: never renumber
inline constexpr std::uint8_t kMarkInn = 1;
inline constexpr std::uint8_t kMarkCathedral = 2;

}  // namespace carc::inns
