// What Traders & Builders tells the computer players' estimate, tested on its own
// (docs/bots.md, "What the expansions tell the bots"); the rest is in bots.cpp.
#pragma once

#include "carc/core/features.hpp"

namespace carc::bots {

// The chance that a seat ends with the most goods tokens of a kind (a tie counts), leading
// the best other seat by `lead` (negative: behind) with `left` tokens not yet taken (on
// tiles to come and in open cities). With none left, 1 or 0.
double majority_chance(int lead, int left);

// What a builder standing in feature `f` (which closes with chance `p`) should still bring:
// an extra part, worth a few points, on each of the owner's `turns_own` turns whose tile
// fits one of the feature's open cells, at most one per open cell; none once `bag` is empty.
double builder_value(const FeatureInfo& f, double p, double turns_own, int bag);

}  // namespace carc::bots
