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
  std::vector<Target> targets;
  TargetLists lists;
  for (const Placement& p : placements) {
    targets.clear();
    for_each_target(base, t, p, seat, [&](Target target) { targets.push_back(target); }, false, &lists);
    for (const Target target : targets) {
      const Move m = make_move(base, t, p, target);
      Game next = base;
      if (next.play(m)) continue;  // cannot happen: the move comes from the generator
      // The steps inside the turn the move begins (the other seats' too), each seat's best.
      play_best_steps(next, eval);
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
