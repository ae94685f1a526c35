// Traders & Builders (docs/expansions/traders-builders.md): what the engine tells the
// other layers of it. Its figures, the builder and the pig; its goods, whose symbol a city
// segment may show (Segment::marks bits 2-3: 0 none, else Good + 1). Its ExpansionEvents
// (game.hpp) by kind:
//   kGoodsTaken   a seat took a completed city's goods: `seat`, `cell` (the tile that
//                 completed it), values[k] the tokens of Good k; in_turn.
//   kGoodsScored  the end's majority of Good `arg`: `points` to each of `winners`,
//                 values[s] the tokens seat s held, `players` seats.
// Its tokens (Game::tokens) are the goods, kind k being Good k.
#pragma once

#include <cstdint>
#include <string_view>

#include "carc/core/tiles.hpp"

namespace carc::traders {

// In moves and records: never renumber.
inline constexpr Figure kBuilder = static_cast<Figure>(3);
inline constexpr Figure kPig = static_cast<Figure>(4);

enum class Good : std::uint8_t { Wine, Grain, Cloth };
inline constexpr int kGoodKinds = 3;
constexpr std::string_view good_name(Good g) {  // "wine", "grain", "cloth"
  switch (g) {
    case Good::Wine: return "wine";
    case Good::Grain: return "grain";
    case Good::Cloth: return "cloth";
  }
  return "?";
}
constexpr std::uint8_t mark_of(Good g) { return static_cast<std::uint8_t>((static_cast<int>(g) + 1) << 2); }
constexpr int good_of_marks(std::uint8_t marks) { return ((marks >> 2) & 3) - 1; }  // -1: none

inline constexpr std::uint8_t kGoodsTaken = 0;
inline constexpr std::uint8_t kGoodsScored = 1;

}  // namespace carc::traders
