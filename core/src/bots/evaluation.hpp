// The greedy bot's estimate of a position: what each seat should end the game with, from
// the points it has, the features its meeples hold (how likely each is to complete, from
// the tiles left in the bag), its farms and the meeples it keeps in supply, and what the
// expansions in play add (bot_hooks.hpp).
#pragma once

#include <vector>

#include "bot_hooks.hpp"
#include "carc/core/features.hpp"
#include "carc/core/game.hpp"

namespace carc::bots {

class Evaluator {
 public:
  // `risks`: also take off what the expansions' threats to figures should cost
  // (BotPart::risk): the mcts bot's estimate. Greedy's has none.
  explicit Evaluator(bool risks = false) : risks_(risks) {}

  // Expected final score per seat. A finished game's are its final scores.
  Scores expected(const Game& g);

  // How much better `me` stands than the best of the others.
  static double margin(const Scores& e, int players, Seat me);

 private:
  std::vector<FeatureInfo> features_;  // reused between calls
  const Ruleset* rules_ = nullptr;     // the set hooks_ belong to
  const BotHooks* hooks_ = nullptr;
  bool risks_ = false;
};

}  // namespace carc::bots
