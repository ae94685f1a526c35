#include "carc/core/random_player.hpp"

namespace carc {

Move RandomPlayer::choose(const Game& g) {
  const Seat seat = g.current_seat();
  const Tile t = *g.held(seat);
  const int n = g.count_legal_placements(t);
  if (n == 0) return Move::discard(t);
  const Placement p = g.nth_legal_placement(t, static_cast<int>(rng_.below(static_cast<std::uint32_t>(n))));
  std::optional<Port> meeple;
  if (rng_.below(4) != 0) {
    const PortList targets = g.meeple_targets(t, p, seat);
    if (targets.size > 0) meeple = targets.ports[rng_.below(targets.size)];
  }
  return Move::place(t, p.cell, p.rotation, meeple);
}

}  // namespace carc
