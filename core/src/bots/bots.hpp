// The bots behind choose() (bot.hpp). Each decides for the current seat of `view`, which
// must hold a placeable tile.
#pragma once

#include <vector>

#include "bot_hooks.hpp"
#include "carc/core/bot.hpp"

namespace carc::bots {

BotChoice random_move(const PlayerView& view, Rng& rng);
BotChoice greedy_move(const PlayerView& view, Rng& rng);
BotChoice mcts_move(const PlayerView& view, const BotSpec& spec, Rng& rng);

// What a turn does after placing, in one byte: no figure (kNoMeeple), a figure on a port
// (the port in bits 0-3, the Figure in bits 4-6), or the action the placement makes
// instead of a figure (kTakeBack; Game::action_offer).
inline constexpr std::uint8_t kNoMeeple = 0xFF;
inline constexpr std::uint8_t kTakeBack = 0xFE;
constexpr std::uint8_t figure_target(Port p, Figure f) {
  return static_cast<std::uint8_t>(static_cast<int>(p) | (static_cast<int>(f) << 4));
}
static_assert(kPortCount <= 16 && kFigureKinds <= 7);

// The move `seat` makes with `t` at `p` and `target`; the action needs the game (the cell
// Game::action_offer names).
inline Move make_move(Tile t, Placement p, std::uint8_t target) {
  if (target == kNoMeeple || target == kTakeBack) return Move::place(t, p.cell, p.rotation);
  return Move::place(t, p.cell, p.rotation, static_cast<Port>(target & 0x0F), static_cast<Figure>(target >> 4));
}
inline Move make_move(const Game& g, Tile t, Placement p, std::uint8_t target) {
  if (target == kTakeBack) {
    if (const auto back = g.action_offer(t, p, g.current_seat())) return Move::place_with_action(t, p.cell, p.rotation, *back);
  }
  return make_move(t, p, target);
}

// Steps inside a turn (Game::in_stage(): other seats act in it) made at random until the
// placement is scored: what bots and playouts do with them.
inline void play_steps(Game& g, Rng& rng) {
  if (!g.in_stage()) return;
  std::vector<Cell> options;
  while (g.in_stage()) {
    g.step_options(options);
    if (options.empty() || g.play(Move::step(options[rng.below(static_cast<std::uint32_t>(options.size()))]))) return;
  }
}

// Every target of a placement for `seat`: no figure first (left out when the action
// dominates it and `prune` is set: BotPart::action_dominates), then each figure's ports,
// then the action. Appends to `out` through `push`.
template <typename Push>
void for_each_target(const Game& g, Tile t, Placement p, Seat seat, Push push, bool prune = false) {
  const Ruleset& rules = g.rules();
  const std::optional<Cell> back = rules.action_part != nullptr ? g.action_offer(t, p, seat) : std::nullopt;
  bool dominated = false;
  if (prune && back) {
    const auto dominates = bot_hooks(rules).action_dominates;
    dominated = dominates != nullptr && dominates(g, p, seat, *back);
  }
  if (!dominated) push(kNoMeeple);
  for (const Port port : g.meeple_targets(t, p, seat)) push(figure_target(port, Figure::Meeple));
  if (rules.has_specials) {
    for (int f = 1; f < kFigureKinds; ++f) {
      if (rules.figures[static_cast<std::size_t>(f)] == 0) continue;
      for (const Port port : g.figure_targets(t, p, seat, static_cast<Figure>(f))) push(figure_target(port, static_cast<Figure>(f)));
    }
  }
  if (back) push(kTakeBack);
}

}  // namespace carc::bots
