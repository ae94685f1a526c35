// An expansion as a part of the engine: the fixed points where the rules ask the
// expansions in play (../shared/expansions/README.md, "How the rules of several expansions
// combine"). A part fills in the hooks it needs and leaves the others null. Adding an
// expansion is a folder beside river/ and abbot/ and one line in registry.cpp.
//
// Hook points:
//   setup      the tile set, its piles, the start tile and the figures (Ruleset);
//   placement  the tiles this part places by its own rules (Ruleset::placer), listed,
//              checked and followed after placing (river.md);
//   action     what a placement may do instead of placing a figure (abbot.md's take-back).
// Tiles themselves are data (tiles.cpp); which tiles a game holds follows from the
// catalog's `expansion` and garden copies without a hook.
#pragma once

#include <optional>
#include <vector>

#include "carc/core/game.hpp"

namespace carc::detail {

struct Part {
  Expansion id;
  // Adjusts the ruleset after the generic tile set is made (counts, piles, start, figures).
  void (*setup)(Ruleset& rules) = nullptr;

  // Placement of the tiles this part is the placer of.
  int (*count_placements)(const Game& g, Tile t) = nullptr;
  Placement (*nth_placement)(const Game& g, Tile t, int k) = nullptr;
  bool (*allows)(const Game& g, Tile t, Placement p) = nullptr;
  // After a tile of this part is placed (the start tile included), before scoring.
  void (*placed)(Game& g, Tile t, Placement p) = nullptr;

  // The action a placement may make instead of a figure: the cell it names and its points
  // (nullopt: not offered), and doing it (after the tile is placed, before scoring).
  std::optional<Cell> (*offer)(const Game& g, Seat seat, Tile t, Placement p, int* points) = nullptr;
  void (*act)(Game& g, Seat seat, Cell cell, std::vector<Event>* events) = nullptr;
};

// Every part the engine knows, by Expansion (null for one not built yet).
const Part* part_of(Expansion e);

const Part& river_part();  // river/river.cpp
const Part& abbot_part();  // abbot/abbot.cpp

}  // namespace carc::detail
