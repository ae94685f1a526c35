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
constexpr Segment river(std::initializer_list<Port> ps) { return Segment{Kind::River, ports(ps), false, 0}; }
constexpr Segment field(std::initializer_list<Port> ps, std::uint8_t cities = 0) {
  return Segment{Kind::Field, ports(ps), false, cities};
}
constexpr Segment monastery() { return Segment{Kind::Monastery, bit(Port::C), false, 0}; }
constexpr Segment garden() { return Segment{Kind::Garden, bit(Port::G), false, 0}; }
constexpr Segment all_field() { return Segment{Kind::Field, kAllHalves, false, 0}; }
constexpr Segment marked(Segment s, std::uint8_t marks) {
  s.marks = static_cast<std::uint8_t>(s.marks | marks);
  return s;
}
constexpr Segment inn(Segment s) { return marked(s, kMarkInn); }
constexpr Segment cathedral(Segment s) { return marked(s, kMarkCathedral); }
constexpr std::uint8_t kWine = mark_of(Good::Wine);
constexpr std::uint8_t kGrain = mark_of(Good::Grain);
constexpr std::uint8_t kCloth = mark_of(Good::Cloth);

constexpr Terrain f = Terrain::Field;
constexpr Terrain r = Terrain::Road;
constexpr Terrain c = Terrain::City;
constexpr Terrain w = Terrain::River;

using P = Port;
using T = Tile;
constexpr std::optional<Expansion> kBase = std::nullopt;

template <typename... S>
constexpr TileDef def(Tile t, std::string_view name, int count, std::array<Terrain, 4> sides, S... segs) {
  TileDef d{t, name, kBase, t, count, sides, {}, static_cast<int>(sizeof...(segs))};
  int i = 0;
  ((d.segments[static_cast<std::size_t>(i++)] = segs), ...);
  return d;
}
template <typename... S>
constexpr TileDef river_def(Tile t, std::string_view name, int count, std::array<Terrain, 4> sides, S... segs) {
  TileDef d = def(t, name, count, sides, segs...);
  d.expansion = Expansion::River;
  return d;
}
template <typename... S>
constexpr TileDef inns_def(Tile t, std::string_view name, int count, std::array<Terrain, 4> sides, S... segs) {
  TileDef d = def(t, name, count, sides, segs...);
  d.expansion = Expansion::Inns;
  return d;
}
template <typename... S>
constexpr TileDef traders_def(Tile t, std::string_view name, std::array<Terrain, 4> sides, S... segs) {
  TileDef d = def(t, name, 1, sides, segs...);
  d.expansion = Expansion::Traders;
  return d;
}
// The garden copy `t` of `plain` (docs/expansions/abbot.md): the same tile with a garden at G.
constexpr TileDef garden_copy(Tile t, std::string_view name, const TileDef& plain) {
  TileDef d = plain;
  d.tile = t;
  d.name = name;
  d.expansion = Expansion::Abbot;
  d.plain = plain.tile;
  d.count = 1;
  d.segments[static_cast<std::size_t>(d.segment_count++)] = garden();
  return d;
}

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

// docs/expansions/river.md "Tiles": segment 0 is the river on every river tile.
constexpr std::array<TileDef, 10> kRiverCatalog = {{
    river_def(T::RS, "RS", 1, {f, w, f, f}, river({P::E}), all_field()),
    river_def(T::RL, "RL", 1, {f, f, f, w}, river({P::W}), all_field()),
    river_def(T::R1, "R1", 2, {f, w, f, w}, river({P::E, P::W}), field({P::WR, P::NL, P::NR, P::EL}),
              field({P::ER, P::SL, P::SR, P::WL})),
    river_def(T::R2, "R2", 1, {c, w, c, w}, river({P::E, P::W}), city({P::N}), city({P::S}), field({P::EL, P::WR}, 0b010),
              field({P::ER, P::WL}, 0b100)),
    river_def(T::R3, "R3", 1, {c, w, r, w}, river({P::E, P::W}), city({P::N}), road({P::S}), field({P::EL}, 0b010),
              field({P::WR}, 0b010), field({P::ER, P::SL}), field({P::SR, P::WL})),
    river_def(T::R4, "R4", 1, {f, w, r, w}, river({P::E, P::W}), monastery(), road({P::S}),
              field({P::WR, P::NL, P::NR, P::EL}), field({P::ER, P::SL}), field({P::SR, P::WL})),
    river_def(T::R5, "R5", 1, {w, r, w, r}, river({P::N, P::S}), road({P::E, P::W}), field({P::WR, P::NL}),
              field({P::NR, P::EL}), field({P::ER, P::SL}), field({P::SR, P::WL})),
    river_def(T::R6, "R6", 2, {f, f, w, w}, river({P::S, P::W}), field({P::WR, P::NL, P::NR, P::EL, P::ER, P::SL}),
              field({P::SR, P::WL})),
    river_def(T::R7, "R7", 1, {c, w, w, c}, river({P::E, P::S}), city({P::N, P::W}), field({P::EL, P::SR}, 0b010),
              field({P::ER, P::SL})),
    river_def(T::R8, "R8", 1, {r, r, w, w}, river({P::S, P::W}), road({P::N, P::E}), field({P::WR, P::NL, P::ER, P::SL}),
              field({P::NR, P::EL}), field({P::SR, P::WL})),
}};

// docs/expansions/inns-cathedrals.md "Tiles", segments in the table's order.
constexpr std::array<TileDef, 17> kInnsCatalog = {{
    inns_def(T::I1, "I1", 2, {c, c, c, c}, cathedral(city({P::N, P::E, P::S, P::W}))),
    inns_def(T::I2, "I2", 1, {f, r, f, r}, monastery(), road({P::E}), road({P::W}), field({P::NL, P::NR, P::EL, P::WR}),
             field({P::ER, P::SL, P::SR, P::WL})),
    inns_def(T::I3, "I3", 1, {c, c, c, c}, city({P::N}), city({P::E}), city({P::S}), city({P::W}), field({P::I}, 0b1111)),
    inns_def(T::I4, "I4", 1, {c, c, f, c}, city({P::N}), city({P::E}), city({P::W}), field({P::SL, P::SR}, 0b111)),
    inns_def(T::I5, "I5", 1, {c, r, c, r}, city({P::N}), city({P::S}), road({P::E}), road({P::W}), field({P::WR}, 0b01),
             field({P::EL}, 0b01), field({P::ER}, 0b10), field({P::WL}, 0b10)),
    inns_def(T::I6, "I6", 1, {c, f, c, c}, city({P::N, P::W}, true), city({P::S}), field({P::EL, P::ER}, 0b11)),
    inns_def(T::I7, "I7", 1, {c, f, f, f}, city({P::N}), field({P::EL, P::ER}, 0b1),
             field({P::SL, P::SR, P::WL, P::WR}, 0b1)),
    inns_def(T::I8, "I8", 1, {c, f, r, f}, city({P::N}), road({P::S}), field({P::SR, P::WL, P::WR}, 0b1),
             field({P::EL, P::ER, P::SL}, 0b1)),
    inns_def(T::I9, "I9", 1, {c, r, f, c}, city({P::N, P::W}), road({P::E}), field({P::EL}, 0b1),
             field({P::ER, P::SL, P::SR}, 0b1)),
    inns_def(T::I10, "I10", 1, {r, c, r, c}, city({P::E, P::W}, true), road({P::N}), road({P::S}), field({P::NL}, 0b1),
             field({P::NR}, 0b1), field({P::SL}, 0b1), field({P::SR}, 0b1)),
    inns_def(T::I11, "I11", 1, {c, f, r, c}, city({P::N, P::W}), inn(road({P::S})), field({P::SR}, 0b1),
             field({P::EL, P::ER, P::SL}, 0b1)),
    inns_def(T::I12, "I12", 1, {c, f, r, r}, city({P::N}), inn(road({P::S, P::W})), field({P::SR, P::WL}),
             field({P::EL, P::ER, P::SL, P::WR}, 0b1)),
    inns_def(T::I13, "I13", 1, {c, r, r, c}, city({P::N, P::W}, true), inn(road({P::E, P::S})), field({P::ER, P::SL}),
             field({P::EL, P::SR}, 0b1)),
    inns_def(T::I14, "I14", 1, {f, r, r, r}, inn(road({P::E})), road({P::S}), road({P::W}),
             field({P::NL, P::NR, P::EL, P::WR}), field({P::ER, P::SL}), field({P::SR, P::WL})),
    inns_def(T::I15, "I15", 1, {f, r, f, r}, inn(road({P::E, P::W})), field({P::NL, P::NR, P::EL, P::WR}),
             field({P::ER, P::SL, P::SR, P::WL})),
    inns_def(T::I16, "I16", 1, {f, f, r, r}, inn(road({P::S, P::W})), field({P::SR, P::WL}),
             field({P::NL, P::NR, P::EL, P::ER, P::SL, P::WR})),
    inns_def(T::I17, "I17", 1, {r, r, r, r}, road({P::N, P::W}), road({P::E, P::S}), field({P::NL, P::WR}),
             field({P::ER, P::SL}), field({P::NR, P::EL, P::SR, P::WL})),
}};

// docs/expansions/traders-builders.md "Tiles", segments in the table's order; one copy of each.
constexpr std::array<TileDef, 24> kTradersCatalog = {{
    traders_def(T::T1, "T1", {c, f, f, c}, marked(city({P::N, P::W}), kGrain), field({P::EL, P::ER, P::SL, P::SR}, 0b1)),
    traders_def(T::T2, "T2", {c, f, f, c}, marked(city({P::N, P::W}), kWine), field({P::EL, P::ER, P::SL, P::SR}, 0b1)),
    traders_def(T::T3, "T3", {f, c, c, c}, marked(city({P::E, P::W}), kCloth), city({P::S}), field({P::NL, P::NR}, 0b01),
                field({P::I}, 0b11)),
    traders_def(T::T4, "T4", {f, c, c, c}, marked(city({P::E, P::W}), kWine), city({P::S}), field({P::NL, P::NR}, 0b01),
                field({P::I}, 0b11)),
    traders_def(T::T5, "T5", {c, c, f, c}, marked(city({P::N, P::E, P::W}), kGrain), field({P::SL, P::SR}, 0b1)),
    traders_def(T::T6, "T6", {c, c, c, c}, marked(city({P::N, P::W}), kCloth), city({P::E}), city({P::S}),
                field({P::I}, 0b111)),
    traders_def(T::T7, "T7", {c, r, r, c}, marked(city({P::N, P::W}), kCloth), road({P::E}), road({P::S}),
                field({P::EL}, 0b1), field({P::ER}, 0b1), field({P::SL}, 0b1), field({P::SR}, 0b1)),
    traders_def(T::T8, "T8", {c, r, r, c}, marked(city({P::N, P::W}), kWine), road({P::E}), road({P::S}),
                field({P::EL}, 0b1), field({P::ER, P::SL}, 0b1), field({P::SR}, 0b1)),
    traders_def(T::T9, "T9", {c, r, c, c}, marked(city({P::N, P::W}), kCloth), city({P::S}), road({P::E}),
                field({P::EL}, 0b01), field({P::ER}, 0b11)),
    traders_def(T::T10, "T10", {c, r, c, c}, marked(city({P::N, P::W}), kGrain), city({P::S}), road({P::E}),
                field({P::EL}, 0b01), field({P::ER}, 0b11)),
    traders_def(T::T11, "T11", {c, r, f, c}, marked(city({P::N, P::W}), kCloth), road({P::E}), field({P::EL}, 0b1),
                field({P::ER, P::SL, P::SR}, 0b1)),
    traders_def(T::T12, "T12", {c, r, f, c}, marked(city({P::N, P::W}), kWine), road({P::E}), field({P::EL}, 0b1),
                field({P::ER}, 0b1), field({P::SL, P::SR}, 0b1)),
    traders_def(T::T13, "T13", {c, c, r, c}, marked(city({P::N, P::E, P::W}), kWine), road({P::S}), field({P::SL}, 0b1),
                field({P::SR}, 0b1)),
    traders_def(T::T14, "T14", {c, c, c, c}, marked(city({P::N, P::W}), kWine), city({P::E, P::S}), field({P::I}, 0b11)),
    traders_def(T::T15, "T15", {f, c, f, c}, marked(city({P::E, P::W}), kWine), field({P::NL, P::NR}, 0b1),
                field({P::SL, P::SR}, 0b1)),
    traders_def(T::T16, "T16", {c, r, f, f}, city({P::N}), road({P::E}), field({P::EL}, 0b1),
                field({P::ER, P::SL, P::SR, P::WL, P::WR}, 0b1)),
    traders_def(T::T17, "T17", {f, c, r, c}, marked(city({P::E, P::W}), kGrain), road({P::S}), field({P::NL, P::NR}, 0b1),
                field({P::SL}, 0b1), field({P::SR}, 0b1)),
    traders_def(T::T18, "T18", {f, c, r, c}, marked(city({P::E, P::W}), kWine), road({P::S}), field({P::NL, P::NR}, 0b1),
                field({P::SL}, 0b1), field({P::SR}, 0b1)),
    traders_def(T::T19, "T19", {r, c, r, c}, marked(city({P::E, P::W}), kWine), road({P::N}), road({P::S}),
                field({P::NL}, 0b1), field({P::NR}, 0b1), field({P::SL}, 0b1), field({P::SR}, 0b1)),
    traders_def(T::T20, "T20", {f, r, r, r}, monastery(), road({P::E}), road({P::S}), road({P::W}),
                field({P::NL, P::NR, P::EL, P::WR}), field({P::ER, P::SL}), field({P::SR, P::WL})),
    traders_def(T::T21, "T21", {c, f, r, c}, marked(city({P::N, P::W}), kGrain), road({P::S}), field({P::SR}, 0b1),
                field({P::EL, P::ER, P::SL}, 0b1)),
    traders_def(T::T22, "T22", {c, f, r, c}, marked(city({P::N, P::W}), kGrain), road({P::S}), field({P::SR}, 0b1),
                field({P::SL}, 0b1), field({P::EL, P::ER}, 0b1)),
    traders_def(T::T23, "T23", {c, f, r, r}, city({P::N}), road({P::S}), road({P::W}), field({P::WR}, 0b1),
                field({P::SR, P::WL}), field({P::EL, P::ER, P::SL}, 0b1)),
    traders_def(T::T24, "T24", {r, r, r, r}, road({P::N, P::S}), road({P::E, P::W}), field({P::NL, P::WR}),
                field({P::NR, P::EL}), field({P::ER, P::SL}), field({P::SR, P::WL})),
}};

constexpr const TileDef& inns_tile(Tile t) {
  return kInnsCatalog[static_cast<std::size_t>(t) - static_cast<std::size_t>(Tile::I1)];
}
constexpr const TileDef& traders_tile(Tile t) {
  return kTradersCatalog[static_cast<std::size_t>(t) - static_cast<std::size_t>(Tile::T1)];
}

constexpr const TileDef& base_def(Tile t) { return kBaseCatalog[static_cast<std::size_t>(t)]; }
constexpr const TileDef& river_tile(Tile t) {
  return kRiverCatalog[static_cast<std::size_t>(t) - static_cast<std::size_t>(Tile::RS)];
}

constexpr std::array<TileDef, kTileKinds> make_catalog() {
  std::array<TileDef, kTileKinds> out{};
  std::size_t n = 0;
  for (const TileDef& d : kBaseCatalog) out[n++] = d;
  for (const TileDef& d : kRiverCatalog) out[n++] = d;
  for (const TileDef& d : kInnsCatalog) out[n++] = d;
  for (const TileDef& d : kTradersCatalog) out[n++] = d;
  // docs/expansions/abbot.md: the garden copies of the 3rd-edition box.
  out[n++] = garden_copy(T::Eg, "Eg", base_def(T::E));
  out[n++] = garden_copy(T::Hg, "Hg", base_def(T::H));
  out[n++] = garden_copy(T::Ig, "Ig", base_def(T::I));
  out[n++] = garden_copy(T::Mg, "Mg", base_def(T::M));
  out[n++] = garden_copy(T::Ng, "Ng", base_def(T::N));
  out[n++] = garden_copy(T::Rg, "Rg", base_def(T::R));
  out[n++] = garden_copy(T::Ug, "Ug", base_def(T::U));
  out[n++] = garden_copy(T::Vg, "Vg", base_def(T::V));
  out[n++] = garden_copy(T::R6g, "R6g", river_tile(T::R6));
  // Inns & Cathedrals, Traders & Builders: the 2nd/3rd-edition prints' gardens.
  out[n++] = garden_copy(T::I3g, "I3g", inns_tile(T::I3));
  out[n++] = garden_copy(T::I15g, "I15g", inns_tile(T::I15));
  out[n++] = garden_copy(T::T8g, "T8g", traders_tile(T::T8));
  out[n++] = garden_copy(T::T11g, "T11g", traders_tile(T::T11));
  return out;
}
constexpr std::array<TileDef, kTileKinds> kCatalog = make_catalog();
}  // namespace
extern const std::array<TileDef, kTileKinds> detail::kCatalogTable = kCatalog;
namespace {

constexpr std::array<std::string_view, kPortCount> kPortNames = {"N",  "E",  "S",  "W",  "NL", "NR", "EL", "ER",
                                                                  "SL", "SR", "WL", "WR", "C",  "G",  "I"};

// Compile-time checks of the catalog against docs/tiles.md and the expansions' tables: every
// kind at its index, 72 base tiles with 10 coats of arms, every side port used by exactly
// one feature matching its terrain, every half of a non-city side by exactly one field.
constexpr bool catalog_is_consistent() {
  int base_total = 0;
  int pennants = 0;
  for (std::size_t k = 0; k < kCatalog.size(); ++k) {
    const TileDef& d = kCatalog[k];
    if (static_cast<std::size_t>(d.tile) != k || d.segment_count > kMaxSegments) return false;
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
          if (s.kind == Kind::River && t != Terrain::River) return false;
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

// The totals of docs/expansions/inns-cathedrals.md and traders-builders.md, counted over
// the plain tiles of each set.
struct SetTotals {
  int tiles = 0, pennants = 0, inns = 0, cathedrals = 0;
  std::array<int, kGoodKinds> goods{};
};
template <std::size_t N>
constexpr SetTotals totals_of(const std::array<TileDef, N>& set) {
  SetTotals t;
  for (const TileDef& d : set) {
    t.tiles += d.count;
    for (int i = 0; i < d.segment_count; ++i) {
      const Segment& s = d.segments[static_cast<std::size_t>(i)];
      if (s.pennant) t.pennants += d.count;
      if ((s.marks & kMarkInn) != 0 && s.kind == Kind::Road) t.inns += d.count;
      if ((s.marks & kMarkCathedral) != 0 && s.kind == Kind::City) t.cathedrals += d.count;
      if (const int g = good_of_marks(s.marks); g >= 0 && s.kind == Kind::City) t.goods[static_cast<std::size_t>(g)] += d.count;
    }
  }
  return t;
}
constexpr SetTotals kInnsTotals = totals_of(kInnsCatalog);
static_assert(kInnsTotals.tiles == 18 && kInnsTotals.inns == 6 && kInnsTotals.cathedrals == 2 &&
                  kInnsTotals.pennants == 3,
              "inns catalog disagrees with inns.md's totals");
constexpr SetTotals kTradersTotals = totals_of(kTradersCatalog);
static_assert(kTradersTotals.tiles == 24 && kTradersTotals.pennants == 0 && kTradersTotals.goods[0] == 9 &&
                  kTradersTotals.goods[1] == 6 && kTradersTotals.goods[2] == 5,
              "traders catalog disagrees with traders.md's totals");

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
    case Expansion::River: return "river";
    case Expansion::Abbot: return "abbot";
    case Expansion::Inns: return "inns";
    case Expansion::Traders: return "traders";
  }
  return "?";
}

std::optional<Expansion> expansion_from_name(std::string_view s) {
  for (int k = 0; k < kExpansionKinds; ++k) {
    if (expansion_name(static_cast<Expansion>(k)) == s) return static_cast<Expansion>(k);
  }
  return std::nullopt;
}

std::string_view figure_name(Figure f) {
  switch (f) {
    case Figure::Meeple: return "meeple";
    case Figure::Abbot: return "abbot";
    case Figure::Big: return "big";
    case Figure::Builder: return "builder";
    case Figure::Pig: return "pig";
  }
  return "?";
}

std::string_view good_name(Good g) {
  switch (g) {
    case Good::Wine: return "wine";
    case Good::Grain: return "grain";
    case Good::Cloth: return "cloth";
  }
  return "?";
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
    case Kind::Garden: return "garden";
    case Kind::River: return "river";
  }
  return "?";
}

std::string_view terrain_name(Terrain t) {
  switch (t) {
    case Terrain::River: return "river";
    case Terrain::Field: return "field";
    case Terrain::Road: return "road";
    case Terrain::City: return "city";
  }
  return "?";
}

namespace {
constexpr int segments_in_base_set() {
  int n = 0;
  for (const TileDef& d : kBaseCatalog) n += d.count * d.segment_count;
  return n;
}
static_assert(segments_in_base_set() == kSegmentsInSet, "kSegmentsInSet must match the catalog");

// Every tile of every expansion; a garden copy replaces a plain copy, adding its garden.
constexpr int segments_in_all() {
  int n = 0;
  for (const TileDef& d : kCatalog) n += d.plain != d.tile ? d.count : d.count * d.segment_count;
  return n;
}
static_assert(segments_in_all() <= kMaxNodesInGame, "kMaxNodesInGame must hold every segment of a game");
static_assert(segments_in_all() + 8 >= kMaxNodesInGame, "kMaxNodesInGame is larger than it needs to be");
}  // namespace


std::span<const TileDef, kTileKinds> catalog() { return kCatalog; }

}  // namespace carc
