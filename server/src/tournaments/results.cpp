// Points and table sizes (docs/tournaments.md#points).
#include "tournaments/results.hpp"

#include <algorithm>

namespace carc::server::tournaments {

std::vector<int> table_places(const TableResult& t) {
  std::vector<int> place(t.seats.size(), 1);
  for (std::size_t i = 0; i < t.seats.size(); ++i) {
    for (std::size_t j = 0; j < t.seats.size(); ++j) {
      const TableSeat& a = t.seats[i];
      const TableSeat& b = t.seats[j];
      bool ahead = (a.gone != b.gone) ? a.gone : (b.score > a.score);  // b ahead of a
      if (ahead) ++place[i];
    }
  }
  return place;
}

std::vector<int> table_points(const TableResult& t) {
  const std::size_t m = t.seats.size();
  if (m == 1) return {kPointUnit};
  std::vector<int> places = table_places(t);
  std::vector<int> points(m, 0);
  const int per = kPointUnit / static_cast<int>(m - 1);  // one opponent beaten
  for (std::size_t i = 0; i < m; ++i) {
    for (std::size_t j = 0; j < m; ++j) {
      if (i == j) continue;
      if (places[i] < places[j]) points[i] += per;
      else if (places[i] == places[j]) points[i] += per / 2;
    }
  }
  return points;
}

Met met_pairs(const std::vector<TableResult>& results) {
  Met met;
  for (const TableResult& t : results) {
    for (std::size_t i = 0; i < t.seats.size(); ++i) {
      for (std::size_t j = i + 1; j < t.seats.size(); ++j) {
        const PlayerId& a = t.seats[i].player;
        const PlayerId& b = t.seats[j].player;
        if (a != b) met.insert(std::minmax(a, b));
      }
    }
  }
  return met;
}

bool have_met(const Met& met, const PlayerId& a, const PlayerId& b) {
  return met.count(std::minmax(a, b)) > 0;
}

std::vector<int> table_sizes(int n, int k) {
  if (n <= 0 || k <= 0) return {};
  const int tables = (n + k - 1) / k;
  std::vector<int> sizes(static_cast<std::size_t>(tables), n / tables);
  for (int i = 0; i < n % tables; ++i) ++sizes[static_cast<std::size_t>(i)];
  return sizes;
}

}  // namespace carc::server::tournaments
