// The tiles of Inns & Cathedrals (docs/expansions/inns-cathedrals.md, "Tiles"), segments
// in the table's order; assembled into the catalog by tiles.cpp.
#pragma once

#include "carc/core/expansions/inns/inns.hpp"
#include "tile_data.hpp"

namespace carc::inns::tiles {

using namespace carc::tile_data;
constexpr Expansion kSet = Expansion::Inns;
constexpr Segment inn(Segment s) { return marked(s, kMarkInn); }
constexpr Segment cathedral(Segment s) { return marked(s, kMarkCathedral); }

inline constexpr std::array<TileDef, 17> kTiles = {{
    def(kSet, T::I1, "I1", 2, {c, c, c, c}, cathedral(city({P::N, P::E, P::S, P::W}))),
    def(kSet, T::I2, "I2", 1, {f, r, f, r}, monastery(), road({P::E}), road({P::W}), field({P::NL, P::NR, P::EL, P::WR}),
             field({P::ER, P::SL, P::SR, P::WL})),
    def(kSet, T::I3, "I3", 1, {c, c, c, c}, city({P::N}), city({P::E}), city({P::S}), city({P::W}), field({P::I}, 0b1111)),
    def(kSet, T::I4, "I4", 1, {c, c, f, c}, city({P::N}), city({P::E}), city({P::W}), field({P::SL, P::SR}, 0b111)),
    def(kSet, T::I5, "I5", 1, {c, r, c, r}, city({P::N}), city({P::S}), road({P::E}), road({P::W}), field({P::WR}, 0b01),
             field({P::EL}, 0b01), field({P::ER}, 0b10), field({P::WL}, 0b10)),
    def(kSet, T::I6, "I6", 1, {c, f, c, c}, city({P::N, P::W}, true), city({P::S}), field({P::EL, P::ER}, 0b11)),
    def(kSet, T::I7, "I7", 1, {c, f, f, f}, city({P::N}), field({P::EL, P::ER}, 0b1),
             field({P::SL, P::SR, P::WL, P::WR}, 0b1)),
    def(kSet, T::I8, "I8", 1, {c, f, r, f}, city({P::N}), road({P::S}), field({P::SR, P::WL, P::WR}, 0b1),
             field({P::EL, P::ER, P::SL}, 0b1)),
    def(kSet, T::I9, "I9", 1, {c, r, f, c}, city({P::N, P::W}), road({P::E}), field({P::EL}, 0b1),
             field({P::ER, P::SL, P::SR}, 0b1)),
    def(kSet, T::I10, "I10", 1, {r, c, r, c}, city({P::E, P::W}, true), road({P::N}), road({P::S}), field({P::NL}, 0b1),
             field({P::NR}, 0b1), field({P::SL}, 0b1), field({P::SR}, 0b1)),
    def(kSet, T::I11, "I11", 1, {c, f, r, c}, city({P::N, P::W}), inn(road({P::S})), field({P::SR}, 0b1),
             field({P::EL, P::ER, P::SL}, 0b1)),
    def(kSet, T::I12, "I12", 1, {c, f, r, r}, city({P::N}), inn(road({P::S, P::W})), field({P::SR, P::WL}),
             field({P::EL, P::ER, P::SL, P::WR}, 0b1)),
    def(kSet, T::I13, "I13", 1, {c, r, r, c}, city({P::N, P::W}, true), inn(road({P::E, P::S})), field({P::ER, P::SL}),
             field({P::EL, P::SR}, 0b1)),
    def(kSet, T::I14, "I14", 1, {f, r, r, r}, inn(road({P::E})), road({P::S}), road({P::W}),
             field({P::NL, P::NR, P::EL, P::WR}), field({P::ER, P::SL}), field({P::SR, P::WL})),
    def(kSet, T::I15, "I15", 1, {f, r, f, r}, inn(road({P::E, P::W})), field({P::NL, P::NR, P::EL, P::WR}),
             field({P::ER, P::SL, P::SR, P::WL})),
    def(kSet, T::I16, "I16", 1, {f, f, r, r}, inn(road({P::S, P::W})), field({P::SR, P::WL}),
             field({P::NL, P::NR, P::EL, P::ER, P::SL, P::WR})),
    def(kSet, T::I17, "I17", 1, {r, r, r, r}, road({P::N, P::W}), road({P::E, P::S}), field({P::NL, P::WR}),
             field({P::ER, P::SL}), field({P::NR, P::EL, P::SR, P::WL})),
}};

// The totals of docs/expansions/inns-cathedrals.md.
constexpr bool totals_agree() {
  int count = 0, pennants = 0, inn_roads = 0, cathedrals = 0;
  for (const TileDef& d : kTiles) {
    count += d.count;
    for (int i = 0; i < d.segment_count; ++i) {
      const Segment& s = d.segments[static_cast<std::size_t>(i)];
      if (s.pennant) pennants += d.count;
      if ((s.marks & kMarkInn) != 0 && s.kind == Kind::Road) inn_roads += d.count;
      if ((s.marks & kMarkCathedral) != 0 && s.kind == Kind::City) cathedrals += d.count;
    }
  }
  return count == 18 && inn_roads == 6 && cathedrals == 2 && pennants == 3;
}
static_assert(totals_agree(), "inns catalog disagrees with inns-cathedrals.md's totals");

}  // namespace carc::inns::tiles
