// The computer players with all four expansions (river, abbot, inns, traders): every level
// finishes games of 2 to 6 players with legal moves, puts each figure on the board, plays
// builders' extra parts, and greedy's estimate weighs inns, cathedrals, goods, builders and
// pigs as docs/bots.md says.
#include <doctest/doctest.h>

#include <array>
#include <vector>

#include "bots/evaluation.hpp"             // core/src: greedy's estimate, tested on its own
#include "expansions/traders/bots.hpp"  // core/src: what Traders & Builders tells it
#include "carc/core/bot.hpp"
#include "carc/core/features.hpp"
#include "carc/core/player_view.hpp"
#include "support.hpp"

namespace carc::test {
namespace {


// What one level did over some games: figures it put on the board by kind, take-backs,
// extra parts it played, and games finished.
struct Usage {
  std::array<int, kFigureKinds> figures{};
  int take_backs = 0;
  int extra_parts = 0;
  int games = 0;
  int moves = 0;
};

// Plays every seat of seeded games of `players` with `spec`; each move must be legal.
void play_games(const BotSpec& spec, int players, std::uint64_t first_seed, int games, Usage& u) {
  for (int k = 0; k < games; ++k) {
    const std::uint64_t seed = first_seed + static_cast<std::uint64_t>(k);
    Game g = Game::seeded(players, seed, kFour);
    REQUIRE(g.players() == players);
    while (!g.finished()) {
      const bool extra = g.in_extra_part();
      const BotChoice c = choose(PlayerView(g), spec, seed * 1000 + static_cast<std::uint64_t>(g.moves_played()));
      CAPTURE(players);
      CAPTURE(seed);
      REQUIRE(c.move.type == Move::Type::Place);
      REQUIRE(error_name(g.play(c.move)) == "ok");
      if (c.move.meeple) ++u.figures[static_cast<std::size_t>(c.move.figure)];
      if (c.move.action) ++u.take_backs;
      if (extra) ++u.extra_parts;
      ++u.moves;
    }
    ++u.games;
  }
}

BotSpec level(BotKind kind, int iterations) {
  BotSpec s;
  s.kind = kind;
  s.iterations = iterations;
  return s;
}

void check_every_figure(const Usage& u) {
  for (int f = 0; f < kFigureKinds; ++f) {
    CAPTURE(figure_name(static_cast<Figure>(f)));
    CHECK(u.figures[static_cast<std::size_t>(f)] > 0);
  }
}

}  // namespace

TEST_CASE("random, greedy and mcts finish all-four-expansion games of 2 to 6 players and use every figure") {
  for (const BotKind kind : {BotKind::Random, BotKind::Greedy, BotKind::Mcts}) {
    CAPTURE(bot_kind_name(kind));
    // mcts with a small budget: enough to tell figures apart, quick enough for a test.
    const BotSpec spec = level(kind, 100);
    Usage u;
    for (int players = 2; players <= 6; ++players) play_games(spec, players, 300 + static_cast<std::uint64_t>(players), 1, u);
    CHECK(u.games == 5);
    check_every_figure(u);
    CHECK(u.extra_parts > 0);  // a builder of this level triggered, and the level played the extra tile
  }
}

TEST_CASE("six seats of one level each: every level plays the six-player all-four game to its end") {
  for (const BotKind kind : {BotKind::Random, BotKind::Greedy, BotKind::Mcts}) {
    CAPTURE(bot_kind_name(kind));
    Usage u;
    play_games(level(kind, 100), 6, 71, 2, u);
    CHECK(u.games == 2);
    CHECK(u.moves > 2 * 100);
    check_every_figure(u);
  }
}

TEST_CASE("greedy's goods: a majority is worth more the larger the lead and the fewer tokens are left") {
  using bots::majority_chance;
  // Settled: no token left, the leader (or every tied seat) scores, the others do not.
  CHECK(majority_chance(2, 0) == 1.0);
  CHECK(majority_chance(0, 0) == 1.0);
  CHECK(majority_chance(-1, 0) == 0.0);
  // Open: a lead of one with 12 tokens to come is far from sure, and so is a deficit.
  CHECK(majority_chance(1, 12) > 0.6);
  CHECK(majority_chance(1, 12) < 0.9);
  CHECK(majority_chance(-1, 12) > 0.1);
  CHECK(majority_chance(-1, 12) < 0.5);
  // A larger lead is surer; the same lead is surer with fewer tokens left.
  for (int left = 1; left <= 20; ++left) {
    CHECK(majority_chance(2, left) > majority_chance(1, left));
    CHECK(majority_chance(1, left - 1) >= majority_chance(1, left));
    CHECK(majority_chance(-2, left - 1) <= majority_chance(-2, left));
  }
}

TEST_CASE("greedy's builder: worth more on a feature with more open cells that tiles to come fit, nothing once the bag is empty") {
  using bots::builder_value;
  FeatureInfo road;
  road.kind = Kind::Road;
  road.open = 2;
  road.cell_count = 2;
  road.cells[0] = OpenCell{Cell{3, 0}, 20};
  road.cells[1] = OpenCell{Cell{-3, 0}, 20};
  FeatureInfo city = road;
  city.kind = Kind::City;
  city.open = 4;
  city.cell_count = 4;
  city.cells[2] = OpenCell{Cell{0, 3}, 20};
  city.cells[3] = OpenCell{Cell{0, -3}, 20};
  const double early = builder_value(road, 0.3, 30, 80);
  CHECK(early > 0);
  CHECK(builder_value(city, 0.3, 30, 80) > early);        // more open cells: more extensions to come
  CHECK(builder_value(road, 0.3, 2, 80) < early);         // few turns left for its owner
  CHECK(builder_value(road, 0.9, 30, 80) < early);        // about to close: the builder comes back
  FeatureInfo blocked = road;
  blocked.cells[0].fitting = 0;
  blocked.cells[1].fitting = 1;
  CHECK(builder_value(blocked, 0.3, 30, 80) < early);     // hardly any tile to come extends it
  CHECK(builder_value(road, 0.3, 30, 0) == 0.0);          // no tile left: no extra part
}

}  // namespace carc::test
