// The steps a seat makes inside another seat's turn (Game::in_stage(); docs/bots.md, "Steps
// inside a turn"), chosen by greedy's estimate: each option is tried and the seat takes the
// one after which it stands best against the best other seat.
#include <vector>

#include "bots.hpp"
#include "evaluation.hpp"

namespace carc::bots {

std::optional<Cell> best_step(const Game& g, Evaluator& eval) {
  std::vector<Cell> options;
  g.step_options(options);
  if (options.empty()) return std::nullopt;
  const Seat seat = g.acting_seat();
  double best = -1e18;
  Cell chosen = options.front();
  for (const Cell c : options) {
    Game next = g;
    if (next.play(Move::step(c))) continue;  // cannot happen: the option comes from the rules
    const double v = Evaluator::margin(eval.expected(next), next.players(), seat);
    if (v > best + 1e-9) {  // equal values: the first option, so that the choice is repeatable
      best = v;
      chosen = c;
    }
  }
  return chosen;
}

namespace {

// The estimate after the rest of the stage, every seat in turn taking the step after which it
// stands best at the stage's end (max^n over the steps left: at most 3 options a step).
Scores after_stage(const Game& g, Evaluator& eval, std::vector<Cell>& options, Cell* first) {
  if (!g.in_stage()) return eval.expected(g);
  g.step_options(options);
  if (options.empty()) return eval.expected(g);
  const std::vector<Cell> mine = options;
  const Seat seat = g.acting_seat();
  double best = -1e18;
  Scores chosen{};
  for (const Cell c : mine) {
    Game next = g;
    if (next.play(Move::step(c))) continue;  // cannot happen: the option comes from the rules
    const Scores e = after_stage(next, eval, options, nullptr);
    const double v = Evaluator::margin(e, next.players(), seat);
    if (v > best + 1e-9) {  // equal values: the first option, so that the choice is repeatable
      best = v;
      chosen = e;
      if (first != nullptr) *first = c;
    }
  }
  return chosen;
}

}  // namespace

std::optional<Cell> planned_step(const Game& g, Evaluator& eval) {
  std::vector<Cell> options;
  g.step_options(options);
  if (options.empty()) return std::nullopt;
  Cell first = options.front();
  after_stage(g, eval, options, &first);
  return first;
}

void play_best_steps(Game& g, Evaluator& eval) {
  while (g.in_stage()) {
    const std::optional<Cell> to = best_step(g, eval);
    if (!to || g.play(Move::step(*to))) return;
  }
}

}  // namespace carc::bots
