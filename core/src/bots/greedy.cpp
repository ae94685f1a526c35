#include <vector>

#include "bots.hpp"
#include "evaluation.hpp"

namespace carc::bots {

BotChoice greedy_move(const PlayerView& view, Rng& rng) {
  Game base = view.canonical();  // the bag's order is not the view's: any order will do here
  const Seat seat = base.current_seat();
  const Tile t = *base.held(seat);
  std::vector<Placement> placements;
  base.legal_placements(t, placements);

  Evaluator eval;
  double best = -1e18;
  Move chosen = make_move(t, placements.front(), kNoMeeple);
  int ties = 0;
  for (const Placement& p : placements) {
    const PortList targets = base.meeple_targets(t, p, seat);
    for (int k = -1; k < targets.size; ++k) {
      const std::uint8_t target = k < 0 ? kNoMeeple : static_cast<std::uint8_t>(targets.ports[static_cast<std::size_t>(k)]);
      const Move m = make_move(t, p, target);
      Game next = base;
      if (next.play(m)) continue;  // cannot happen: the move comes from the generator
      const double v = Evaluator::margin(eval.expected(next), next.players(), seat);
      // Equal values: a uniform choice among them (reservoir sampling), so that the bot
      // does not always prefer the first cell of the frontier.
      if (v > best + 1e-9) {
        best = v;
        chosen = m;
        ties = 1;
      } else if (v > best - 1e-9 && rng.below(static_cast<std::uint32_t>(++ties)) == 0) {
        chosen = m;
      }
    }
  }
  return BotChoice{chosen, 0};
}

}  // namespace carc::bots
