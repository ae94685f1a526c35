// What The Princess & the Dragon tells the computer players (docs/bots.md, "What the
// expansions tell the bots"): what the fairy should still bring the owner of the follower it
// stands by. The base bots see the fairy's move, the princess and the portal among the
// targets of a placement (bots.hpp, for_each_target) and choose the dragon's steps with
// their estimate (steps.cpp); this part only says what the fairy is worth.
#include <algorithm>

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

}  // namespace

const BotPart& princess_bot_part() {
  static constexpr BotPart part{.id = Expansion::Princess, .tokens = fairy};
  return part;
}

}  // namespace carc::bots
