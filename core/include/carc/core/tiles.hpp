// Tiles, ports, rotations and the 72-tile catalog of the base game (tiles.md).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace carc {

// The 24 tile kinds A..X. The underlying value is the catalog index, never put on the wire:
// use tile_letter() / tile_from_letter().
enum class Tile : std::uint8_t { A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P, Q, R, S, T, U, V, W, X };
inline constexpr int kTileKinds = 24;
inline constexpr int kTileCount = 72;   // including the start tile
inline constexpr int kBagSize = 71;     // without the start tile
inline constexpr int kMaxPlayers = 5;
inline constexpr int kMinPlayers = 2;
inline constexpr int kMeeplesPerPlayer = 7;

char tile_letter(Tile t);
std::optional<Tile> tile_from_letter(std::string_view s);

// A side of a tile or a direction on the board. Values are the clockwise order from north.
enum class Side : std::uint8_t { N = 0, E = 1, S = 2, W = 3 };

// Where a feature touches: a side (city/road), a field half, or the centre (monastery).
// Order: N E S W, then the halves clockwise from the north-west corner, then C.
enum class Port : std::uint8_t { N, E, S, W, NL, NR, EL, ER, SL, SR, WL, WR, C };
inline constexpr int kPortCount = 13;
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

// Rotating a port clockwise: N->E->S->W, NL->EL->SL->WL, NR->ER->SR->WR, C stays.
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

enum class Terrain : std::uint8_t { Field = 1, Road = 2, City = 3 };
enum class Kind : std::uint8_t { Road, City, Monastery, Field };
std::string_view kind_name(Kind k);  // "road", "city", "monastery", "field"
std::string_view terrain_name(Terrain t);  // "field", "road", "city"

// One feature drawn on a tile, in catalog orientation.
struct Segment {
  Kind kind;
  std::uint16_t ports;       // bit i set = touches Port(i)
  bool pennant;              // coat of arms (cities)
  std::uint8_t cities;       // fields: bit k set = touches segment k (a city) on this tile
};

inline constexpr int kMaxSegments = 8;
// Segments of all 72 tiles together (count x segments, summed over the catalog).
inline constexpr int kSegmentsInSet = 243;

struct TileDef {
  Tile tile;
  int count;                          // copies in the 72-tile set (D includes the start tile)
  std::array<Terrain, 4> sides;       // N E S W
  std::array<Segment, kMaxSegments> segments;
  int segment_count;
};

const TileDef& tile_def(Tile t);
std::span<const TileDef, kTileKinds> catalog();

// The start tile: a D at (0, 0), rotation 0.
inline constexpr Tile kStartTile = Tile::D;

}  // namespace carc
