// Scoring: a completed feature during play, a monastery's figure scored where it stands,
// and what is left at the end (the feature forest itself: game_features.cpp).
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

using detail::kNoSeg;
using detail::kTables;

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
