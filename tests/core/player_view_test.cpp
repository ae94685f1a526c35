// What a player sees: the view keeps every public fact of the game and drops the bag's
// order and seed; determinize() gives playable games that agree with it. And the feature
// list the greedy bot evaluates.
#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>
#include <vector>

#include "carc/core/features.hpp"
#include "carc/core/player_view.hpp"
#include "carc/core/random_player.hpp"
#include "support.hpp"

namespace carc::test {
namespace {

Game midgame(int players, std::uint64_t seed, int tiles) {
  Game g = Game::seeded(players, seed);
  RandomPlayer p(seed + 1);
  while (!g.finished() && g.tiles_placed() < tiles) REQUIRE_FALSE(g.play(p.choose(g)));
  return g;
}

// The tiles the game will draw from here, in order (plays it out on a copy).
std::vector<Tile> draws(Game g) {
  std::vector<Tile> out;
  std::vector<Event> ev;
  RandomPlayer p(5);
  while (!g.finished()) g.play(p.choose(g), &ev);
  for (const Event& e : ev) {
    if (const auto* d = std::get_if<TileDrawn>(&e)) out.push_back(d->tile);
  }
  return out;
}

// Plays the same random moves on both games; true while they agree on every public fact.
bool same_future(Game a, Game b, std::uint64_t seed) {
  RandomPlayer pa(seed);
  RandomPlayer pb(seed);
  while (!a.finished()) {
    if (b.finished() || a.current_seat() != b.current_seat()) return false;
    for (Seat s = 0; s < a.players(); ++s) {
      if (a.held(s) != b.held(s) || a.score(s) != b.score(s) || a.meeples(s) != b.meeples(s)) return false;
    }
    if (a.play(pa.choose(a)) || b.play(pb.choose(b))) return false;
  }
  return b.finished() && a.score(0) == b.score(0);
}

}  // namespace

TEST_CASE("a view shows every public fact of the game") {
  const Game g = midgame(3, 42, 20);
  const PlayerView v(g);
  CHECK(v.players() == 3);
  CHECK(v.current_seat() == g.current_seat());
  CHECK(v.bag_left() == g.bag_left());
  CHECK(v.bag_counts() == g.bag_counts());
  CHECK(v.tiles_placed() == g.tiles_placed());
  CHECK(v.moves_played() == g.moves_played());
  for (Seat s = 0; s < 3; ++s) {
    CHECK(v.held(s) == g.held(s));
    CHECK(v.score(s) == g.score(s));
    CHECK(v.meeples(s) == g.meeples(s));
  }
  CHECK(v.board().size() == g.board().size());
}

TEST_CASE("a view holds no seed and no bag order: its bag is in catalog order") {
  const Game g = midgame(2, 7, 15);
  REQUIRE(g.seed() == 7);
  const PlayerView v(g);
  CHECK(v.canonical().seed() == 0);
  const std::vector<Tile> real = draws(g);
  const std::vector<Tile> seen = draws(v.canonical());
  REQUIRE(real.size() == seen.size());
  CHECK(std::is_sorted(seen.begin(), seen.end()));
  CHECK(std::is_permutation(real.begin(), real.end(), seen.begin()));
  CHECK_FALSE(real == seen);  // this deal's order is not sorted, so the test means something
}

TEST_CASE("views of games that differ only in their bag's order are the same view") {
  const Game a = midgame(4, 99, 25);
  Game b = a;
  std::vector<Tile> order = draws(a);
  order.resize(static_cast<std::size_t>(a.bag_left()));
  std::reverse(order.begin(), order.end());
  REQUIRE(b.reorder_bag(order));
  REQUIRE(draws(a) != draws(b));
  CHECK(same_future(PlayerView(a).canonical(), PlayerView(b).canonical(), 3));
  Rng ra(11);
  Rng rb(11);
  CHECK(same_future(PlayerView(a).determinize(ra), PlayerView(b).determinize(rb), 4));
}

TEST_CASE("determinize() deals the bag's multiset in a new order each time") {
  const Game g = midgame(2, 5, 30);
  const PlayerView v(g);
  Rng rng(1);
  const Game d1 = v.determinize(rng);
  const Game d2 = v.determinize(rng);
  CHECK(d1.seed() == 0);
  CHECK(d1.bag_counts() == g.bag_counts());
  const auto t1 = draws(d1);
  const auto t2 = draws(d2);
  CHECK(std::is_permutation(t1.begin(), t1.end(), draws(g).begin()));
  CHECK(t1 != t2);
}

TEST_CASE("reorder_bag() refuses another multiset and games without a bag, changing nothing") {
  Game g = midgame(2, 3, 10);
  const std::vector<Tile> before = draws(g);
  std::vector<Tile> order(before.begin(), before.begin() + g.bag_left());
  std::vector<Tile> wrong = order;
  const auto other = std::find_if(wrong.begin(), wrong.end(), [&](Tile t) { return t != wrong[0]; });
  REQUIRE(other != wrong.end());
  wrong[0] = *other;  // one tile more of one kind, one less of another
  CHECK_FALSE(g.reorder_bag(wrong));
  CHECK_FALSE(g.reorder_bag(std::vector<Tile>(order.begin() + 1, order.end())));
  CHECK(g.seed() == 3);
  CHECK(draws(g) == before);
  std::reverse(order.begin(), order.end());
  CHECK(g.reorder_bag(order));
  CHECK(g.seed() == 0);
  Game replay = Game::replay(2);
  CHECK_FALSE(replay.reorder_bag(std::vector<Tile>(kBagSize, Tile::U)));
}

TEST_CASE("features: an open city and a monastery with their empty cells") {
  Table t(2);
  t.play('N', 0, 1, 180, "E");  // seat 0: city E-S under the start, open east and south
  t.play('A', -1, 0, 270, "C");  // seat 1: monastery west of the start
  std::vector<FeatureInfo> f;
  list_features(t.game(), f);
  REQUIRE(f.size() == 2);
  CHECK(f[0].kind == Kind::City);
  CHECK(f[0].tiles == 1);
  CHECK(f[0].meeples[0] == 1);
  CHECK(f[0].open == 2);
  REQUIRE(f[0].cell_count == 2);
  std::vector<Cell> cells{f[0].cells[0].cell, f[0].cells[1].cell};
  CHECK(std::count(cells.begin(), cells.end(), Cell{1, 1}) == 1);
  CHECK(std::count(cells.begin(), cells.end(), Cell{0, 2}) == 1);
  CHECK(f[0].cells[0].fitting > 0);
  CHECK(f[1].kind == Kind::Monastery);
  CHECK(f[1].meeples[1] == 1);
  CHECK(f[1].open == 6);  // the start tile beside it, the city tile at a corner
  CHECK(f[1].cell_count == 6);
}

TEST_CASE("features: a farmer's field lists the open city it touches, then counts it once closed") {
  Table t(2);
  t.play('U', 1, 0, 0, "NL");  // seat 0: farmer on the field north of the road, beside the start city
  std::vector<FeatureInfo> f;
  list_features(t.game(), f);
  REQUIRE(f.size() == 2);
  CHECK(f[0].kind == Kind::Field);
  CHECK(f[0].completed_cities == 0);
  REQUIRE(f[0].city_count == 1);
  const FeatureInfo& city = f[f[0].cities[0]];
  CHECK(city.kind == Kind::City);
  CHECK(city.meeples == std::array<std::uint8_t, kMaxPlayers>{});
  CHECK(city.open == 1);
  REQUIRE(city.cell_count == 1);
  CHECK(city.cells[0].cell == Cell{0, -1});
  t.play('E', 0, -1, 180);  // seat 1 closes the start city
  list_features(t.game(), f);
  REQUIRE(f.size() == 1);
  CHECK(f[0].completed_cities == 1);
  CHECK(f[0].city_count == 0);
}

}  // namespace carc::test
