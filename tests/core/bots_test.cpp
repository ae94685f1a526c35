// The computer players: every move legal, the same move for the same (view, budget, seed),
// blind to the bag's order, and fine with an empty supply or a discard before their turn.
#include <doctest/doctest.h>

#include <algorithm>
#include <thread>
#include <vector>

#include "carc/core/bot.hpp"
#include "carc/core/random_player.hpp"
#include "support.hpp"

namespace carc::test {
namespace {

BotSpec spec(BotKind kind, int iterations = 0) {
  BotSpec s;
  s.kind = kind;
  s.iterations = iterations;
  return s;
}

const BotSpec kRandom = spec(BotKind::Random);
const BotSpec kGreedy = spec(BotKind::Greedy);
const BotSpec kMcts = spec(BotKind::Mcts, 24);

bool same_move(const Move& a, const Move& b) {
  return a.type == b.type && a.tile == b.tile && a.placement == b.placement && a.meeple == b.meeple;
}

// A bot's move is a legal placement of the held tile: found among the generated moves,
// and accepted by the engine.
void check_legal(const Game& g, const BotChoice& c) {
  const Seat seat = g.current_seat();
  REQUIRE(c.move.type == Move::Type::Place);
  REQUIRE(g.held(seat) == c.move.tile);
  Game scratch = g;
  std::vector<LegalMove> legal;
  scratch.legal_moves(legal);
  const auto found = std::find_if(legal.begin(), legal.end(), [&](const LegalMove& m) { return m.placement == c.move.placement; });
  REQUIRE(found != legal.end());
  if (c.move.meeple) {
    CHECK(std::find(found->meeples.begin(), found->meeples.end(), *c.move.meeple) != found->meeples.end());
  }
  CHECK(error_name(scratch.play(c.move)) == "ok");
}

}  // namespace

TEST_CASE("every bot's move is legal, over whole games of 2 to 5 players") {
  int positions = 0;
  for (int players = 2; players <= 5; ++players) {
    for (std::uint64_t seed = 0; seed < 6; ++seed) {
      CAPTURE(players);
      CAPTURE(seed);
      Game g = Game::seeded(players, 500 + seed);
      // Seats take turns being random, greedy and mcts; all three answer every position.
      while (!g.finished()) {
        const PlayerView view(g);
        const std::uint64_t bot_seed = seed * 1000 + static_cast<std::uint64_t>(g.moves_played());
        const BotChoice r = choose(view, kRandom, bot_seed);
        const BotChoice gr = choose(view, kGreedy, bot_seed);
        const BotChoice m = choose(view, kMcts, bot_seed);
        check_legal(g, r);
        check_legal(g, gr);
        check_legal(g, m);
        CHECK(m.playouts == kMcts.iterations);
        ++positions;
        const BotChoice& mine = g.current_seat() % 3 == 0 ? r : g.current_seat() % 3 == 1 ? gr : m;
        REQUIRE_FALSE(g.play(mine.move));
      }
    }
  }
  CHECK(positions > 1000);
}

TEST_CASE("the random bot's moves are legal over thousands of random positions, with and without meeples") {
  int with_meeple = 0;
  int without = 0;
  for (std::uint64_t seed = 0; seed < 60; ++seed) {
    Game g = Game::seeded(2 + static_cast<int>(seed % 4), seed);
    RandomPlayer p(seed);
    while (!g.finished()) {
      const BotChoice c = choose(PlayerView(g), kRandom, seed + static_cast<std::uint64_t>(g.moves_played()));
      check_legal(g, c);
      (c.move.meeple ? with_meeple : without)++;
      REQUIRE_FALSE(g.play(p.choose(g)));
    }
  }
  CHECK(with_meeple > 500);
  CHECK(without > 500);
}

TEST_CASE("a bot answers the same (view, budget, seed) with the same move") {
  for (std::uint64_t seed = 0; seed < 8; ++seed) {
    Game g = Game::seeded(3, seed);
    RandomPlayer p(seed);
    for (int i = 0; i < static_cast<int>(seed) * 6; ++i) REQUIRE_FALSE(g.play(p.choose(g)));
    const PlayerView view(g);
    for (const BotSpec& s : {kRandom, kGreedy, spec(BotKind::Mcts, 300)}) {
      CAPTURE(bot_kind_name(s.kind));
      const BotChoice a = choose(view, s, 77 + seed);
      const PlayerView copy = view;
      const BotChoice b = choose(copy, s, 77 + seed);
      CHECK(same_move(a.move, b.move));
      CHECK(a.playouts == b.playouts);
    }
  }
}

TEST_CASE("several threads may think at once, even on one shared view, and answer as one thread does") {
  Game g = Game::seeded(3, 21);
  RandomPlayer p(21);
  for (int i = 0; i < 30; ++i) REQUIRE_FALSE(g.play(p.choose(g)));
  const PlayerView view(g);
  for (const BotSpec& s : {kGreedy, spec(BotKind::Mcts, 400)}) {
    const Move alone = choose(view, s, 5).move;
    std::vector<Move> answers(4);
    std::vector<std::thread> threads;
    for (std::size_t i = 0; i < answers.size(); ++i) {
      threads.emplace_back([&, i] { answers[i] = choose(view, s, 5).move; });
    }
    for (std::thread& t : threads) t.join();
    for (const Move& m : answers) CHECK(same_move(m, alone));
  }
}

TEST_CASE("no peeking: games with the same public facts and other bag orders get the same decisions") {
  int differing_bags = 0;
  for (std::uint64_t seed = 0; seed < 10; ++seed) {
    Game a = Game::seeded(2 + static_cast<int>(seed % 3), seed);
    RandomPlayer p(seed);
    for (int i = 0; i < 10 + static_cast<int>(seed) * 4 && !a.finished(); ++i) REQUIRE_FALSE(a.play(p.choose(a)));
    // b: the same game, the undrawn tiles in another order.
    Game b = a;
    std::vector<Tile> order;
    const auto counts = a.bag_counts();
    for (int t = kTileKinds - 1; t >= 0; --t) order.insert(order.end(), static_cast<std::size_t>(counts[static_cast<std::size_t>(t)]), static_cast<Tile>(t));
    Rng shuffle(seed + 100);
    for (std::size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[shuffle.below(static_cast<std::uint32_t>(i))]);
    REQUIRE(b.reorder_bag(order));
    Game a_next = a;
    Game b_next = b;
    const Move first = choose(PlayerView(a), kRandom, 1).move;
    REQUIRE_FALSE(a_next.play(first));
    REQUIRE_FALSE(b_next.play(first));
    differing_bags += a_next.held(a.current_seat()) != b_next.held(b.current_seat()) ? 1 : 0;
    for (const BotSpec& s : {kRandom, kGreedy, spec(BotKind::Mcts, 400)}) {
      CAPTURE(bot_kind_name(s.kind));
      CHECK(same_move(choose(PlayerView(a), s, seed).move, choose(PlayerView(b), s, seed).move));
    }
  }
  CHECK(differing_bags >= 5);  // the two bags really differ where it shows
}

TEST_CASE("a bot with no meeple left places its tile without one") {
  int checked = 0;
  for (std::uint64_t seed = 0; seed < 6; ++seed) {
    Game g = Game::seeded(2, seed);
    Rng rng(seed);
    // Both seats put a meeple wherever they can, until the seat to move has none left.
    while (!g.finished() && g.meeples(g.current_seat()) > 0) {
      std::vector<LegalMove> legal;
      g.legal_moves(legal);
      const LegalMove& m = legal[rng.below(static_cast<std::uint32_t>(legal.size()))];
      const std::optional<Port> meeple = m.meeples.size > 0 ? std::optional<Port>(m.meeples.ports[0]) : std::nullopt;
      REQUIRE_FALSE(g.play(Move::place(*g.held(g.current_seat()), m.placement.cell, m.placement.rotation, meeple)));
    }
    if (g.finished()) continue;
    REQUIRE(g.meeples(g.current_seat()) == 0);
    for (const BotSpec& s : {kRandom, kGreedy, spec(BotKind::Mcts, 200)}) {
      const BotChoice c = choose(PlayerView(g), s, seed);
      check_legal(g, c);
      CHECK_FALSE(c.move.meeple.has_value());
    }
    ++checked;
  }
  CHECK(checked >= 4);
}

TEST_CASE("after the engine discards an unplaceable tile, the bot whose turn it is plays legally") {
  int after_discard = 0;
  for (std::uint64_t seed = 0; seed < 3000 && after_discard < 12; ++seed) {
    std::vector<Event> ev;
    Game g = Game::seeded(2 + static_cast<int>(seed % 4), seed, &ev);
    RandomPlayer p(seed);
    while (!g.finished()) {
      const bool discarded = std::any_of(ev.begin(), ev.end(), [](const Event& e) { return std::holds_alternative<TileDiscarded>(e); });
      if (discarded) {
        // The discard happened at the start of this turn: the seat now holds a tile that fits.
        REQUIRE(g.has_legal_placement(*g.held(g.current_seat())));
        for (const BotSpec& s : {kRandom, kGreedy, kMcts}) check_legal(g, choose(PlayerView(g), s, seed));
        ++after_discard;
      }
      ev.clear();
      REQUIRE_FALSE(g.play(p.choose(g), &ev));
    }
  }
  CHECK(after_discard >= 12);
}

TEST_CASE("a view with no turn to play gets a discard the engine refuses, changing nothing") {
  Game g = Game::seeded(2, 4);
  RandomPlayer p(4);
  while (!g.finished()) REQUIRE_FALSE(g.play(p.choose(g)));
  const Move over = choose(PlayerView(g), kGreedy, 1).move;
  CHECK(over.type == Move::Type::Discard);
  const int moves = g.moves_played();
  CHECK(error_name(g.play(over)) == "game_over");
  CHECK(g.moves_played() == moves);
}

TEST_CASE("greedy takes an open city's points at once: E closes the start city with a meeple") {
  // A deal where seat 0 starts with an E: its city side against the start tile's city
  // closes a two-tile city for 4 points.
  std::uint64_t seed = 0;
  while (Game::seeded(2, seed).held(0) != Tile::E) ++seed;
  const Game g = Game::seeded(2, seed);
  const Move m = choose(PlayerView(g), kGreedy, 3).move;
  CHECK(m.placement == Placement{Cell{0, -1}, *Rotation::from_degrees(180)});
  CHECK(m.meeple == Port::S);
  Game after = g;
  REQUIRE_FALSE(after.play(m));
  CHECK(after.score(0) == 4);
}

TEST_CASE("bot kinds and levels by name") {
  CHECK(bot_kind_from_name("mcts") == BotKind::Mcts);
  CHECK(bot_kind_name(BotKind::Greedy) == "greedy");
  CHECK_FALSE(bot_kind_from_name("Mcts").has_value());
  CHECK(bot_level("easy", nullptr)->kind == BotKind::Greedy);
  const auto medium = bot_level("medium", [] { return std::int64_t{0}; });
  REQUIRE(medium.has_value());
  CHECK(medium->kind == BotKind::Mcts);
  CHECK(medium->think_ns == 300'000'000);
  CHECK(static_cast<bool>(medium->clock));
  CHECK(bot_level("hard", nullptr)->think_ns == 1'500'000'000);
  CHECK_FALSE(bot_level("expert", nullptr).has_value());
}

TEST_CASE("mcts stops at its think time on the injected clock") {
  const Game g = Game::seeded(2, 9);
  std::int64_t now = 0;
  BotSpec s = spec(BotKind::Mcts);
  s.think_ns = 1000;
  s.clock = [&now] { return now += 10; };  // 10 ns a reading: about 100 playouts
  const BotChoice c = choose(PlayerView(g), s, 1);
  check_legal(g, c);
  CHECK(c.playouts > 50);
  CHECK(c.playouts < 150);
}

}  // namespace carc::test
