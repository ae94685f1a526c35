// The search loop of the mcts bot (mcts.cpp), shared with the game analysis
// (core/src/analysis/): information-set MCTS over sampled bag orders on one Tree.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>

#include "mcts_tree.hpp"

namespace carc::bots {

// What the analysis adds to a search. The bot passes none.
struct SearchHooks {
  // A root move (placement and target, bots.hpp) that every `forced_every`-th iteration
  // follows instead of UCB1's choice, so that the move a player made gets enough playouts
  // to be measured even when the search would rather look elsewhere.
  std::optional<std::pair<Placement, Target>> forced;
  int forced_every = 4;
  // Told every iteration's root meeple edge (the whole first move), whether it was forced,
  // and the finished game it led to.
  std::function<void(std::uint32_t meeple_edge, bool forced, const Game& end)> on_playout;
};

// Runs the search for the view's current seat into `tree` (root: node 0) within the
// budget of `spec`; returns the number of playouts.
int search(const PlayerView& view, const BotSpec& spec, Rng& rng, Tree& tree, const SearchHooks* hooks);

}  // namespace carc::bots
