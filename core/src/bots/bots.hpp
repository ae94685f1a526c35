// The bots behind choose() (bot.hpp). Each decides for the current seat of `view`, which
// must hold a placeable tile.
#pragma once

#include "carc/core/bot.hpp"

namespace carc::bots {

BotChoice random_move(const PlayerView& view, Rng& rng);
BotChoice greedy_move(const PlayerView& view, Rng& rng);
BotChoice mcts_move(const PlayerView& view, const BotSpec& spec, Rng& rng);

// The move `seat` makes with `t` at `p`, with a meeple at `target` (kNoMeeple: none).
inline constexpr std::uint8_t kNoMeeple = 0xFF;
inline Move make_move(Tile t, Placement p, std::uint8_t target) {
  return Move::place(t, p.cell, p.rotation,
                     target == kNoMeeple ? std::nullopt : std::optional<Port>(static_cast<Port>(target)));
}

}  // namespace carc::bots
