// A tournament run from its stored rows alone (docs/tournaments.md#rounds): each plan is
// computed from the settings, entrants, seeds and results, and applied as the server would.
#include <doctest/doctest.h>

#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "tournaments/model.hpp"

using namespace carc::server::tournaments;

namespace {

Tournament make(Format f, int players, int rounds = 0, int per_table = 2, int best_of = 1) {
  Tournament t;
  t.id = "t";
  t.settings.name = "Test";
  t.settings.format = f;
  t.settings.rounds = rounds;
  t.settings.per_table = per_table;
  t.settings.best_of = best_of;
  for (int i = 0; i < players; ++i) t.entrants.push_back({"p" + std::to_string(i), "P" + std::to_string(i), 0});
  t.seeds = seed(t, [](const PlayerId& p) { return 100.0 - std::stoi(p.substr(1)); });  // p0 best
  t.state = "running";
  return t;
}

// Applies a plan: its tables join the stored ones, the round moves on.
void apply(Tournament& t, const Plan& p) {
  for (const Table& table : p.tables) t.tables.push_back(table);
  t.round = p.round;
}

// Every unfinished table of the round: the better seed (lower number) scores more.
void play(Tournament& t) {
  for (Table& table : t.tables) {
    if (table.result) continue;
    TableResult r{table.round, table.table, table.game, {}};
    for (const PlayerId& p : table.players) r.seats.push_back({p, 100 - std::stoi(p.substr(1)), false});
    table.result = r;
  }
}

}  // namespace

TEST_CASE("a Swiss of 8 over 3 rounds with a drop after round 1: byes, no rematch, then finished") {
  Tournament t = make(Format::swiss, 8, 3);
  Plan p = plan(t);
  REQUIRE(p.kind == Plan::Kind::next_round);
  CHECK(p.round == 1);
  CHECK(p.tables.size() == 4);
  apply(t, p);
  CHECK(plan(t).kind == Plan::Kind::wait);
  play(t);
  t.entrants[3].dropped_after = 1;  // p3 leaves after round 1
  p = plan(t);
  REQUIRE(p.kind == Plan::Kind::next_round);
  CHECK(p.round == 2);
  REQUIRE(p.tables.size() == 4);  // 7 players: three tables and a bye
  CHECK(p.tables.back().players.size() == 1);
  CHECK(p.tables.back().result);  // the bye is played at once
  for (const Table& table : p.tables) {
    for (const PlayerId& player : table.players) CHECK(player != "p3");
  }
  apply(t, p);
  play(t);
  p = plan(t);
  REQUIRE(p.kind == Plan::Kind::next_round);
  apply(t, p);
  play(t);
  CHECK(plan(t).kind == Plan::Kind::finish);
  // Nobody met anyone twice, nobody had two byes.
  std::set<std::pair<PlayerId, PlayerId>> met;
  std::map<PlayerId, int> byes;
  for (const Table& table : t.tables) {
    if (table.players.size() == 1) ++byes[table.players[0]];
    else CHECK(met.insert(std::minmax(table.players[0], table.players[1])).second);
  }
  for (const auto& [_, n] : byes) CHECK(n == 1);
  const nlohmann::json s = standings_json(t);
  REQUIRE(s.size() == 8);
  CHECK(s[0]["player"] == "p0");  // won every table
  CHECK(s[0]["points"] == 3.0);
  bool p3_dropped = false;
  for (const auto& row : s) p3_dropped = p3_dropped || (row["player"] == "p3" && row["dropped"] == true);
  CHECK(p3_dropped);
}

TEST_CASE("a round robin of 4, then a drop: the dropped player's tables are not played") {
  Tournament t = make(Format::round_robin, 4);
  for (int round = 1; round <= 3; ++round) {
    Plan p = plan(t);
    REQUIRE(p.kind == Plan::Kind::next_round);
    CHECK(p.round == round);
    apply(t, p);
    play(t);
    if (round == 1) t.entrants[0].dropped_after = 1;
  }
  CHECK(plan(t).kind == Plan::Kind::finish);
  int with_p0 = 0;
  for (const Table& table : t.tables) {
    for (const PlayerId& p : table.players) with_p0 += p == "p0" ? 1 : 0;
  }
  CHECK(with_p0 == 1);
}

TEST_CASE("a knockout of 8, best of 3: a second game while undecided, then the next round") {
  Tournament t = make(Format::single_elimination, 8, 0, 2, 3);
  Plan p = plan(t);
  REQUIRE(p.kind == Plan::Kind::next_round);
  REQUIRE(p.tables.size() == 4);
  CHECK(p.tables[0].players == std::vector<PlayerId>{"p0", "p7"});
  CHECK(p.tables[1].players == std::vector<PlayerId>{"p3", "p4"});
  apply(t, p);
  play(t);
  p = plan(t);
  REQUIRE(p.kind == Plan::Kind::more_games);  // 1-0 in a best of 3
  CHECK(p.round == 1);
  CHECK(p.tables.size() == 4);
  CHECK(p.tables[0].game == 1);
  apply(t, p);
  play(t);
  p = plan(t);
  REQUIRE(p.kind == Plan::Kind::next_round);
  CHECK(p.round == 2);
  REQUIRE(p.tables.size() == 2);
  CHECK(p.tables[0].players == std::vector<PlayerId>{"p0", "p3"});
  CHECK(p.tables[1].players == std::vector<PlayerId>{"p1", "p2"});
  // p2 drops: the match is forfeited at once, no room needed.
  t.entrants[2].dropped_after = 1;
  p = plan(t);
  CHECK(p.tables[1].result);
  apply(t, p);
  play(t);
  p = plan(t);
  REQUIRE(p.kind == Plan::Kind::more_games);  // p0 v p3 needs its second game, p1 v p2 its second forfeit
  apply(t, p);
  play(t);
  p = plan(t);
  REQUIRE(p.kind == Plan::Kind::next_round);
  CHECK(p.tables[0].players == std::vector<PlayerId>{"p0", "p1"});
  apply(t, p);
  play(t);
  apply(t, plan(t));
  play(t);
  CHECK(plan(t).kind == Plan::Kind::finish);
  const nlohmann::json s = standings_json(t);
  REQUIRE(s.size() == 8);
  CHECK(s[0]["player"] == "p0");
  CHECK(s[1]["player"] == "p1");
}

TEST_CASE("computer entrants: an id no public player id can be, with its level") {
  CHECK(bot_id("hard", 2) == "bot:hard:2");
  CHECK(bot_level("bot:hard:2") == "hard");
  CHECK(bot_level("bot:easy:10") == "easy");
  CHECK(bot_level("AbCdEfGhIjKlMnOp").empty());  // a public id: 16 base64url characters, no ':'
  CHECK(bot_level("bot:").empty());
}
