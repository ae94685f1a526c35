// What anyone can see of the features on the board that matter to a score: every feature
// that holds a meeple, and the open cities that touch a farmer's field. For evaluations
// (the bots); the rules themselves never need this list.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "carc/core/game.hpp"

namespace carc {

// An empty cell a feature needs filled to complete.
struct OpenCell {
  Cell cell;
  std::uint8_t fitting;  // tiles still in the bag that fit there now, in some rotation
};

struct FeatureInfo {
  static constexpr int kMaxFeatures = 128;  // list_features() lists at most this many
  static constexpr int kMaxCells = 16;
  static constexpr int kMaxCities = 16;

  Kind kind = Kind::Road;
  std::uint8_t tiles = 0;     // distinct tiles (a monastery: 1)
  std::uint8_t pennants = 0;  // cities
  std::array<std::uint8_t, kMaxPlayers> meeples{};  // followers' strength per seat
  std::uint8_t marks = 0;                           // segment marks, or-ed (tiles.hpp)
  std::array<std::uint8_t, kMaxPlayers> figures{};  // per seat: bit per Figure standing in it
  // Roads and cities: open edges. Monasteries: empty cells around it. Fields: 0.
  std::uint8_t open = 0;
  // The distinct empty cells those open edges face (the first kMaxCells of them).
  std::uint8_t cell_count = 0;
  std::array<OpenCell, kMaxCells> cells{};
  // Fields: completed cities touching it, and the open ones as indexes into the list
  // (those cities are listed even without a meeple; the first kMaxCities of them).
  std::uint8_t completed_cities = 0;
  std::uint8_t city_count = 0;
  std::array<std::uint8_t, kMaxCities> cities{};
};

// Fills `out` (cleared first; its capacity is reused) with the features of `g` that hold a
// meeple, in board order, then the open cities their fields touch. Like every const query
// of a Game, this may write the game's internal caches: one thread at a time per Game.
void list_features(const Game& g, std::vector<FeatureInfo>& out);

}  // namespace carc
