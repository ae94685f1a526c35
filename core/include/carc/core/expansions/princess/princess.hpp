// The Princess & the Dragon (docs/expansions/princess-dragon.md): what each of its tiles
// shows, its actions instead of a figure, its events, and where it keeps its state.
#pragma once

#include <cstdint>

#include "carc/core/tiles.hpp"

namespace carc::princess {

// What a tile shows besides its features.
enum class Symbol : std::uint8_t { None, Volcano, Dragon, Portal, Princess };

constexpr Symbol symbol_of(Tile t) {
  const int v = static_cast<int>(t);
  const int first = static_cast<int>(Tile::P1);
  if (t == Tile::P7g) return Symbol::Dragon;
  if (t == Tile::P28g) return Symbol::Princess;
  if (v < first || v > static_cast<int>(Tile::P29)) return Symbol::None;
  const int n = v - first + 1;  // P<n>
  if (n <= 6) return Symbol::Volcano;
  if (n <= 17) return Symbol::Dragon;
  if (n <= 23) return Symbol::Portal;
  return Symbol::Princess;
}
// The princess city of a princess tile: segment 0 on every one (P25: its north city).
inline constexpr std::uint8_t kPrincessCitySeg = 0;

// Actions instead of a figure (Move::action_kind; kept in moves: never renumber).
inline constexpr std::uint8_t kFairyAction = 1;
inline constexpr std::uint8_t kPrincessAction = 2;

// The dragon's most steps in one move.
inline constexpr int kDragonSteps = 6;

// ExpansionEvent kinds.
enum class EventKind : std::uint8_t {
  DragonFlew,         // cell: the volcano it flew to
  DragonTilesJoined,  // arg: how many dragon tiles joined the bag
  DragonStep,         // seat: who chose; cell: where to; values[0..1]: from x, y
  Eaten,              // seat: the owner; cell: the tile; arg: the figure; values[0]: its port + 1
  FairyMoved,         // seat: who moved it; cell: the follower's tile; arg: its port
  FairyPoint,         // seat: +points at the start of the turn
  FairyBonus,         // seat: +points when the follower's feature scored
  SentHome,           // seat: the knight's owner; cell, arg (port); values[0]: the seat that used the princess
  LonelyReturned,     // seat: the owner; cell; arg: the figure (one left without its owner's follower)
};

// Part state bytes (Game::part_state()) the princess owns.
inline constexpr int kStateDragon = 32;    // the dragon's placed-tile index, 0xFF: beside the board
inline constexpr int kStateFairy = 33;     // the fairy's placed-tile index, 0xFF: beside the board
inline constexpr int kStateFairySeg = 34;  // the segment of the follower it stands by, 0xFF: nobody
inline constexpr int kStateSteps = 35;     // steps made in the current move
inline constexpr int kStateVisited = 36;   // 7 bytes: the tiles visited in this move (start first)
inline constexpr int kStateJoined = 43;    // 1 once the dragon tiles joined the bag

}  // namespace carc::princess
