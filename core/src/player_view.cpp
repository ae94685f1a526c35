#include "carc/core/player_view.hpp"

#include <utility>

namespace carc {
namespace {

// The undrawn tiles in catalog order, then shuffled when `rng` is given.
std::array<Tile, kBagSize> undrawn(const Game& g, Rng* rng) {
  std::array<Tile, kBagSize> order{};
  int n = 0;
  const auto counts = g.bag_counts();
  for (int t = 0; t < kTileKinds; ++t) {
    for (int i = 0; i < counts[static_cast<std::size_t>(t)]; ++i) order[static_cast<std::size_t>(n++)] = static_cast<Tile>(t);
  }
  if (rng != nullptr) {
    for (int i = n - 1; i > 0; --i) {
      const auto j = rng->below(static_cast<std::uint32_t>(i + 1));
      std::swap(order[static_cast<std::size_t>(i)], order[j]);
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
