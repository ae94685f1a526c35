// Swiss pairings (docs/tournaments.md#swiss): the players of a round seated by their
// standing, nobody with someone they already shared a table with while another seating
// exists, and the bye (a table of one) for the lowest-ranked player who has had none.
// Pure: no I/O.
#pragma once

#include <set>
#include <vector>

#include "tournaments/results.hpp"

namespace carc::server::tournaments {

struct Seating {
  std::vector<std::vector<PlayerId>> tables;  // a table of one is the bye
  int rematches = 0;                          // pairs seated together again (0 unless forced)
};

// `ranked`: the players of the round (those not dropped), best standing first. `met`: who
// shared a table already; `had_bye`: who had a bye. Tables of at most `per_table`.
Seating swiss_pairing(const std::vector<PlayerId>& ranked, const Met& met, const std::set<PlayerId>& had_bye,
                      int per_table);

}  // namespace carc::server::tournaments
