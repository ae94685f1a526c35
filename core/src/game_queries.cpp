// What the rules allow from a position: who holds what, where a tile fits, where a
// meeple may go, and the board as placed.
#include "carc/core/game.hpp"

#include "expansions/part.hpp"
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

int Game::tokens(Seat seat, int k) const {
  const detail::Part* part = rules_->token_part;
  return part == nullptr ? 0 : part->tokens(*this, seat, k);
}

bool Game::holds(Seat seat) const {
  return seat >= 0 && seat < players_ && held_[static_cast<std::size_t>(seat)] != kNone;
}

std::array<int, kTileKinds> Game::bag_counts() const {
  std::array<int, kTileKinds> out{};
  for (int i = 0; i < kTileKinds; ++i) out[static_cast<std::size_t>(i)] = unseen_[static_cast<std::size_t>(i)];
  if (release_draw_ == kNone && rules_->held_back_count > 0) {
    for (int i = 0; i < kTileKinds; ++i) {
      if (rules_->held_back[static_cast<std::size_t>(i)] != 0) out[static_cast<std::size_t>(i)] = 0;  // waiting beside the bag
    }
  }
  return out;
}


std::uint16_t Game::constraint(Cell c) const {
  std::uint16_t want = 0;
  for (int side = 0; side < 4; ++side) {
    const Cell n = neighbour(c, static_cast<Side>(side));
    const std::uint16_t g = slot(n);
    if (g == 0) continue;
    const Placed& p = placed_[g - 1u];
    const Oriented& o = oriented(p.tile, p.rotation);
    const Terrain t = edge(o.edges, (side + 2) % 4);
    want = static_cast<std::uint16_t>(want | (static_cast<int>(t) << (2 * side)));
    if ((o.exclusive >> ((side + 2) % 4)) & 1) want |= kExclusiveWant;
  }
  return want;
}

// A tile some part places (docs/expansions.md, "placement") is asked of that part; every other tile goes on the
// frontier by the base rules.
bool Game::is_legal_placement(Tile t, Placement p) const {
  if (static_cast<int>(t) >= kTileKinds) return false;
  if (const detail::Part* part = rules_->placer[static_cast<std::size_t>(t)]; part != nullptr) {
    return part->allows(*this, t, p);
  }
  if (!in_grid(p.cell)) return false;
  if (slot(p.cell) != 0) return false;
  const std::uint16_t want = constraint(p.cell);
  if (want == 0) return false;
  return (kTables.fits[static_cast<std::size_t>(t)][want] >> p.rotation.quarter_turns()) & 1;
}

void Game::legal_placements(Tile t, std::vector<Placement>& out) const {
  out.clear();
  if (const detail::Part* part = rules_->placer[static_cast<std::size_t>(t)]; part != nullptr) {
    const int n = part->count_placements(*this, t);
    for (int k = 0; k < n; ++k) out.push_back(part->nth_placement(*this, t, k));
    return;
  }
  const auto& fits = kTables.fits[static_cast<std::size_t>(t)];
  for (int i = 0; i < frontier_count_; ++i) {
    const std::uint8_t m = fits[frontier_want_[static_cast<std::size_t>(i)]];
    if (m == 0) continue;
    const Cell c = cell_of(frontier_[static_cast<std::size_t>(i)]);
    for (int r = 0; r < 4; ++r) {
      if ((m >> r) & 1) out.push_back(Placement{c, Rotation::quarters(r)});
    }
  }
}

bool Game::has_legal_placement(Tile t) const {
  if (const detail::Part* part = rules_->placer[static_cast<std::size_t>(t)]; part != nullptr) {
    return part->count_placements(*this, t) > 0;
  }
  const auto& fits = kTables.fits[static_cast<std::size_t>(t)];
  for (int i = 0; i < frontier_count_; ++i) {
    if (fits[frontier_want_[static_cast<std::size_t>(i)]] != 0) return true;
  }
  return false;
}

int Game::count_legal_placements(Tile t) const {
  if (const detail::Part* part = rules_->placer[static_cast<std::size_t>(t)]; part != nullptr) {
    return part->count_placements(*this, t);
  }
  const auto& counts = kTables.fit_count[static_cast<std::size_t>(t)];
  int n = 0;
  for (int i = 0; i < frontier_count_; ++i) n += counts[frontier_want_[static_cast<std::size_t>(i)]];
  return n;
}

Placement Game::nth_legal_placement(Tile t, int k) const {
  if (const detail::Part* part = rules_->placer[static_cast<std::size_t>(t)]; part != nullptr) {
    return part->nth_placement(*this, t, k);
  }
  const auto& fits = kTables.fits[static_cast<std::size_t>(t)];
  const auto& counts = kTables.fit_count[static_cast<std::size_t>(t)];
  for (int i = 0; i < frontier_count_; ++i) {
    const std::uint16_t want = frontier_want_[static_cast<std::size_t>(i)];
    const std::uint8_t m = fits[want];
    const int n = counts[want];
    if (k >= n) {
      k -= n;
      continue;
    }
    for (int r = 0; r < 4; ++r) {
      if (((m >> r) & 1) && k-- == 0) return Placement{cell_of(frontier_[static_cast<std::size_t>(i)]), Rotation::quarters(r)};
    }
  }
  return Placement{};
}

std::optional<Placement> Game::random_legal_placement(Tile t, Rng& rng) const {
  if (rules_->placer[static_cast<std::size_t>(t)] != nullptr) {
    const int n = count_legal_placements(t);
    if (n == 0) return std::nullopt;
    return nth_legal_placement(t, static_cast<int>(rng.below(static_cast<std::uint32_t>(n))));
  }
  const auto& fits = kTables.fits[static_cast<std::size_t>(t)];
  const auto& counts = kTables.fit_count[static_cast<std::size_t>(t)];
  // Each frontier cell's count, kept from the counting walk for the finding walk.
  std::array<std::uint8_t, std::tuple_size_v<decltype(frontier_)>> per_cell;
  int n = 0;
  for (int i = 0; i < frontier_count_; ++i) {
    const std::uint8_t c = counts[frontier_want_[static_cast<std::size_t>(i)]];
    per_cell[static_cast<std::size_t>(i)] = c;
    n += c;
  }
  if (n == 0) return std::nullopt;
  auto k = static_cast<int>(rng.below(static_cast<std::uint32_t>(n)));
  for (int i = 0; i < frontier_count_; ++i) {
    const int c = per_cell[static_cast<std::size_t>(i)];
    if (k >= c) {
      k -= c;
      continue;
    }
    const std::uint8_t m = fits[frontier_want_[static_cast<std::size_t>(i)]];
    for (int r = 0; r < 4; ++r) {
      if (((m >> r) & 1) && k-- == 0) return Placement{cell_of(frontier_[static_cast<std::size_t>(i)]), Rotation::quarters(r)};
    }
  }
  return std::nullopt;  // cannot happen: k < n
}

PortList Game::meeple_targets(Tile t, Placement p, Seat seat) const {
  return figure_targets(t, p, seat, Figure::Meeple);
}

PortList Game::figure_targets(Tile t, Placement p, Seat seat, Figure f) const {
  PortList out;
  const auto fi = static_cast<std::size_t>(f);
  if (seat < 0 || seat >= players_ || supply_[static_cast<std::size_t>(seat)][fi] == 0) return out;
  const Oriented& o = oriented(t, p.rotation.quarter_turns());
  const TileDef& d = tile_def(t);
  const std::uint8_t kinds = rules_->figure_kinds[fi];
  const std::uint8_t free = figure_segments(t, p, seat, f);
  for (int s = 0; s < d.segment_count; ++s) {
    if (((free >> s) & 1) == 0) continue;
    if (((kinds >> static_cast<int>(d.segments[static_cast<std::size_t>(s)].kind)) & 1) == 0) continue;
    out.ports[out.size++] = o.canonical[static_cast<std::size_t>(s)];
  }
  return out;
}

std::optional<Cell> Game::action_offer(Tile t, Placement p, Seat seat, int* points) const {
  if (rules_->action_part == nullptr || seat < 0 || seat >= players_) return std::nullopt;
  int scratch = 0;
  return rules_->action_part->offer(*this, seat, t, p, points != nullptr ? points : &scratch);
}

void Game::legal_moves(std::vector<LegalMove>& out) const {
  out.clear();
  const std::optional<Tile> t = held(current_);
  if (!t || finished()) return;
  std::vector<Placement> ps;
  legal_placements(*t, ps);
  out.reserve(ps.size());
  for (const Placement& p : ps) {
    LegalMove m{p, meeple_targets(*t, p, current_), {}, std::nullopt, 0};
    if (rules_->has_specials) {
      for (int f = 1; f < kFigureKinds; ++f) {
        m.figures[static_cast<std::size_t>(f)] = figure_targets(*t, p, current_, static_cast<Figure>(f));
      }
    }
    m.action = action_offer(*t, p, current_, &m.action_points);
    out.push_back(m);
  }
}

std::vector<BoardTile> Game::board() const {
  std::vector<BoardTile> out;
  out.reserve(placed_count_);
  for (int i = 0; i < placed_count_; ++i) {
    const Placed& p = placed_[static_cast<std::size_t>(i)];
    BoardTile b{p.tile, Cell{p.x, p.y}, Rotation::quarters(p.rotation), std::nullopt, std::nullopt, Figure::Meeple};
    if (p.meeple_seat != kNone) {
      b.meeple_seat = p.meeple_seat;
      b.meeple_port = p.meeple_port;
      b.figure = p.figure;
    }
    out.push_back(b);
  }
  return out;
}

std::optional<BoardTile> Game::tile_at(Cell c) const {
  if (!in_grid(c)) return std::nullopt;
  const std::uint16_t g = slot(c);
  if (g == 0) return std::nullopt;
  const Placed& p = placed_[g - 1u];
  BoardTile b{p.tile, Cell{p.x, p.y}, Rotation::quarters(p.rotation), std::nullopt, std::nullopt, Figure::Meeple};
  if (p.meeple_seat != kNone) {
    b.meeple_seat = p.meeple_seat;
    b.meeple_port = p.meeple_port;
    b.figure = p.figure;
  }
  return b;
}

}  // namespace carc
