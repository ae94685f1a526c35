// The River (docs/expansions/river.md): what it names of the engine's generic concepts. A river
// side is the exclusive side terrain (it matches only a river side, and no land tile may touch
// one); the river along it is the unscored feature kind. Both are named "river".
#pragma once

#include "carc/core/tiles.hpp"

namespace carc::river {

inline constexpr Terrain kRiverSide = Terrain::Exclusive;
inline constexpr Kind kRiverKind = Kind::Unscored;

}  // namespace carc::river
