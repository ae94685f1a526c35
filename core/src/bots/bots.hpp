// The bots behind choose() (bot.hpp). Each decides for the current seat of `view`, which
// must hold a placeable tile.
#pragma once

#include <optional>
#include <vector>

#include "bot_hooks.hpp"
#include "carc/core/bot.hpp"

namespace carc::bots {

BotChoice random_move(const PlayerView& view, Rng& rng);
BotChoice greedy_move(const PlayerView& view, Rng& rng);
BotChoice mcts_move(const PlayerView& view, const BotSpec& spec, Rng& rng);

// What a turn does after placing, in four bytes (a search tree's edge holds one): no figure
// (kNoMeeple), a figure on a port of the placed tile (`code`: the port in bits 0-3, the
// Figure in bits 4-6), the action the placement makes instead of a figure (kTakeBack;
// Game::action_offer), a figure put on another placed tile (kElsewhere; Part::figure_elsewhere)
// or an action that names a figure on the board (kOnTarget; Ruleset::target_part). The last
// two name a cell (`x`, `y`) and, in `arg`, the port (bits 0-3) with the figure or the
// action's kind (bits 4-7).
inline constexpr std::uint8_t kNoMeeple = 0xFF;
inline constexpr std::uint8_t kTakeBack = 0xFE;
inline constexpr std::uint8_t kElsewhere = 0xFD;
inline constexpr std::uint8_t kOnTarget = 0xFC;

struct Target {
  std::uint8_t code = kNoMeeple;
  std::int8_t x = 0;
  std::int8_t y = 0;
  std::uint8_t arg = 0;

  constexpr Target() = default;
  constexpr Target(std::uint8_t c) : code(c) {}  // NOLINT: the one-byte targets read as before
  constexpr bool operator==(const Target&) const = default;
  Cell cell() const { return Cell{x, y}; }
  Port port() const { return static_cast<Port>(arg & 0x0F); }
  std::uint8_t high() const { return static_cast<std::uint8_t>(arg >> 4); }
};
static_assert(sizeof(Target) == 4);

constexpr Target figure_target(Port p, Figure f) {
  return Target(static_cast<std::uint8_t>(static_cast<int>(p) | (static_cast<int>(f) << 4)));
}
inline Target spot_target(std::uint8_t code, Spot s, int high) {
  Target t(code);
  t.x = static_cast<std::int8_t>(s.cell.x);
  t.y = static_cast<std::int8_t>(s.cell.y);
  t.arg = static_cast<std::uint8_t>(static_cast<int>(s.port) | (high << 4));
  return t;
}
static_assert(kPortCount <= 16 && kFigureKinds <= 7);

// The move `seat` makes with `t` at `p` and `target`; the action needs the game (the cell
// Game::action_offer names).
inline Move make_move(Tile t, Placement p, Target target) {
  switch (target.code) {
    case kNoMeeple:
    case kTakeBack: return Move::place(t, p.cell, p.rotation);
    case kElsewhere: {
      Move m = Move::place(t, p.cell, p.rotation, target.port(), static_cast<Figure>(target.high()));
      m.figure_cell = target.cell();
      return m;
    }
    case kOnTarget: return Move::place_with_target(t, p.cell, p.rotation, target.high(), target.cell(), target.port());
    default:
      return Move::place(t, p.cell, p.rotation, static_cast<Port>(target.code & 0x0F), static_cast<Figure>(target.code >> 4));
  }
}
inline Move make_move(const Game& g, Tile t, Placement p, Target target) {
  if (target.code == kTakeBack) {
    if (const auto back = g.action_offer(t, p, g.current_seat())) return Move::place_with_action(t, p.cell, p.rotation, *back);
  }
  return make_move(t, p, target);
}
// The target a move makes (the inverse of make_move).
inline Target target_of(const Move& m) {
  if (m.action_kind != 0 && m.action && m.action_port) {
    return spot_target(kOnTarget, Spot{*m.action, *m.action_port}, m.action_kind);
  }
  if (m.action) return Target(kTakeBack);
  if (!m.meeple) return Target(kNoMeeple);
  if (m.figure_cell) return spot_target(kElsewhere, Spot{*m.figure_cell, *m.meeple}, static_cast<int>(m.figure));
  return figure_target(*m.meeple, m.figure);
}

// Steps inside a turn (Game::in_stage(): other seats act in it) until the placement is
// scored, each by the stage part's cheap rule (BotPart::playout_step) or else a uniform
// option: what the search's walk and playouts do with them.
inline void play_steps(Game& g, Rng& rng, std::vector<Cell>& options) {
  if (!g.in_stage()) return;
  const auto rule = bot_hooks(g.rules()).playout_step;
  while (g.in_stage()) {
    g.step_options(options);
    if (options.empty()) return;
    const std::size_t k = rule != nullptr ? rule(g, options, rng) : rng.below(static_cast<std::uint32_t>(options.size()));
    if (g.play(Move::step(options[k]))) return;
  }
}
inline void play_steps(Game& g, Rng& rng) {
  if (!g.in_stage()) return;
  std::vector<Cell> options;
  play_steps(g, rng, options);
}

class Evaluator;
// The step the acting seat of `g` (in a stage) makes by greedy's estimate: the option after
// which it stands best against the best other seat (steps.cpp). Nullopt: no option.
std::optional<Cell> best_step(const Game& g, Evaluator& eval);
// The step the acting seat makes looking ahead to the stage's end: every seat in turn takes
// the step after which it stands best once the stage is over (the mcts bot in play).
std::optional<Cell> planned_step(const Game& g, Evaluator& eval);
// Such steps by every seat in turn until the placement is scored (greedy's look at a move,
// and the root of the search).
void play_best_steps(Game& g, Evaluator& eval);

// Every target of a placement for `seat`: no figure first (left out when the action
// dominates it and `prune` is set: BotPart::action_dominates), then each figure's ports,
// then the action, then the figures put on other tiles and the actions with a target
// (every target the rules offer: the same moves Game::play accepts). Calls `push` with each.
// The lists for_each_target() fills on the way; a caller that asks often passes its own, so
// that their heap is reused.
struct TargetLists {
  ElsewhereTargets elsewhere;
  std::vector<Spot> spots;
};

template <typename Push>
void for_each_target(const Game& g, Tile t, Placement p, Seat seat, Push push, bool prune = false,
                     TargetLists* lists = nullptr) {
  const Ruleset& rules = g.rules();
  const std::optional<Cell> back = rules.action_part != nullptr ? g.action_offer(t, p, seat) : std::nullopt;
  bool dominated = false;
  if (prune && back) {
    const auto dominates = bot_hooks(rules).action_dominates;
    dominated = dominates != nullptr && dominates(g, p, seat, *back);
  }
  if (!dominated) push(Target(kNoMeeple));
  for (const Port port : g.meeple_targets(t, p, seat)) push(figure_target(port, Figure::Meeple));
  if (rules.has_specials) {
    for (int f = 1; f < kFigureKinds; ++f) {
      if (rules.figures[static_cast<std::size_t>(f)] == 0) continue;
      for (const Port port : g.figure_targets(t, p, seat, static_cast<Figure>(f))) push(figure_target(port, static_cast<Figure>(f)));
    }
  }
  if (back) push(Target(kTakeBack));
  if (rules.elsewhere_part == nullptr && rules.target_part == nullptr) return;
  TargetLists own;
  TargetLists& l = lists != nullptr ? *lists : own;
  if (rules.elsewhere_part != nullptr) {
    g.figure_targets_elsewhere(t, p, seat, l.elsewhere);
    for (int f = 0; f < kFigureKinds; ++f) {
      if (rules.figures[static_cast<std::size_t>(f)] == 0) continue;
      for (const Spot& s : l.elsewhere.by_figure[static_cast<std::size_t>(f)]) push(spot_target(kElsewhere, s, f));
    }
  }
  std::vector<Spot>& spots = l.spots;
  if (rules.target_part != nullptr) {
    for (int kind = 1; kind < 8; ++kind) {
      if (((rules.target_kinds >> kind) & 1) == 0) continue;
      g.action_targets(t, p, seat, static_cast<std::uint8_t>(kind), spots);
      for (const Spot& s : spots) push(spot_target(kOnTarget, s, kind));
    }
  }
}

}  // namespace carc::bots
