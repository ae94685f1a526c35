// Tiles, ports, rotations, figures and the tile catalog: the base game (docs/tiles.md) and what
// the expansions add to it (docs/expansions.md). The expansions themselves are listed in
// expansions/list.hpp; their tiles, figures and marks are in their own folders.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "carc/core/expansions/each.hpp"

namespace carc {

// Every tile kind the engine knows. The underlying value is the catalog index, never put
// on the wire: use tile_name() / tile_from_name(). Base letters first, then the expansions'
// tiles (each expansion's tiles.hpp gives their data), then the copies of tiles that an
// expansion adds a segment to.
enum class Tile : std::uint8_t {
  A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P, Q, R, S, T, U, V, W, X,
  RS, RL, R1, R2, R3, R4, R5, R6, R7, R8,
  I1, I2, I3, I4, I5, I6, I7, I8, I9, I10, I11, I12, I13, I14, I15, I16, I17,
  T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12, T13, T14, T15, T16, T17, T18, T19, T20, T21, T22, T23, T24,
  Eg, Hg, Ig, Mg, Ng, Rg, Ug, Vg, R6g, I3g, I15g, T8g, T11g,
  // Added after the first copies (values are kept in stored history: never renumber).
  P1, P2, P3, P4, P5, P6, P7, P8, P9, P10, P11, P12, P13, P14, P15, P16, P17, P18, P19, P20, P21, P22, P23, P24,
  P25, P26, P27, P28, P29,
  P7g, P28g,
};
inline constexpr int kTileKinds = 119;
inline constexpr int kBaseTileKinds = 24;
inline constexpr int kTileCount = 72;   // the base game, including the start tile
inline constexpr int kBagSize = 71;     // the base game's bag, without the start tile
// The most tiles one game can hold (every expansion together), start tile included.
inline constexpr int kMaxTilesInGame = 160;
// Seats a game can have (an expansion may allow a sixth player); a ruleset says how many its
// game allows (Ruleset::max_players: 5 unless an expansion raises it).
inline constexpr int kMaxPlayers = 6;
inline constexpr int kMaxPlayersBase = 5;
inline constexpr int kMinPlayers = 2;
inline constexpr int kMeeplesPerPlayer = 7;

std::string_view tile_name(Tile t);  // "A", "RS", "Eg", ...
std::optional<Tile> tile_from_name(std::string_view s);

// The expansions (docs/expansions.md), from the list (expansions/list.hpp). A set of them is a
// bit mask.
#define CARC_EXPANSION_ENUMERATOR(Name, id) Name,
enum class Expansion : std::uint8_t { CARC_EACH_EXPANSION(CARC_EXPANSION_ENUMERATOR) };
#undef CARC_EXPANSION_ENUMERATOR
inline constexpr int kExpansionKinds = CARC_EXPANSION_COUNT;
std::string_view expansion_name(Expansion e);  // its folder's name, as in records
std::optional<Expansion> expansion_from_name(std::string_view s);

class ExpansionSet {
 public:
  constexpr ExpansionSet() = default;
  static constexpr ExpansionSet from_bits(std::uint8_t bits) { return ExpansionSet(bits); }
  constexpr bool has(Expansion e) const { return (bits_ >> static_cast<int>(e)) & 1; }
  constexpr ExpansionSet with(Expansion e) const {
    return ExpansionSet(static_cast<std::uint8_t>(bits_ | (1u << static_cast<int>(e))));
  }
  constexpr std::uint8_t bits() const { return bits_; }
  constexpr bool empty() const { return bits_ == 0; }
  constexpr bool operator==(const ExpansionSet&) const = default;

 private:
  constexpr explicit ExpansionSet(std::uint8_t b) : bits_(b) {}
  std::uint8_t bits_ = 0;
};

// A side of a tile or a direction on the board. Values are the clockwise order from north.
enum class Side : std::uint8_t { N = 0, E = 1, S = 2, W = 3 };

// Where a feature touches: a side (city, road or an exclusive side's feature), a field half,
// the centre (monastery), a second centre feature (G: an expansion's cloister-like feature)
// or a field touching no side (I) (docs/tiles.md).
// Order: N E S W, then the halves clockwise from the north-west corner, then C, G, I.
enum class Port : std::uint8_t { N, E, S, W, NL, NR, EL, ER, SL, SR, WL, WR, C, G, I };
inline constexpr int kPortCount = 15;
std::string_view port_name(Port p);
std::optional<Port> port_from_name(std::string_view s);

// Clockwise rotation in quarter turns.
class Rotation {
 public:
  constexpr Rotation() = default;
  static constexpr Rotation quarters(int q) { return Rotation(static_cast<std::uint8_t>(((q % 4) + 4) % 4)); }
  static std::optional<Rotation> from_degrees(long long degrees);
  constexpr int quarter_turns() const { return q_; }
  constexpr int degrees() const { return q_ * 90; }
  constexpr bool operator==(const Rotation&) const = default;

 private:
  constexpr explicit Rotation(std::uint8_t q) : q_(q) {}
  std::uint8_t q_ = 0;
};

// Rotating a port clockwise: N->E->S->W, NL->EL->SL->WL, NR->ER->SR->WR; C, G, I stay.
constexpr Port rotate(Port p, Rotation r) {
  const int v = static_cast<int>(p);
  const int q = r.quarter_turns();
  if (v < 4) return static_cast<Port>((v + q) % 4);
  if (v < 12) return static_cast<Port>(4 + (v - 4 + 2 * q) % 8);
  return p;
}
constexpr Port unrotate(Port p, Rotation r) { return rotate(p, Rotation::quarters(4 - r.quarter_turns())); }

// The port of the neighbour that touches port p across its edge (N<->S, NL<->SR, ...).
constexpr Port across(Port p) {
  const int v = static_cast<int>(p);
  if (v < 4) return static_cast<Port>((v + 2) % 4);
  if (v < 12) {
    const int h = v - 4;
    const int side = h / 2;
    const int lr = h % 2;
    return static_cast<Port>(4 + ((side + 2) % 4) * 2 + (1 - lr));
  }
  return p;
}

// Side terrains. Exclusive: a side that matches only an exclusive side and that no tile of
// the land bag may touch; the tiles that have one are placed by their expansion's part
// (Ruleset::placer), which names it (docs/expansions.md). It packs as 0 in the engine's 2-bit
// edge codes (it constrains nothing a land tile could match); the engine tracks it apart.
enum class Terrain : std::uint8_t { Exclusive = 0, Field = 1, Road = 2, City = 3 };
// Feature kinds. Besides the base game's four: Cloister, a one-tile feature other than the
// monastery scored like one (by the 8 cells around it), and Unscored, the feature along
// exclusive sides, which no figure takes and nothing scores. An expansion that uses one
// names it (docs/expansions.md).
enum class Kind : std::uint8_t { Road, City, Monastery, Field, Cloister, Unscored };
std::string_view kind_name(Kind k);        // "road", "city", "monastery", "field", or its expansion's name
std::string_view terrain_name(Terrain t);  // "field", "road", "city", or its expansion's name
// A one-tile feature scored by the 8 cells around it.
constexpr bool is_cloister(Kind k) { return k == Kind::Monastery || k == Kind::Cloister; }

// Figures (docs/expansions.md). The meeple is the one every game has; the others are the
// expansions' (their headers give their values, 1 to kFigureKinds - 1, which are kept in
// moves and records), named through the registry.
enum class Figure : std::uint8_t { Meeple };
inline constexpr int kFigureKinds = 5;
std::string_view figure_name(Figure f);  // "meeple", or its expansion's name for it
std::optional<Figure> figure_from_name(std::string_view s);

// One feature drawn on a tile, in catalog orientation.
struct Segment {
  Kind kind;
  std::uint16_t ports;       // bit i set = touches Port(i)
  bool pennant;              // coat of arms (cities)
  std::uint8_t cities;       // fields: bit k set = touches segment k (a city) on this tile
  std::uint8_t marks = 0;    // what the expansions print on it: each owns its bits (docs/expansions.md)
};

inline constexpr int kMaxSegments = 8;  // segment masks are one byte
// Segments of the 72 base tiles together (count x segments, summed over the catalog).
inline constexpr int kSegmentsInSet = 243;

struct TileDef {
  Tile tile;
  std::string_view name;
  std::optional<Expansion> expansion;  // nullopt: a base tile
  Tile plain;                          // a copy (the tile with segments added): the tile it copies; else itself
  int count;                           // copies in its own set (D includes the start tile)
  std::array<Terrain, 4> sides;        // N E S W
  std::array<Segment, kMaxSegments> segments;
  int segment_count;

  constexpr bool is_copy() const { return plain != tile; }
};

namespace detail {
extern const std::array<TileDef, kTileKinds> kCatalogTable;  // tiles.cpp
}
// Inline: the rules ask for a tile's definition on every placement and every check.
inline const TileDef& tile_def(Tile t) { return detail::kCatalogTable[static_cast<std::size_t>(t)]; }
std::span<const TileDef, kTileKinds> catalog();
// The most feature-forest nodes one game can need (every expansion together).
inline constexpr int kMaxNodesInGame = 600;  // every segment of every expansion together

// The base game's start tile: a D at (0, 0), rotation 0. An expansion may replace it.
inline constexpr Tile kStartTile = Tile::D;

}  // namespace carc
