#include <array>

#include "carc/core/game.hpp"

namespace carc {

std::optional<Game> Game::with_bag(int players, ExpansionSet expansions, std::span<const Tile> order) {
  return with_bag(players, expansions, OptionSet{}, order);
}

std::optional<Game> Game::with_bag(int players, ExpansionSet expansions, OptionSet options,
                                   std::span<const Tile> order) {
  const Ruleset& rules = ruleset(expansions, options);
  if (static_cast<int>(order.size()) != rules.bag_size) return std::nullopt;
  std::array<int, kTileKinds> counts{};
  for (std::size_t i = 0; i < order.size(); ++i) {
    const auto k = static_cast<std::size_t>(order[i]);
    if (k >= counts.size()) return std::nullopt;
    ++counts[k];
    if (rules.pile[k] != rules.pile_of_draw(static_cast<int>(i))) return std::nullopt;
  }
  for (int k = 0; k < kTileKinds; ++k) {
    const int want = rules.counts[static_cast<std::size_t>(k)] - (static_cast<Tile>(k) == rules.start ? 1 : 0);
    if (counts[static_cast<std::size_t>(k)] != want) return std::nullopt;
  }
  Game g;
  g.seeded_ = true;
  g.seed_ = 0;
  g.fixed_order_ = true;  // the order is the draws' order, the held-back tiles' too
  std::copy(order.begin(), order.end(), g.bag_.begin());
  g.start(players, rules, nullptr);
  return g;
}

}  // namespace carc
