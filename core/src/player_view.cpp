#include "carc/core/player_view.hpp"

#include <utility>

namespace carc {
namespace {

// The undrawn tiles pile by pile in draw order, each pile in catalog order, then each pile
// shuffled when `rng` is given (the piles keep their places: a pile drawn last stays last).
std::array<Tile, kMaxTilesInGame> undrawn(const Game& g, Rng* rng) {
  std::array<Tile, kMaxTilesInGame> order{};
  int n = 0;
  const auto counts = g.bag_counts();
  const Ruleset& rules = g.rules();
  for (int pile = 0; pile < rules.piles; ++pile) {
    const int first = n;
    for (int t = 0; t < rules.kind_end; ++t) {
      if (rules.pile[static_cast<std::size_t>(t)] != pile) continue;
      for (int i = 0; i < counts[static_cast<std::size_t>(t)]; ++i) order[static_cast<std::size_t>(n++)] = static_cast<Tile>(t);
    }
    if (rng != nullptr) {
      for (int i = n - first - 1; i > 0; --i) {
        const auto j = rng->below(static_cast<std::uint32_t>(i + 1));
        std::swap(order[static_cast<std::size_t>(first + i)], order[static_cast<std::size_t>(first) + j]);
      }
    }
  }
  return order;
}

}  // namespace

PlayerView::PlayerView(const Game& g) : game_(g) {
  const auto order = undrawn(game_, nullptr);
  game_.reorder_bag(std::span<const Tile>(order.data(), static_cast<std::size_t>(game_.bag_left())));
}

Game PlayerView::determinize(Rng& rng) const {
  Game g = game_;
  const auto order = undrawn(g, &rng);
  g.reorder_bag(std::span<const Tile>(order.data(), static_cast<std::size_t>(g.bag_left())));
  return g;
}

}  // namespace carc
