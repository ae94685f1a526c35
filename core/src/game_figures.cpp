// The figures on the board: which stands where, sending them home, and the figures put on
// other tiles than the one placed (the targets an expansion offers there).
#include "carc/core/game.hpp"

#include <algorithm>
#include <bit>

#include "expansions/part.hpp"
#include "game_tables.hpp"

namespace carc {

using detail::kNoSeg;
using detail::Oriented;
using detail::oriented;

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

}  // namespace carc
