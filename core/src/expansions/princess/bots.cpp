// What The Princess & the Dragon tells the computer players (docs/bots.md, "What the
// expansions tell the bots"): what the fairy should still bring the owner of the follower it
// stands by, how the search's walk and playouts steer the dragon, and what the dragon's
// threat to the figures near it costs in the search's estimate. The base bots see the
// fairy's move, the princess and the portal among the targets of a placement (bots.hpp,
// for_each_target) and choose the dragon's steps in play with their estimate (steps.cpp).
#include "expansions/princess/bots.hpp"

#include <algorithm>
#include <array>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <optional>

#include "carc/core/expansions/princess/princess.hpp"
#include "bots/bot_hooks.hpp"

namespace carc::bots {

using namespace carc::princess;
namespace {

constexpr double kFairyBonus = 3.0;       // paid when the follower's feature is scored, or at the end
constexpr double kFairyTurnShare = 0.5;   // of the owner's turns left, those the follower should stay for ...
constexpr double kFairyMostTurns = 4.0;   // ... and at most this many (a feature closes, a dragon comes)

// The follower the fairy stands by, if any.
std::optional<Game::Standing> fairy_follower(const Game& g) {
  const auto& state = g.part_state();
  const int tile = state[static_cast<std::size_t>(kStateFairy)];
  const int seg = state[static_cast<std::size_t>(kStateFairySeg)];
  if (tile == 0 || seg == 0 || tile == 0xFF || seg == 0xFF) return std::nullopt;
  return g.figure_at(tile - 1, seg - 1);
}

// What the fairy should bring its follower's owner if it stays: 3 points and a point at the
// start of each of the owner's turns (a share of them, at most kFairyMostTurns).
double fairy_value(const Game& g) {
  const double turns_own = static_cast<double>(g.bag_left()) / g.players();
  return kFairyBonus + std::min(kFairyMostTurns, kFairyTurnShare * turns_own);
}

void fairy(const Game& g, const BotTally& /*tally*/, Scores& e) {
  const auto f = fairy_follower(g);
  if (f) e[static_cast<std::size_t>(f->seat)] += fairy_value(g);
}

// The dragon's step in the search: the option whose tile holds the most of the other seats'
// figures against the acting seat's own (each counts its strength, at least 1), ties at
// random. Uniform steps, which eat anybody's figures alike, hid from the search what a
// figure near the dragon risks: each seat in turn steers it onto the others' figures, as
// the bots do in play (steps.cpp).
std::size_t playout_step(const Game& g, const std::vector<Cell>& options, Rng& rng) {
  const Seat me = g.acting_seat();
  const auto& strength = g.rules().strength;
  int best = INT_MIN;
  std::uint32_t ties = 0;
  std::size_t chosen = 0;
  for (std::size_t i = 0; i < options.size(); ++i) {
    const int index = g.placed_at(options[i]);
    int v = 0;
    const int segments = tile_def(g.placed(index).tile).segment_count;
    for (int seg = 0; seg < segments; ++seg) {
      const auto f = g.figure_at(index, seg);
      if (!f) continue;
      const int w = std::max<int>(1, strength[static_cast<std::size_t>(f->figure)]);
      v += f->seat == me ? -w : w;
    }
    if (v > best) {
      best = v;
      chosen = i;
      ties = 1;
    } else if (v == best && rng.below(++ties) == 0) {
      chosen = i;
    }
  }
  return chosen;
}

// The dragon's threat, for the search's estimate (BotPart::risk): each figure within six
// steps of the dragon (the distance in cells), off the fairy's tile, may be eaten when a
// dragon tile comes. The other seats steer the dragon on every other step, so the nearer
// the figure the likelier: kReach[d] a dragon move. The dragon moves the search expects
// before a figure's feature scores: the dragon tiles held and those among the next
// kRiskTiles draws. Each figure at risk costs its owner kFigureRisk points a unit of
// strength (at least 1) times the chance it is eaten.
constexpr std::array<double, kDragonSteps + 1> kReach{0.0, 0.6, 0.4, 0.25, 0.12, 0.05, 0.02};
constexpr double kRiskTiles = 10.0;
constexpr double kFigureRisk = 3.0;

}  // namespace

void princess_dragon_risk(const Game& g, Scores& e) {
  const auto& state = g.part_state();
  const int dragon = state[static_cast<std::size_t>(kStateDragon)];
  if (dragon == 0 || dragon == 0xFF) return;
  const int fairy = state[static_cast<std::size_t>(kStateFairy)];
  const auto counts = g.bag_counts();
  int bag_dragons = 0;
  for (int k = 0; k < kTileKinds; ++k) {
    if (counts[static_cast<std::size_t>(k)] != 0 && symbol_of(static_cast<Tile>(k)) == Symbol::Dragon) bag_dragons += counts[static_cast<std::size_t>(k)];
  }
  double moves = 0;
  for (Seat s = 0; s < g.players(); ++s) {
    const auto held = g.held(s);
    if (held && symbol_of(*held) == Symbol::Dragon) moves += 1.0;
  }
  const int bag = g.bag_left();
  if (bag > 0) moves += bag_dragons * std::min(1.0, kRiskTiles / bag);
  if (moves <= 0) return;
  const Game::Placed& at = g.placed(dragon - 1);
  const auto& strength = g.rules().strength;
  g.for_each_standing([&](const Game::Standing& f) {
    if (f.tile + 1 == fairy) return;
    const Game::Placed& p = g.placed(f.tile);
    const int d = std::abs(p.x - at.x) + std::abs(p.y - at.y);
    if (d == 0 || d > kDragonSteps) return;
    const double eaten = 1.0 - std::pow(1.0 - kReach[static_cast<std::size_t>(d)], moves);
    const int w = std::max<int>(1, strength[static_cast<std::size_t>(f.figure)]);
    e[static_cast<std::size_t>(f.seat)] -= kFigureRisk * w * eaten;
  });
}

namespace {

// The fairy taken back (the search's estimate only): a seat with a follower of its own on the
// board may move the fairy to it instead of placing a figure, and does so whenever the
// estimate rates the fairy above the figure. Both bots then took it back in most turns (some
// 60 of 75): the fairy's owner does not keep it to its next turn, its point a turn never
// comes and the figures are not placed. So while another seat has a follower on the board,
// the fairy is worth kContestedShare of what it would bring if it stayed, plus the point of
// its owner's turn when that turn comes next (nobody can move it before). Half, not less:
// a fairy left to a seat that takes it back every turn gives that seat its point a turn and
// its turns free for figures; at a quarter the search left it to greedy in some 15 turns a
// game, which scored greedy 12.7 fairy points a game against its own 2.8 (docs/bots-measured.md).
constexpr double kContestedShare = 0.5;

}  // namespace

void princess_fairy_taken_back(const Game& g, Scores& e) {
  const auto f = fairy_follower(g);
  if (!f) return;
  const auto& strength = g.rules().strength;
  bool contested = false;
  g.for_each_standing([&](const Game::Standing& s) {
    contested = contested || (s.seat != f->seat && strength[static_cast<std::size_t>(s.figure)] > 0);
  });
  if (!contested) return;
  const double full = fairy_value(g);
  double kept = kContestedShare * full;
  if (g.current_seat() == f->seat && !g.in_stage()) kept += 1.0;
  e[static_cast<std::size_t>(f->seat)] += kept - full;
}

namespace {

// The search's root guide at twice the base game's weight (root_guide.hpp): with all five, a
// root of hundreds of moves (the fairy's, the portal's destinations) leaves each a few
// playouts, and the estimate, which knows the fairy's and the dragon's worth, should decide
// longer among them (docs/bots-measured.md).
constexpr double kGuideWeightHere = 1.0;

void risk(const Game& g, Scores& e) {
  princess_dragon_risk(g, e);
  princess_fairy_taken_back(g, e);
}

}  // namespace

const BotPart& princess_bot_part() {
  static constexpr BotPart part{
      .id = Expansion::Princess, .tokens = fairy, .guide_weight = kGuideWeightHere, .playout_step = playout_step, .risk = risk};
  return part;
}

}  // namespace carc::bots
