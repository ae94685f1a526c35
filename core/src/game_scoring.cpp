// The feature forest (roads, cities, monasteries and fields as a union-find over tile
// segments), placing a tile into it, and scoring: completed features during play, and
// what is left at the end.
#include "carc/core/game.hpp"

#include <algorithm>
#include <bit>

#include "expansions/part.hpp"
#include "game_tables.hpp"

namespace carc {
namespace {

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

using detail::cell_of;
using detail::edge;
using detail::kNoSeg;
using detail::kSidesOf;
using detail::kTables;
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

void Game::score_and_return(int index, int seg, std::vector<Event>* events) {
  const Placed& p = placed_[static_cast<std::size_t>(index)];
  const auto node = static_cast<std::uint16_t>(p.base + seg);
  const Kind kind = nodes_[node].kind;
  const std::optional<Standing> f = figure_at(index, seg);
  if (!f) return;
  if (rules_->scored_hooks) {
    for (int i = 0; i < rules_->part_count; ++i) {
      const detail::Part* part = rules_->parts[static_cast<std::size_t>(i)];
      if (part->feature_scored != nullptr) part->feature_scored(*this, find(node), events);
    }
  }
  const int points = 1 + monastery_neighbours(Cell{p.x, p.y});
  scores_[static_cast<std::size_t>(f->seat)] += points;
  if (events != nullptr) {
    FeatureScored e{kind, false, points, {f->seat}, {}, 1, 0, 0, {Cell{p.x, p.y}}, true};
    e.players = players_;
    e.meeples[static_cast<std::size_t>(f->seat)] = 1;
    events->push_back(std::move(e));
  }
  send_home(index, seg, events);
}

std::optional<Game::Standing> Game::figure_at(int index, int seg) const {
  const Placed& p = placed_[static_cast<std::size_t>(index)];
  if (p.meeple_seat != kNone && p.meeple_seg == seg) return Standing{p.meeple_seat, index, p.meeple_seg, p.meeple_port, p.figure};
  for (int i = 0; i < spare_count_; ++i) {
    const Spare& sp = spare_[static_cast<std::size_t>(i)];
    if (sp.tile == index && sp.seg == seg) return Standing{sp.seat, index, sp.seg, sp.port, sp.figure};
  }
  return std::nullopt;
}

void Game::standing(std::vector<Standing>& out) const {
  out.clear();
  for_each_standing([&](const Standing& f) { out.push_back(f); });
}

std::optional<Game::Standing> Game::find_standing(Seat seat, Figure f) const {
  std::optional<Standing> best;
  for (int i = 0; i < placed_count_; ++i) {
    const Placed& p = placed_[static_cast<std::size_t>(i)];
    if (p.meeple_seat == seat && p.figure == f) {
      best = Standing{p.meeple_seat, i, p.meeple_seg, p.meeple_port, p.figure};
      break;
    }
  }
  for (int k = 0; k < spare_count_; ++k) {
    const Spare& sp = spare_[static_cast<std::size_t>(k)];
    if (sp.seat != seat || sp.figure != f) continue;
    if (!best || sp.tile < best->tile || (sp.tile == best->tile && sp.port < best->port)) {
      best = Standing{sp.seat, sp.tile, sp.seg, sp.port, sp.figure};
    }
  }
  return best;
}

void Game::send_home(int index, int seg, std::vector<Event>* events) {
  const std::optional<Standing> f = figure_at(index, seg);
  if (!f) return;
  Placed& p = placed_[static_cast<std::size_t>(index)];
  Node& root = nodes_[find(static_cast<std::uint16_t>(p.base + seg))];
  const std::uint8_t strength = rules_->strength[static_cast<std::size_t>(f->figure)];
  root.meeples[static_cast<std::size_t>(f->seat)] = static_cast<std::uint8_t>(root.meeples[static_cast<std::size_t>(f->seat)] - strength);
  root.meeple_total = static_cast<std::uint8_t>(root.meeple_total - strength);
  if (is_cloister(root.kind)) --monks_;
  supply_[static_cast<std::size_t>(f->seat)][static_cast<std::size_t>(f->figure)]++;
  if (p.meeple_seat != kNone && p.meeple_seg == seg) {
    p.meeple_seat = kNone;
    p.meeple_seg = kNoSeg;
    p.figure = Figure::Meeple;
  } else {
    for (int i = 0; i < spare_count_; ++i) {
      if (spare_[static_cast<std::size_t>(i)].tile == index && spare_[static_cast<std::size_t>(i)].seg == seg) {
        spare_[static_cast<std::size_t>(i)] = spare_[static_cast<std::size_t>(--spare_count_)];
        break;
      }
    }
  }
  if (rules_->left_hooks) {
    for (int i = 0; i < rules_->part_count; ++i) {
      const detail::Part* part = rules_->parts[static_cast<std::size_t>(i)];
      if (part->figure_left != nullptr) part->figure_left(*this, index, seg);
    }
  }
  if (events != nullptr) events->push_back(MeepleReturned{f->seat, index, Cell{p.x, p.y}, f->figure});
}

void Game::send_home_lonely(std::vector<Event>* events) {
  if (rules_->needs_own == 0) return;
  // The figures that need their owner's follower, listed first (sending one home changes
  // the figures on the board), without a list on the heap.
  std::array<Standing, kMaxTilesInGame + kMaxSpares> needy;
  std::size_t n = 0;
  for_each_standing([&](const Standing& f) {
    if (((rules_->needs_own >> static_cast<int>(f.figure)) & 1) != 0) needy[n++] = f;
  });
  for (std::size_t k = 0; k < n; ++k) {
    const Standing& f = needy[k];
    if (nodes_[root_of(f.tile, f.seg)].meeples[static_cast<std::size_t>(f.seat)] == 0) send_home(f.tile, f.seg, events);
  }
}

// The figure of a placement that goes on another tile (Part::figure_elsewhere): a feature of
// that tile with no follower, not completed by this placement, that the figure may take,
// on a tile that takes figures; judged on the board with the tile placed.
std::optional<RuleError> Game::check_elsewhere(const Move& m, int* tile, int* seg) const {
  const detail::Part* part = rules_->elsewhere_part;
  if (part == nullptr || !part->figure_elsewhere(m.tile)) return RuleError::IllegalMeeple;
  const auto f = static_cast<std::size_t>(m.figure);
  if (f >= static_cast<std::size_t>(kFigureKinds) || supply_[static_cast<std::size_t>(current_)][f] == 0 ||
      rules_->strength[f] == 0 || ((rules_->needs_own >> f) & 1) != 0) {
    return RuleError::IllegalMeeple;
  }
  const int index = placed_at(*m.figure_cell);
  if (index < 0) return RuleError::IllegalMeeple;
  const Placed& target = placed_[static_cast<std::size_t>(index)];
  const std::uint8_t s = oriented(target.tile, target.rotation).seg_at[static_cast<std::size_t>(*m.meeple)];
  if (s == kNoSeg) return RuleError::IllegalMeeple;
  const Kind kind = tile_def(target.tile).segments[s].kind;
  if (((rules_->figure_kinds[f] >> static_cast<int>(kind)) & 1) == 0) return RuleError::IllegalMeeple;
  if (rules_->block_part != nullptr && rules_->block_part->blocks_figures(*this, target.tile, index)) {
    return RuleError::IllegalMeeple;
  }
  Game after(*this);
  after.lay(m.tile, m.placement);
  const std::uint16_t root = after.root_of(index, s);
  const Node& n = after.nodes_[root];
  if (n.meeple_total > 0) return RuleError::IllegalMeeple;
  if ((kind == Kind::Road || kind == Kind::City) && n.open == 0) return RuleError::IllegalMeeple;
  if (is_cloister(kind) && after.monastery_neighbours(Cell{target.x, target.y}) == 8) return RuleError::IllegalMeeple;
  *tile = index;
  *seg = s;
  return std::nullopt;
}

bool Game::may_go_elsewhere(Tile t, Seat seat, Figure f) const {
  const detail::Part* part = rules_->elsewhere_part;
  const auto fi = static_cast<std::size_t>(f);
  return part != nullptr && part->figure_elsewhere(t) && supply_[static_cast<std::size_t>(seat)][fi] != 0 &&
         rules_->strength[fi] != 0 && ((rules_->needs_own >> fi) & 1) == 0;
}

void Game::figure_targets_elsewhere(Tile t, Placement p, Seat seat, Figure f, std::vector<Spot>& out) const {
  out.clear();
  if (!may_go_elsewhere(t, seat, f)) return;
  Game after(*this);
  after.lay(t, p);
  elsewhere_spots(after, f, out);
}

// One walk of the board for every figure that may go elsewhere: each list in the order
// elsewhere_spots() gives it.
void Game::figure_targets_elsewhere(Tile t, Placement p, Seat seat, ElsewhereTargets& out) const {
  std::uint32_t figures = 0;
  for (int f = 0; f < kFigureKinds; ++f) {
    out.by_figure[static_cast<std::size_t>(f)].clear();
    if (may_go_elsewhere(t, seat, static_cast<Figure>(f))) figures |= 1u << f;
  }
  if (figures == 0) return;
  if (out.after == nullptr) {
    out.after = std::make_unique<Game>(*this);
  } else {
    *out.after = *this;
  }
  Game& after = *out.after;
  after.lay(t, p);
  std::array<std::vector<Spot>*, kFigureKinds> lists{};
  for (int f = 0; f < kFigureKinds; ++f) lists[static_cast<std::size_t>(f)] = &out.by_figure[static_cast<std::size_t>(f)];
  elsewhere_walk(after, figures, lists);
}

// The free features figure `f` may take on the tiles placed before the placement, judged on
// `after` (this game with the tile laid).
void Game::elsewhere_spots(const Game& after, Figure f, std::vector<Spot>& out) const {
  std::array<std::vector<Spot>*, kFigureKinds> lists{};
  lists[static_cast<std::size_t>(f)] = &out;
  elsewhere_walk(after, 1u << static_cast<int>(f), lists);
}

void Game::elsewhere_walk(const Game& after, std::uint32_t figures,
                          const std::array<std::vector<Spot>*, kFigureKinds>& out) const {
  for (int i = 0; i < placed_count_; ++i) {
    const Placed& target = placed_[static_cast<std::size_t>(i)];
    if (rules_->block_part != nullptr && rules_->block_part->blocks_figures(*this, target.tile, i)) continue;
    const TileDef& d = tile_def(target.tile);
    const Oriented& o = oriented(target.tile, target.rotation);
    for (int port = 0; port < kPortCount; ++port) {
      const std::uint8_t s = o.seg_at[static_cast<std::size_t>(port)];
      if (s == kNoSeg) continue;
      // One port per feature: the first port of the segment in port order.
      bool first = true;
      for (int q = 0; q < port; ++q) first = first && o.seg_at[static_cast<std::size_t>(q)] != s;
      if (!first) continue;
      const Kind kind = d.segments[s].kind;
      std::uint32_t takers = 0;
      for (std::uint32_t m = figures; m != 0; m &= m - 1) {
        const int f = std::countr_zero(m);
        if (((rules_->figure_kinds[static_cast<std::size_t>(f)] >> static_cast<int>(kind)) & 1) != 0) takers |= 1u << f;
      }
      if (takers == 0) continue;
      const Node& n = after.nodes_[after.root_of(i, s)];
      if (n.meeple_total > 0) continue;
      if ((kind == Kind::Road || kind == Kind::City) && n.open == 0) continue;
      if (is_cloister(kind) && after.monastery_neighbours(Cell{target.x, target.y}) == 8) continue;
      for (std::uint32_t m = takers; m != 0; m &= m - 1) {
        out[static_cast<std::size_t>(std::countr_zero(m))]->push_back(Spot{Cell{target.x, target.y}, static_cast<Port>(port)});
      }
    }
  }
}

void Game::score_completed(int tile_index, Seat seat, std::vector<Event>* events) {
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
    if (rules_->completed_hooks) {
      for (int i = 0; i < rules_->part_count; ++i) {
        const detail::Part* part = rules_->parts[static_cast<std::size_t>(i)];
        if (part->completed != nullptr) part->completed(*this, seat, root, k, events);
      }
    }
  }
  if (monks_ == 0) return;
  const Cell c{pl.x, pl.y};
  for (int dy = -1; dy <= 1; ++dy) {
    for (int dx = -1; dx <= 1; ++dx) {
      const Cell m{c.x + dx, c.y + dy};
      const std::uint16_t g = slot(m);
      if (g == 0) continue;
      const Placed& mp = placed_[g - 1u];
      const std::uint8_t mseg = kTables.cloister_seg[static_cast<std::size_t>(mp.tile)];
      if (mseg == kNoSeg) continue;
      const auto node = static_cast<std::uint16_t>(mp.base + mseg);
      if (nodes_[node].meeple_total == 0) continue;
      if (monastery_neighbours(m) == 8) score_feature(node, nodes_[node].kind, false, events, 9, 0, g - 1);
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
  if (rules_->scored_hooks) {
    for (int i = 0; i < rules_->part_count; ++i) {
      const detail::Part* part = rules_->parts[static_cast<std::size_t>(i)];
      if (part->feature_scored != nullptr) part->feature_scored(*this, root, events);
    }
  }

  // Distinct tiles and coats of arms, walking the feature's node list.
  std::uint64_t seen_lo = 0;  // tiles 0-63, 64-127, 128-191: three words the compiler keeps in registers
  std::uint64_t seen_mid = 0;
  std::uint64_t seen_hi = 0;
  static_assert(kMaxTilesInGame <= 192);
  int tiles = 0;
  int pennants = 0;
  std::uint8_t marks = 0;
  std::array<std::uint8_t, kMaxPlayers> present{};  // per seat: bit per Figure standing in it
  const bool hooks = rules_->points_hooks;
  std::vector<Cell> cells;
  // The figures going home, as (tile, seat, figure) bytes: no events are built unless asked.
  struct Home {
    std::uint8_t tile, seat;
    Figure figure;
  };
  std::array<Home, kMaxPlayers * 12> returned;  // every figure a player has, and more
  int returned_count = 0;
  std::uint16_t n = root;
  do {
    const Node& node = nodes_[n];
    const Placed& p = placed_[node.tile];
    std::uint64_t& word = node.tile < 64 ? seen_lo : node.tile < 128 ? seen_mid : seen_hi;
    const std::uint64_t b = 1ull << (node.tile % 64);
    if ((word & b) == 0) {
      word |= b;
      ++tiles;
      if (events != nullptr) cells.push_back(Cell{p.x, p.y});
    }
    const Segment& segment = tile_def(p.tile).segments[node.seg];
    if (segment.pennant) ++pennants;
    if (hooks) {
      marks = static_cast<std::uint8_t>(marks | segment.marks);
      if (p.meeple_seat != kNone && p.meeple_seg == node.seg) {
        present[p.meeple_seat] = static_cast<std::uint8_t>(present[p.meeple_seat] | (1u << static_cast<int>(p.figure)));
      }
    }
    if (!end && p.meeple_seat != kNone && p.meeple_seg == node.seg) {
      if (events != nullptr) returned[static_cast<std::size_t>(returned_count++)] = Home{node.tile, p.meeple_seat, p.figure};
      supply_[p.meeple_seat][static_cast<std::size_t>(p.figure)]++;
      if (is_cloister(kind)) --monks_;
      placed_[node.tile].meeple_seat = kNone;
      placed_[node.tile].meeple_seg = kNoSeg;
      placed_[node.tile].figure = Figure::Meeple;
      if (rules_->left_hooks) {
        for (int i = 0; i < rules_->part_count; ++i) {
          const detail::Part* part = rules_->parts[static_cast<std::size_t>(i)];
          if (part->figure_left != nullptr) part->figure_left(*this, node.tile, node.seg);
        }
      }
    }
    n = node.next;
  } while (n != root);
  // Figures put on the feature from another tile (Part::figure_elsewhere).
  for (int i = spare_count_ - 1; i >= 0; --i) {
    const Spare sp = spare_[static_cast<std::size_t>(i)];
    if (find(static_cast<std::uint16_t>(placed_[sp.tile].base + sp.seg)) != root) continue;
    present[sp.seat] = static_cast<std::uint8_t>(present[sp.seat] | (1u << static_cast<int>(sp.figure)));
    if (end) continue;
    if (events != nullptr) returned[static_cast<std::size_t>(returned_count++)] = Home{sp.tile, sp.seat, sp.figure};
    supply_[sp.seat][static_cast<std::size_t>(sp.figure)]++;
    if (is_cloister(kind)) --monks_;
    spare_[static_cast<std::size_t>(i)] = spare_[static_cast<std::size_t>(--spare_count_)];
    if (rules_->left_hooks) {
      for (int k = 0; k < rules_->part_count; ++k) {
        const detail::Part* part = rules_->parts[static_cast<std::size_t>(k)];
        if (part->figure_left != nullptr) part->figure_left(*this, sp.tile, sp.seg);
      }
    }
  }

  int points = 0;
  switch (kind) {
    case Kind::Road: points = tiles; break;
    case Kind::City: points = end ? tiles + pennants : 2 * tiles + 2 * pennants; break;
    case Kind::Monastery:
    case Kind::Cloister: points = points_override; break;
    case Kind::Field: points = 3 * cities; break;
    case Kind::Unscored: break;
  }
  std::array<int, kMaxPlayers> bonus{};
  FeatureTally tally{kind, end, tiles, pennants, cities, marks, present};
  if (hooks) {
    for (int i = 0; i < rules_->part_count; ++i) {
      const detail::Part* part = rules_->parts[static_cast<std::size_t>(i)];
      if (part->feature_points != nullptr) points = part->feature_points(tally, points);
    }
  }
  std::vector<Seat> winners;
  for (int s = 0; s < players_; ++s) {
    if (counts[static_cast<std::size_t>(s)] == best) {
      int mine = points;
      if (hooks) {
        for (int i = 0; i < rules_->part_count; ++i) {
          const detail::Part* part = rules_->parts[static_cast<std::size_t>(i)];
          if (part->winner_points != nullptr) mine = part->winner_points(tally, s, mine);
        }
        bonus[static_cast<std::size_t>(s)] = mine - points;
      }
      scores_[static_cast<std::size_t>(s)] += mine;
      if (events != nullptr) winners.push_back(s);
    }
  }
  if (!end) {
    r.meeple_total = 0;
    r.meeples.fill(0);
  }
  if (events != nullptr) {
    if (is_cloister(kind) && monastery_tile >= 0) {
      const Placed& mp = placed_[static_cast<std::size_t>(monastery_tile)];
      cells.assign(1, Cell{mp.x, mp.y});
      tiles = 1;
    }
    FeatureScored e{kind, end, points, std::move(winners), counts, tiles, kind == Kind::City ? pennants : 0,
                    cities, std::move(cells), false, marks, bonus, players_};
    events->push_back(std::move(e));
    for (int i = 0; i < returned_count; ++i) {
      const Home& h = returned[static_cast<std::size_t>(i)];
      const Placed& hp = placed_[h.tile];
      events->push_back(MeepleReturned{h.seat, h.tile, Cell{hp.x, hp.y}, h.figure});
    }
  }
}

void Game::finish(std::vector<Event>* events) {
  if (phase_ == Phase::Finished) return;
  // The features that still hold meeples, found from the meeples themselves, scored by kind
  // (roads, cities, monasteries, then fields: the order does not change totals), then in
  // board order.
  std::array<std::uint32_t, kMaxTilesInGame + 40> keys{};
  int count = 0;
  for (int i = 0; i < placed_count_ + spare_count_; ++i) {
    std::uint16_t node = 0;
    if (i < placed_count_) {
      const Placed& p = placed_[static_cast<std::size_t>(i)];
      if (p.meeple_seat == kNone) continue;
      node = static_cast<std::uint16_t>(p.base + p.meeple_seg);
    } else {
      const Spare& sp = spare_[static_cast<std::size_t>(i - placed_count_)];
      node = static_cast<std::uint16_t>(placed_[sp.tile].base + sp.seg);
    }
    const std::uint16_t root = find(node);
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
      case Kind::Monastery:
      case Kind::Cloister: {
        const Placed& p = placed_[node.tile];
        const int around = monastery_neighbours(Cell{p.x, p.y});
        if (around != 8) score_feature(root, node.kind, true, events, 1 + around, 0, node.tile);
        break;
      }
      case Kind::Unscored: break;
      case Kind::Field: {
        std::array<std::uint16_t, kMaxTilesInGame> cities;
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
  if (rules_->finish_hooks) {
    for (int i = 0; i < rules_->part_count; ++i) {
      const detail::Part* part = rules_->parts[static_cast<std::size_t>(i)];
      if (part->finish != nullptr) part->finish(*this, events);
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

}  // namespace carc
