// Building tile data (docs/tiles.md): the segment and tile helpers the base game's table
// (tiles.cpp) and each expansion's table (core/src/expansions/<id>/tiles.hpp) are written
// with. Not part of the public API.
#pragma once

#include <initializer_list>

#include "carc/core/tiles.hpp"

namespace carc::tile_data {

constexpr std::uint16_t bit(Port p) { return static_cast<std::uint16_t>(1u << static_cast<int>(p)); }
constexpr std::uint16_t ports(std::initializer_list<Port> ps) {
  std::uint16_t m = 0;
  for (Port p : ps) m = static_cast<std::uint16_t>(m | bit(p));
  return m;
}
constexpr std::uint16_t kAllHalves =
    ports({Port::NL, Port::NR, Port::EL, Port::ER, Port::SL, Port::SR, Port::WL, Port::WR});

constexpr Segment city(std::initializer_list<Port> ps, bool pennant = false) {
  return Segment{Kind::City, ports(ps), pennant, 0};
}
constexpr Segment road(std::initializer_list<Port> ps) { return Segment{Kind::Road, ports(ps), false, 0}; }
constexpr Segment field(std::initializer_list<Port> ps, std::uint8_t cities = 0) {
  return Segment{Kind::Field, ports(ps), false, cities};
}
constexpr Segment monastery() { return Segment{Kind::Monastery, bit(Port::C), false, 0}; }
constexpr Segment all_field() { return Segment{Kind::Field, kAllHalves, false, 0}; }
constexpr Segment marked(Segment s, std::uint8_t marks) {
  s.marks = static_cast<std::uint8_t>(s.marks | marks);
  return s;
}

constexpr Terrain f = Terrain::Field;
constexpr Terrain r = Terrain::Road;
constexpr Terrain c = Terrain::City;

using P = Port;
using T = Tile;

// A tile of the base game (expansion nullopt) or of `expansion`. Field `cities` masks name
// segment indexes on the same tile (bit k = segment k).
template <typename... S>
constexpr TileDef def(Tile t, std::string_view name, int count, std::array<Terrain, 4> sides, S... segs) {
  TileDef d{t, name, std::nullopt, t, count, sides, {}, static_cast<int>(sizeof...(segs))};
  int i = 0;
  ((d.segments[static_cast<std::size_t>(i++)] = segs), ...);
  return d;
}
template <typename... S>
constexpr TileDef def(Expansion expansion, Tile t, std::string_view name, int count, std::array<Terrain, 4> sides,
                      S... segs) {
  TileDef d = def(t, name, count, sides, segs...);
  d.expansion = expansion;
  return d;
}
// One copy of tile `plain` with `added` after its own segments, in `expansion`'s set: the
// catalog (tiles.cpp) fills in the rest from `plain`.
constexpr TileDef copy_of(Expansion expansion, Tile t, std::string_view name, Tile plain, Segment added) {
  TileDef d{t, name, expansion, plain, 1, {}, {}, 1};
  d.segments[0] = added;
  return d;
}

}  // namespace carc::tile_data
