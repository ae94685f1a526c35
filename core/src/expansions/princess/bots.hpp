// What The Princess & the Dragon tells the search's estimate, tested on its own (docs/bots.md,
// "What the expansions tell the bots"); the rest is in bots.cpp.
#pragma once

#include "bots/bot_hooks.hpp"

namespace carc::bots {

// The dragon's threat to the figures near it: what each owner may lose, taken off `e`.
void princess_dragon_risk(const Game& g, Scores& e);

// The fairy taken back: while another seat has a follower on the board (it may move the
// fairy to it instead of placing a figure), the fairy's owner keeps only a share of what the
// estimate's `tokens` hook gives it for the fairy, plus its next turn's point when that turn
// comes first. The change is taken off (or added to) `e`.
void princess_fairy_taken_back(const Game& g, Scores& e);

}  // namespace carc::bots
