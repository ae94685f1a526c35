// The River and the Abbot in the engine, beyond the worked examples (tests/core/data):
// random games of every set replay from their records, the river keeps to its rules on
// every game, a player view keeps the piles in place, every bot level plays every set,
// and the medium player takes its abbot back when keeping it cannot pay.
#include <doctest/doctest.h>

#include <vector>

#include "carc/core/expansions/abbot/abbot.hpp"
#include "carc/core/expansions/river/river.hpp"
#include "carc/core/bot.hpp"
#include "carc/core/player_view.hpp"
#include "carc/core/random_player.hpp"
#include "support.hpp"

namespace carc::test {
namespace {

const ExpansionSet kRiver = ExpansionSet{}.with(Expansion::River);
const ExpansionSet kAbbot = ExpansionSet{}.with(Expansion::Abbot);
const ExpansionSet kBoth = kRiver.with(Expansion::Abbot);

bool is_river_tile(Tile t) {
  for (const Terrain side : tile_def(t).sides) {
    if (side == river::kRiverSide) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("expansion sets: tile sets and piles as the contracts count them") {
  CHECK(ruleset({}).bag_size == 71);
  CHECK(ruleset(kRiver).bag_size == 82);
  CHECK(ruleset(kRiver).start == Tile::RS);
  CHECK(ruleset(kRiver).counts[static_cast<std::size_t>(Tile::D)] == 3);
  CHECK(ruleset(kRiver).pile_size[0] == 10);
  CHECK(ruleset(kRiver).pile_size[1] == 1);
  CHECK(ruleset(kAbbot).bag_size == 71);
  CHECK(ruleset(kAbbot).counts[static_cast<std::size_t>(Tile::E)] == 4);
  CHECK(ruleset(kAbbot).counts[static_cast<std::size_t>(Tile::Eg)] == 1);
  CHECK(ruleset(kAbbot).counts[static_cast<std::size_t>(Tile::R6g)] == 0);  // only with the river
  CHECK(ruleset(kBoth).counts[static_cast<std::size_t>(Tile::R6)] == 1);
  CHECK(ruleset(kBoth).counts[static_cast<std::size_t>(Tile::R6g)] == 1);
  CHECK(ruleset({}).counts[static_cast<std::size_t>(Tile::Eg)] == 0);
}

TEST_CASE("random games of every set: the river first and by its rules, the lake 11th, replays agree") {
  for (const ExpansionSet set : {kRiver, kAbbot, kBoth}) {
    for (std::uint64_t seed = 1; seed <= 60; ++seed) {
      const int players = 2 + static_cast<int>(seed % 4);
      std::vector<Event> events;
      Game g = Game::seeded(players, seed, set, &events);
      RandomPlayer player(seed * 31);
      std::vector<Move> moves;
      int abbot_moves = 0;
      while (!g.finished()) {
        const Move m = player.choose(g);
        REQUIRE_FALSE(g.play(m, &events));
      }
      for (const Event& e : events) {
        if (const auto* p = std::get_if<TilePlaced>(&e)) {
          moves.push_back(move_of(*p));
          if (p->figure == abbot::kAbbot || p->action) ++abbot_moves;
        } else if (const auto* d = std::get_if<TileDiscarded>(&e)) {
          moves.push_back(Move::discard(d->tile));
          CHECK_FALSE(is_river_tile(d->tile));  // a river tile is always placeable
        }
      }
      CHECK(static_cast<int>(moves.size()) == ruleset(set).bag_size);
      if (set.has(Expansion::River)) {
        for (std::size_t i = 0; i < moves.size(); ++i) {
          CHECK(is_river_tile(moves[i].tile) == (i < 11));
        }
        CHECK(moves[10].tile == Tile::RL);
      }
      if (set.has(Expansion::Abbot)) CHECK(abbot_moves > 0);
      // The same moves replayed without the seed reach the same scores.
      Game r = Game::replay(players, set);
      for (const Move& m : moves) REQUIRE_FALSE(r.play(m));
      r.finish();
      for (Seat s = 0; s < players; ++s) CHECK(r.score(s) == g.score(s));
    }
  }
}

TEST_CASE("a player view shuffles each pile on its own: the river on top, the lake last") {
  Game g = Game::seeded(3, 5, kBoth);
  RandomPlayer player(9);
  for (int i = 0; i < 4; ++i) REQUIRE_FALSE(g.play(player.choose(g)));
  const PlayerView view(g);
  Rng rng(1);
  for (int k = 0; k < 20; ++k) {
    Game d = view.determinize(rng);
    RandomPlayer p(static_cast<std::uint64_t>(k));
    int placed = d.tiles_placed();
    while (!d.finished()) {
      const Move m = p.choose(d);
      if (m.type == Move::Type::Place) {
        ++placed;
        CHECK(is_river_tile(m.tile) == (placed <= 12));
        if (placed == 12) CHECK(m.tile == Tile::RL);
      }
      REQUIRE_FALSE(d.play(m));
    }
  }
}

TEST_CASE("every bot level plays river + abbot games to the end with legal moves") {
  for (const BotKind kind : {BotKind::Random, BotKind::Greedy, BotKind::Mcts}) {
    BotSpec spec;
    spec.kind = kind;
    spec.iterations = 40;
    Game g = Game::seeded(2, 77 + static_cast<std::uint64_t>(kind), kBoth);
    int figures = 0;
    while (!g.finished()) {
      const BotChoice c = choose(PlayerView(g), spec, static_cast<std::uint64_t>(g.moves_played()));
      if (c.move.figure == abbot::kAbbot || c.move.action) ++figures;
      REQUIRE_FALSE(g.play(c.move));
    }
    CAPTURE(bot_kind_name(kind));
    CHECK(figures > 0);
  }
}

TEST_CASE("the medium player takes its abbot back when keeping it cannot pay more") {
  // Positions from random river + abbot games where the seat to play has its abbot on a
  // cloister whose every empty cell around is one that no tile still to come (unseen, the
  // held one, or another seat's held tile) fits: its points can no longer change. Wherever
  // the player puts its tile, leaving the abbot there and placing no figure is then
  // dominated by taking it back (the same points now, and the abbot free for another
  // monastery or garden). The medium player (mcts, a fixed budget here so that the test
  // does not depend on the clock) never makes the dominated choice, nor does the easy one.
  // (Before mcts left dominated moves out of its tree, it made that choice once in 8: its
  // rewards are mostly wins, and both choices differ by a few points at most.)
  int positions = 0;
  int taken = 0;
  int dominated = 0;
  int dominated_greedy = 0;
  for (std::uint64_t seed = 1; seed < 600 && positions < 8; ++seed) {
    Game g = Game::seeded(2, seed, kBoth);
    RandomPlayer player(seed);
    while (!g.finished() && positions < 8) {
      const Seat seat = g.current_seat();
      const Tile t = *g.held(seat);
      std::vector<LegalMove> legal;
      g.legal_moves(legal);
      std::optional<Cell> at;
      for (const LegalMove& m : legal) {
        if (m.action) at = m.action;
      }
      bool stuck = false;
      if (at && g.bag_left() > 20) {
        auto counts = g.bag_counts();
        for (int o = 0; o < g.players(); ++o) {
          if (o == seat) continue;
          if (const auto h = g.held(o)) counts[static_cast<std::size_t>(*h)]++;
        }
        stuck = true;
        for (int dy = -1; dy <= 1 && stuck; ++dy) {
          for (int dx = -1; dx <= 1 && stuck; ++dx) {
            const Cell c{at->x + dx, at->y + dy};
            if ((dx == 0 && dy == 0) || g.tile_at(c)) continue;
            bool fits = false;
            for (int k = 0; k < kTileKinds && !fits; ++k) {
              if (counts[static_cast<std::size_t>(k)] == 0 && static_cast<Tile>(k) != t) continue;
              for (int r = 0; r < 4 && !fits; ++r) fits = g.is_legal_placement(static_cast<Tile>(k), Placement{c, Rotation::quarters(r)});
            }
            stuck = !fits;  // a cell that may still fill: the abbot's points may still grow
          }
        }
      }
      if (stuck) {
        ++positions;
        for (const BotKind kind : {BotKind::Greedy, BotKind::Mcts}) {
          BotSpec spec;
          spec.kind = kind;
          spec.iterations = 3000;
          const Move m = choose(PlayerView(g), spec, seed).move;
          if (m.action) ++taken;
          if (!m.action && !m.meeple && g.action_offer(m.tile, m.placement, seat)) {
            ++dominated;
            if (kind == BotKind::Greedy) ++dominated_greedy;
            MESSAGE(bot_kind_name(kind) << " left its abbot (seed " << seed << ")");
          }
        }
      }
      REQUIRE_FALSE(g.play(player.choose(g)));
    }
  }
  MESSAGE("positions " << positions << ", take-backs " << taken << ", dominated choices " << dominated);
  REQUIRE(positions >= 4);
  CHECK(taken > 0);
  CHECK(dominated_greedy == 0);
  CHECK(dominated == 0);
}

}  // namespace carc::test
