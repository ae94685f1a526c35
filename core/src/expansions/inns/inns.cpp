// Inns & Cathedrals (docs/expansions/inns-cathedrals.md): the big meeple (strength 2), inns on
// roads and cathedrals in cities, and a sixth player. The tiles and their marks are data
// (tiles.hpp, inns.hpp).
#include "carc/core/expansions/inns/inns.hpp"

#include "expansions/part.hpp"

namespace carc::detail {

using namespace carc::inns;

const Part& inns_part();  // below

namespace {

constexpr std::uint8_t kind_bit(Kind k) { return static_cast<std::uint8_t>(1u << static_cast<int>(k)); }

constexpr Named kNames[] = {{Named::What::Figure, static_cast<std::uint8_t>(kBig), "big"}};

void setup(Ruleset& r) {
  r.max_players = kMaxPlayers;
  const auto big = static_cast<std::size_t>(kBig);
  r.figures[big] = 1;
  r.figure_kinds[big] = kind_bit(Kind::Road) | kind_bit(Kind::City) | kind_bit(Kind::Monastery) | kind_bit(Kind::Field);
  r.strength[big] = 2;
}

// A completed road with an inn: 2 a tile; a completed city with a cathedral: 3 a tile and
// 3 a coat of arms; either one incomplete at the end: 0. Fields do not change.
int feature_points(const FeatureTally& t, int points) {
  if (t.kind == Kind::Road && (t.marks & kMarkInn) != 0) return t.end ? 0 : 2 * t.tiles;
  if (t.kind == Kind::City && (t.marks & kMarkCathedral) != 0) return t.end ? 0 : 3 * t.tiles + 3 * t.pennants;
  return points;
}

}  // namespace

const Part& inns_part() {
  static constexpr Part part{.id = Expansion::Inns, .setup = &setup, .feature_points = &feature_points, .names = kNames};
  return part;
}

}  // namespace carc::detail
