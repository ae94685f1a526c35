// What The Princess & the Dragon tells the computer players (docs/bots.md, "What the
// expansions tell the bots"): what the fairy should still bring the owner of the follower it
// stands by, and how the search's walk and playouts steer the dragon. The base bots see the
// fairy's move, the princess and the portal among the targets of a placement (bots.hpp,
// for_each_target) and choose the dragon's steps in play with their estimate (steps.cpp).
#include <algorithm>
#include <climits>

#include "carc/core/expansions/princess/princess.hpp"
#include "bots/bot_hooks.hpp"

namespace carc::bots {

using namespace carc::princess;
namespace {

constexpr double kFairyBonus = 3.0;       // paid when the follower's feature is scored, or at the end
constexpr double kFairyTurnShare = 0.5;   // of the owner's turns left, those the follower should stay for ...
constexpr double kFairyMostTurns = 4.0;   // ... and at most this many (a feature closes, a dragon comes)

// The fairy's follower's owner gets its 3 points and a point at the start of each of its
// turns while the follower stays.
void fairy(const Game& g, const BotTally& /*tally*/, Scores& e) {
  const auto& state = g.part_state();
  const int tile = state[static_cast<std::size_t>(kStateFairy)];
  const int seg = state[static_cast<std::size_t>(kStateFairySeg)];
  if (tile == 0 || seg == 0 || tile == 0xFF || seg == 0xFF) return;
  const auto f = g.figure_at(tile - 1, seg - 1);
  if (!f) return;
  const double turns_own = static_cast<double>(g.bag_left()) / g.players();
  e[static_cast<std::size_t>(f->seat)] += kFairyBonus + std::min(kFairyMostTurns, kFairyTurnShare * turns_own);
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

}  // namespace

const BotPart& princess_bot_part() {
  static constexpr BotPart part{.id = Expansion::Princess, .tokens = fairy, .playout_step = playout_step};
  return part;
}

}  // namespace carc::bots
