// Traders & Builders (docs/expansions/traders-builders.md): goods taken for completing a city
// and their majorities at the end, the builder's extra part of a turn, and the pig in farm
// scoring. The tiles and their goods symbols are data (tiles.cpp).
#include <algorithm>

#include "expansions/part.hpp"

namespace carc::detail {
namespace {

constexpr std::uint8_t kind_bit(Kind k) { return static_cast<std::uint8_t>(1u << static_cast<int>(k)); }
constexpr int kMajorityPoints = 10;

void setup(Ruleset& r) {
  const auto builder = static_cast<std::size_t>(Figure::Builder);
  const auto pig = static_cast<std::size_t>(Figure::Pig);
  r.figures[builder] = 1;
  r.figures[pig] = 1;
  r.figure_kinds[builder] = kind_bit(Kind::Road) | kind_bit(Kind::City);
  r.figure_kinds[pig] = kind_bit(Kind::Field);
  // Neither is a follower: strength 0, and each goes only beside its owner's follower.
  r.strength[builder] = 0;
  r.strength[pig] = 0;
  r.needs_own = static_cast<std::uint8_t>(r.needs_own | (1u << builder) | (1u << pig));
}

// A winner with their pig in the field: 4 a completed city instead of 3.
int winner_points(const FeatureTally& t, Seat winner, int points) {
  if (t.kind != Kind::Field) return points;
  if (((t.figures[static_cast<std::size_t>(winner)] >> static_cast<int>(Figure::Pig)) & 1) == 0) return points;
  return points + t.cities;
}

// The player who completes a city takes its goods, whoever holds it.
void completed(Game& g, Seat seat, std::uint16_t root, Kind kind, std::vector<Event>* events) {
  if (kind != Kind::City) return;
  const std::array<int, kGoodKinds> goods = g.goods_in(root);
  if (goods[0] + goods[1] + goods[2] == 0) return;
  g.add_goods(seat, goods);
  if (events != nullptr) {
    const Game::Placed& p = g.placed(g.placed_count() - 1);
    events->push_back(GoodsTaken{seat, goods, Cell{p.x, p.y}});
  }
}

// The placed-tile index of `seat`'s builder, or -1 when it is in the supply.
int builder_of(const Game& g, Seat seat) {
  if (g.figures(seat, Figure::Builder) > 0) return -1;
  for (int i = g.placed_count() - 1; i >= 0; --i) {
    const Game::Placed& p = g.placed(i);
    if (p.meeple_seat == seat && p.figure == Figure::Builder) return i;
  }
  return -1;
}

// The builder triggers when it stood on the board before this tile and the tile holds a
// segment of its road or city.
bool grants_extra(const Game& g, Seat seat, int index) {
  const int b = builder_of(g, seat);
  if (b < 0 || b == index) return false;
  const std::uint16_t root = g.root_of(b, g.placed(b).meeple_seg);
  const TileDef& d = tile_def(g.placed(index).tile);
  for (int s = 0; s < d.segment_count; ++s) {
    const Kind k = d.segments[static_cast<std::size_t>(s)].kind;
    if ((k == Kind::Road || k == Kind::City) && g.root_of(index, s) == root) return true;
  }
  return false;
}

// Each kind of goods: 10 to every player holding the most of it (at least one).
void finish(Game& g, std::vector<Event>* events) {
  for (int k = 0; k < kGoodKinds; ++k) {
    const auto good = static_cast<Good>(k);
    int best = 0;
    for (int s = 0; s < g.players(); ++s) best = std::max(best, g.goods(s, good));
    if (best == 0) continue;
    GoodsScored e{good, kMajorityPoints, {}, {}, g.players()};
    for (int s = 0; s < g.players(); ++s) {
      e.held[static_cast<std::size_t>(s)] = g.goods(s, good);
      if (g.goods(s, good) != best) continue;
      g.add_score(s, kMajorityPoints);
      e.winners.push_back(s);
    }
    if (events != nullptr) events->push_back(std::move(e));
  }
}

}  // namespace

const Part& traders_part() {
  static constexpr Part part{.id = Expansion::Traders,
                             .setup = &setup,
                             .winner_points = &winner_points,
                             .completed = &completed,
                             .grants_extra = &grants_extra,
                             .finish = &finish};
  return part;
}

}  // namespace carc::detail
