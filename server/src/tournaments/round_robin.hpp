// The round robin schedule (docs/tournaments.md#round-robin), fixed when the tournament
// starts from its players in seed order. Pure: no I/O.
#pragma once

#include <vector>

#include "tournaments/results.hpp"

namespace carc::server::tournaments {

// Every round's tables (a table of one is a bye). Two per table: the circle method, n - 1
// rounds (n with a bye each when n is odd), every pair once. Three to six per table: each
// round seats together players who have not met yet (greedily, in seed order) until every
// pair has shared a table at least once.
std::vector<std::vector<std::vector<PlayerId>>> round_robin(const std::vector<PlayerId>& players, int per_table);

}  // namespace carc::server::tournaments
