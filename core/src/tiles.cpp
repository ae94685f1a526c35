#include "carc/core/tiles.hpp"

#include <initializer_list>

namespace carc {
namespace {

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

constexpr Terrain f = Terrain::Field;
constexpr Terrain r = Terrain::Road;
constexpr Terrain c = Terrain::City;

using P = Port;

template <typename... S>
constexpr TileDef def(Tile t, int count, std::array<Terrain, 4> sides, S... segs) {
  TileDef d{t, count, sides, {}, static_cast<int>(sizeof...(segs))};
  int i = 0;
  ((d.segments[static_cast<std::size_t>(i++)] = segs), ...);
  return d;
}

// Field `cities` masks name segment indexes on the same tile (bit k = segment k).
constexpr std::array<TileDef, kTileKinds> kCatalog = {{
    def(Tile::A, 2, {f, f, r, f}, monastery(), road({P::S}), all_field()),
    def(Tile::B, 4, {f, f, f, f}, monastery(), all_field()),
    def(Tile::C, 1, {c, c, c, c}, city({P::N, P::E, P::S, P::W}, true)),
    def(Tile::D, 4, {c, r, f, r}, city({P::N}), road({P::E, P::W}), field({P::EL, P::WR}, 0b1),
        field({P::ER, P::SL, P::SR, P::WL})),
    def(Tile::E, 5, {c, f, f, f}, city({P::N}), field({P::EL, P::ER, P::SL, P::SR, P::WL, P::WR}, 0b1)),
    def(Tile::F, 2, {f, c, f, c}, city({P::E, P::W}, true), field({P::NL, P::NR}, 0b1), field({P::SL, P::SR}, 0b1)),
    def(Tile::G, 1, {f, c, f, c}, city({P::E, P::W}), field({P::NL, P::NR}, 0b1), field({P::SL, P::SR}, 0b1)),
    def(Tile::H, 3, {c, f, c, f}, city({P::N}), city({P::S}), field({P::EL, P::ER, P::WL, P::WR}, 0b11)),
    def(Tile::I, 2, {c, f, f, c}, city({P::N}), city({P::W}), field({P::EL, P::ER, P::SL, P::SR}, 0b11)),
    def(Tile::J, 3, {c, r, r, f}, city({P::N}), road({P::E, P::S}), field({P::ER, P::SL}),
        field({P::EL, P::SR, P::WL, P::WR}, 0b1)),
    def(Tile::K, 3, {c, f, r, r}, city({P::N}), road({P::S, P::W}), field({P::SR, P::WL}),
        field({P::EL, P::ER, P::SL, P::WR}, 0b1)),
    def(Tile::L, 3, {c, r, r, r}, city({P::N}), road({P::E}), road({P::S}), road({P::W}), field({P::EL, P::WR}, 0b1),
        field({P::ER, P::SL}), field({P::SR, P::WL})),
    def(Tile::M, 2, {c, f, f, c}, city({P::N, P::W}, true), field({P::EL, P::ER, P::SL, P::SR}, 0b1)),
    def(Tile::N, 3, {c, f, f, c}, city({P::N, P::W}), field({P::EL, P::ER, P::SL, P::SR}, 0b1)),
    def(Tile::O, 2, {c, r, r, c}, city({P::N, P::W}, true), road({P::E, P::S}), field({P::ER, P::SL}),
        field({P::EL, P::SR}, 0b1)),
    def(Tile::P, 3, {c, r, r, c}, city({P::N, P::W}), road({P::E, P::S}), field({P::ER, P::SL}),
        field({P::EL, P::SR}, 0b1)),
    def(Tile::Q, 1, {c, c, f, c}, city({P::N, P::E, P::W}, true), field({P::SL, P::SR}, 0b1)),
    def(Tile::R, 3, {c, c, f, c}, city({P::N, P::E, P::W}), field({P::SL, P::SR}, 0b1)),
    def(Tile::S, 2, {c, c, r, c}, city({P::N, P::E, P::W}, true), road({P::S}), field({P::SL}, 0b1),
        field({P::SR}, 0b1)),
    def(Tile::T, 1, {c, c, r, c}, city({P::N, P::E, P::W}), road({P::S}), field({P::SL}, 0b1), field({P::SR}, 0b1)),
    def(Tile::U, 8, {f, r, f, r}, road({P::E, P::W}), field({P::WR, P::NL, P::NR, P::EL}),
        field({P::ER, P::SL, P::SR, P::WL})),
    def(Tile::V, 9, {f, f, r, r}, road({P::S, P::W}), field({P::SR, P::WL}),
        field({P::NL, P::NR, P::EL, P::ER, P::SL, P::WR})),
    def(Tile::W, 4, {f, r, r, r}, road({P::E}), road({P::S}), road({P::W}), field({P::NL, P::NR, P::EL, P::WR}),
        field({P::ER, P::SL}), field({P::SR, P::WL})),
    def(Tile::X, 1, {r, r, r, r}, road({P::N}), road({P::E}), road({P::S}), road({P::W}), field({P::NR, P::EL}),
        field({P::ER, P::SL}), field({P::SR, P::WL}), field({P::WR, P::NL})),
}};

constexpr std::array<std::string_view, kPortCount> kPortNames = {"N",  "E",  "S",  "W",  "NL", "NR", "EL",
                                                                  "ER", "SL", "SR", "WL", "WR", "C"};

// Compile-time checks of the catalog against tiles.md: 72 tiles, 10 coats of arms, every
// side port used by exactly one feature matching its terrain, every half of a non-city side
// by exactly one field.
constexpr bool catalog_is_consistent() {
  int total = 0;
  int pennants = 0;
  for (const TileDef& d : kCatalog) {
    total += d.count;
    std::uint16_t seen = 0;
    for (int i = 0; i < d.segment_count; ++i) {
      const Segment& s = d.segments[static_cast<std::size_t>(i)];
      if ((seen & s.ports) != 0) return false;
      seen = static_cast<std::uint16_t>(seen | s.ports);
      if (s.pennant) pennants += d.count;
      for (int side = 0; side < 4; ++side) {
        if ((s.ports >> side) & 1) {
          const Terrain t = d.sides[static_cast<std::size_t>(side)];
          if (s.kind == Kind::City && t != Terrain::City) return false;
          if (s.kind == Kind::Road && t != Terrain::Road) return false;
          if (s.kind == Kind::Field || s.kind == Kind::Monastery) return false;
        }
      }
      if (s.kind == Kind::Field && (s.ports & 0x0F) != 0) return false;
    }
    for (int side = 0; side < 4; ++side) {
      const bool is_city = d.sides[static_cast<std::size_t>(side)] == Terrain::City;
      const bool side_used = (seen >> side) & 1;
      const bool halves_used = ((seen >> (4 + 2 * side)) & 3) == 3;
      const bool any_half = ((seen >> (4 + 2 * side)) & 3) != 0;
      if (d.sides[static_cast<std::size_t>(side)] == Terrain::Field) {
        if (side_used || !halves_used) return false;
      } else if (is_city) {
        if (!side_used || any_half) return false;
      } else {
        if (!side_used || !halves_used) return false;
      }
    }
  }
  return total == kTileCount && pennants == 10;
}
static_assert(catalog_is_consistent(), "tile catalog disagrees with tiles.md");

}  // namespace

char tile_letter(Tile t) { return static_cast<char>('A' + static_cast<int>(t)); }

std::optional<Tile> tile_from_letter(std::string_view s) {
  if (s.size() != 1 || s[0] < 'A' || s[0] > 'X') return std::nullopt;
  return static_cast<Tile>(s[0] - 'A');
}

std::string_view port_name(Port p) { return kPortNames[static_cast<std::size_t>(p)]; }

std::optional<Port> port_from_name(std::string_view s) {
  for (std::size_t i = 0; i < kPortNames.size(); ++i) {
    if (kPortNames[i] == s) return static_cast<Port>(i);
  }
  return std::nullopt;
}

std::optional<Rotation> Rotation::from_degrees(long long degrees) {
  if (degrees != 0 && degrees != 90 && degrees != 180 && degrees != 270) return std::nullopt;
  return Rotation::quarters(static_cast<int>(degrees / 90));
}

std::string_view kind_name(Kind k) {
  switch (k) {
    case Kind::Road: return "road";
    case Kind::City: return "city";
    case Kind::Monastery: return "monastery";
    case Kind::Field: return "field";
  }
  return "?";
}

std::string_view terrain_name(Terrain t) {
  switch (t) {
    case Terrain::Field: return "field";
    case Terrain::Road: return "road";
    case Terrain::City: return "city";
  }
  return "?";
}

constexpr int segments_in_set() {
  int n = 0;
  for (const TileDef& d : kCatalog) n += d.count * d.segment_count;
  return n;
}
static_assert(segments_in_set() == kSegmentsInSet, "kSegmentsInSet must match the catalog");

const TileDef& tile_def(Tile t) { return kCatalog[static_cast<std::size_t>(t)]; }

std::span<const TileDef, kTileKinds> catalog() { return kCatalog; }

}  // namespace carc
