#include "carc/core/random_player.hpp"

namespace carc {

Move RandomPlayer::choose(const Game& g) {
  const Seat seat = g.current_seat();
  const Tile t = *g.held(seat);
  g.legal_placements(t, scratch_);
  if (scratch_.empty()) return Move::discard(t);
  const Placement p = scratch_[rng_.below(static_cast<std::uint32_t>(scratch_.size()))];
  std::optional<Port> meeple;
  if (rng_.below(4) != 0) {
    const PortList targets = g.meeple_targets(t, p, seat);
    if (targets.size > 0) meeple = targets.ports[rng_.below(targets.size)];
  }
  return Move::place(t, p.cell, p.rotation, meeple);
}

}  // namespace carc
