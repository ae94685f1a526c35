// Swiss pairings, round robin schedules and standings (docs/tournaments.md).
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <set>

#include "tournaments/round_robin.hpp"
#include "tournaments/standings.hpp"
#include "tournaments/swiss.hpp"

using namespace carc::server::tournaments;

namespace {

TableResult table(int round, std::vector<TableSeat> seats) { return {round, 0, 0, std::move(seats)}; }

std::multiset<std::set<PlayerId>> as_sets(const std::vector<std::vector<PlayerId>>& tables) {
  std::multiset<std::set<PlayerId>> out;
  for (const auto& t : tables) out.insert(std::set<PlayerId>(t.begin(), t.end()));
  return out;
}

}  // namespace

TEST_CASE("a table's points: the share of opponents beaten, half for a tie; the gone rank last") {
  CHECK(table_points(table(1, {{"a", 30}, {"b", 20}})) == std::vector<int>{120, 0});
  CHECK(table_points(table(1, {{"a", 25}, {"b", 25}})) == std::vector<int>{60, 60});
  CHECK(table_points(table(1, {{"a", 30}, {"b", 20}, {"c", 20}})) == std::vector<int>{120, 30, 30});
  // The highest score, but gone before the end: last.
  CHECK(table_points(table(1, {{"a", 90, true}, {"b", 20}, {"c", 10}})) == std::vector<int>{0, 120, 60});
  CHECK(table_points(table(1, {{"a", 0}})) == std::vector<int>{kPointUnit});  // a bye
  CHECK(table_sizes(8, 2) == std::vector<int>{2, 2, 2, 2});
  CHECK(table_sizes(7, 2) == std::vector<int>{2, 2, 2, 1});
  CHECK(table_sizes(7, 3) == std::vector<int>{3, 2, 2});
  CHECK(table_sizes(7, 6) == std::vector<int>{4, 3});
}

TEST_CASE("standings: points, then Buchholz, then points scored, from the results alone") {
  const std::vector<PlayerId> players{"A", "B", "C", "D"};
  const std::vector<TableResult> results{
      table(1, {{"A", 30}, {"B", 20}}), table(1, {{"C", 25}, {"D", 25}}),
      table(2, {{"A", 10}, {"C", 40}}), table(2, {{"B", 30}, {"D", 10}})};
  auto s = standings(players, {}, results);
  REQUIRE(s.size() == 4);
  CHECK(s[0].player == "C");
  CHECK(s[0].points == 180);
  CHECK(s[1].player == "A");  // 1 point, Buchholz 1.5 + 1 (B and C) ahead of B's 1 + 0.5
  CHECK(s[1].buchholz == 300 * kBuchholzUnit);
  CHECK(s[2].player == "B");
  CHECK(s[2].buchholz == 180 * kBuchholzUnit);
  CHECK(s[3].player == "D");
  CHECK(s[1].scored == 40);
  CHECK(s[2].scored == 50);
  CHECK(std::vector<int>{s[0].rank, s[1].rank, s[2].rank, s[3].rank} == std::vector<int>{1, 2, 3, 4});

  // Equal points and Buchholz: the points scored decide; all equal: a shared rank.
  auto t = standings({"A", "B", "C", "D"}, {"D"},
                     {table(1, {{"A", 10}, {"B", 10}}), table(1, {{"C", 12}, {"D", 12}})});
  CHECK(t[0].player == "C");
  CHECK(t[1].player == "D");
  CHECK(t[1].dropped);
  CHECK(t[0].rank == 1);
  CHECK(t[1].rank == 1);
  CHECK(t[2].rank == 3);
  CHECK(t[3].rank == 3);
  CHECK(t[2].player == "A");  // seed order among equals
}

TEST_CASE("Swiss: by standing, no rematch while another seating exists") {
  Met met = met_pairs({table(1, {{"A", 1}, {"B", 0}}), table(1, {{"C", 1}, {"D", 0}})});
  Seating s = swiss_pairing({"A", "C", "B", "D"}, met, {}, 2);
  CHECK(s.rematches == 0);
  CHECK(s.tables == std::vector<std::vector<PlayerId>>{{"A", "C"}, {"B", "D"}});

  // A met B and C: A plays D, which sends B to C.
  met.insert({"A", "C"});
  s = swiss_pairing({"A", "B", "C", "D"}, met, {}, 2);
  CHECK(as_sets(s.tables) == as_sets({{"A", "D"}, {"B", "C"}}));
  CHECK(s.rematches == 0);

  // Everyone met everyone: a rematch is the only way, and it is counted.
  met.insert({"B", "D"});
  met.insert({"B", "C"});
  met.insert({"A", "D"});
  s = swiss_pairing({"A", "B", "C", "D"}, met, {}, 2);
  CHECK(s.tables.size() == 2);
  CHECK(s.rematches == 2);
}

TEST_CASE("Swiss: the bye goes to the lowest ranked without one, at most once each") {
  Seating s = swiss_pairing({"A", "B", "C", "D", "E"}, {}, {}, 2);
  CHECK(s.tables.back() == std::vector<PlayerId>{"E"});
  s = swiss_pairing({"A", "B", "C", "D", "E"}, {}, {"E"}, 2);
  CHECK(s.tables.back() == std::vector<PlayerId>{"D"});
  CHECK(as_sets(s.tables) == as_sets({{"A", "B"}, {"C", "E"}, {"D"}}));
  // The lowest without a bye would force a rematch: the next one up takes it.
  Met met{{"A", "B"}};
  s = swiss_pairing({"A", "B", "C"}, met, {}, 2);
  CHECK(s.rematches == 0);
  CHECK(s.tables.back() == std::vector<PlayerId>{"B"});
}

TEST_CASE("Swiss at tables of three: 7 players, 3 rounds, nobody meets anyone twice") {
  std::vector<PlayerId> players{"a", "b", "c", "d", "e", "f", "g"};
  std::vector<TableResult> results;
  for (int round = 1; round <= 3; ++round) {
    auto rows = standings(players, {}, results);
    std::vector<PlayerId> ranked;
    for (const auto& r : rows) ranked.push_back(r.player);
    Seating s = swiss_pairing(ranked, met_pairs(results), {}, 3);
    CHECK(s.rematches == 0);
    std::vector<int> sizes;
    std::set<PlayerId> seated;
    for (const auto& t : s.tables) {
      sizes.push_back(static_cast<int>(t.size()));
      std::vector<TableSeat> seats;
      for (std::size_t i = 0; i < t.size(); ++i) seats.push_back({t[i], static_cast<int>(10 * i + t[i][0])});
      for (const auto& p : t) CHECK(seated.insert(p).second);
      results.push_back(table(round, seats));
    }
    CHECK(sizes == std::vector<int>{3, 2, 2});
    CHECK(seated.size() == 7);
  }
}

TEST_CASE("round robin for two: every pair once, a bye each round when odd") {
  for (int n : {2, 4, 5, 8}) {
    std::vector<PlayerId> players;
    for (int i = 0; i < n; ++i) players.push_back(std::string(1, static_cast<char>('a' + i)));
    auto rounds = round_robin(players, 2);
    CHECK(static_cast<int>(rounds.size()) == (n % 2 ? n : n - 1));
    std::map<std::pair<PlayerId, PlayerId>, int> pairs;
    std::map<PlayerId, int> byes;
    for (const auto& round : rounds) {
      std::set<PlayerId> seated;
      for (const auto& t : round) {
        for (const auto& p : t) CHECK(seated.insert(p).second);
        if (t.size() == 1) ++byes[t[0]];
        else ++pairs[std::minmax(t[0], t[1])];
      }
      CHECK(static_cast<int>(seated.size()) == n);
    }
    CHECK(static_cast<int>(pairs.size()) == n * (n - 1) / 2);
    for (const auto& [_, count] : pairs) CHECK(count == 1);
    for (const auto& [_, count] : byes) CHECK(count == 1);
    CHECK(static_cast<int>(byes.size()) == (n % 2 ? n : 0));
  }
}

TEST_CASE("round robin at tables of 3 to 6: every pair shares a table, everyone seated each round") {
  for (auto [n, k] : {std::pair(6, 3), std::pair(9, 3), std::pair(8, 4), std::pair(7, 5), std::pair(12, 6)}) {
    std::vector<PlayerId> players;
    for (int i = 0; i < n; ++i) players.push_back("p" + std::to_string(i));
    auto rounds = round_robin(players, k);
    Met met;
    for (const auto& round : rounds) {
      std::set<PlayerId> seated;
      for (const auto& t : round) {
        CHECK(static_cast<int>(t.size()) <= k);
        CHECK(t.size() >= 2);
        for (const auto& p : t) CHECK(seated.insert(p).second);
        for (const auto& p : t)
          for (const auto& q : t)
            if (p < q) met.insert({p, q});
      }
      CHECK(static_cast<int>(seated.size()) == n);
    }
    CHECK(static_cast<int>(met.size()) == n * (n - 1) / 2);
    // Bounded: never more rounds than pairs-at-a-table would need twice over.
    CHECK(static_cast<int>(rounds.size()) <= n);
    MESSAGE(n << " players at " << k << ": " << rounds.size() << " rounds");
  }
}
