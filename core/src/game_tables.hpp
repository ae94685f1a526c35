// The engine's private tables and small helpers, shared by its translation units
// (game.cpp: setup and turns; game_queries.cpp: legality and the board; game_segments.cpp:
// what a placement touches; game_features.cpp: the feature forest; game_scoring.cpp: scoring;
// game_figures.cpp: the figures on the board). Not part of the public API.
#pragma once

#include <array>
#include <cstdint>

#include "carc/core/game.hpp"

namespace carc::detail {

constexpr std::uint8_t kNoSeg = 0xFF;
constexpr std::array<std::uint8_t, 16> kSidesOf = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};

// Per tile kind and rotation, everything placement and feature tracking need, in board
// orientation, computed once.
struct Oriented {
  std::uint8_t edges;                                   // 2 bits of Terrain per board side (exclusive: 0)
  std::uint8_t exclusive;                               // bit per board side of Terrain::Exclusive
  std::array<std::uint8_t, kPortCount> seg_at;          // board port -> segment (or kNoSeg)
  std::array<std::uint16_t, kMaxSegments> seg_ports;    // segment -> board ports
  std::array<Port, kMaxSegments> canonical;             // segment -> first board port
};

struct Tables {
  std::array<std::array<Oriented, 4>, kTileKinds> o{};
  // fits[tile][want]: bit r set when the tile at rotation r matches the constraint `want`
  // (2 bits of Terrain per side, 0 where no tile touches).
  // Wants with Game::kExclusiveWant fit nothing, nor does a tile with an exclusive side (its part
  // places it).
  static constexpr int kWants = 512;
  std::array<std::array<std::uint8_t, kWants>, kTileKinds> fits{};
  std::array<std::array<std::uint8_t, kWants>, kTileKinds> fit_count{};  // popcount of fits
  std::array<std::uint8_t, kTileKinds> cloister_seg{};  // the cloister (is_cloister); kNoSeg if none
};

// Built once, before main (game_tables.cpp).
extern const Tables kTables;

inline const Oriented& oriented(Tile t, int rotation) {
  return kTables.o[static_cast<std::size_t>(t)][static_cast<std::size_t>(rotation)];
}

constexpr Terrain edge(std::uint8_t edges, int side) { return static_cast<Terrain>((edges >> (2 * side)) & 3); }

inline Cell cell_of(const Game::FrontierCell& f) { return Cell{f.x, f.y}; }

}  // namespace carc::detail
