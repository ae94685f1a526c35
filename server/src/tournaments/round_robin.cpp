// Round robin schedules (docs/tournaments.md#round-robin).
#include "tournaments/round_robin.hpp"

#include <cstddef>

namespace carc::server::tournaments {
namespace {

using Round = std::vector<std::vector<PlayerId>>;

std::vector<Round> circle(const std::vector<PlayerId>& players) {
  std::vector<int> ring;  // indices into players; -1 is the bye
  for (std::size_t i = 0; i < players.size(); ++i) ring.push_back(static_cast<int>(i));
  if (ring.size() % 2 == 1) ring.push_back(-1);
  const std::size_t n = ring.size();
  std::vector<Round> rounds;
  for (std::size_t r = 0; r + 1 < n; ++r) {
    Round round;
    Round byes;
    for (std::size_t i = 0; i < n / 2; ++i) {
      int a = ring[i];
      int b = ring[n - 1 - i];
      if (a < 0 || b < 0) {
        byes.push_back({players[static_cast<std::size_t>(a < 0 ? b : a)]});
      } else {
        round.push_back({players[static_cast<std::size_t>(a)], players[static_cast<std::size_t>(b)]});
      }
    }
    for (auto& b : byes) round.push_back(std::move(b));
    rounds.push_back(std::move(round));
    // Keep the first fixed, turn the others one step.
    int last = ring.back();
    for (std::size_t i = n - 1; i > 1; --i) ring[i] = ring[i - 1];
    ring[1] = last;
  }
  return rounds;
}

std::vector<Round> cover(const std::vector<PlayerId>& players, int per_table) {
  const std::size_t n = players.size();
  std::vector<std::vector<bool>> met(n, std::vector<bool>(n, false));
  std::size_t left = n * (n - 1) / 2;
  std::vector<Round> rounds;
  const std::vector<int> sizes = table_sizes(static_cast<int>(n), per_table);
  while (left > 0) {
    std::vector<bool> used(n, false);
    Round round;
    std::vector<std::vector<std::size_t>> seats;
    for (int size : sizes) {
      std::vector<std::size_t> t;
      // Open the table with the first pair that has not met, else the first free player.
      for (std::size_t a = 0; a < n && t.empty(); ++a) {
        for (std::size_t b = a + 1; b < n && t.empty(); ++b) {
          if (!used[a] && !used[b] && !met[a][b]) t = {a, b};
        }
      }
      if (t.empty()) {
        for (std::size_t a = 0; a < n && t.empty(); ++a) {
          if (!used[a]) t = {a};
        }
      }
      for (std::size_t i : t) used[i] = true;
      // Then the free player with the most opponents at the table still to meet.
      while (static_cast<int>(t.size()) < size) {
        std::size_t best = n;
        int best_new = -1;
        for (std::size_t c = 0; c < n; ++c) {
          if (used[c]) continue;
          int fresh = 0;
          for (std::size_t s : t) fresh += met[c][s] ? 0 : 1;
          if (fresh > best_new) best = c, best_new = fresh;
        }
        used[best] = true;
        t.push_back(best);
      }
      seats.push_back(t);
    }
    for (const auto& t : seats) {
      std::vector<PlayerId> table;
      for (std::size_t i : t) {
        table.push_back(players[i]);
        for (std::size_t j : t) {
          if (i < j && !met[i][j]) met[i][j] = met[j][i] = true, --left;
        }
      }
      round.push_back(std::move(table));
    }
    rounds.push_back(std::move(round));
  }
  return rounds;
}

}  // namespace

std::vector<std::vector<std::vector<PlayerId>>> round_robin(const std::vector<PlayerId>& players, int per_table) {
  if (players.size() < 2) return {};
  if (per_table <= 2) return circle(players);
  return cover(players, per_table);
}

}  // namespace carc::server::tournaments
