// Scores as they would stand now (players[].projected): what the end-of-game scoring would add to
// each seat if the game ended at this moment (unfinished roads, cities and monasteries,
// farms, and with the expansions their figures). It runs the engine's own end scoring
// (Game::finish) on a copy, so there is no second scorer to disagree with the first.
#pragma once

#include <array>

#include "carc/core/game.hpp"

namespace carc {

// Points per seat (0 beyond players(), and 0 for a game already finished).
std::array<int, kMaxPlayers> projected_points(const Game& g);

}  // namespace carc
