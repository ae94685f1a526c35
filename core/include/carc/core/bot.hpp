// Computer players. One entry point, choose(), for every kind:
//
//   random  a uniform legal placement, then a uniform choice among "no meeple" and every
//           legal meeple target of it;
//   greedy  one ply: the move whose resulting position has the best estimate (points
//           scored, plus the expected value of open features from the tiles left in the
//           bag, of farms, and of meeples kept in supply), against the best opponent;
//   mcts    information-set Monte Carlo tree search: every iteration samples a bag order
//           from the view's multiset, walks one tree of placement and meeple decisions
//           (separate levels) and plays the game out on a copy of the engine.
//
// Levels for people (add_bot, docs/protocol.md): bot_level("easy"|"medium"|"hard").
//
// Guarantees: a bot reads only its PlayerView (never the bag order: the view has none).
// Given (view, spec, seed) and an iteration budget the answer is always the same; a time
// budget makes it depend on the clock. choose() keeps no state between calls and shares
// nothing but constant tables, so several threads may call it at once, even on one view;
// it allocates (the search tree), and uses no threads or I/O of its own.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>

#include "carc/core/game.hpp"
#include "carc/core/player_view.hpp"

namespace carc {

enum class BotKind : std::uint8_t { Random, Greedy, Mcts };
std::string_view bot_kind_name(BotKind k);                   // "random", "greedy", "mcts"
std::optional<BotKind> bot_kind_from_name(std::string_view s);

// A monotonic clock in nanoseconds, called on the thinking thread (e.g. steady_clock, or a
// thread's CPU time).
using BotClock = std::function<std::int64_t()>;

struct BotSpec {
  BotKind kind = BotKind::Greedy;
  // mcts: stop after this many playouts (0: no limit) ...
  int iterations = 0;
  // ... or once `think_ns` have passed on `clock` (0 or no clock: no limit), whichever
  // comes first. With neither limit, mcts runs kDefaultIterations.
  std::int64_t think_ns = 0;
  BotClock clock;

  static constexpr int kDefaultIterations = 2000;
  // A hard cap whatever the budget, so a stuck clock cannot run a search forever.
  static constexpr int kMaxIterations = 4'000'000;
};

// The computer levels players pick: "easy" = greedy, "medium" = mcts for 300 ms, "hard" =
// mcts for 1.5 s (both on `clock`). Nullopt for any other name.
std::optional<BotSpec> bot_level(std::string_view level, BotClock clock);

struct BotChoice {
  Move move;
  int playouts = 0;  // games played out to the end for this decision (mcts; 0 otherwise)
};

// The move of the view's current seat: always a legal Move::place of its held tile (a
// seeded game discards unplaceable tiles by itself, so a seat never holds one on its
// turn), with a meeple only where one may go (none when the supply is empty). Should the
// view have no playable turn (the game is over, or a replay game's tile is unknown), the
// answer is a discard the engine refuses with a clear RuleError, changing nothing.
BotChoice choose(const PlayerView& view, const BotSpec& spec, std::uint64_t seed);

inline Move choose_move(const PlayerView& view, const BotSpec& spec, std::uint64_t seed) {
  return choose(view, spec, seed).move;
}

}  // namespace carc
