// The greedy bot's estimate of a position: what each seat should end the game with, from
// the points it has, the features its meeples hold (how likely each is to complete, from
// the tiles left in the bag), its farms and the meeples it keeps in supply.
#pragma once

#include <array>
#include <vector>

#include "carc/core/expansions/traders/traders.hpp"
#include "carc/core/features.hpp"
#include "carc/core/game.hpp"

namespace carc::bots {

using Scores = std::array<double, kMaxPlayers>;

class Evaluator {
 public:
  // Expected final score per seat. A finished game's are its final scores.
  Scores expected(const Game& g);

  // How much better `me` stands than the best of the others.
  static double margin(const Scores& e, int players, Seat me);

 private:
  std::vector<FeatureInfo> features_;  // reused between calls
  const Ruleset* goods_rules_ = nullptr;  // the set goods_total_ was counted for
  std::array<int, traders::kGoodKinds> goods_total_{};  // goods tokens of each kind in the game
};

// The chance that a seat ends with the most goods tokens of a kind (a tie counts), leading
// the best other seat by `lead` (negative: behind) with `left` tokens not yet taken (on
// tiles to come and in open cities). With none left, 1 or 0.
double majority_chance(int lead, int left);

// What a builder standing in feature `f` (which closes with chance `p`) should still bring:
// an extra part, worth a few points, on each of the owner's `turns_own` turns whose tile
// fits one of the feature's open cells, at most one per open cell; none once `bag` is empty.
double builder_value(const FeatureInfo& f, double p, double turns_own, int bag);

}  // namespace carc::bots
