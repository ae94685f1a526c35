// The tiles of Traders & Builders (docs/expansions/traders-builders.md, "Tiles"), segments in
// the table's order, one copy of each; assembled into the catalog by tiles.cpp.
#pragma once

#include "carc/core/expansions/traders/traders.hpp"
#include "tile_data.hpp"

namespace carc::traders::tiles {

using namespace carc::tile_data;
constexpr Expansion kSet = Expansion::Traders;
constexpr std::uint8_t kWine = mark_of(Good::Wine);
constexpr std::uint8_t kGrain = mark_of(Good::Grain);
constexpr std::uint8_t kCloth = mark_of(Good::Cloth);

inline constexpr std::array<TileDef, 24> kTiles = {{
    def(kSet, T::T1, "T1", 1, {c, f, f, c}, marked(city({P::N, P::W}), kGrain), field({P::EL, P::ER, P::SL, P::SR}, 0b1)),
    def(kSet, T::T2, "T2", 1, {c, f, f, c}, marked(city({P::N, P::W}), kWine), field({P::EL, P::ER, P::SL, P::SR}, 0b1)),
    def(kSet, T::T3, "T3", 1, {f, c, c, c}, marked(city({P::E, P::W}), kCloth), city({P::S}), field({P::NL, P::NR}, 0b01),
                field({P::I}, 0b11)),
    def(kSet, T::T4, "T4", 1, {f, c, c, c}, marked(city({P::E, P::W}), kWine), city({P::S}), field({P::NL, P::NR}, 0b01),
                field({P::I}, 0b11)),
    def(kSet, T::T5, "T5", 1, {c, c, f, c}, marked(city({P::N, P::E, P::W}), kGrain), field({P::SL, P::SR}, 0b1)),
    def(kSet, T::T6, "T6", 1, {c, c, c, c}, marked(city({P::N, P::W}), kCloth), city({P::E}), city({P::S}),
                field({P::I}, 0b111)),
    def(kSet, T::T7, "T7", 1, {c, r, r, c}, marked(city({P::N, P::W}), kCloth), road({P::E}), road({P::S}),
                field({P::EL}, 0b1), field({P::ER}, 0b1), field({P::SL}, 0b1), field({P::SR}, 0b1)),
    def(kSet, T::T8, "T8", 1, {c, r, r, c}, marked(city({P::N, P::W}), kWine), road({P::E}), road({P::S}),
                field({P::EL}, 0b1), field({P::ER, P::SL}, 0b1), field({P::SR}, 0b1)),
    def(kSet, T::T9, "T9", 1, {c, r, c, c}, marked(city({P::N, P::W}), kCloth), city({P::S}), road({P::E}),
                field({P::EL}, 0b01), field({P::ER}, 0b11)),
    def(kSet, T::T10, "T10", 1, {c, r, c, c}, marked(city({P::N, P::W}), kGrain), city({P::S}), road({P::E}),
                field({P::EL}, 0b01), field({P::ER}, 0b11)),
    def(kSet, T::T11, "T11", 1, {c, r, f, c}, marked(city({P::N, P::W}), kCloth), road({P::E}), field({P::EL}, 0b1),
                field({P::ER, P::SL, P::SR}, 0b1)),
    def(kSet, T::T12, "T12", 1, {c, r, f, c}, marked(city({P::N, P::W}), kWine), road({P::E}), field({P::EL}, 0b1),
                field({P::ER}, 0b1), field({P::SL, P::SR}, 0b1)),
    def(kSet, T::T13, "T13", 1, {c, c, r, c}, marked(city({P::N, P::E, P::W}), kWine), road({P::S}), field({P::SL}, 0b1),
                field({P::SR}, 0b1)),
    def(kSet, T::T14, "T14", 1, {c, c, c, c}, marked(city({P::N, P::W}), kWine), city({P::E, P::S}), field({P::I}, 0b11)),
    def(kSet, T::T15, "T15", 1, {f, c, f, c}, marked(city({P::E, P::W}), kWine), field({P::NL, P::NR}, 0b1),
                field({P::SL, P::SR}, 0b1)),
    def(kSet, T::T16, "T16", 1, {c, r, f, f}, city({P::N}), road({P::E}), field({P::EL}, 0b1),
                field({P::ER, P::SL, P::SR, P::WL, P::WR}, 0b1)),
    def(kSet, T::T17, "T17", 1, {f, c, r, c}, marked(city({P::E, P::W}), kGrain), road({P::S}), field({P::NL, P::NR}, 0b1),
                field({P::SL}, 0b1), field({P::SR}, 0b1)),
    def(kSet, T::T18, "T18", 1, {f, c, r, c}, marked(city({P::E, P::W}), kWine), road({P::S}), field({P::NL, P::NR}, 0b1),
                field({P::SL}, 0b1), field({P::SR}, 0b1)),
    def(kSet, T::T19, "T19", 1, {r, c, r, c}, marked(city({P::E, P::W}), kWine), road({P::N}), road({P::S}),
                field({P::NL}, 0b1), field({P::NR}, 0b1), field({P::SL}, 0b1), field({P::SR}, 0b1)),
    def(kSet, T::T20, "T20", 1, {f, r, r, r}, monastery(), road({P::E}), road({P::S}), road({P::W}),
                field({P::NL, P::NR, P::EL, P::WR}), field({P::ER, P::SL}), field({P::SR, P::WL})),
    def(kSet, T::T21, "T21", 1, {c, f, r, c}, marked(city({P::N, P::W}), kGrain), road({P::S}), field({P::SR}, 0b1),
                field({P::EL, P::ER, P::SL}, 0b1)),
    def(kSet, T::T22, "T22", 1, {c, f, r, c}, marked(city({P::N, P::W}), kGrain), road({P::S}), field({P::SR}, 0b1),
                field({P::SL}, 0b1), field({P::EL, P::ER}, 0b1)),
    def(kSet, T::T23, "T23", 1, {c, f, r, r}, city({P::N}), road({P::S}), road({P::W}), field({P::WR}, 0b1),
                field({P::SR, P::WL}), field({P::EL, P::ER, P::SL}, 0b1)),
    def(kSet, T::T24, "T24", 1, {r, r, r, r}, road({P::N, P::S}), road({P::E, P::W}), field({P::NL, P::WR}),
                field({P::NR, P::EL}), field({P::ER, P::SL}), field({P::SR, P::WL})),
}};

// The totals of docs/expansions/traders-builders.md.
constexpr bool totals_agree() {
  int count = 0, pennants = 0;
  std::array<int, kGoodKinds> goods{};
  for (const TileDef& d : kTiles) {
    count += d.count;
    for (int i = 0; i < d.segment_count; ++i) {
      const Segment& s = d.segments[static_cast<std::size_t>(i)];
      if (s.pennant) pennants += d.count;
      if (const int g = good_of_marks(s.marks); g >= 0 && s.kind == Kind::City) goods[static_cast<std::size_t>(g)] += d.count;
    }
  }
  return count == 24 && pennants == 0 && goods[0] == 9 && goods[1] == 6 && goods[2] == 5;
}
static_assert(totals_agree(), "traders catalog disagrees with traders-builders.md's totals");

}  // namespace carc::traders::tiles
