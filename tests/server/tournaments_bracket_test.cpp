// Knockout brackets seeded by rating (docs/tournaments.md#knockout).
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <set>

#include "tournaments/bracket.hpp"

using namespace carc::server::tournaments;

namespace {

using Pair = std::pair<PlayerId, PlayerId>;

// Plays every ready match of `round` with the better seed (or `upsets`' winner) winning.
void play_round(const std::vector<Match>& b, const std::vector<PlayerId>& seeds, std::vector<TableResult>& results,
                int round, const std::set<PlayerId>& upsets = {}) {
  auto states = resolve(b, seeds, results, 1);
  for (std::size_t i = 0; i < b.size(); ++i) {
    const MatchState& s = states[i];
    if (b[i].round != round || s.decided) continue;
    REQUIRE(s.a.kind == Slot::Kind::player);
    REQUIRE(s.b.kind == Slot::Kind::player);
    auto seed = [&](const PlayerId& p) { return std::find(seeds.begin(), seeds.end(), p) - seeds.begin(); };
    bool a_wins = seed(s.a.player) < seed(s.b.player);
    if (upsets.count(s.a.player)) a_wins = true;
    if (upsets.count(s.b.player)) a_wins = false;
    results.push_back({round, static_cast<int>(i), 0, {{s.a.player, a_wins ? 50 : 40}, {s.b.player, a_wins ? 40 : 50}}});
  }
}

std::vector<Pair> pairs_of(const std::vector<Match>& b, const std::vector<MatchState>& states, int round) {
  std::vector<Pair> out;
  for (std::size_t i = 0; i < b.size(); ++i) {
    if (b[i].round == round) out.emplace_back(states[i].a.player, states[i].b.player);
  }
  return out;
}

}  // namespace

TEST_CASE("a knockout of 8 seeded by rating: 1 v 8, 4 v 5, 2 v 7, 3 v 6, then the expected bracket") {
  // Registered in this order; the ratings decide the seeds.
  const std::vector<PlayerId> registered{"eve", "bob", "hal", "ann", "gil", "cat", "fay", "dan"};
  const std::map<PlayerId, double> rating{{"ann", 31.5}, {"bob", 28}, {"cat", 25.25}, {"dan", 22},
                                          {"eve", 20}, {"fay", 14}, {"gil", 9.5}, {"hal", 0}};
  const std::vector<PlayerId> seeds = seed_by_rating(registered, rating);
  CHECK(seeds == std::vector<PlayerId>{"ann", "bob", "cat", "dan", "eve", "fay", "gil", "hal"});

  const std::vector<Match> b = single_elimination(8);
  REQUIRE(b.size() == 7);
  std::vector<TableResult> results;
  auto states = resolve(b, seeds, results, 1);
  CHECK(pairs_of(b, states, 1) == std::vector<Pair>{{"ann", "hal"}, {"dan", "eve"}, {"bob", "gil"}, {"cat", "fay"}});
  CHECK(pairs_of(b, states, 2) == std::vector<Pair>{{"", ""}, {"", ""}});  // waiting
  CHECK_FALSE(knockout_places(b, states, seeds));

  play_round(b, seeds, results, 1, {"eve"});  // eve (5) beats dan (4)
  states = resolve(b, seeds, results, 1);
  CHECK(pairs_of(b, states, 2) == std::vector<Pair>{{"ann", "eve"}, {"bob", "cat"}});
  play_round(b, seeds, results, 2);
  states = resolve(b, seeds, results, 1);
  CHECK(pairs_of(b, states, 3) == std::vector<Pair>{{"ann", "bob"}});
  play_round(b, seeds, results, 3, {"bob"});
  states = resolve(b, seeds, results, 1);
  auto places = knockout_places(b, states, seeds);
  REQUIRE(places);
  std::vector<std::pair<PlayerId, int>> got;
  for (const auto& p : *places) got.emplace_back(p.player, p.place);
  CHECK(got == std::vector<std::pair<PlayerId, int>>{{"bob", 1}, {"ann", 2}, {"cat", 3}, {"eve", 3},
                                                      {"dan", 5}, {"fay", 5}, {"gil", 5}, {"hal", 5}});
}

TEST_CASE("six players: the two best seeds get the byes") {
  const std::vector<PlayerId> seeds{"s1", "s2", "s3", "s4", "s5", "s6"};
  const std::vector<Match> b = single_elimination(6);
  auto states = resolve(b, seeds, {}, 1);
  CHECK(states[0].decided);  // s1 v (seed 8: nobody)
  CHECK(states[0].winner.player == "s1");
  CHECK(states[0].loser.kind == Slot::Kind::bye);
  CHECK(states[2].winner.player == "s2");
  CHECK(pairs_of(b, states, 1) == std::vector<Pair>{{"s1", ""}, {"s4", "s5"}, {"s2", ""}, {"s3", "s6"}});
  CHECK(states[4].a.player == "s1");  // round 2 waits only for 4 v 5
  CHECK(states[4].b.kind == Slot::Kind::pending);
}

TEST_CASE("double elimination of 8: every loser drops once, the grand final meets both sides") {
  const std::vector<PlayerId> seeds{"s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8"};
  const std::vector<Match> b = double_elimination(8);
  std::map<Side, int> sides;
  for (const Match& m : b) ++sides[m.side];
  CHECK(sides[Side::winners] == 7);
  CHECK(sides[Side::losers] == 6);
  CHECK(sides[Side::final] == 1);
  CHECK(b.back().round == 6);
  std::vector<TableResult> results;
  for (int round = 1; round <= 6; ++round) play_round(b, seeds, results, round);
  auto states = resolve(b, seeds, results, 1);
  CHECK(states.back().a.player == "s1");
  CHECK(states.back().b.player == "s2");  // lost the winners' final, won the losers' side
  auto places = knockout_places(b, states, seeds);
  REQUIRE(places);
  CHECK((*places)[0].player == "s1");
  CHECK((*places)[1].player == "s2");
  CHECK((*places)[2].player == "s3");
  CHECK((*places)[2].place == 3);
  // Two losses put a player out: everyone but the champion lost exactly twice (the finalist
  // once on the winners' side and once in the final).
  std::map<PlayerId, int> losses;
  for (const MatchState& s : states) {
    if (s.loser.kind == Slot::Kind::player) ++losses[s.loser.player];
  }
  CHECK(losses.count("s1") == 0);
  for (const auto& p : seeds) {
    if (p != "s1") CHECK(losses[p] == 2);
  }
}

TEST_CASE("best of 3: the first to two wins; a drawn game counts for neither") {
  const std::vector<PlayerId> seeds{"x", "y"};
  const std::vector<Match> b = single_elimination(2);
  std::vector<TableResult> results{{1, 0, 0, {{"x", 30}, {"y", 20}}}};
  auto states = resolve(b, seeds, results, 3);
  CHECK_FALSE(states[0].decided);
  results.push_back({1, 0, 1, {{"y", 44}, {"x", 20}}});
  results.push_back({1, 0, 2, {{"x", 25}, {"y", 25}}});  // drawn: 1-1 after three games
  states = resolve(b, seeds, results, 3);
  CHECK(states[0].decided);  // three games played: more points scored decides (y 89, x 75)
  CHECK(states[0].winner.player == "y");
  CHECK(states[0].wins_a == 1);
  CHECK(states[0].wins_b == 1);

  std::vector<TableResult> quick{{1, 0, 0, {{"y", 30}, {"x", 20}}}, {1, 0, 1, {{"y", 30}, {"x", 29}}},
                                 {1, 0, 2, {{"x", 99}, {"y", 0}}}};  // a third game after the match is over: ignored
  states = resolve(b, seeds, quick, 3);
  CHECK(states[0].winner.player == "y");
  CHECK(states[0].games == 2);
  // A game between others at this table is not this match's.
  states = resolve(b, seeds, {{1, 0, 0, {{"x", 30}, {"z", 20}}}}, 1);
  CHECK_FALSE(states[0].decided);
}
