#include "carc/core/tiles.hpp"

#include "tile_data.hpp"
#include "expansions/part.hpp"

// Every expansion's tiles (core/src/expansions/<id>/tiles.hpp), from the list.
#ifdef CARC_EXPANSION_0
#include CARC_EXPANSION_FILE(0, tiles.hpp)
#endif
#ifdef CARC_EXPANSION_1
#include CARC_EXPANSION_FILE(1, tiles.hpp)
#endif
#ifdef CARC_EXPANSION_2
#include CARC_EXPANSION_FILE(2, tiles.hpp)
#endif
#ifdef CARC_EXPANSION_3
#include CARC_EXPANSION_FILE(3, tiles.hpp)
#endif
#ifdef CARC_EXPANSION_4
#include CARC_EXPANSION_FILE(4, tiles.hpp)
#endif
#ifdef CARC_EXPANSION_5
#include CARC_EXPANSION_FILE(5, tiles.hpp)
#endif
#ifdef CARC_EXPANSION_6
#include CARC_EXPANSION_FILE(6, tiles.hpp)
#endif
#ifdef CARC_EXPANSION_7
#include CARC_EXPANSION_FILE(7, tiles.hpp)
#endif

namespace carc {
namespace {

using namespace carc::tile_data;

// Field `cities` masks name segment indexes on the same tile (bit k = segment k).
constexpr std::array<TileDef, kBaseTileKinds> kBaseCatalog = {{
    def(T::A, "A", 2, {f, f, r, f}, monastery(), road({P::S}), all_field()),
    def(T::B, "B", 4, {f, f, f, f}, monastery(), all_field()),
    def(T::C, "C", 1, {c, c, c, c}, city({P::N, P::E, P::S, P::W}, true)),
    def(T::D, "D", 4, {c, r, f, r}, city({P::N}), road({P::E, P::W}), field({P::EL, P::WR}, 0b1),
        field({P::ER, P::SL, P::SR, P::WL})),
    def(T::E, "E", 5, {c, f, f, f}, city({P::N}), field({P::EL, P::ER, P::SL, P::SR, P::WL, P::WR}, 0b1)),
    def(T::F, "F", 2, {f, c, f, c}, city({P::E, P::W}, true), field({P::NL, P::NR}, 0b1), field({P::SL, P::SR}, 0b1)),
    def(T::G, "G", 1, {f, c, f, c}, city({P::E, P::W}), field({P::NL, P::NR}, 0b1), field({P::SL, P::SR}, 0b1)),
    def(T::H, "H", 3, {c, f, c, f}, city({P::N}), city({P::S}), field({P::EL, P::ER, P::WL, P::WR}, 0b11)),
    def(T::I, "I", 2, {c, f, f, c}, city({P::N}), city({P::W}), field({P::EL, P::ER, P::SL, P::SR}, 0b11)),
    def(T::J, "J", 3, {c, r, r, f}, city({P::N}), road({P::E, P::S}), field({P::ER, P::SL}),
        field({P::EL, P::SR, P::WL, P::WR}, 0b1)),
    def(T::K, "K", 3, {c, f, r, r}, city({P::N}), road({P::S, P::W}), field({P::SR, P::WL}),
        field({P::EL, P::ER, P::SL, P::WR}, 0b1)),
    def(T::L, "L", 3, {c, r, r, r}, city({P::N}), road({P::E}), road({P::S}), road({P::W}), field({P::EL, P::WR}, 0b1),
        field({P::ER, P::SL}), field({P::SR, P::WL})),
    def(T::M, "M", 2, {c, f, f, c}, city({P::N, P::W}, true), field({P::EL, P::ER, P::SL, P::SR}, 0b1)),
    def(T::N, "N", 3, {c, f, f, c}, city({P::N, P::W}), field({P::EL, P::ER, P::SL, P::SR}, 0b1)),
    def(T::O, "O", 2, {c, r, r, c}, city({P::N, P::W}, true), road({P::E, P::S}), field({P::ER, P::SL}),
        field({P::EL, P::SR}, 0b1)),
    def(T::P, "P", 3, {c, r, r, c}, city({P::N, P::W}), road({P::E, P::S}), field({P::ER, P::SL}),
        field({P::EL, P::SR}, 0b1)),
    def(T::Q, "Q", 1, {c, c, f, c}, city({P::N, P::E, P::W}, true), field({P::SL, P::SR}, 0b1)),
    def(T::R, "R", 3, {c, c, f, c}, city({P::N, P::E, P::W}), field({P::SL, P::SR}, 0b1)),
    def(T::S, "S", 2, {c, c, r, c}, city({P::N, P::E, P::W}, true), road({P::S}), field({P::SL}, 0b1),
        field({P::SR}, 0b1)),
    def(T::T, "T", 1, {c, c, r, c}, city({P::N, P::E, P::W}), road({P::S}), field({P::SL}, 0b1), field({P::SR}, 0b1)),
    def(T::U, "U", 8, {f, r, f, r}, road({P::E, P::W}), field({P::WR, P::NL, P::NR, P::EL}),
        field({P::ER, P::SL, P::SR, P::WL})),
    def(T::V, "V", 9, {f, f, r, r}, road({P::S, P::W}), field({P::SR, P::WL}),
        field({P::NL, P::NR, P::EL, P::ER, P::SL, P::WR})),
    def(T::W, "W", 4, {f, r, r, r}, road({P::E}), road({P::S}), road({P::W}), field({P::NL, P::NR, P::EL, P::WR}),
        field({P::ER, P::SL}), field({P::SR, P::WL})),
    def(T::X, "X", 1, {r, r, r, r}, road({P::N}), road({P::E}), road({P::S}), road({P::W}), field({P::NR, P::EL}),
        field({P::ER, P::SL}), field({P::SR, P::WL}), field({P::WR, P::NL})),
}};

// Each tile at its index (its Tile value): the base game's, then every expansion's; a copy
// (TileDef::is_copy) takes the tile it copies with its own segments added.
constexpr std::array<TileDef, kTileKinds> make_catalog() {
  std::array<TileDef, kTileKinds> out{};
  for (const TileDef& d : kBaseCatalog) out[static_cast<std::size_t>(d.tile)] = d;
#define CARC_ADD_TILES(Name, id) \
  for (const TileDef& d : id::tiles::kTiles) out[static_cast<std::size_t>(d.tile)] = d;
  CARC_EACH_EXPANSION(CARC_ADD_TILES)
#undef CARC_ADD_TILES
  for (TileDef& d : out) {
    if (!d.is_copy()) continue;
    TileDef whole = out[static_cast<std::size_t>(d.plain)];
    whole.tile = d.tile;
    whole.name = d.name;
    whole.expansion = d.expansion;
    whole.plain = d.plain;
    whole.count = d.count;
    for (int i = 0; i < d.segment_count; ++i) {
      whole.segments[static_cast<std::size_t>(whole.segment_count++)] = d.segments[static_cast<std::size_t>(i)];
    }
    d = whole;
  }
  return out;
}
constexpr std::array<TileDef, kTileKinds> kCatalog = make_catalog();
}  // namespace
extern const std::array<TileDef, kTileKinds> detail::kCatalogTable = kCatalog;
namespace {

constexpr std::array<std::string_view, kPortCount> kPortNames = {"N",  "E",  "S",  "W",  "NL", "NR", "EL", "ER",
                                                                  "SL", "SR", "WL", "WR", "C",  "G",  "I"};

// Compile-time checks of the catalog against docs/tiles.md and the expansions' tables (each
// expansion's tiles.hpp checks its own totals): every kind at its index, every copy of a
// plain tile, 72 base tiles with 10 coats of arms, every side port used by exactly
// one feature matching its terrain, every half of a non-city side by exactly one field.
constexpr bool catalog_is_consistent() {
  int base_total = 0;
  int pennants = 0;
  for (std::size_t k = 0; k < kCatalog.size(); ++k) {
    const TileDef& d = kCatalog[k];
    if (static_cast<std::size_t>(d.tile) != k || d.segment_count > kMaxSegments) return false;
    if (d.is_copy() && (kCatalog[static_cast<std::size_t>(d.plain)].is_copy() || !d.expansion)) return false;
    if (!d.expansion) base_total += d.count;
    std::uint16_t seen = 0;
    for (int i = 0; i < d.segment_count; ++i) {
      const Segment& s = d.segments[static_cast<std::size_t>(i)];
      if ((seen & s.ports) != 0) return false;
      seen = static_cast<std::uint16_t>(seen | s.ports);
      if (s.pennant && !d.expansion) pennants += d.count;
      for (int side = 0; side < 4; ++side) {
        if ((s.ports >> side) & 1) {
          const Terrain t = d.sides[static_cast<std::size_t>(side)];
          if (s.kind == Kind::City && t != Terrain::City) return false;
          if (s.kind == Kind::Road && t != Terrain::Road) return false;
          if (s.kind == Kind::Unscored && t != Terrain::Exclusive) return false;
          if (s.kind == Kind::Field || is_cloister(s.kind)) return false;
        }
      }
      if (s.kind == Kind::Field && (s.ports & 0x0F) != 0) return false;
    }
    for (int side = 0; side < 4; ++side) {
      const Terrain t = d.sides[static_cast<std::size_t>(side)];
      const bool side_used = (seen >> side) & 1;
      const bool halves_used = ((seen >> (4 + 2 * side)) & 3) == 3;
      const bool any_half = ((seen >> (4 + 2 * side)) & 3) != 0;
      if (t == Terrain::Field) {
        if (side_used || !halves_used) return false;
      } else if (t == Terrain::City) {
        if (!side_used || any_half) return false;
      } else {
        if (!side_used || !halves_used) return false;
      }
    }
  }
  return base_total == kTileCount && pennants == 10;
}
static_assert(catalog_is_consistent(), "tile catalog disagrees with tiles.md");

}  // namespace

std::string_view tile_name(Tile t) {
  const auto k = static_cast<std::size_t>(t);
  return k < kCatalog.size() ? kCatalog[k].name : std::string_view("?");
}

std::optional<Tile> tile_from_name(std::string_view s) {
  for (const TileDef& d : kCatalog) {
    if (d.name == s) return d.tile;
  }
  return std::nullopt;
}

std::string_view expansion_name(Expansion e) {
  switch (e) {
#define CARC_EXPANSION_NAME(Name, id) \
  case Expansion::Name: return #id;
    CARC_EACH_EXPANSION(CARC_EXPANSION_NAME)
#undef CARC_EXPANSION_NAME
  }
  return "?";
}

std::optional<Expansion> expansion_from_name(std::string_view s) {
  for (int k = 0; k < kExpansionKinds; ++k) {
    if (expansion_name(static_cast<Expansion>(k)) == s) return static_cast<Expansion>(k);
  }
  return std::nullopt;
}

namespace {
// What the base game names itself, else the name a part gives, else "?".
std::string_view named(detail::Named::What what, std::uint8_t value) {
  const std::string_view n = detail::name_in_parts(what, value);
  return n.empty() ? std::string_view("?") : n;
}
}  // namespace

std::string_view figure_name(Figure f) {
  if (f == Figure::Meeple) return "meeple";
  return named(detail::Named::What::Figure, static_cast<std::uint8_t>(f));
}

std::optional<Figure> figure_from_name(std::string_view s) {
  for (int k = 0; k < kFigureKinds; ++k) {
    if (figure_name(static_cast<Figure>(k)) == s) return static_cast<Figure>(k);
  }
  return std::nullopt;
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
    case Kind::Cloister:
    case Kind::Unscored: break;
  }
  return named(detail::Named::What::Kind, static_cast<std::uint8_t>(k));
}

std::string_view terrain_name(Terrain t) {
  switch (t) {
    case Terrain::Field: return "field";
    case Terrain::Road: return "road";
    case Terrain::City: return "city";
    case Terrain::Exclusive: break;
  }
  return named(detail::Named::What::Terrain, static_cast<std::uint8_t>(t));
}

namespace {
constexpr int segments_in_base_set() {
  int n = 0;
  for (const TileDef& d : kBaseCatalog) n += d.count * d.segment_count;
  return n;
}
static_assert(segments_in_base_set() == kSegmentsInSet, "kSegmentsInSet must match the catalog");

// Every tile of every expansion; a copy replaces a plain copy, adding its own segments.
constexpr int segments_in_all() {
  int n = 0;
  for (const TileDef& d : kCatalog) {
    n += d.is_copy() ? d.count * (d.segment_count - kCatalog[static_cast<std::size_t>(d.plain)].segment_count)
                     : d.count * d.segment_count;
  }
  return n;
}
static_assert(segments_in_all() <= kMaxNodesInGame, "kMaxNodesInGame must hold every segment of a game");
static_assert(segments_in_all() + 8 >= kMaxNodesInGame, "kMaxNodesInGame is larger than it needs to be");
}  // namespace


std::span<const TileDef, kTileKinds> catalog() { return kCatalog; }

}  // namespace carc
