// Traders & Builders (docs/expansions/traders-builders.md): what the engine tells the
// other layers of it. Its ExpansionEvents (game.hpp) by kind:
//   kGoodsTaken   a seat took a completed city's goods: `seat`, `cell` (the tile that
//                 completed it), values[k] the tokens of Good k; in_turn.
//   kGoodsScored  the end's majority of Good `arg`: `points` to each of `winners`,
//                 values[s] the tokens seat s held, `players` seats.
// Its tokens (Game::tokens) are the goods, kind k being Good k.
#pragma once

#include <cstdint>

namespace carc::traders {

inline constexpr std::uint8_t kGoodsTaken = 0;
inline constexpr std::uint8_t kGoodsScored = 1;

}  // namespace carc::traders
