// Knockout brackets (docs/tournaments.md#knockout): single and double elimination, seeded by
// rating, each match best of N games. The bracket's shape depends only on the number of
// players; who plays whom is resolved from the seeds and the stored game results. Pure: no I/O.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "tournaments/results.hpp"

namespace carc::server::tournaments {

// Where a match's seat comes from: a seed (0 = the best), or the winner or loser of a match.
struct Source {
  enum class Kind { seed, winner, loser };
  Kind kind = Kind::seed;
  int index = 0;  // the seed, or the match's index in the bracket
  bool operator==(const Source&) const = default;
};

enum class Side { winners, losers, final };
std::string side_name(Side s);  // "winners" | "losers" | "final" (on the wire)

struct Match {
  Side side = Side::winners;
  int level = 1;  // the round within its side (1 = first)
  int round = 1;  // the tournament round: one after the latest round it waits for
  Source a, b;
  bool operator==(const Match&) const = default;
};

// A bracket for n players: the next power of two's seats, seeds 1..n placed so that the two
// best meet last (1 v 8, 4 v 5, 2 v 7, 3 v 6 for eight) and seeds past n are byes.
// Double elimination adds the losers' side (each loser of the winners' side drops into it
// once) and one grand final between the two sides' winners (no second final).
std::vector<Match> single_elimination(int players);
std::vector<Match> double_elimination(int players);

// The seed order: rating, best first; equal ratings keep registration order.
std::vector<PlayerId> seed_by_rating(const std::vector<PlayerId>& registered, const std::map<PlayerId, double>& rating);

// One seat of a match as resolved so far.
struct Slot {
  enum class Kind { pending, bye, player };
  Kind kind = Kind::pending;
  PlayerId player;
  bool operator==(const Slot&) const = default;
};

struct MatchState {
  Slot a, b;
  int wins_a = 0, wins_b = 0;
  int games = 0;                 // games played
  bool decided = false;
  Slot winner, loser;            // loser is a bye when the match was a walkover
};

// Every match resolved from the seeds (best first) and the games played: results with
// `round` the match's tournament round and `table` its index in the bracket. A match of two
// players is decided once one has won a majority of `best_of` (a drawn game counts for
// neither), or after `best_of` games by more wins, then more points scored, then the better
// seed; a match with a bye is a walkover; a match of two byes is decided at once with a bye.
std::vector<MatchState> resolve(const std::vector<Match>& bracket, const std::vector<PlayerId>& seeds,
                                const std::vector<TableResult>& results, int best_of);

// Final places from a resolved bracket: the champion 1, the final's loser 2, then by the
// round of the last match each player played (later is better; equal rounds share a place,
// listed by seed); nullopt while
// a match is undecided.
struct Placing {
  PlayerId player;
  int place = 0;
};
std::optional<std::vector<Placing>> knockout_places(const std::vector<Match>& bracket, const std::vector<MatchState>& states,
                                                    const std::vector<PlayerId>& seeds);

}  // namespace carc::server::tournaments
