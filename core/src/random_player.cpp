#include "carc/core/random_player.hpp"

#include <array>
#include <vector>

#include "bots/bot_hooks.hpp"

namespace carc {

Move RandomPlayer::choose(const Game& g) {
  if (g.in_stage()) {  // a step inside the turn (Game::acting_seat())
    std::vector<Cell> options;
    g.step_options(options);
    return Move::step(options[rng_.below(static_cast<std::uint32_t>(options.size()))]);
  }
  const Seat seat = g.current_seat();
  const Tile t = *g.held(seat);
  const std::optional<Placement> found = g.random_legal_placement(t, rng_);
  if (!found) return Move::discard(t);
  const Placement p = *found;
  const Ruleset& rules = g.rules();
  if (!rules.has_specials && rules.action_part == nullptr && rules.target_part == nullptr && rules.elsewhere_part == nullptr) {
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
  if (options == 0 && rules.target_part == nullptr && rules.elsewhere_part == nullptr) return Move::place(t, p.cell, p.rotation);
  // Actions with a target and figures put on another tile (docs/expansions.md): half the
  // time one of them when there is one, so that random games use each.
  if (rules.target_part != nullptr || rules.elsewhere_part != nullptr) {
    // One list per kind of choice (figures elsewhere, then each action), one list drawn
    // among those that have a choice, then one of its moves.
    std::array<std::vector<Move>, 8> special;
    std::vector<Spot> spots;
    for (int f = 0; f < kFigureKinds; ++f) {
      g.figure_targets_elsewhere(t, p, seat, static_cast<Figure>(f), spots);
      for (const Spot& s : spots) {
        Move m = Move::place(t, p.cell, p.rotation, s.port, static_cast<Figure>(f));
        m.figure_cell = s.cell;
        special[0].push_back(m);
      }
    }
    for (int kind = 1; kind < 8; ++kind) {
      if (((rules.target_kinds >> kind) & 1) == 0) continue;
      g.action_targets(t, p, seat, static_cast<std::uint8_t>(kind), spots);
      for (const Spot& s : spots) {
        special[static_cast<std::size_t>(kind)].push_back(
            Move::place_with_target(t, p.cell, p.rotation, static_cast<std::uint8_t>(kind), s.cell, s.port));
      }
    }
    int lists = 0;
    for (const auto& list : special) lists += list.empty() ? 0 : 1;
    if (lists > 0 && (options == 0 || rng_.below(2) == 0)) {
      int k = static_cast<int>(rng_.below(static_cast<std::uint32_t>(lists)));
      for (const auto& list : special) {
        if (list.empty()) continue;
        if (k-- == 0) return list[rng_.below(static_cast<std::uint32_t>(list.size()))];
      }
    }
    if (options == 0) return Move::place(t, p.cell, p.rotation);
  }
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
