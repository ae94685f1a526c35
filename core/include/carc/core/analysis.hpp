// Move-by-move analysis of a finished (or partial) game: for each move, from the mover's
// seat and with only what that player could see (the board, every held tile, the multiset
// of tiles left, never the bag's order), the value of the move played and of the best
// move the search finds, and a label from the difference (docs/analysis.md).
//
// A value is the expected final margin of the mover (its score minus the best other
// score), estimated by the mcts bot's search (information-set MCTS over sampled bag
// orders, core/src/bots/search.hpp) with the played move followed on a share of the
// iterations so both moves are measured. Given (moves, budget, seed) and an iteration
// budget the answer is always the same; a time budget makes it depend on the clock.
// No I/O, no threads: the caller runs it where it likes (the server's bot pool, the CLI).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <variant>
#include <vector>

#include "carc/core/bot.hpp"
#include "carc/core/game.hpp"

namespace carc {

enum class MoveLabel : std::uint8_t { Best, Good, Inaccuracy, Mistake, Blunder };
std::string_view move_label_name(MoveLabel l);  // "best", "good", "inaccuracy", "mistake", "blunder"

// Thresholds on the loss (expected points of margin given away), docs/analysis.md. A loss
// within the spread is no loss at all: the move is as good as the best one found.
struct LabelThresholds {
  static constexpr double kGood = 0.0;        // loss > spread: good
  static constexpr double kInaccuracy = 3.0;  // loss >= 3 (and > spread): inaccuracy
  static constexpr double kMistake = 6.0;     // loss >= 6: mistake
  static constexpr double kBlunder = 12.0;    // loss >= 12: blunder
};
MoveLabel label_for(double loss, double spread);

struct MoveAnalysis {
  int move = 0;   // index in the record
  Seat seat = 0;  // who made it
  bool discard = false;  // a discard: no choice, no values, no label
  double played_value = 0;
  double best_value = 0;
  double loss = 0;    // best_value - played_value, never below 0
  double spread = 0;  // two standard errors of that difference
  MoveLabel label = MoveLabel::Best;
  Move best;          // the best move found (the played one when it is the best)
  int playouts = 0;
};

// The seeded game that replays `moves` (a record's, in order, discards included) exactly:
// its bag holds the record's tiles in the order they were drawn, tiles the record never
// names after them in catalog order. The game after the first `upto` moves; or the index
// of the first move the rules refuse (then `*error` says why). A record that plays on
// after the game ends is refused at that move.
struct ReplayRefusal {
  int move = 0;
  RuleError error = RuleError::GameOver;
};
std::variant<Game, ReplayRefusal> seeded_replay(int players, ExpansionSet expansions, std::span<const Move> moves,
                                                std::size_t upto, OptionSet options = {});

// Analyses move `played` of the current seat of `before` (a seeded game, such as
// seeded_replay's: only its PlayerView is read, never its bag order) with a search of
// `budget` (an mcts BotSpec: iterations and/or think time). `index` is copied into the
// answer. A discard, or a move the game refuses, gives a discard entry / nullopt.
std::optional<MoveAnalysis> analyse_move(const Game& before, const Move& played, int index, const BotSpec& budget,
                                         std::uint64_t seed);

// The seed of move `index` of an analysis seeded with `seed` (so a single move can be
// analysed again, alone, with the same answer).
std::uint64_t analysis_seed(std::uint64_t seed, int index);

}  // namespace carc
