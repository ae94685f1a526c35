#include "carc/core/game.hpp"

#include <algorithm>
#include <bit>

namespace carc {
namespace {

constexpr std::uint8_t kNoSeg = 0xFF;
constexpr std::array<std::uint8_t, 16> kSidesOf = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};

// Per tile kind and rotation, everything placement and feature tracking need, in board
// orientation, computed once.
struct Oriented {
  std::uint8_t edges;                                   // 2 bits of Terrain per board side
  std::array<std::uint8_t, kPortCount> seg_at;          // board port -> segment (or kNoSeg)
  std::array<std::uint16_t, kMaxSegments> seg_ports;    // segment -> board ports
  std::array<Port, kMaxSegments> canonical;             // segment -> first board port
};

struct Tables {
  std::array<std::array<Oriented, 4>, kTileKinds> o{};
  // fits[tile][want]: bit r set when the tile at rotation r matches the constraint `want`
  // (2 bits of Terrain per side, 0 where no tile touches).
  std::array<std::array<std::uint8_t, 256>, kTileKinds> fits{};
  std::array<std::array<std::uint8_t, 256>, kTileKinds> fit_count{};  // popcount of fits
  std::array<std::uint8_t, kTileKinds> monastery_seg{};  // kNoSeg if none
};

Tables make_tables() {
  Tables t{};
  for (int k = 0; k < kTileKinds; ++k) {
    const TileDef& d = tile_def(static_cast<Tile>(k));
    t.monastery_seg[static_cast<std::size_t>(k)] = kNoSeg;
    for (int r = 0; r < 4; ++r) {
      const Rotation rot = Rotation::quarters(r);
      Oriented& o = t.o[static_cast<std::size_t>(k)][static_cast<std::size_t>(r)];
      o.seg_at.fill(kNoSeg);
      o.edges = 0;
      for (int side = 0; side < 4; ++side) {
        const int catalog_side = (side - r + 4) % 4;
        o.edges = static_cast<std::uint8_t>(
            o.edges | (static_cast<int>(d.sides[static_cast<std::size_t>(catalog_side)]) << (2 * side)));
      }
      for (int s = 0; s < d.segment_count; ++s) {
        const Segment& seg = d.segments[static_cast<std::size_t>(s)];
        std::uint16_t board = 0;
        for (int p = 0; p < kPortCount; ++p) {
          if ((seg.ports >> p) & 1) {
            const Port bp = rotate(static_cast<Port>(p), rot);
            board = static_cast<std::uint16_t>(board | (1u << static_cast<int>(bp)));
            o.seg_at[static_cast<std::size_t>(bp)] = static_cast<std::uint8_t>(s);
          }
        }
        o.seg_ports[static_cast<std::size_t>(s)] = board;
        o.canonical[static_cast<std::size_t>(s)] = static_cast<Port>(std::countr_zero(board));
        if (seg.kind == Kind::Monastery) t.monastery_seg[static_cast<std::size_t>(k)] = static_cast<std::uint8_t>(s);
      }
      for (int want = 0; want < 256; ++want) {
        bool ok = true;
        for (int side = 0; side < 4; ++side) {
          const int need = (want >> (2 * side)) & 3;
          if (need != 0 && need != ((o.edges >> (2 * side)) & 3)) ok = false;
        }
        if (ok) {
          t.fits[static_cast<std::size_t>(k)][static_cast<std::size_t>(want)] |= static_cast<std::uint8_t>(1 << r);
          t.fit_count[static_cast<std::size_t>(k)][static_cast<std::size_t>(want)]++;
        }
      }
    }
  }
  return t;
}

// Dynamic initialisation is safe: the catalog it reads is constant-initialised.
const Tables kTables = make_tables();

const Oriented& oriented(Tile t, int rotation) {
  return kTables.o[static_cast<std::size_t>(t)][static_cast<std::size_t>(rotation)];
}

constexpr Terrain edge(std::uint8_t edges, int side) { return static_cast<Terrain>((edges >> (2 * side)) & 3); }

std::vector<Seat> winners_of(const std::array<int, kMaxPlayers>& values, int players) {
  int best = values[0];
  for (int s = 1; s < players; ++s) best = std::max(best, values[static_cast<std::size_t>(s)]);
  std::vector<Seat> w;
  for (int s = 0; s < players; ++s) {
    if (values[static_cast<std::size_t>(s)] == best) w.push_back(s);
  }
  return w;
}

}  // namespace

std::string_view rule_error_name(RuleError e) {
  switch (e) {
    case RuleError::GameOver: return "game_over";
    case RuleError::NotYourTurn: return "not_your_turn";
    case RuleError::WrongTile: return "wrong_tile";
    case RuleError::TileExhausted: return "tile_exhausted";
    case RuleError::IllegalPlacement: return "illegal_placement";
    case RuleError::IllegalMeeple: return "illegal_meeple";
    case RuleError::IllegalDiscard: return "illegal_discard";
  }
  return "unknown";
}

std::string_view rule_error_message(RuleError e) {
  switch (e) {
    case RuleError::GameOver: return "the game is over: nobody holds a tile";
    case RuleError::NotYourTurn: return "it is not this seat's turn";
    case RuleError::WrongTile: return "this is not the tile the player holds";
    case RuleError::TileExhausted: return "more copies of this tile than the 72-tile set holds";
    case RuleError::IllegalPlacement:
      return "the tile cannot go there: the cell must be empty, touch a placed tile and match every edge";
    case RuleError::IllegalMeeple:
      return "no meeple can go there: not a feature of this tile, the feature is occupied, or no meeple is left";
    case RuleError::IllegalDiscard: return "the tile has a legal placement, so it cannot be discarded";
  }
  return "unknown error";
}

// ---------------------------------------------------------------- Rng

std::uint64_t Rng::next() {
  std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

std::uint32_t Rng::below(std::uint32_t n) {
  // Lemire's nearly divisionless bounded integers.
  std::uint64_t m = static_cast<std::uint64_t>(static_cast<std::uint32_t>(next())) * n;
  auto low = static_cast<std::uint32_t>(m);
  if (low < n) {
    const std::uint32_t threshold = static_cast<std::uint32_t>(-n) % n;
    while (low < threshold) {
      m = static_cast<std::uint64_t>(static_cast<std::uint32_t>(next())) * n;
      low = static_cast<std::uint32_t>(m);
    }
  }
  return static_cast<std::uint32_t>(m >> 32);
}

// ---------------------------------------------------------------- setup

Game Game::seeded(int players, std::uint64_t seed, std::vector<Event>* events) {
  Game g;
  g.seeded_ = true;
  g.seed_ = seed;
  int n = 0;
  for (const TileDef& d : catalog()) {
    const int copies = d.tile == kStartTile ? d.count - 1 : d.count;
    for (int i = 0; i < copies; ++i) g.bag_[static_cast<std::size_t>(n++)] = d.tile;
  }
  Rng rng(seed);
  for (int i = kBagSize - 1; i > 0; --i) {
    const auto j = rng.below(static_cast<std::uint32_t>(i + 1));
    std::swap(g.bag_[static_cast<std::size_t>(i)], g.bag_[j]);
  }
  g.start(players, events);
  return g;
}

Game Game::replay(int players) {
  Game g;
  g.seeded_ = false;
  g.start(players, nullptr);
  return g;
}

void Game::start(int players, std::vector<Event>* events) {
  players_ = static_cast<std::uint8_t>(std::clamp(players, kMinPlayers, kMaxPlayers));
  for (const TileDef& d : catalog()) unseen_[static_cast<std::size_t>(d.tile)] = static_cast<std::uint8_t>(d.count);
  unseen_[static_cast<std::size_t>(kStartTile)]--;
  held_.fill(kNone);
  supply_.fill(0);
  for (int s = 0; s < players_; ++s) supply_[static_cast<std::size_t>(s)] = kMeeplesPerPlayer;
  place(kStartTile, Placement{{0, 0}, Rotation{}}, -1, -1, std::nullopt, nullptr);
  for (int s = 0; s < players_; ++s) draw(s, events);
  current_ = 0;
  if (seeded_) settle(events);
}

// ---------------------------------------------------------------- hidden information

bool Game::reorder_bag(std::span<const Tile> order) {
  if (!seeded_ || static_cast<int>(order.size()) != bag_left()) return false;
  std::array<std::uint8_t, kTileKinds> counts{};
  for (const Tile t : order) {
    const auto k = static_cast<std::size_t>(t);
    if (k >= counts.size() || ++counts[k] > unseen_[k]) return false;
  }
  std::copy(order.begin(), order.end(), bag_.begin() + drawn_);
  seed_ = 0;
  return true;
}

std::uint8_t Game::fitting_rotations(Tile t, std::uint8_t want) {
  return kTables.fits[static_cast<std::size_t>(t)][want];
}

// ---------------------------------------------------------------- queries

bool Game::anyone_holds() const {
  for (int s = 0; s < players_; ++s) {
    if (held_[static_cast<std::size_t>(s)] != kNone) return true;
  }
  return false;
}

bool Game::holds(Seat seat) const {
  return seat >= 0 && seat < players_ && held_[static_cast<std::size_t>(seat)] != kNone;
}

std::optional<Tile> Game::held(Seat seat) const {
  if (seat < 0 || seat >= players_) return std::nullopt;
  const std::uint8_t h = held_[static_cast<std::size_t>(seat)];
  if (h == kNone || h == kUnknown) return std::nullopt;
  return static_cast<Tile>(h);
}

std::array<int, kTileKinds> Game::bag_counts() const {
  std::array<int, kTileKinds> out{};
  for (int i = 0; i < kTileKinds; ++i) out[static_cast<std::size_t>(i)] = unseen_[static_cast<std::size_t>(i)];
  return out;
}


std::uint8_t Game::constraint(Cell c) const {
  std::uint8_t want = 0;
  for (int side = 0; side < 4; ++side) {
    const Cell n = neighbour(c, static_cast<Side>(side));
    const std::uint8_t g = slot(n);
    if (g == 0) continue;
    const Placed& p = placed_[g - 1u];
    const Terrain t = edge(oriented(p.tile, p.rotation).edges, (side + 2) % 4);
    want = static_cast<std::uint8_t>(want | (static_cast<int>(t) << (2 * side)));
  }
  return want;
}

bool Game::is_legal_placement(Tile t, Placement p) const {
  if (!in_grid(p.cell)) return false;
  if (slot(p.cell) != 0) return false;
  const std::uint8_t want = constraint(p.cell);
  if (want == 0) return false;
  return (kTables.fits[static_cast<std::size_t>(t)][want] >> p.rotation.quarter_turns()) & 1;
}

namespace {
Cell cell_of(const Game::FrontierCell& f) { return Cell{f.x, f.y}; }
}  // namespace

void Game::legal_placements(Tile t, std::vector<Placement>& out) const {
  out.clear();
  const auto& fits = kTables.fits[static_cast<std::size_t>(t)];
  for (int i = 0; i < frontier_count_; ++i) {
    const FrontierCell& f = frontier_[static_cast<std::size_t>(i)];
    const std::uint8_t m = fits[f.want];
    if (m == 0) continue;
    const Cell c = cell_of(f);
    for (int r = 0; r < 4; ++r) {
      if ((m >> r) & 1) out.push_back(Placement{c, Rotation::quarters(r)});
    }
  }
}

bool Game::has_legal_placement(Tile t) const {
  const auto& fits = kTables.fits[static_cast<std::size_t>(t)];
  for (int i = 0; i < frontier_count_; ++i) {
    if (fits[frontier_[static_cast<std::size_t>(i)].want] != 0) return true;
  }
  return false;
}

int Game::count_legal_placements(Tile t) const {
  const auto& counts = kTables.fit_count[static_cast<std::size_t>(t)];
  int n = 0;
  for (int i = 0; i < frontier_count_; ++i) n += counts[frontier_[static_cast<std::size_t>(i)].want];
  return n;
}

Placement Game::nth_legal_placement(Tile t, int k) const {
  const auto& fits = kTables.fits[static_cast<std::size_t>(t)];
  const auto& counts = kTables.fit_count[static_cast<std::size_t>(t)];
  for (int i = 0; i < frontier_count_; ++i) {
    const FrontierCell& f = frontier_[static_cast<std::size_t>(i)];
    const std::uint8_t m = fits[f.want];
    const int n = counts[f.want];
    if (k >= n) {
      k -= n;
      continue;
    }
    for (int r = 0; r < 4; ++r) {
      if (((m >> r) & 1) && k-- == 0) return Placement{cell_of(f), Rotation::quarters(r)};
    }
  }
  return Placement{};
}

std::uint8_t Game::free_segments(Tile t, Placement p) const {
  // The same placement is asked about twice in a row (listing targets, then checking the
  // move); the key includes moves_, which changes with every change of the board.
  const std::uint64_t key = (static_cast<std::uint64_t>(moves_ + 1) << 32) | (static_cast<std::uint64_t>(t) << 24) |
                            (static_cast<std::uint64_t>(static_cast<std::uint8_t>(p.cell.x)) << 16) |
                            (static_cast<std::uint64_t>(static_cast<std::uint8_t>(p.cell.y)) << 8) |
                            static_cast<std::uint64_t>(p.rotation.quarter_turns());
  if (free_cache_key_ == key) return free_cache_;
  const Oriented& o = oriented(t, p.rotation.quarter_turns());
  const int segments = tile_def(t).segment_count;
  // Each (segment, neighbouring feature) contact the tile would make. Two segments that
  // touch one board feature are joined through it (a field of V beside A reaches A's field
  // with both its fields), so occupancy spreads between them.
  std::array<std::uint8_t, 12> contact_seg{};
  std::array<std::uint16_t, 12> contact_root{};
  int n = 0;
  std::array<std::uint8_t, kMaxSegments> group{};  // tiny union-find over the segments
  for (int s = 0; s < segments; ++s) group[static_cast<std::size_t>(s)] = static_cast<std::uint8_t>(s);
  auto top = [&](int s) {
    while (group[static_cast<std::size_t>(s)] != s) s = group[static_cast<std::size_t>(s)];
    return s;
  };
  std::uint16_t taken = 0;  // bit i: contact i's feature holds a meeple
  std::array<std::uint8_t, 4> neighbour_tile{};
  for (int side = 0; side < 4; ++side) {
    neighbour_tile[static_cast<std::size_t>(side)] =
        slot(neighbour(p.cell, static_cast<Side>(side)));
  }
  for (int q = 0; q < 12; ++q) {
    const std::uint8_t seg = o.seg_at[static_cast<std::size_t>(q)];
    if (seg == kNoSeg) continue;
    const std::uint8_t g = neighbour_tile[static_cast<std::size_t>(q < 4 ? q : (q - 4) / 2)];
    if (g == 0) continue;
    const Placed& np = placed_[g - 1u];
    const std::uint8_t nseg = oriented(np.tile, np.rotation).seg_at[static_cast<std::size_t>(across(static_cast<Port>(q)))];
    if (nseg == kNoSeg) continue;
    const std::uint16_t root = find(static_cast<std::uint16_t>(np.base + nseg));
    for (int i = 0; i < n; ++i) {
      if (contact_root[static_cast<std::size_t>(i)] == root) {
        const int a = top(contact_seg[static_cast<std::size_t>(i)]);
        const int b = top(seg);
        if (a != b) group[static_cast<std::size_t>(a)] = static_cast<std::uint8_t>(b);
      }
    }
    if (nodes_[root].meeple_total > 0) taken = static_cast<std::uint16_t>(taken | (1u << n));
    contact_seg[static_cast<std::size_t>(n)] = seg;
    contact_root[static_cast<std::size_t>(n++)] = root;
  }
  std::uint8_t taken_groups = 0;
  for (int i = 0; i < n; ++i) {
    if ((taken >> i) & 1) taken_groups = static_cast<std::uint8_t>(taken_groups | (1u << top(contact_seg[static_cast<std::size_t>(i)])));
  }
  std::uint8_t free = 0;
  for (int s = 0; s < segments; ++s) {
    if (((taken_groups >> top(s)) & 1) == 0) free = static_cast<std::uint8_t>(free | (1u << s));
  }
  free_cache_key_ = key;
  free_cache_ = free;
  return free;
}

PortList Game::meeple_targets(Tile t, Placement p, Seat seat) const {
  PortList out;
  if (seat < 0 || seat >= players_ || supply_[static_cast<std::size_t>(seat)] == 0) return out;
  const Oriented& o = oriented(t, p.rotation.quarter_turns());
  const int segments = tile_def(t).segment_count;
  const std::uint8_t free = free_segments(t, p);
  for (int s = 0; s < segments; ++s) {
    if ((free >> s) & 1) out.ports[out.size++] = o.canonical[static_cast<std::size_t>(s)];
  }
  return out;
}

void Game::legal_moves(std::vector<LegalMove>& out) const {
  out.clear();
  const std::optional<Tile> t = held(current_);
  if (!t || finished()) return;
  std::vector<Placement> ps;
  legal_placements(*t, ps);
  out.reserve(ps.size());
  for (const Placement& p : ps) out.push_back(LegalMove{p, meeple_targets(*t, p, current_)});
}

std::vector<BoardTile> Game::board() const {
  std::vector<BoardTile> out;
  out.reserve(placed_count_);
  for (int i = 0; i < placed_count_; ++i) {
    const Placed& p = placed_[static_cast<std::size_t>(i)];
    BoardTile b{p.tile, Cell{p.x, p.y}, Rotation::quarters(p.rotation), std::nullopt, std::nullopt};
    if (p.meeple_seat != kNone) {
      b.meeple_seat = p.meeple_seat;
      b.meeple_port = p.meeple_port;
    }
    out.push_back(b);
  }
  return out;
}

std::optional<BoardTile> Game::tile_at(Cell c) const {
  if (!in_grid(c)) return std::nullopt;
  const std::uint8_t g = slot(c);
  if (g == 0) return std::nullopt;
  const Placed& p = placed_[g - 1u];
  BoardTile b{p.tile, Cell{p.x, p.y}, Rotation::quarters(p.rotation), std::nullopt, std::nullopt};
  if (p.meeple_seat != kNone) {
    b.meeple_seat = p.meeple_seat;
    b.meeple_port = p.meeple_port;
  }
  return b;
}

// ---------------------------------------------------------------- features

std::uint16_t Game::find(std::uint16_t n) const {
  while (nodes_[n].parent != n) {
    nodes_[n].parent = nodes_[nodes_[n].parent].parent;  // path halving
    n = nodes_[n].parent;
  }
  return n;
}

std::uint16_t Game::unite(std::uint16_t a, std::uint16_t b) {
  std::uint16_t ra = find(a);
  std::uint16_t rb = find(b);
  if (ra == rb) return ra;
  if (nodes_[ra].size < nodes_[rb].size) std::swap(ra, rb);
  Node& big = nodes_[ra];
  Node& small = nodes_[rb];
  small.parent = ra;
  big.size = static_cast<std::uint16_t>(big.size + small.size);
  big.open = static_cast<std::uint16_t>(big.open + small.open);
  big.meeple_total = static_cast<std::uint8_t>(big.meeple_total + small.meeple_total);
  for (int s = 0; s < kMaxPlayers; ++s) {
    big.meeples[static_cast<std::size_t>(s)] =
        static_cast<std::uint8_t>(big.meeples[static_cast<std::size_t>(s)] + small.meeples[static_cast<std::size_t>(s)]);
  }
  std::swap(big.next, small.next);  // splice the two circular lists
  return ra;
}

int Game::monastery_neighbours(Cell c) const {
  int n = 0;
  for (int dy = -1; dy <= 1; ++dy) {
    for (int dx = -1; dx <= 1; ++dx) {
      if (dx == 0 && dy == 0) continue;
      if (slot({c.x + dx, c.y + dy}) != 0) ++n;
    }
  }
  return n;
}

void Game::add_frontier(Cell c, Side towards_tile, Terrain t) {
  std::uint8_t& g = grid_[static_cast<std::size_t>(grid_index(c))];
  if (g == 0) {
    frontier_[frontier_count_] = FrontierCell{static_cast<std::int8_t>(c.x), static_cast<std::int8_t>(c.y), 0};
    g = static_cast<std::uint8_t>(kFrontierBase + frontier_count_++);
  }
  FrontierCell& f = frontier_[static_cast<std::size_t>(g - kFrontierBase)];
  f.want = static_cast<std::uint8_t>(f.want | (static_cast<int>(t) << (2 * static_cast<int>(towards_tile))));
}

void Game::remove_frontier(int grid_idx) {
  std::uint8_t& g = grid_[static_cast<std::size_t>(grid_idx)];
  if (g < kFrontierBase) return;
  const int pos = g - kFrontierBase;
  const FrontierCell last = frontier_[static_cast<std::size_t>(frontier_count_ - 1)];
  frontier_[static_cast<std::size_t>(pos)] = last;
  grid_[static_cast<std::size_t>(grid_index(cell_of(last)))] = static_cast<std::uint8_t>(kFrontierBase + pos);
  g = 0;
  --frontier_count_;
}

void Game::place(Tile t, Placement p, Seat seat, int meeple_seg, std::optional<Port> port,
                 std::vector<Event>* events) {
  const int r = p.rotation.quarter_turns();
  const Oriented& o = oriented(t, r);
  const TileDef& d = tile_def(t);
  const int index = placed_count_++;
  const auto base = node_count_;
  Placed& pl = placed_[static_cast<std::size_t>(index)];
  pl = Placed{static_cast<std::int8_t>(p.cell.x), static_cast<std::int8_t>(p.cell.y), t, static_cast<std::uint8_t>(r),
              base, kNone, kNoSeg, Port::C};
  for (int s = 0; s < d.segment_count; ++s) {
    const auto id = static_cast<std::uint16_t>(base + s);
    const Segment& seg = d.segments[static_cast<std::size_t>(s)];
    const int open = (seg.kind == Kind::Road || seg.kind == Kind::City) ? kSidesOf[seg.ports & 0x0F] : 0;
    nodes_[id] = Node{id, id, static_cast<std::uint16_t>(open), 1, static_cast<std::uint8_t>(index),
                      static_cast<std::uint8_t>(s), seg.kind, 0, {}, seg.cities};
  }
  node_count_ = static_cast<std::uint16_t>(node_count_ + d.segment_count);
  min_x_ = static_cast<std::int8_t>(std::min<int>(min_x_, p.cell.x));
  max_x_ = static_cast<std::int8_t>(std::max<int>(max_x_, p.cell.x));
  min_y_ = static_cast<std::int8_t>(std::min<int>(min_y_, p.cell.y));
  max_y_ = static_cast<std::int8_t>(std::max<int>(max_y_, p.cell.y));
  const int gi = grid_index(p.cell);
  remove_frontier(gi);
  grid_[static_cast<std::size_t>(gi)] = static_cast<std::uint8_t>(index + 1);

  for (int side = 0; side < 4; ++side) {
    const Cell nc = neighbour(p.cell, static_cast<Side>(side));
    const std::uint8_t g = slot(nc);
    const Terrain mine = edge(o.edges, side);
    if (g == 0) {
      add_frontier(nc, static_cast<Side>((side + 2) % 4), mine);
      continue;
    }
    const Placed& np = placed_[g - 1u];
    const Oriented& no = oriented(np.tile, np.rotation);
    if (mine != Terrain::Field) {
      const auto a = static_cast<std::uint16_t>(base + o.seg_at[static_cast<std::size_t>(side)]);
      const auto b = static_cast<std::uint16_t>(np.base + no.seg_at[static_cast<std::size_t>((side + 2) % 4)]);
      const std::uint16_t root = unite(a, b);
      nodes_[root].open = static_cast<std::uint16_t>(nodes_[root].open - 2);
    }
    if (mine != Terrain::City) {
      for (int half = 0; half < 2; ++half) {
        const auto hp = static_cast<Port>(4 + 2 * side + half);
        const auto a = static_cast<std::uint16_t>(base + o.seg_at[static_cast<std::size_t>(hp)]);
        const auto b = static_cast<std::uint16_t>(np.base + no.seg_at[static_cast<std::size_t>(across(hp))]);
        unite(a, b);
      }
    }
  }

  if (meeple_seg >= 0) {
    Node& root = nodes_[find(static_cast<std::uint16_t>(base + meeple_seg))];
    root.meeples[static_cast<std::size_t>(seat)]++;
    root.meeple_total++;
    if (root.kind == Kind::Monastery) ++monks_;
    supply_[static_cast<std::size_t>(seat)]--;
    pl.meeple_seat = static_cast<std::uint8_t>(seat);
    pl.meeple_seg = static_cast<std::uint8_t>(meeple_seg);
    pl.meeple_port = *port;
  }
  if (events != nullptr && seat >= 0) {
    events->push_back(TilePlaced{seat, t, p.cell, p.rotation, port});
  }
  if (seat >= 0) score_completed(index, events);
}

void Game::score_completed(int tile_index, std::vector<Event>* events) {
  const Placed& pl = placed_[static_cast<std::size_t>(tile_index)];
  const TileDef& d = tile_def(pl.tile);
  std::array<std::uint16_t, kMaxSegments> done{};
  int done_count = 0;
  for (int s = 0; s < d.segment_count; ++s) {
    const Kind k = d.segments[static_cast<std::size_t>(s)].kind;
    if (k != Kind::Road && k != Kind::City) continue;
    const std::uint16_t root = find(static_cast<std::uint16_t>(pl.base + s));
    if (nodes_[root].open != 0) continue;
    if (std::find(done.begin(), done.begin() + done_count, root) != done.begin() + done_count) continue;
    done[static_cast<std::size_t>(done_count++)] = root;
    if (nodes_[root].meeple_total > 0) score_feature(root, k, false, events);
  }
  if (monks_ == 0) return;
  const Cell c{pl.x, pl.y};
  for (int dy = -1; dy <= 1; ++dy) {
    for (int dx = -1; dx <= 1; ++dx) {
      const Cell m{c.x + dx, c.y + dy};
      const std::uint8_t g = slot(m);
      if (g == 0) continue;
      const Placed& mp = placed_[g - 1u];
      const std::uint8_t mseg = kTables.monastery_seg[static_cast<std::size_t>(mp.tile)];
      if (mseg == kNoSeg) continue;
      const auto node = static_cast<std::uint16_t>(mp.base + mseg);
      if (nodes_[node].meeple_total == 0) continue;
      if (monastery_neighbours(m) == 8) score_feature(node, Kind::Monastery, false, events, 9, 0, g - 1);
    }
  }
}

void Game::score_feature(std::uint16_t root, Kind kind, bool end, std::vector<Event>* events, int points_override,
                         int cities, int monastery_tile) {
  Node& r = nodes_[root];
  std::array<int, kMaxPlayers> counts{};
  int best = 0;
  for (int s = 0; s < players_; ++s) {
    counts[static_cast<std::size_t>(s)] = r.meeples[static_cast<std::size_t>(s)];
    best = std::max(best, counts[static_cast<std::size_t>(s)]);
  }
  if (best == 0) return;

  // Distinct tiles and coats of arms, walking the feature's node list.
  std::uint64_t seen_lo = 0;
  std::uint64_t seen_hi = 0;
  int tiles = 0;
  int pennants = 0;
  std::vector<Cell> cells;
  std::array<MeepleReturned, kMaxPlayers * kMeeplesPerPlayer> returned;
  int returned_count = 0;
  std::uint16_t n = root;
  do {
    const Node& node = nodes_[n];
    const Placed& p = placed_[node.tile];
    std::uint64_t& word = node.tile < 64 ? seen_lo : seen_hi;
    const std::uint64_t b = 1ull << (node.tile % 64);
    if ((word & b) == 0) {
      word |= b;
      ++tiles;
      if (events != nullptr) cells.push_back(Cell{p.x, p.y});
    }
    if (tile_def(p.tile).segments[node.seg].pennant) ++pennants;
    if (!end && p.meeple_seat != kNone && p.meeple_seg == node.seg) {
      if (events != nullptr) {
        returned[static_cast<std::size_t>(returned_count++)] = MeepleReturned{p.meeple_seat, node.tile, Cell{p.x, p.y}};
      }
      supply_[p.meeple_seat]++;
      if (kind == Kind::Monastery) --monks_;
      placed_[node.tile].meeple_seat = kNone;
      placed_[node.tile].meeple_seg = kNoSeg;
    }
    n = node.next;
  } while (n != root);

  int points = 0;
  switch (kind) {
    case Kind::Road: points = tiles; break;
    case Kind::City: points = end ? tiles + pennants : 2 * tiles + 2 * pennants; break;
    case Kind::Monastery: points = points_override; break;
    case Kind::Field: points = 3 * cities; break;
  }
  std::vector<Seat> winners;
  for (int s = 0; s < players_; ++s) {
    if (counts[static_cast<std::size_t>(s)] == best) {
      scores_[static_cast<std::size_t>(s)] += points;
      if (events != nullptr) winners.push_back(s);
    }
  }
  if (!end) {
    r.meeple_total = 0;
    r.meeples.fill(0);
  }
  if (events != nullptr) {
    if (kind == Kind::Monastery && monastery_tile >= 0) {
      const Placed& mp = placed_[static_cast<std::size_t>(monastery_tile)];
      cells.assign(1, Cell{mp.x, mp.y});
      tiles = 1;
    }
    FeatureScored e{kind, end, points, std::move(winners), counts, tiles, kind == Kind::City ? pennants : 0,
                    cities, std::move(cells)};
    events->push_back(std::move(e));
    for (int i = 0; i < returned_count; ++i) events->push_back(returned[static_cast<std::size_t>(i)]);
  }
}

// ---------------------------------------------------------------- turns

void Game::draw(Seat s, std::vector<Event>* events) {
  auto& h = held_[static_cast<std::size_t>(s)];
  if (drawn_ >= kBagSize) {
    h = kNone;
    return;
  }
  if (seeded_) {
    const Tile t = bag_[drawn_];
    h = static_cast<std::uint8_t>(t);
    unseen_[static_cast<std::size_t>(t)]--;
    if (events != nullptr) events->push_back(TileDrawn{s, t});
  } else {
    h = kUnknown;
  }
  ++drawn_;
}

void Game::advance_turn() {
  for (int i = 1; i <= players_; ++i) {
    const Seat s = (current_ + i) % players_;
    if (held_[static_cast<std::size_t>(s)] != kNone) {
      current_ = s;
      return;
    }
  }
}

void Game::settle(std::vector<Event>* events) {
  while (phase_ == Phase::Playing) {
    if (!anyone_holds()) {
      finish(events);
      return;
    }
    if (!holds(current_)) advance_turn();
    const Tile t = static_cast<Tile>(held_[static_cast<std::size_t>(current_)]);
    if (has_legal_placement(t)) return;
    if (events != nullptr) events->push_back(TileDiscarded{current_, t});
    ++moves_;
    held_[static_cast<std::size_t>(current_)] = kNone;
    draw(current_, events);
    if (!holds(current_)) advance_turn();
  }
}

std::optional<RuleError> Game::check(const Move& m, int* meeple_seg) const {
  *meeple_seg = -1;
  if (phase_ == Phase::Finished || !anyone_holds() || !holds(current_)) return RuleError::GameOver;
  if (static_cast<int>(m.tile) >= kTileKinds) return RuleError::WrongTile;
  const std::uint8_t h = held_[static_cast<std::size_t>(current_)];
  if (h == kUnknown) {
    if (unseen_[static_cast<std::size_t>(m.tile)] == 0) return RuleError::TileExhausted;
  } else if (h != static_cast<std::uint8_t>(m.tile)) {
    return RuleError::WrongTile;
  }
  if (m.type == Move::Type::Discard) {
    if (has_legal_placement(m.tile)) return RuleError::IllegalDiscard;
    return std::nullopt;
  }
  if (!is_legal_placement(m.tile, m.placement)) return RuleError::IllegalPlacement;
  if (m.meeple) {
    const Oriented& o = oriented(m.tile, m.placement.rotation.quarter_turns());
    const std::uint8_t seg = o.seg_at[static_cast<std::size_t>(*m.meeple)];
    if (seg == kNoSeg) return RuleError::IllegalMeeple;
    if (supply_[static_cast<std::size_t>(current_)] == 0 || ((free_segments(m.tile, m.placement) >> seg) & 1) == 0) {
      return RuleError::IllegalMeeple;
    }
    *meeple_seg = seg;
  }
  return std::nullopt;
}

std::optional<RuleError> Game::play(const Move& m, std::vector<Event>* events) {
  int meeple_seg = -1;
  if (auto err = check(m, &meeple_seg)) return err;
  const Seat seat = current_;
  auto& h = held_[static_cast<std::size_t>(seat)];
  if (h == kUnknown) unseen_[static_cast<std::size_t>(m.tile)]--;
  h = kNone;
  ++moves_;
  if (m.type == Move::Type::Discard) {
    if (events != nullptr) events->push_back(TileDiscarded{seat, m.tile});
    draw(seat, events);
    if (!holds(seat)) advance_turn();
  } else {
    place(m.tile, m.placement, seat, meeple_seg, meeple_seg >= 0 ? m.meeple : std::nullopt, events);
    draw(seat, events);
    advance_turn();
  }
  if (seeded_) settle(events);
  return std::nullopt;
}

void Game::finish(std::vector<Event>* events) {
  if (phase_ == Phase::Finished) return;
  // The features that still hold meeples, found from the meeples themselves, scored by kind
  // (roads, cities, monasteries, then fields: the order does not change totals), then in
  // board order.
  std::array<std::uint32_t, kMaxPlayers * kMeeplesPerPlayer> keys{};
  int count = 0;
  for (int i = 0; i < placed_count_; ++i) {
    const Placed& p = placed_[static_cast<std::size_t>(i)];
    if (p.meeple_seat == kNone) continue;
    const std::uint16_t root = find(static_cast<std::uint16_t>(p.base + p.meeple_seg));
    const std::uint32_t key = (static_cast<std::uint32_t>(nodes_[root].kind) << 16) | root;
    if (std::find(keys.begin(), keys.begin() + count, key) == keys.begin() + count) {
      keys[static_cast<std::size_t>(count++)] = key;
    }
  }
  std::sort(keys.begin(), keys.begin() + count);
  for (int k = 0; k < count; ++k) {
    const auto root = static_cast<std::uint16_t>(keys[static_cast<std::size_t>(k)] & 0xFFFF);
    const Node& node = nodes_[root];
    switch (node.kind) {
      case Kind::Road:
      case Kind::City:
        if (node.open != 0) score_feature(root, node.kind, true, events);
        break;
      case Kind::Monastery: {
        const Placed& p = placed_[node.tile];
        const int around = monastery_neighbours(Cell{p.x, p.y});
        if (around != 8) score_feature(root, Kind::Monastery, true, events, 1 + around, 0, node.tile);
        break;
      }
      case Kind::Field: {
        std::array<std::uint16_t, kTileCount> cities;
        int city_count = 0;
        std::uint16_t m = root;
        do {
          const Node& fm = nodes_[m];
          const std::uint16_t base = placed_[fm.tile].base;
          for (std::uint8_t mask = fm.cities; mask != 0; mask = static_cast<std::uint8_t>(mask & (mask - 1))) {
            const auto c = std::countr_zero(static_cast<unsigned>(mask));
            const std::uint16_t croot = find(static_cast<std::uint16_t>(base + c));
            if (nodes_[croot].open != 0) continue;
            if (std::find(cities.begin(), cities.begin() + city_count, croot) == cities.begin() + city_count) {
              cities[static_cast<std::size_t>(city_count++)] = croot;
            }
          }
          m = fm.next;
        } while (m != root);
        score_feature(root, Kind::Field, true, events, -1, city_count);
        break;
      }
    }
  }
  phase_ = Phase::Finished;
  if (events != nullptr) {
    std::vector<int> finals(scores_.begin(), scores_.begin() + players_);
    std::array<int, kMaxPlayers> values{};
    for (int s = 0; s < players_; ++s) values[static_cast<std::size_t>(s)] = scores_[static_cast<std::size_t>(s)];
    events->push_back(GameEnded{std::move(finals), winners_of(values, players_)});
  }
}

std::variant<Applied, RuleError> apply(const Game& g, Seat seat, const Move& m) {
  if (seat != g.current_seat() || !g.holds(seat)) {
    if (!g.anyone_holds() || g.finished()) return RuleError::GameOver;
    return RuleError::NotYourTurn;
  }
  Applied out{g, {}};
  if (auto err = out.game.play(m, &out.events)) return *err;
  return out;
}

}  // namespace carc
