// The tiles of The Princess & the Dragon (docs/expansions/princess-dragon.md, "Tiles"),
// segments in the table's order; assembled into the catalog by tiles.cpp. What each tile
// shows (volcano, dragon, portal, princess) is in princess.hpp (symbol_of); the copies of P7
// and P28 that another expansion adds a feature to are in that expansion's tiles.hpp.
#pragma once

#include "carc/core/expansions/princess/princess.hpp"
#include "tile_data.hpp"

namespace carc::princess::tiles {

using namespace carc::tile_data;
constexpr Expansion kSet = Expansion::Princess;

// Shapes that several tiles share.
constexpr TileDef curve(Tile t, std::string_view name, int count) {
  return def(kSet, t, name, count, {f, f, r, r}, road({P::S, P::W}), field({P::SR, P::WL}),
             field({P::NL, P::NR, P::EL, P::ER, P::SL, P::WR}));
}
constexpr TileDef straight(Tile t, std::string_view name) {
  return def(kSet, t, name, 1, {f, r, f, r}, road({P::E, P::W}), field({P::WR, P::NL, P::NR, P::EL}),
             field({P::ER, P::SL, P::SR, P::WL}));
}
constexpr TileDef junction(Tile t, std::string_view name) {
  return def(kSet, t, name, 1, {f, r, r, r}, road({P::E}), road({P::S}), road({P::W}),
             field({P::WR, P::NL, P::NR, P::EL}), field({P::ER, P::SL}), field({P::SR, P::WL}));
}
constexpr TileDef city_corner(Tile t, std::string_view name) {
  return def(kSet, t, name, 1, {c, f, f, c}, city({P::N, P::W}), field({P::EL, P::ER, P::SL, P::SR}, 0b1));
}
constexpr TileDef city_end(Tile t, std::string_view name) {
  return def(kSet, t, name, 1, {c, f, f, f}, city({P::N}), field({P::EL, P::ER, P::SL, P::SR, P::WL, P::WR}, 0b1));
}
constexpr TileDef city_curve_west(Tile t, std::string_view name) {  // city N, road S-W
  return def(kSet, t, name, 1, {c, f, r, r}, city({P::N}), road({P::S, P::W}), field({P::SR, P::WL}),
             field({P::EL, P::ER, P::SL, P::WR}, 0b1));
}
constexpr TileDef city_curve_east(Tile t, std::string_view name) {  // city N, road E-S
  return def(kSet, t, name, 1, {c, r, r, f}, city({P::N}), road({P::E, P::S}), field({P::ER, P::SL}),
             field({P::EL, P::SR, P::WL, P::WR}, 0b1));
}
constexpr TileDef corner_curve(Tile t, std::string_view name) {  // city N-W, road E-S
  return def(kSet, t, name, 1, {c, r, r, c}, city({P::N, P::W}), road({P::E, P::S}), field({P::ER, P::SL}),
             field({P::EL, P::SR}, 0b1));
}
constexpr TileDef three_sides(Tile t, std::string_view name, bool pennant) {
  return def(kSet, t, name, 1, {c, c, f, c}, city({P::N, P::E, P::W}, pennant), field({P::SL, P::SR}, 0b1));
}

inline constexpr std::array<TileDef, 29> kTiles = {{
    def(kSet, T::P1, "P1", 1, {f, f, f, f}, all_field()),
    def(kSet, T::P2, "P2", 1, {f, f, r, f}, road({P::S}), all_field()),
    city_end(T::P3, "P3"),
    curve(T::P4, "P4", 1),
    straight(T::P5, "P5"),
    def(kSet, T::P6, "P6", 1, {c, c, f, f}, city({P::N}), city({P::E}), field({P::SL, P::SR, P::WL, P::WR}, 0b11)),
    city_end(T::P7, "P7"),
    def(kSet, T::P8, "P8", 1, {f, r, r, r}, monastery(), road({P::E}), road({P::S}), road({P::W}),
        field({P::WR, P::NL, P::NR, P::EL}), field({P::ER, P::SL}), field({P::SR, P::WL})),
    junction(T::P9, "P9"),
    def(kSet, T::P10, "P10", 1, {c, c, f, c}, monastery(), city({P::N, P::E, P::W}), field({P::SL, P::SR}, 0b10)),
    curve(T::P11, "P11", 2),
    straight(T::P12, "P12"),
    city_corner(T::P13, "P13"),
    def(kSet, T::P14, "P14", 1, {f, c, f, c}, city({P::E, P::W}, true), field({P::NL, P::NR}, 0b1),
        field({P::SL, P::SR}, 0b1)),
    def(kSet, T::P15, "P15", 1, {r, c, r, c}, city({P::E, P::W}), road({P::N, P::S}), field({P::NL, P::NR}, 0b1),
        field({P::SL, P::SR}, 0b1)),
    city_curve_west(T::P16, "P16"),
    city_curve_east(T::P17, "P17"),
    def(kSet, T::P18, "P18", 1, {r, r, r, r}, road({P::N, P::W}), road({P::E, P::S}), field({P::NL, P::WR}),
        field({P::ER, P::SL}), field({P::NR, P::EL, P::SR, P::WL})),
    junction(T::P19, "P19"),
    three_sides(T::P20, "P20", true),
    corner_curve(T::P21, "P21"),
    city_curve_west(T::P22, "P22"),
    city_curve_east(T::P23, "P23"),
    def(kSet, T::P24, "P24", 1, {c, r, r, r}, city({P::N}), road({P::E}), road({P::S}), road({P::W}),
        field({P::EL, P::WR}, 0b1), field({P::ER, P::SL}), field({P::SR, P::WL})),
    def(kSet, T::P25, "P25", 1, {c, c, c, f}, city({P::N}), city({P::E, P::S}, true), field({P::WL, P::WR}, 0b01),
        field({P::I}, 0b11)),
    three_sides(T::P26, "P26", false),
    def(kSet, T::P27, "P27", 1, {c, f, f, c}, city({P::N, P::W}), field({P::EL, P::ER}, 0b1),
        field({P::SL, P::SR}, 0b1)),
    city_corner(T::P28, "P28"),
    corner_curve(T::P29, "P29"),
}};

// The totals of docs/expansions/princess-dragon.md: 30 tiles, 6 of each symbol but 12
// dragons, 3 coats of arms.
constexpr bool totals_agree() {
  int count = 0, pennants = 0;
  std::array<int, 5> symbols{};
  for (const TileDef& d : kTiles) {
    count += d.count;
    symbols[static_cast<std::size_t>(symbol_of(d.tile))] += d.count;
    for (int i = 0; i < d.segment_count; ++i) {
      if (d.segments[static_cast<std::size_t>(i)].pennant) pennants += d.count;
    }
  }
  return count == 30 && pennants == 3 && symbols[1] == 6 && symbols[2] == 12 && symbols[3] == 6 && symbols[4] == 6;
}
static_assert(totals_agree(), "princess catalog disagrees with princess-dragon.md's totals");

}  // namespace carc::princess::tiles
