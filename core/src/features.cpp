#include "carc/core/features.hpp"

#include <algorithm>
#include <bit>

#include "game_tables.hpp"

namespace carc {
namespace {

// A bit per tile kind.
using KindBits = std::array<std::uint64_t, 2>;
static_assert(kTileKinds <= 128);

// For each constraint (Game::constraint()), the tile kinds that fit it in some rotation
// (Game::fitting_rotations() != 0), built at the first call.
const std::array<KindBits, detail::Tables::kWants>& fitting_kinds() {
  static const auto table = [] {
    std::array<KindBits, detail::Tables::kWants> t{};
    for (int want = 0; want < detail::Tables::kWants; ++want) {
      for (int k = 0; k < kTileKinds; ++k) {
        if (Game::fitting_rotations(static_cast<Tile>(k), static_cast<std::uint16_t>(want)) != 0) {
          t[static_cast<std::size_t>(want)][static_cast<std::size_t>(k / 64)] |= 1ull << (k % 64);
        }
      }
    }
    return t;
  }();
  return table;
}

}  // namespace

// A friend of Game: reads the feature forest and the board, changes nothing but the
// path compression every find() does.
void list_features(const Game& g, std::vector<FeatureInfo>& out) {
  out.clear();
  constexpr auto kMaxListed = static_cast<std::size_t>(FeatureInfo::kMaxFeatures);
  std::array<std::uint16_t, kMaxListed> roots{};

  // The count for each constraint met in this call: open cells of the same shape (one
  // city side, a road and a field...) recur across features, and a count walks every tile
  // kind (the estimate at the end of every short playout).
  std::array<std::uint16_t, 32> memo_want{};
  std::array<std::uint8_t, 32> memo_count{};
  std::size_t memo_size = 0;
  // The kinds still unseen (a bit each), found at the first count: a count walks only the
  // kinds that are both unseen and fit (fitting_kinds()), not every kind of the ruleset.
  KindBits left{};
  bool left_known = false;
  auto fitting = [&](Cell c) {
    const std::uint16_t want = g.constraint(c);
    for (std::size_t i = 0; i < memo_size; ++i) {
      if (memo_want[i] == want) return memo_count[i];
    }
    if (!left_known) {
      left_known = true;
      const int end = g.rules().kind_end;
      for (int t = 0; t < end; ++t) {
        if (g.unseen_[static_cast<std::size_t>(t)] != 0) left[static_cast<std::size_t>(t / 64)] |= 1ull << (t % 64);
      }
    }
    const KindBits& fit = fitting_kinds()[want];
    int n = 0;
    for (std::size_t w = 0; w < left.size(); ++w) {
      for (std::uint64_t m = fit[w] & left[w]; m != 0; m &= m - 1) {
        n += g.unseen_[w * 64 + static_cast<std::size_t>(std::countr_zero(m))];
      }
    }
    const auto count = static_cast<std::uint8_t>(n);
    if (memo_size < memo_want.size()) {
      memo_want[memo_size] = want;
      memo_count[memo_size++] = count;
    }
    return count;
  };
  auto add_cell = [&](FeatureInfo& f, Cell c) {
    for (int i = 0; i < f.cell_count; ++i) {
      if (f.cells[static_cast<std::size_t>(i)].cell == c) return;
    }
    if (f.cell_count < FeatureInfo::kMaxCells) f.cells[f.cell_count++] = OpenCell{c, fitting(c)};
  };

  // Lists the feature of `root` unless it is listed; returns its index (or -1 when full).
  auto add = [&](std::uint16_t root) -> int {
    for (std::size_t i = 0; i < out.size(); ++i) {
      if (roots[i] == root) return static_cast<int>(i);
    }
    if (out.size() >= kMaxListed) return -1;
    const Game::Node& r = g.nodes_[root];
    FeatureInfo f;
    f.kind = r.kind;
    for (int s = 0; s < kMaxPlayers; ++s) f.meeples[static_cast<std::size_t>(s)] = r.meeples[static_cast<std::size_t>(s)];
    if (is_cloister(r.kind)) {
      const Game::Placed& p = g.placed_[r.tile];
      f.tiles = 1;
      for (int dy = -1; dy <= 1; ++dy) {
        for (int dx = -1; dx <= 1; ++dx) {
          const Cell c{p.x + dx, p.y + dy};
          if ((dx != 0 || dy != 0) && g.slot(c) == 0) add_cell(f, c);
        }
      }
      f.open = f.cell_count;
    } else {
      f.open = static_cast<std::uint8_t>(std::min<int>(r.open, 255));
      std::uint64_t seen_lo = 0;
      std::uint64_t seen_hi = 0;
      std::uint16_t n = root;
      do {
        const Game::Node& node = g.nodes_[n];
        const Game::Placed& p = g.placed_[node.tile];
        std::uint64_t& word = node.tile < 64 ? seen_lo : seen_hi;
        const std::uint64_t bit = 1ull << (node.tile % 64);
        if ((word & bit) == 0) {
          word |= bit;
          ++f.tiles;
        }
        const Segment& seg = tile_def(p.tile).segments[node.seg];
        if (seg.pennant) ++f.pennants;
        f.marks = static_cast<std::uint8_t>(f.marks | seg.marks);
        if (p.meeple_seat != Game::kNone && p.meeple_seg == node.seg) {
          f.figures[p.meeple_seat] = static_cast<std::uint8_t>(f.figures[p.meeple_seat] | (1u << static_cast<int>(p.figure)));
        }
        if (r.open != 0 && r.kind != Kind::Field) {
          for (int side = 0; side < 4; ++side) {
            if (((seg.ports >> side) & 1) == 0) continue;
            const Cell c = neighbour(Cell{p.x, p.y}, static_cast<Side>((side + p.rotation) % 4));
            if (g.slot(c) == 0) add_cell(f, c);
          }
        }
        n = node.next;
      } while (n != root);
    }
    roots[out.size()] = root;
    out.push_back(f);
    return static_cast<int>(out.size() - 1);
  };

  for (int i = 0; i < g.placed_count_; ++i) {
    const Game::Placed& p = g.placed_[static_cast<std::size_t>(i)];
    if (p.meeple_seat != Game::kNone) add(g.find(static_cast<std::uint16_t>(p.base + p.meeple_seg)));
  }

  // The cities each farmer's field touches, walked as end-of-game scoring does.
  const std::size_t with_meeples = out.size();
  for (std::size_t i = 0; i < with_meeples; ++i) {
    if (out[i].kind != Kind::Field) continue;
    std::array<std::uint16_t, 64> seen{};
    int seen_count = 0;
    std::uint16_t m = roots[i];
    do {
      const Game::Node& fm = g.nodes_[m];
      const std::uint16_t base = g.placed_[fm.tile].base;
      for (std::uint8_t mask = fm.cities; mask != 0; mask = static_cast<std::uint8_t>(mask & (mask - 1))) {
        const auto c = std::countr_zero(static_cast<unsigned>(mask));
        const std::uint16_t croot = g.find(static_cast<std::uint16_t>(base + c));
        if (std::find(seen.begin(), seen.begin() + seen_count, croot) != seen.begin() + seen_count) continue;
        if (seen_count < static_cast<int>(seen.size())) seen[static_cast<std::size_t>(seen_count++)] = croot;
        if (g.nodes_[croot].open == 0) {
          ++out[i].completed_cities;
          continue;
        }
        const int k = add(croot);  // may grow `out`: index, never hold a reference across it
        if (k >= 0 && out[i].city_count < FeatureInfo::kMaxCities) {
          out[i].cities[out[i].city_count++] = static_cast<std::uint8_t>(k);
        }
      }
      m = fm.next;
    } while (m != roots[i]);
  }
}

}  // namespace carc
