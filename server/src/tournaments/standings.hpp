// Standings of a Swiss or round robin tournament (docs/tournaments.md#standings), computed
// from the stored table results and nothing else. Pure: no I/O.
#pragma once

#include <cstdint>
#include <set>
#include <vector>

#include "tournaments/results.hpp"

namespace carc::server::tournaments {

// Buchholz is exact too: per table, the opponents' final points averaged over the table's
// opponents, in units of 1 / (kPointUnit * kBuchholzUnit) (60 is divisible by m - 1 for m = 2..6).
inline constexpr int kBuchholzUnit = 60;

struct Standing {
  PlayerId player;
  int rank = 0;                // 1 = first; equal on every tie-break shares the rank
  std::int64_t points = 0;     // units of 1/kPointUnit
  std::int64_t buchholz = 0;   // units of 1/(kPointUnit * kBuchholzUnit)
  std::int64_t scored = 0;     // the game points of every table played
  int tables = 0;              // tables played, byes excluded
  int byes = 0;
  bool dropped = false;
  bool operator==(const Standing&) const = default;
};

// `players` in seed order (the last tie-break, so the order is total); `dropped` those who
// left. Sorted by points, then Buchholz, then points scored; equal on all three share a rank
// but keep seed order.
std::vector<Standing> standings(const std::vector<PlayerId>& players, const std::set<PlayerId>& dropped,
                                const std::vector<TableResult>& results);

}  // namespace carc::server::tournaments
