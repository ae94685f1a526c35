// Points, Buchholz and points scored from the table results (docs/tournaments.md#standings).
#include "tournaments/standings.hpp"

#include <algorithm>
#include <map>
#include <tuple>

namespace carc::server::tournaments {

std::vector<Standing> standings(const std::vector<PlayerId>& players, const std::set<PlayerId>& dropped,
                                const std::vector<TableResult>& results) {
  std::map<PlayerId, std::size_t> index;
  std::vector<Standing> rows(players.size());
  for (std::size_t i = 0; i < players.size(); ++i) {
    index.emplace(players[i], i);
    rows[i].player = players[i];
    rows[i].dropped = dropped.count(players[i]) > 0;
  }
  for (const TableResult& t : results) {
    std::vector<int> pts = table_points(t);
    for (std::size_t s = 0; s < t.seats.size(); ++s) {
      auto it = index.find(t.seats[s].player);
      if (it == index.end()) continue;  // not a player of this tournament: never counted
      Standing& r = rows[it->second];
      r.points += pts[s];
      if (t.bye()) {
        ++r.byes;
      } else {
        ++r.tables;
        r.scored += t.seats[s].score;
      }
    }
  }
  // Buchholz: the final points of the opponents of each table, averaged per table.
  for (const TableResult& t : results) {
    if (t.bye()) continue;
    const std::int64_t share = kBuchholzUnit / static_cast<std::int64_t>(t.seats.size() - 1);
    for (const TableSeat& s : t.seats) {
      auto me = index.find(s.player);
      if (me == index.end()) continue;
      for (const TableSeat& o : t.seats) {
        if (&o == &s) continue;
        auto them = index.find(o.player);
        if (them != index.end()) rows[me->second].buchholz += rows[them->second].points * share;
      }
    }
  }
  auto key = [](const Standing& r) { return std::tuple(-r.points, -r.buchholz, -r.scored); };
  std::stable_sort(rows.begin(), rows.end(), [&](const Standing& a, const Standing& b) { return key(a) < key(b); });
  for (std::size_t i = 0; i < rows.size(); ++i) {
    rows[i].rank = (i > 0 && key(rows[i]) == key(rows[i - 1])) ? rows[i - 1].rank : static_cast<int>(i) + 1;
  }
  return rows;
}

}  // namespace carc::server::tournaments
