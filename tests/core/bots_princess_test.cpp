// The computer players with The Princess & the Dragon (docs/bots.md, "What the expansions
// tell the bots"): every level plays whole games, alone and with all five expansions, with
// legal moves only, the dragon's steps included, and uses the fairy, the princess and the
// portal; greedy takes a princess's removal or a portal's figure when it clearly pays, and
// chooses the dragon's steps by its estimate.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "bots/evaluation.hpp"  // core/src: greedy's estimate
#include "bots/mcts_tree.hpp"   // core/src: the search's tree
#include "expansions/princess/bots.hpp"  // core/src: what the expansion tells the search
#include "carc/core/bot.hpp"
#include "carc/core/expansions/princess/princess.hpp"
#include "carc/core/player_view.hpp"
#include "carc/core/random_player.hpp"
#include "carc/protocol/record.hpp"
#include "support.hpp"
#include "../support/princess_example.hpp"

namespace carc::test {
namespace {

using nlohmann::json;

// What one level did over some games.
struct Usage {
  int games = 0;
  int steps = 0;
  int portals = 0;
  int fairies = 0;
  int princesses = 0;
};

BotSpec level(BotKind kind, int iterations) {
  BotSpec s;
  s.kind = kind;
  s.iterations = iterations;
  return s;
}

// Plays every seat (the steps inside a turn included) of seeded games with `spec`; each move
// must be one the rules accept from the seat that acts.
void play_games(const BotSpec& spec, ExpansionSet set, int players, std::uint64_t first_seed, int games, Usage& u) {
  for (int k = 0; k < games; ++k) {
    const std::uint64_t seed = first_seed + static_cast<std::uint64_t>(k);
    Game g = Game::seeded(players, seed, set);
    while (!g.finished()) {
      const BotChoice c = choose(PlayerView(g), spec, seed * 1000 + static_cast<std::uint64_t>(g.moves_played()) * 8 +
                                                          static_cast<std::uint64_t>(g.in_stage() ? g.stage_step() : 0));
      CAPTURE(seed);
      CAPTURE(g.moves_played());
      REQUIRE(std::holds_alternative<Applied>(apply(g, g.acting_seat(), c.move)));
      REQUIRE(error_name(g.play(c.move)) == "ok");
      u.steps += c.move.type == Move::Type::Step ? 1 : 0;
      u.portals += c.move.figure_cell ? 1 : 0;
      u.fairies += c.move.action_kind == princess::kFairyAction ? 1 : 0;
      u.princesses += c.move.action_kind == princess::kPrincessAction ? 1 : 0;
    }
    ++u.games;
  }
}

using example::princess_opening;

}  // namespace

TEST_CASE("every level plays princess games and all-five games to the end with legal moves, steps included") {
  for (const BotKind kind : {BotKind::Random, BotKind::Greedy, BotKind::Mcts}) {
    CAPTURE(bot_kind_name(kind));
    const BotSpec spec = level(kind, 40);
    Usage alone;
    Usage five;
    play_games(spec, kPrincessOnly, 2, 500, 3, alone);
    play_games(spec, kAllFive, 2, 600, 1, five);
    play_games(spec, kAllFive, 3, 700, 1, five);
    CHECK(alone.games == 3);
    CHECK(five.games == 2);
    CHECK(alone.steps + five.steps > 0);
    // Every level puts figures through the portal and moves the fairy over these games; the
    // princess needs her tile to join an occupied city, which greedy seeks out.
    CHECK(alone.portals + five.portals > 0);
    CHECK(alone.fairies + five.fairies > 0);
    if (kind == BotKind::Greedy) CHECK(alone.princesses + five.princesses > 0);
  }
}
TEST_CASE("every set of expansions with princess: two levels a game, every move legal to the end") {
  // The 16 sets that hold princess, each played once by two of the three levels (in turn),
  // so that each level meets every other expansion with the dragon, the fairy, the princess
  // and the portal.
  const std::array<BotSpec, 3> levels = {level(BotKind::Random, 0), level(BotKind::Greedy, 0), level(BotKind::Mcts, 10)};
  int games = 0;
  int steps = 0;
  for (int bits = 0; bits < (1 << kExpansionKinds); ++bits) {
    const ExpansionSet set = ExpansionSet::from_bits(static_cast<std::uint8_t>(bits));
    if (!set.has(Expansion::Princess)) continue;
    CAPTURE(bits);
    const std::array<const BotSpec*, 2> seats = {&levels[static_cast<std::size_t>(games % 3)],
                                                 &levels[static_cast<std::size_t>((games + 1) % 3)]};
    Game g = Game::seeded(2, 900 + static_cast<std::uint64_t>(bits), set);
    while (!g.finished()) {
      const Seat seat = g.acting_seat();
      const BotChoice c = choose(PlayerView(g), *seats[static_cast<std::size_t>(seat)], static_cast<std::uint64_t>(g.moves_played()));
      CAPTURE(g.moves_played());
      REQUIRE(std::holds_alternative<Applied>(apply(g, seat, c.move)));
      REQUIRE(error_name(g.play(c.move)) == "ok");
      steps += c.move.type == Move::Type::Step ? 1 : 0;
    }
    ++games;
  }
  CHECK(games == 16);
  CHECK(steps > 0);
}

namespace {

// Every move of `seat` placing `t` at `p`, listed from the rules' queries (Game): no figure,
// each figure's ports, the action instead of a figure, figures on other tiles, actions with
// a target.
std::vector<Move> every_move(const Game& g, Tile t, Placement p, Seat seat) {
  std::vector<Move> out{Move::place(t, p.cell, p.rotation)};
  std::vector<Spot> spots;
  for (int f = 0; f < kFigureKinds; ++f) {
    const auto figure = static_cast<Figure>(f);
    for (const Port port : g.figure_targets(t, p, seat, figure)) out.push_back(Move::place(t, p.cell, p.rotation, port, figure));
    g.figure_targets_elsewhere(t, p, seat, figure, spots);
    for (const Spot& s : spots) {
      Move m = Move::place(t, p.cell, p.rotation, s.port, figure);
      m.figure_cell = s.cell;
      out.push_back(m);
    }
  }
  if (const auto back = g.action_offer(t, p, seat)) out.push_back(Move::place_with_action(t, p.cell, p.rotation, *back));
  for (int kind = 1; kind < 8; ++kind) {
    if (((g.rules().target_kinds >> kind) & 1) == 0) continue;
    g.action_targets(t, p, seat, static_cast<std::uint8_t>(kind), spots);
    for (const Spot& s : spots) out.push_back(Move::place_with_target(t, p.cell, p.rotation, static_cast<std::uint8_t>(kind), s.cell, s.port));
  }
  return out;
}

// Positions of random games where the seat to move holds a tile of `symbol`, and the best
// move of one kind (`special`) beats every other move by at least `gap` points of greedy's
// estimate (the margin over the best other seat): there greedy must take a move of that kind.
template <typename Special>
void greedy_takes_when_it_pays(princess::Symbol symbol, Special special, double gap, int* found, int* taken) {
  bots::Evaluator eval;
  for (std::uint64_t seed = 1; seed <= 40 && *found < 6; ++seed) {
    Game g = Game::seeded(2, seed * 31337, kPrincessOnly);
    RandomPlayer player(seed);
    while (g.anyone_holds() && *found < 6) {
      const auto t = g.held(g.current_seat());
      if (!g.in_stage() && t && princess::symbol_of(*t) == symbol) {
        const Seat seat = g.current_seat();
        double best_special = -1e18;
        double best_other = -1e18;
        std::vector<Placement> placements;
        g.legal_placements(*t, placements);
        for (const Placement& p : placements) {
          for (const Move& m : every_move(g, *t, p, seat)) {
            Game next = g;
            REQUIRE(error_name(next.play(m)) == "ok");
            const double v = bots::Evaluator::margin(eval.expected(next), next.players(), seat);
            double& best = special(m) ? best_special : best_other;
            best = std::max(best, v);
          }
        }
        if (best_special > best_other + gap) {
          ++*found;
          const Move m = choose_move(PlayerView(g), level(BotKind::Greedy, 0), seed);
          CAPTURE(protocol::move_json(m).dump());
          CHECK(special(m));
          *taken += special(m) ? 1 : 0;
        }
      }
      REQUIRE_FALSE(g.play(player.choose(g)));
    }
  }
}

}  // namespace

TEST_CASE("greedy sends a knight home with the princess when that clearly pays") {
  int found = 0;
  int taken = 0;
  greedy_takes_when_it_pays(princess::Symbol::Princess, [](const Move& m) { return m.action_kind == princess::kPrincessAction; },
                            3.0, &found, &taken);
  CHECK(found >= 3);
  CHECK(taken == found);
}

TEST_CASE("greedy puts a figure through the portal when that clearly pays") {
  int found = 0;
  int taken = 0;
  greedy_takes_when_it_pays(princess::Symbol::Portal, [](const Move& m) { return m.figure_cell.has_value(); }, 3.0, &found,
                            &taken);
  CHECK(found >= 3);
  CHECK(taken == found);
}

TEST_CASE("greedy and mcts step the dragon onto the other seat's monk rather than onto their own tile") {
  // The worked example up to the dragon tile P12 (docs/expansions/princess-dragon.md): seat 0
  // steps from the volcano onto the start tile (its only option), then seat 1 chooses between
  // its own princess tile (0,-1) and seat 0's monastery with its monk (0,1).
  for (const BotKind kind : {BotKind::Greedy, BotKind::Mcts}) {
    CAPTURE(bot_kind_name(kind));
    for (std::uint64_t seed = 1; seed <= 6; ++seed) {
      Game g = princess_opening(7);
      REQUIRE(g.in_stage());
      REQUIRE(g.acting_seat() == 0);
      REQUIRE(error_name(g.play(choose_move(PlayerView(g), level(kind, 20), seed))) == "ok");
      REQUIRE(g.acting_seat() == 1);
      const Move m = choose_move(PlayerView(g), level(kind, 20), seed);
      CHECK(m.type == Move::Type::Step);
      CHECK(m.placement.cell == Cell{0, 1});
      REQUIRE(error_name(g.play(m)) == "ok");
    }
  }
}

TEST_CASE("the search steps the dragon onto the other seats' figures, not onto its own, ties at random") {
  // bots::BotPart::playout_step (core/src/expansions/princess/bots.cpp) in the worked
  // example's dragon move (docs/expansions/princess-dragon.md, entries 0-6): seat 1 steps
  // onto seat 0's monk (0,1) rather than onto the empty princess tile (0,-1); asked for seat
  // 0, the rule keeps off its own monk; among tiles without figures it picks at random.
  const auto rule = bots::bot_hooks(ruleset(kPrincessOnly)).playout_step;
  REQUIRE(static_cast<bool>(rule));
  const Cell monk{0, 1};
  const std::vector<Cell> two = {Cell{0, -1}, monk};
  const std::vector<Cell> empty = {Cell{0, -1}, Cell{-1, 0}, Cell{3, 0}};  // the princess, the volcano, the dragon tile
  std::set<std::size_t> picked;
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    Rng rng(seed);
    Game g = princess_opening(7);
    REQUIRE(g.in_stage());
    REQUIRE(g.acting_seat() == 0);
    CHECK(two[rule(g, two, rng)] == Cell{0, -1});  // seat 0: not onto its own monk
    std::vector<Cell> options;
    g.step_options(options);
    REQUIRE(error_name(g.play(Move::step(options[rule(g, options, rng)]))) == "ok");
    REQUIRE(g.acting_seat() == 1);
    g.step_options(options);
    REQUIRE(options.size() == 2);
    CHECK(options[rule(g, options, rng)] == monk);  // seat 1: onto seat 0's monk
    CHECK(two[rule(g, two, rng)] == monk);
    picked.insert(rule(g, empty, rng));
  }
  CHECK(picked.size() == 3);  // equal options are taken at random
}

TEST_CASE("a widened node opens its edges one by one as its visits grow") {
  // bots::Tree::select with `widen` (the root's figure choices of many targets, sorted by
  // greedy's estimate): 1 + sqrt(visits) edges open, the rest wait.
  bots::Tree tree;
  const std::uint32_t node = tree.add_turn();
  tree.nodes[node].first_edge = 0;
  tree.nodes[node].edge_count = 12;
  tree.edges.resize(12);
  for (std::uint32_t visit = 0; visit < 200; ++visit) {
    const std::uint32_t e = tree.select(node, 0.4, nullptr, true);
    REQUIRE(e < 12);
    CHECK(tree.nodes[node].tried <= 1 + static_cast<int>(std::sqrt(static_cast<double>(visit))));
    tree.edges[e].visits++;
    tree.edges[e].reward += e == 0 ? 1.0F : 0.0F;
    tree.nodes[node].visits++;
  }
  CHECK(tree.nodes[node].tried == 12);
  CHECK(tree.edges[0].visits > 100);  // the best edge, open from the start, takes most visits
  const std::uint32_t again = tree.add_turn();
  tree.nodes[again].first_edge = 0;
  tree.nodes[again].edge_count = 12;
  for (int k = 0; k < 12; ++k) CHECK(tree.select(again, 0.4) == static_cast<std::uint32_t>(k));  // not widened: every edge first
}

}  // namespace carc::test

namespace carc::test {

TEST_CASE("the search's estimate takes the dragon's threat off the owner of a figure near it, none under the fairy") {
  // bots::BotPart::risk (core/src/expansions/princess/bots.cpp) in the worked example before
  // the dragon tile P12 (docs/expansions/princess-dragon.md, entries 0-5): the dragon stands
  // on the volcano (-1,0), seat 0's monk two cells away at (0,1), seat 1's meeple on (1,0)
  // beside the fairy; seat 0 holds the dragon tile. Greedy's estimate knows no threat.
  Game g = princess_opening(6);
  REQUIRE_FALSE(g.in_stage());
  bots::Evaluator greedy;
  bots::Evaluator search(true);
  const bots::Scores plain = greedy.expected(g);
  const bots::Scores threatened = search.expected(g);
  CHECK(threatened[0] < plain[0] - 1.0);  // the monk may be eaten
  bots::Scores dragon{};
  bots::princess_dragon_risk(g, dragon);
  CHECK(dragon[0] < -1.0);
  CHECK(dragon[1] == 0.0);  // the fairy's tile is safe (seat 1's fairy itself is one seat 0 may take back)
  bots::Scores fairy{};
  bots::princess_fairy_taken_back(g, fairy);
  CHECK(threatened[1] == doctest::Approx(plain[1] + fairy[1]));
  // Before the first volcano the dragon is nowhere: no threat.
  const auto risk = bots::bot_hooks(ruleset(kPrincessOnly)).risk;
  REQUIRE(risk.size == 1);
  bots::Scores none{};
  risk.items[0](princess_opening(0), none);
  CHECK(none[0] == 0.0);
  CHECK(none[1] == 0.0);
  // Without the Princess & the Dragon the search's estimate is greedy's, number for number.
  const ExpansionSet four = ExpansionSet{}.with(Expansion::River).with(Expansion::Abbot).with(Expansion::Inns).with(Expansion::Traders);
  Game other = Game::seeded(2, 77, four);
  RandomPlayer player(77);
  for (int k = 0; k < 40 && !other.finished(); ++k) REQUIRE_FALSE(other.play(player.choose(other)));
  CHECK(bots::Evaluator(true).expected(other) == bots::Evaluator().expected(other));
}

TEST_CASE("mcts steps the dragon looking ahead to the move's end, where greedy looks one step ahead") {
  // In random all-five games, at every dragon step where the two differ: mcts's step, with
  // every seat then stepping the same way (bots::planned_step), leaves the acting seat at
  // least as well off at the move's end (by the search's estimate) as greedy's one-step
  // choice does, and strictly better somewhere.
  bots::Evaluator eval(true);
  auto after = [&](Game g, Cell first, Seat seat) {
    REQUIRE_FALSE(g.play(Move::step(first)));
    while (g.in_stage()) {
      const auto next = bots::planned_step(g, eval);
      REQUIRE(next.has_value());
      REQUIRE_FALSE(g.play(Move::step(*next)));
    }
    return bots::Evaluator::margin(eval.expected(g), g.players(), seat);
  };
  int differ = 0;
  int better = 0;
  for (std::uint64_t seed = 1; seed <= 12 && differ < 4; ++seed) {
    Game g = Game::seeded(2, seed, kAllFive);
    RandomPlayer player(seed);
    while (!g.finished()) {
      if (g.in_stage()) {
        bots::Evaluator one;
        const auto greedy_step = bots::best_step(g, one);
        const Move m = choose_move(PlayerView(g), level(BotKind::Mcts, 10), seed);
        REQUIRE(m.type == Move::Type::Step);
        REQUIRE(greedy_step.has_value());
        if (m.placement.cell != *greedy_step) {
          ++differ;
          const Seat seat = g.acting_seat();
          const double mine = after(g, m.placement.cell, seat);
          const double theirs = after(g, *greedy_step, seat);
          CHECK(mine >= theirs - 1e-9);
          better += mine > theirs + 1e-9 ? 1 : 0;
        }
      }
      REQUIRE_FALSE(g.play(player.choose(g)));
    }
  }
  CHECK(differ > 0);
  CHECK(better > 0);
}

}  // namespace carc::test
