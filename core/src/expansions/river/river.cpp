// The River (docs/expansions/river.md): the spring starts the game, the river stack
// (the lake last) lies on the land bag, and a river tile continues the river at its open
// end without a U-turn or a third turn the same way.
#include <cstring>

#include "carc/core/expansions/river/river.hpp"
#include "expansions/part.hpp"
#include "game_tables.hpp"

namespace carc::detail {

using namespace carc::river;

const Part& river_part();  // below

namespace {

// The river's state, in the game's part state bytes [0, 8).
struct RiverState {
  std::uint8_t active;  // 1 while the river has an open end
  std::int8_t x, y;     // the empty cell at the open end
  std::uint8_t flow;    // the side the river leaves its last tile through (a Side)
  std::int8_t last;     // the turn of the last river tile: -1 left, 0 straight (or spring), 1 right
  std::int8_t curve1;   // the last curve's turn (0: none yet) ...
  std::int8_t curve2;   // ... and the one before
};
constexpr std::size_t kOffset = 0;
static_assert(kOffset + sizeof(RiverState) <= Game::kPartStateBytes);

RiverState load(const Game& g) {
  RiverState s;
  std::memcpy(&s, g.part_state().data() + kOffset, sizeof s);
  return s;
}
void store(Game& g, const RiverState& s) { std::memcpy(g.part_state().data() + kOffset, &s, sizeof s); }

constexpr int opposite(int side) { return (side + 2) % 4; }

// The turn a river tile at rotation `r` makes when the river flows in through `in`:
// -1, 0, 1, or 2 when it has no way out (the lake), or kNoWay when `in` is not a river side.
constexpr int kLake = 2;
constexpr int kNoWay = 3;
int turn_of(const Oriented& o, int in) {
  if (((o.exclusive >> in) & 1) == 0) return kNoWay;
  const int out_mask = o.exclusive & ~(1 << in);
  if (out_mask == 0) return kLake;
  const int flow = opposite(in);  // the direction the river flows on entering
  for (int side = 0; side < 4; ++side) {
    if (((out_mask >> side) & 1) == 0) continue;
    if (side == flow) return 0;
    return side == (flow + 1) % 4 ? 1 : -1;
  }
  return kNoWay;
}

bool allows(const Game& g, Tile t, Placement p) {
  const RiverState s = load(g);
  if (s.active == 0 || p.cell.x != s.x || p.cell.y != s.y) return false;  // rule 1
  const Oriented& o = oriented(t, p.rotation.quarter_turns());
  const int turn = turn_of(o, opposite(s.flow));
  if (turn == kNoWay) return false;
  if (turn == 1 || turn == -1) {
    if (s.last == turn) return false;                          // rule 2a: no U-turn
    if (s.curve1 == turn && s.curve2 == turn) return false;    // rule 2b: no third turn the same way
  }
  // Every touching edge matches, a river side only a river side.
  for (int side = 0; side < 4; ++side) {
    const int n = g.placed_at(neighbour(p.cell, static_cast<Side>(side)));
    if (n < 0) continue;
    const Game::Placed& np = g.placed(n);
    const Oriented& no = oriented(np.tile, np.rotation);
    if (edge(o.edges, side) != edge(no.edges, opposite(side))) return false;
    if (((o.exclusive >> side) & 1) != ((no.exclusive >> opposite(side)) & 1)) return false;
  }
  return true;
}

int count_placements(const Game& g, Tile t) {
  const RiverState s = load(g);
  int n = 0;
  for (int r = 0; r < 4; ++r) n += allows(g, t, Placement{Cell{s.x, s.y}, Rotation::quarters(r)}) ? 1 : 0;
  return n;
}

Placement nth_placement(const Game& g, Tile t, int k) {
  const RiverState s = load(g);
  for (int r = 0; r < 4; ++r) {
    const Placement p{Cell{s.x, s.y}, Rotation::quarters(r)};
    if (allows(g, t, p) && k-- == 0) return p;
  }
  return Placement{};
}

void placed(Game& g, Tile t, Placement p) {
  RiverState s = load(g);
  const Oriented& o = oriented(t, p.rotation.quarter_turns());
  const bool spring = s.active == 0 && g.placed_count() == 1;
  int out = -1;
  int turn = 0;
  if (spring) {
    for (int side = 0; side < 4; ++side) {
      if ((o.exclusive >> side) & 1) out = side;
    }
  } else {
    const int in = opposite(s.flow);
    turn = turn_of(o, in);
    for (int side = 0; side < 4; ++side) {
      if (side != in && ((o.exclusive >> side) & 1)) out = side;
    }
  }
  if (out < 0) {  // the lake: the river is done
    s = RiverState{};
    store(g, s);
    return;
  }
  const Cell end = neighbour(p.cell, static_cast<Side>(out));
  s.active = 1;
  s.x = static_cast<std::int8_t>(end.x);
  s.y = static_cast<std::int8_t>(end.y);
  s.flow = static_cast<std::uint8_t>(out);
  s.last = static_cast<std::int8_t>(turn);
  if (turn != 0) {
    s.curve2 = s.curve1;
    s.curve1 = static_cast<std::int8_t>(turn);
  }
  store(g, s);
}

// A river side and the river along it are both named "river".
constexpr Named kNames[] = {{Named::What::Terrain, static_cast<std::uint8_t>(kRiverSide), "river"},
                            {Named::What::Kind, static_cast<std::uint8_t>(kRiverKind), "river"}};

// The spring starts the game and the base start tile D is out of it; the river stack
// (shuffled) is drawn first, then the lake, then the land bag.
void setup(Ruleset& r) {
  r.start = Tile::RS;
  r.counts[static_cast<std::size_t>(Tile::D)]--;
  r.piles = 3;
  for (int k = 0; k < kTileKinds; ++k) {
    const TileDef& d = tile_def(static_cast<Tile>(k));
    bool river_tile = false;
    for (const Terrain side : d.sides) river_tile = river_tile || side == kRiverSide;
    if (river_tile) r.placer[static_cast<std::size_t>(k)] = &river_part();
    r.pile[static_cast<std::size_t>(k)] = river_tile ? (d.tile == Tile::RL ? 1 : 0) : 2;
  }
}

}  // namespace

const Part& river_part() {
  static constexpr Part part{.id = Expansion::River,
                             .setup = &setup,
                             .count_placements = &count_placements,
                             .nth_placement = &nth_placement,
                             .allows = &allows,
                             .placed = &placed,
                             .names = kNames};
  return part;
}

}  // namespace carc::detail
