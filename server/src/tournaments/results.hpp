// A tournament's stored facts, as the pure logic reads them (docs/tournaments.md): the
// players in seed order and each finished game of a round with its seats' scores. Every
// standing, pairing and bracket is computed from these alone, so computing it again from
// the stored rows gives the same answer. Pure: no I/O.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace carc::server::tournaments {

using PlayerId = std::string;  // a public player id (keys/player_id.hpp)

// One seat of a finished table. `gone`: the seat's last turn was made for it (it left, did
// not show up, or ran out of time), so it ranks below every seat still there.
struct TableSeat {
  PlayerId player;
  int score = 0;
  bool gone = false;
  bool operator==(const TableSeat&) const = default;
};

// A finished game of a round. A table of one seat is a bye. `game` numbers the games of one
// knockout match (best of N); it is 0 elsewhere.
struct TableResult {
  int round = 1;
  int table = 0;
  int game = 0;
  std::vector<TableSeat> seats;
  bool bye() const { return seats.size() == 1; }
  bool operator==(const TableResult&) const = default;
};

// Points are exact integers in units of 1/kPointUnit: a table is worth one point, shared by
// the share of opponents a seat finished ahead of (half for a tie): 120 is divisible by
// 2 * (m - 1) for every table of m = 2..6 seats. A bye is worth a whole point.
inline constexpr int kPointUnit = 120;

// Each seat's place, 1 = first: the seats still there by score, then the gone by score.
std::vector<int> table_places(const TableResult& t);
// Each seat's points for this table, in units of 1/kPointUnit.
std::vector<int> table_points(const TableResult& t);

// Pairs of players who shared a table (byes excluded), each pair as (smaller, larger).
using Met = std::set<std::pair<PlayerId, PlayerId>>;
Met met_pairs(const std::vector<TableResult>& results);
bool have_met(const Met& met, const PlayerId& a, const PlayerId& b);

// Sizes of the tables for n players at tables of at most k: ceil(n / k) tables, as even as
// possible, largest first. With k = 2 and n odd the last is a table of one: the bye.
std::vector<int> table_sizes(int n, int k);

}  // namespace carc::server::tournaments
