#include "carc/core/bot.hpp"

#include <utility>

#include "bots.hpp"
#include "evaluation.hpp"

namespace carc {

std::string_view bot_kind_name(BotKind k) {
  switch (k) {
    case BotKind::Random: return "random";
    case BotKind::Greedy: return "greedy";
    case BotKind::Mcts: return "mcts";
  }
  return "?";
}

std::optional<BotKind> bot_kind_from_name(std::string_view s) {
  for (const BotKind k : {BotKind::Random, BotKind::Greedy, BotKind::Mcts}) {
    if (bot_kind_name(k) == s) return k;
  }
  return std::nullopt;
}

std::optional<BotSpec> bot_level(std::string_view level, BotClock clock) {
  BotSpec spec;
  if (level == "easy") {
    spec.kind = BotKind::Greedy;
  } else if (level == "medium" || level == "hard") {
    spec.kind = BotKind::Mcts;
    spec.think_ns = level == "medium" ? 300'000'000 : 1'500'000'000;
    spec.clock = std::move(clock);
  } else {
    return std::nullopt;
  }
  return spec;
}

BotChoice choose(const PlayerView& view, const BotSpec& spec, std::uint64_t seed) {
  if (view.canonical().in_stage()) {  // a step inside the turn (docs/bots.md, "Steps inside a turn")
    std::vector<Cell> options;
    view.canonical().step_options(options);
    Rng rng(seed);
    if (!options.empty()) {
      if (spec.kind == BotKind::Random) return BotChoice{Move::step(options[rng.below(static_cast<std::uint32_t>(options.size()))]), 0};
      // greedy: the step after which the seat stands best; mcts: the same at the stage's end,
      // by its own estimate (with the threats to figures: BotPart::risk)
      bots::Evaluator eval(spec.kind == BotKind::Mcts);
      const auto to = spec.kind == BotKind::Mcts ? bots::planned_step(view.canonical(), eval) : bots::best_step(view.canonical(), eval);
      if (to) return BotChoice{Move::step(*to), 0};
    }
  }
  const Seat seat = view.current_seat();
  const std::optional<Tile> held = view.held(seat);
  if (view.finished() || !held) return BotChoice{Move::discard(held.value_or(Tile::A)), 0};
  if (view.canonical().count_legal_placements(*held) == 0) return BotChoice{Move::discard(*held), 0};
  Rng rng(seed);
  switch (spec.kind) {
    case BotKind::Random: return bots::random_move(view, rng);
    case BotKind::Greedy: return bots::greedy_move(view, rng);
    case BotKind::Mcts: return bots::mcts_move(view, spec, rng);
  }
  return bots::random_move(view, rng);
}

}  // namespace carc
