// What the rules allow from a position: who holds what, where a tile fits, where a
// meeple may go, and the board as placed.
#include "carc/core/game.hpp"

#include "game_tables.hpp"

namespace carc {

using detail::cell_of;
using detail::edge;
using detail::kTables;
using detail::Oriented;
using detail::oriented;

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

}  // namespace carc
