// The feature forest (roads, cities, monasteries and fields as a union-find over tile
// segments), the frontier of open cells, and laying a tile and its figure into them.
#include "carc/core/game.hpp"

#include <algorithm>

#include "expansions/part.hpp"
#include "game_tables.hpp"

namespace carc {

using detail::cell_of;
using detail::edge;
using detail::kNoSeg;
using detail::kSidesOf;
using detail::Oriented;
using detail::oriented;

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
  Node& larger = nodes_[ra];
  Node& smaller = nodes_[rb];
  smaller.parent = ra;
  larger.size = static_cast<std::uint16_t>(larger.size + smaller.size);
  larger.open = static_cast<std::uint16_t>(larger.open + smaller.open);
  larger.meeple_total = static_cast<std::uint8_t>(larger.meeple_total + smaller.meeple_total);
  for (int s = 0; s < kMaxPlayers; ++s) {
    larger.meeples[static_cast<std::size_t>(s)] =
        static_cast<std::uint8_t>(larger.meeples[static_cast<std::size_t>(s)] + smaller.meeples[static_cast<std::size_t>(s)]);
  }
  std::swap(larger.next, smaller.next);  // splice the two circular lists
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
  std::uint16_t& g = grid_[static_cast<std::size_t>(grid_index(c))];
  if (g == 0) {
    frontier_[frontier_count_] = FrontierCell{static_cast<std::int16_t>(c.x), static_cast<std::int16_t>(c.y)};
    frontier_want_[frontier_count_] = 0;
    g = static_cast<std::uint16_t>(kFrontierBase + frontier_count_++);
  }
  std::uint16_t& want = frontier_want_[static_cast<std::size_t>(g - kFrontierBase)];
  const std::uint16_t bits = t == Terrain::Exclusive ? kExclusiveWant
                                                 : static_cast<std::uint16_t>(static_cast<int>(t) << (2 * static_cast<int>(towards_tile)));
  want = static_cast<std::uint16_t>(want | bits);
}

void Game::remove_frontier(int grid_idx) {
  std::uint16_t& g = grid_[static_cast<std::size_t>(grid_idx)];
  if (g < kFrontierBase) return;
  const int pos = g - kFrontierBase;
  const FrontierCell last = frontier_[static_cast<std::size_t>(frontier_count_ - 1)];
  frontier_[static_cast<std::size_t>(pos)] = last;
  frontier_want_[static_cast<std::size_t>(pos)] = frontier_want_[static_cast<std::size_t>(frontier_count_ - 1)];
  grid_[static_cast<std::size_t>(grid_index(cell_of(last)))] = static_cast<std::uint16_t>(kFrontierBase + pos);
  g = 0;
  --frontier_count_;
}

int Game::lay(Tile t, Placement p) {
  const int r = p.rotation.quarter_turns();
  const Oriented& o = oriented(t, r);
  const TileDef& d = tile_def(t);
  const int index = placed_count_++;
  const auto base = node_count_;
  Placed& pl = placed_[static_cast<std::size_t>(index)];
  pl = Placed{static_cast<std::int16_t>(p.cell.x), static_cast<std::int16_t>(p.cell.y), t, static_cast<std::uint8_t>(r),
              base, kNone, kNoSeg, Port::C, Figure::Meeple};
  for (int s = 0; s < d.segment_count; ++s) {
    const auto id = static_cast<std::uint16_t>(base + s);
    const Segment& seg = d.segments[static_cast<std::size_t>(s)];
    const int open = (seg.kind == Kind::Road || seg.kind == Kind::City) ? kSidesOf[seg.ports & 0x0F] : 0;
    static_assert(kMaxNodes < 0xFFFF);
    nodes_[id] = Node{id, id, static_cast<std::uint16_t>(open), 1, static_cast<std::uint8_t>(index),
                      static_cast<std::uint8_t>(s), seg.kind, 0, {}, seg.cities};
  }
  node_count_ = static_cast<std::uint16_t>(node_count_ + d.segment_count);
  min_x_ = static_cast<std::int16_t>(std::min<int>(min_x_, p.cell.x));
  max_x_ = static_cast<std::int16_t>(std::max<int>(max_x_, p.cell.x));
  min_y_ = static_cast<std::int16_t>(std::min<int>(min_y_, p.cell.y));
  max_y_ = static_cast<std::int16_t>(std::max<int>(max_y_, p.cell.y));
  const int gi = grid_index(p.cell);
  remove_frontier(gi);
  grid_[static_cast<std::size_t>(gi)] = static_cast<std::uint16_t>(index + 1);

  for (int side = 0; side < 4; ++side) {
    const Cell nc = neighbour(p.cell, static_cast<Side>(side));
    const std::uint16_t g = slot(nc);
    const Terrain mine = edge(o.edges, side);
    if (g == 0) {
      add_frontier(nc, static_cast<Side>((side + 2) % 4), mine);
      continue;
    }
    const Placed& np = placed_[g - 1u];
    const Oriented& no = oriented(np.tile, np.rotation);
    if (mine == Terrain::Road || mine == Terrain::City) {
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

  if (const detail::Part* part = rules_->placer[static_cast<std::size_t>(t)]; part != nullptr) part->placed(*this, t, p);
  return index;
}

void Game::put_figure(int index, Seat seat, int seg, Port port, Figure figure) {
  Placed& pl = placed_[static_cast<std::size_t>(index)];
  Node& root = nodes_[find(static_cast<std::uint16_t>(pl.base + seg))];
  const std::uint8_t strength = rules_->strength[static_cast<std::size_t>(figure)];
  root.meeples[static_cast<std::size_t>(seat)] = static_cast<std::uint8_t>(root.meeples[static_cast<std::size_t>(seat)] + strength);
  root.meeple_total = static_cast<std::uint8_t>(root.meeple_total + strength);
  if (is_cloister(root.kind)) ++monks_;
  supply_[static_cast<std::size_t>(seat)][static_cast<std::size_t>(figure)]--;
  if (pl.meeple_seat == kNone) {
    pl.meeple_seat = static_cast<std::uint8_t>(seat);
    pl.meeple_seg = static_cast<std::uint8_t>(seg);
    pl.meeple_port = port;
    pl.figure = figure;
  } else {
    spare_[spare_count_++] = Spare{static_cast<std::uint8_t>(index), static_cast<std::uint8_t>(seat),
                                   static_cast<std::uint8_t>(seg), port, figure};
  }
}

int Game::place(Tile t, Placement p, Seat seat, int meeple_seg, std::optional<Port> port, Figure figure,
                std::vector<Event>* events, const Move* move, int figure_tile) {
  const int index = lay(t, p);
  if (rules_->placed_hooks && seat >= 0) {
    for (int i = 0; i < rules_->part_count; ++i) {
      const detail::Part* part = rules_->parts[static_cast<std::size_t>(i)];
      if (part->tile_placed != nullptr) part->tile_placed(*this, seat, index, events);
    }
  }
  if (meeple_seg >= 0) put_figure(figure_tile >= 0 ? figure_tile : index, seat, meeple_seg, *port, figure);
  const std::optional<Cell> action = move != nullptr ? move->action : std::nullopt;
  if (events != nullptr && seat >= 0) {
    TilePlaced e{seat, t, p.cell, p.rotation, port, meeple_seg >= 0 ? figure : Figure::Meeple, action, extra_};
    if (move != nullptr) {
      e.figure_cell = meeple_seg >= 0 ? move->figure_cell : std::nullopt;
      e.action_kind = move->action_kind;
      e.action_port = move->action_port;
    }
    events->push_back(e);
  }
  if (rules_->extra_hooks && seat >= 0 && !extra_) {
    for (int i = 0; i < rules_->part_count; ++i) {
      const detail::Part* part = rules_->parts[static_cast<std::size_t>(i)];
      if (part->grants_extra != nullptr && part->grants_extra(*this, seat, index)) extra_due_ = true;
    }
  }
  if (action && move->action_kind != 0) {
    rules_->target_part->act_on(*this, seat, move->action_kind, Spot{*action, *move->action_port}, index, events);
  } else if (action) {
    rules_->action_part->act(*this, seat, *action, events);
  }
  return index;
}

}  // namespace carc
