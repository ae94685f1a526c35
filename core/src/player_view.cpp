#include "carc/core/player_view.hpp"

#include <utility>

namespace carc {
namespace {

// The undrawn tiles pile by pile in draw order, each pile in catalog order; `pile_end[k]`:
// where pile k ends in it.
std::array<Tile, kMaxTilesInGame> undrawn(const Game& g, std::array<std::uint8_t, 4>& pile_end) {
  std::array<Tile, kMaxTilesInGame> order{};
  int n = 0;
  const auto counts = g.bag_counts();
  const Ruleset& rules = g.rules();
  for (int pile = 0; pile < rules.piles; ++pile) {
    for (int t = 0; t < rules.kind_end; ++t) {
      if (rules.pile[static_cast<std::size_t>(t)] != pile) continue;
      for (int i = 0; i < counts[static_cast<std::size_t>(t)]; ++i) order[static_cast<std::size_t>(n++)] = static_cast<Tile>(t);
    }
    pile_end[static_cast<std::size_t>(pile)] = static_cast<std::uint8_t>(n);
  }
  return order;
}

}  // namespace

PlayerView::PlayerView(const Game& g) : game_(g) {
  undrawn_ = undrawn(game_, pile_end_);
  game_.reorder_bag(std::span<const Tile>(undrawn_.data(), static_cast<std::size_t>(game_.bag_left())));
}

Game PlayerView::determinize(Rng& rng) const {
  Game g = game_;
  determinize(rng, g);
  return g;
}

// Each pile of the catalog order shuffled (the piles keep their places: a pile drawn last
// stays last).
void PlayerView::determinize(Rng& rng, Game& out) const {
  out = game_;
  std::array<Tile, kMaxTilesInGame> order = undrawn_;
  int first = 0;
  for (int pile = 0; pile < game_.rules().piles; ++pile) {
    const int n = pile_end_[static_cast<std::size_t>(pile)];
    for (int i = n - first - 1; i > 0; --i) {
      const auto j = rng.below(static_cast<std::uint32_t>(i + 1));
      std::swap(order[static_cast<std::size_t>(first + i)], order[static_cast<std::size_t>(first) + j]);
    }
    first = n;
  }
  out.reorder_bag(std::span<const Tile>(order.data(), static_cast<std::size_t>(out.bag_left())));
}

}  // namespace carc
