// The bots behind choose() (bot.hpp). Each decides for the current seat of `view`, which
// must hold a placeable tile.
#pragma once

#include "carc/core/bot.hpp"

namespace carc::bots {

BotChoice random_move(const PlayerView& view, Rng& rng);
BotChoice greedy_move(const PlayerView& view, Rng& rng);
BotChoice mcts_move(const PlayerView& view, const BotSpec& spec, Rng& rng);

// What a turn does after placing, in one byte: no figure (kNoMeeple), a figure on a port
// (the port in bits 0-3, the Figure in bits 4-6), or the abbot's take-back (kTakeBack).
inline constexpr std::uint8_t kNoMeeple = 0xFF;
inline constexpr std::uint8_t kTakeBack = 0xFE;
constexpr std::uint8_t figure_target(Port p, Figure f) {
  return static_cast<std::uint8_t>(static_cast<int>(p) | (static_cast<int>(f) << 4));
}
static_assert(kPortCount <= 16 && kFigureKinds <= 7);

// The move `seat` makes with `t` at `p` and `target`; a take-back needs the game (where
// the seat's abbot is).
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

// Whether the take-back from `at` dominates placing no figure with `t` at `p`: no tile
// that may still come (unseen, or held by another seat) fits any empty cell around the
// abbot's monastery or garden but the one `t` takes. Keeping the abbot then scores the same
// points at the end that taking it back scores now, and only the take-back frees it.
inline bool take_back_dominates(const Game& g, Placement p, Seat seat, Cell at) {
  auto may_come = g.bag_counts();
  for (int s = 0; s < g.players(); ++s) {
    if (s == seat) continue;
    if (const auto h = g.held(s)) may_come[static_cast<std::size_t>(*h)]++;
  }
  for (int dy = -1; dy <= 1; ++dy) {
    for (int dx = -1; dx <= 1; ++dx) {
      const Cell c{at.x + dx, at.y + dy};
      if ((dx == 0 && dy == 0) || c == p.cell || g.tile_at(c)) continue;
      for (int k = 0; k < kTileKinds; ++k) {
        if (may_come[static_cast<std::size_t>(k)] == 0) continue;
        for (int r = 0; r < 4; ++r) {
          if (g.is_legal_placement(static_cast<Tile>(k), Placement{c, Rotation::quarters(r)})) return false;
        }
      }
    }
  }
  return true;
}

// Every target of a placement for `seat`: no figure first (left out when the take-back
// dominates it and `prune` is set), then each figure's ports, then the take-back. Appends
// to `out` through `push`.
template <typename Push>
void for_each_target(const Game& g, Tile t, Placement p, Seat seat, Push push, bool prune = false) {
  const Ruleset& rules = g.rules();
  const std::optional<Cell> back = rules.action_part != nullptr ? g.action_offer(t, p, seat) : std::nullopt;
  if (!(prune && back && take_back_dominates(g, p, seat, *back))) push(kNoMeeple);
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
