#include "carc/core/random_player.hpp"

#include <array>

#include "bots/bot_hooks.hpp"

namespace carc {

Move RandomPlayer::choose(const Game& g) {
  const Seat seat = g.current_seat();
  const Tile t = *g.held(seat);
  const std::optional<Placement> found = g.random_legal_placement(t, rng_);
  if (!found) return Move::discard(t);
  const Placement p = *found;
  const Ruleset& rules = g.rules();
  if (!rules.has_specials && rules.action_part == nullptr) {
    std::optional<Port> meeple;
    if (rng_.below(4) != 0) {
      const PortList targets = g.meeple_targets(t, p, seat);
      if (targets.size > 0) meeple = targets.ports[rng_.below(targets.size)];
    }
    return Move::place(t, p.cell, p.rotation, meeple);
  }
  // With figures besides the meeple or an action instead of a figure: most of the time,
  // one of every figure's targets or the action (Game::action_offer), uniformly.
  if (rng_.below(4) == 0) return Move::place(t, p.cell, p.rotation);
  std::array<PortList, kFigureKinds> targets{};
  int options = 0;
  for (int f = 0; f < kFigureKinds; ++f) {
    targets[static_cast<std::size_t>(f)] = g.figure_targets(t, p, seat, static_cast<Figure>(f));
    options += targets[static_cast<std::size_t>(f)].size;
  }
  const std::optional<Cell> back = g.action_offer(t, p, seat);
  if (back) ++options;
  if (options == 0) return Move::place(t, p.cell, p.rotation);
  // When an expansion in play says its figures are rare (BotPart::rare_figures), half the
  // time one of the figures other than the meeple when one has a target, so that random
  // games use every figure (each would otherwise be one choice among a dozen meeple ports).
  if (bots::bot_hooks(rules).rare_figures) {
    int special = 0;
    for (int f = 1; f < kFigureKinds; ++f) special += targets[static_cast<std::size_t>(f)].size;
    if (special > 0 && rng_.below(2) == 0) {
      int k = static_cast<int>(rng_.below(static_cast<std::uint32_t>(special)));
      for (int f = 1; f < kFigureKinds; ++f) {
        const PortList& list = targets[static_cast<std::size_t>(f)];
        if (k < list.size) return Move::place(t, p.cell, p.rotation, list.ports[static_cast<std::size_t>(k)], static_cast<Figure>(f));
        k -= list.size;
      }
    }
  }
  int k = static_cast<int>(rng_.below(static_cast<std::uint32_t>(options)));
  for (int f = 0; f < kFigureKinds; ++f) {
    const PortList& list = targets[static_cast<std::size_t>(f)];
    if (k < list.size) return Move::place(t, p.cell, p.rotation, list.ports[static_cast<std::size_t>(k)], static_cast<Figure>(f));
    k -= list.size;
  }
  return Move::place_with_action(t, p.cell, p.rotation, *back);
}

}  // namespace carc
