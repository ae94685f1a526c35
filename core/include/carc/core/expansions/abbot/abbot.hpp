// The Abbot (docs/expansions/abbot.md): its figure, and the garden, the engine's second
// cloister-like feature kind (scored like a monastery, by the 8 cells around it).
#pragma once

#include "carc/core/tiles.hpp"

namespace carc::abbot {

inline constexpr Figure kAbbot = static_cast<Figure>(1);  // in moves and records: never renumber
inline constexpr Kind kGarden = Kind::Cloister;

}  // namespace carc::abbot
