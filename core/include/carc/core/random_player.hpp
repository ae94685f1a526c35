// A player that picks uniformly among legal placements and, most of the time, puts a
// meeple on a random legal target. Used by `carcassonne random`, the benchmark and load tests.
#pragma once

#include <vector>

#include "carc/core/game.hpp"

namespace carc {

class RandomPlayer {
 public:
  explicit RandomPlayer(std::uint64_t seed) : rng_(seed) {}
  // The current seat's move; the game must be going on (some seat holds a tile).
  // Seeded games never need a discard move (they discard by themselves).
  Move choose(const Game& g);
  Rng& rng() { return rng_; }

 private:
  Rng rng_;
};

}  // namespace carc
