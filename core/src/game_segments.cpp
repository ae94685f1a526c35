// What a placement touches: the board features beside each of its segments, which of them
// are free of figures and which a seat holds (the questions of every target list).
#include "carc/core/game.hpp"

#include <algorithm>

#include "expansions/part.hpp"
#include "game_tables.hpp"

namespace carc {

using detail::kNoSeg;
using detail::kSidesOf;
using detail::Oriented;
using detail::oriented;

// Two segments of the placed tile that touch one board feature are joined through it (a
// field of V beside A reaches A's field with both its fields), so what holds for that
// feature holds for both: a tiny union-find over the tile's segments.
struct Game::Contacts {
  std::array<std::uint8_t, 12> seg{};
  std::array<std::uint16_t, 12> root{};
  std::array<bool, 12> side{};  // the contact is a whole side (roads and cities), not a field port
  int n = 0;
  std::array<std::uint8_t, kMaxSegments> group{};
  int top(int s) const {
    while (group[static_cast<std::size_t>(s)] != s) s = group[static_cast<std::size_t>(s)];
    return s;
  }
};

void Game::contacts(Tile t, Placement p, Contacts& c) const {
  const Oriented& o = oriented(t, p.rotation.quarter_turns());
  const int segments = tile_def(t).segment_count;
  for (int s = 0; s < segments; ++s) c.group[static_cast<std::size_t>(s)] = static_cast<std::uint8_t>(s);
  std::array<std::uint16_t, 4> neighbour_tile{};
  for (int side = 0; side < 4; ++side) {
    neighbour_tile[static_cast<std::size_t>(side)] = slot(neighbour(p.cell, static_cast<Side>(side)));
  }
  for (int q = 0; q < 12; ++q) {
    const std::uint8_t seg = o.seg_at[static_cast<std::size_t>(q)];
    if (seg == kNoSeg) continue;
    const std::uint16_t g = neighbour_tile[static_cast<std::size_t>(q < 4 ? q : (q - 4) / 2)];
    if (g == 0) continue;
    const Placed& np = placed_[g - 1u];
    const std::uint8_t nseg = oriented(np.tile, np.rotation).seg_at[static_cast<std::size_t>(across(static_cast<Port>(q)))];
    if (nseg == kNoSeg) continue;
    const std::uint16_t root = find(static_cast<std::uint16_t>(np.base + nseg));
    for (int i = 0; i < c.n; ++i) {
      if (c.root[static_cast<std::size_t>(i)] == root) {
        const int a = c.top(c.seg[static_cast<std::size_t>(i)]);
        const int b = c.top(seg);
        if (a != b) c.group[static_cast<std::size_t>(a)] = static_cast<std::uint8_t>(b);
      }
    }
    c.seg[static_cast<std::size_t>(c.n)] = seg;
    c.side[static_cast<std::size_t>(c.n)] = q < 4;
    c.root[static_cast<std::size_t>(c.n++)] = root;
  }
}

namespace {

std::uint64_t placement_key(int moves, Tile t, Placement p) {
  return (static_cast<std::uint64_t>(moves + 1) << 32) | (static_cast<std::uint64_t>(t) << 24) |
         (static_cast<std::uint64_t>(static_cast<std::uint8_t>(p.cell.x)) << 16) |
         (static_cast<std::uint64_t>(static_cast<std::uint8_t>(p.cell.y)) << 8) |
         static_cast<std::uint64_t>(p.rotation.quarter_turns());
}

}  // namespace

std::uint8_t Game::free_segments(Tile t, Placement p) const {
  // The same placement is asked about twice in a row (listing targets, then checking the
  // move); the key includes moves_, which changes with every change of the board.
  const std::uint64_t key = placement_key(moves_, t, p);
  if (free_cache_key_ == key) return free_cache_;
  Contacts c;
  contacts(t, p, c);
  std::uint8_t taken_groups = 0;
  for (int i = 0; i < c.n; ++i) {
    if (nodes_[c.root[static_cast<std::size_t>(i)]].meeple_total > 0) {
      taken_groups = static_cast<std::uint8_t>(taken_groups | (1u << c.top(c.seg[static_cast<std::size_t>(i)])));
    }
  }
  std::uint8_t free = 0;
  for (int s = 0; s < tile_def(t).segment_count; ++s) {
    if (((taken_groups >> c.top(s)) & 1) == 0) free = static_cast<std::uint8_t>(free | (1u << s));
  }
  free_cache_key_ = key;
  free_cache_ = free;
  return free;
}

std::uint8_t Game::owned_segments(Tile t, Placement p, Seat seat) const {
  // Asked for each figure that needs its owner's follower, for the same placement: one answer for all.
  const std::uint64_t key = placement_key(moves_, t, p) | (static_cast<std::uint64_t>(seat) << 56);
  if (owned_cache_key_ == key) return owned_cache_;
  const TileDef& d = tile_def(t);
  const int segments = d.segment_count;
  Contacts c;
  contacts(t, p, c);
  std::uint8_t owned = 0;
  for (int s = 0; s < segments; ++s) {
    const int gs = c.top(s);
    // The feature the segment joins: its distinct board roots, and the tile's segments.
    int strength = 0;
    int open = 0;
    std::array<std::uint16_t, 12> seen{};
    int seen_count = 0;
    for (int i = 0; i < c.n; ++i) {
      if (c.top(c.seg[static_cast<std::size_t>(i)]) != gs) continue;
      if (c.side[static_cast<std::size_t>(i)]) open -= 2;
      const std::uint16_t root = c.root[static_cast<std::size_t>(i)];
      if (std::find(seen.begin(), seen.begin() + seen_count, root) != seen.begin() + seen_count) continue;
      seen[static_cast<std::size_t>(seen_count++)] = root;
      strength += nodes_[root].meeples[static_cast<std::size_t>(seat)];
      open += nodes_[root].open;
    }
    const Kind kind = d.segments[static_cast<std::size_t>(s)].kind;
    if (kind == Kind::Road || kind == Kind::City) {
      for (int k = 0; k < segments; ++k) {
        if (c.top(k) == gs) open += kSidesOf[d.segments[static_cast<std::size_t>(k)].ports & 0x0F];
      }
      if (open <= 0) continue;
    }
    if (strength > 0) owned = static_cast<std::uint8_t>(owned | (1u << s));
  }
  owned_cache_key_ = key;
  owned_cache_ = owned;
  return owned;
}

std::uint8_t Game::figure_segments(Tile t, Placement p, Seat seat, Figure f) const {
  if (rules_->bare[static_cast<std::size_t>(t)] != 0) return 0;
  if (((rules_->needs_own >> static_cast<int>(f)) & 1) != 0) return owned_segments(t, p, seat);
  return free_segments(t, p);
}

}  // namespace carc
