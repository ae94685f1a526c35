// The Abbot's tiles (docs/expansions/abbot.md): the garden copies of the 3rd-edition box, and
// the 2nd/3rd-edition prints' gardens of the other expansions' tiles. Each is one copy of a
// plain tile with a garden added at G, in place of a plain copy (ruleset.cpp); the catalog
// (tiles.cpp) copies the rest from the plain tile.
#pragma once

#include "carc/core/expansions/abbot/abbot.hpp"
#include "tile_data.hpp"

namespace carc::abbot::tiles {

using namespace carc::tile_data;
constexpr Segment garden() { return Segment{kGarden, bit(Port::G), false, 0}; }
constexpr TileDef garden_copy(Tile t, std::string_view name, Tile plain) {
  return copy_of(Expansion::Abbot, t, name, plain, garden());
}

inline constexpr std::array<TileDef, 15> kTiles = {{
    garden_copy(T::Eg, "Eg", T::E),
    garden_copy(T::Hg, "Hg", T::H),
    garden_copy(T::Ig, "Ig", T::I),
    garden_copy(T::Mg, "Mg", T::M),
    garden_copy(T::Ng, "Ng", T::N),
    garden_copy(T::Rg, "Rg", T::R),
    garden_copy(T::Ug, "Ug", T::U),
    garden_copy(T::Vg, "Vg", T::V),
    garden_copy(T::R6g, "R6g", T::R6),
    garden_copy(T::I3g, "I3g", T::I3),
    garden_copy(T::I15g, "I15g", T::I15),
    garden_copy(T::T8g, "T8g", T::T8),
    garden_copy(T::T11g, "T11g", T::T11),
    garden_copy(T::P7g, "P7g", T::P7),
    garden_copy(T::P28g, "P28g", T::P28),
}};

}  // namespace carc::abbot::tiles
