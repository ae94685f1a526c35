#include "bots.hpp"

namespace carc::bots {

BotChoice random_move(const PlayerView& view, Rng& rng) {
  const Game& g = view.canonical();  // plain reads only: count and nth do not touch caches
  const Seat seat = g.current_seat();
  const Tile t = *g.held(seat);
  const int n = g.count_legal_placements(t);
  const Placement p = g.nth_legal_placement(t, static_cast<int>(rng.below(static_cast<std::uint32_t>(n))));
  Game scratch = g;  // meeple_targets() writes a cache
  const PortList targets = scratch.meeple_targets(t, p, seat);
  const std::uint32_t k = rng.below(static_cast<std::uint32_t>(targets.size) + 1u);
  const std::uint8_t target = k == 0 ? kNoMeeple : static_cast<std::uint8_t>(targets.ports[k - 1]);
  return BotChoice{make_move(t, p, target), 0};
}

}  // namespace carc::bots
