// The River's tiles (docs/expansions/river.md, "Tiles"), assembled into the catalog by
// tiles.cpp. Segment 0 is the river on every river tile.
#pragma once

#include "carc/core/expansions/river/river.hpp"
#include "tile_data.hpp"

namespace carc::river::tiles {

using namespace carc::tile_data;
constexpr Expansion kSet = Expansion::River;
constexpr Terrain w = kRiverSide;
constexpr Segment river(std::initializer_list<Port> ps) { return Segment{kRiverKind, ports(ps), false, 0}; }

inline constexpr std::array<TileDef, 10> kTiles = {{
    def(kSet, T::RS, "RS", 1, {f, w, f, f}, river({P::E}), all_field()),
    def(kSet, T::RL, "RL", 1, {f, f, f, w}, river({P::W}), all_field()),
    def(kSet, T::R1, "R1", 2, {f, w, f, w}, river({P::E, P::W}), field({P::WR, P::NL, P::NR, P::EL}),
              field({P::ER, P::SL, P::SR, P::WL})),
    def(kSet, T::R2, "R2", 1, {c, w, c, w}, river({P::E, P::W}), city({P::N}), city({P::S}), field({P::EL, P::WR}, 0b010),
              field({P::ER, P::WL}, 0b100)),
    def(kSet, T::R3, "R3", 1, {c, w, r, w}, river({P::E, P::W}), city({P::N}), road({P::S}), field({P::EL}, 0b010),
              field({P::WR}, 0b010), field({P::ER, P::SL}), field({P::SR, P::WL})),
    def(kSet, T::R4, "R4", 1, {f, w, r, w}, river({P::E, P::W}), monastery(), road({P::S}),
              field({P::WR, P::NL, P::NR, P::EL}), field({P::ER, P::SL}), field({P::SR, P::WL})),
    def(kSet, T::R5, "R5", 1, {w, r, w, r}, river({P::N, P::S}), road({P::E, P::W}), field({P::WR, P::NL}),
              field({P::NR, P::EL}), field({P::ER, P::SL}), field({P::SR, P::WL})),
    def(kSet, T::R6, "R6", 2, {f, f, w, w}, river({P::S, P::W}), field({P::WR, P::NL, P::NR, P::EL, P::ER, P::SL}),
              field({P::SR, P::WL})),
    def(kSet, T::R7, "R7", 1, {c, w, w, c}, river({P::E, P::S}), city({P::N, P::W}), field({P::EL, P::SR}, 0b010),
              field({P::ER, P::SL})),
    def(kSet, T::R8, "R8", 1, {r, r, w, w}, river({P::S, P::W}), road({P::N, P::E}), field({P::WR, P::NL, P::ER, P::SL}),
              field({P::NR, P::EL}), field({P::SR, P::WL})),
}};

}  // namespace carc::river::tiles
