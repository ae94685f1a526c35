#include <vector>

#include "bots.hpp"

namespace carc::bots {

BotChoice random_move(const PlayerView& view, Rng& rng) {
  const Game& g = view.canonical();  // plain reads only: count and nth do not touch caches
  const Seat seat = g.current_seat();
  const Tile t = *g.held(seat);
  const int n = g.count_legal_placements(t);
  const Placement p = g.nth_legal_placement(t, static_cast<int>(rng.below(static_cast<std::uint32_t>(n))));
  Game scratch = g;  // meeple_targets() writes a cache
  std::vector<Target> targets;
  for_each_target(scratch, t, p, seat, [&](Target target) { targets.push_back(target); });
  return BotChoice{make_move(scratch, t, p, targets[rng.below(static_cast<std::uint32_t>(targets.size()))]), 0};
}

}  // namespace carc::bots
