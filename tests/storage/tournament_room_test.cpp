// A tournament table settled at its round's deadline, seen from its room (docs/tournaments.md#rounds):
// the real server (its test build, whose clock CARC_TEST_CLOCK_FILE moves), a turn-based round
// robin of two with one-hour rounds. Past the deadline the room ends its game as it stands:
// every client hears it (phase, result with `settled`), a move afterwards is refused as
// `game_over`, the record stops there (`final: false`), and the tournament stores the same
// result. Then the same with the room out of memory at the deadline, and after a restart.
#include <doctest/doctest.h>

#include <chrono>
#include <fstream>
#include <memory>
#include <string>
#include <thread>

#include "harness.hpp"
#include "helpers.hpp"

using namespace carc::test;

namespace {

constexpr std::int64_t kHourMs = 3'600'000;

// An API call with a JSON body (none for a GET) and the player key, when there is one.
HttpReply call(std::uint16_t port, http::verb verb, const std::string& target, const std::string& key = "",
               const json& body = json::object()) {
  return keyed_request(port, verb, target, key, verb == http::verb::get ? "" : body.dump());
}

template <class F>
bool eventually(F&& done, std::chrono::milliseconds limit) {
  const auto end = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < end) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return false;
}

struct TournamentTable {
  std::string tournament, room;
  std::vector<std::string> keys;    // the players' keys, in seat order
  std::vector<std::string> tokens;  // their seats' tokens
};

// A turn-based round robin of two with one-hour rounds, started: its one table, seated.
TournamentTable start_table(std::uint16_t port) {
  std::vector<std::string> keys;
  for (int i = 0; i < 2; ++i) keys.push_back(call(port, http::verb::post, "/api/keys").json_body()["key"].get<std::string>());
  const HttpReply made = call(port, http::verb::post, "/api/tournaments", keys[0],
                              {{"name", "Deadline"}, {"format", "round_robin"}, {"seats", 2}, {"pace", "turn_based"},
                               {"bank_seconds", 172800}, {"round_hours", 1}});
  REQUIRE_MESSAGE(made.status == 201, made.body);
  TournamentTable t;
  t.tournament = made.json_body()["id"].get<std::string>();
  for (int i = 0; i < 2; ++i) {
    const HttpReply r = call(port, http::verb::post, "/api/tournaments/" + t.tournament + "/register", keys[i],
                             {{"name", i == 0 ? "Ann" : "Bob"}});
    REQUIRE_MESSAGE(r.status == 200, r.body);
  }
  json table;
  REQUIRE(eventually([&] {
    const json v = call(port, http::verb::get, "/api/tournaments/" + t.tournament).json_body();
    if (v.value("round", 0) != 1) return false;
    table = v["rounds"][0]["tables"][0];
    return table["room"].is_string() && !table["room"].get<std::string>().empty();
  }, std::chrono::seconds(15)));
  t.room = table["room"].get<std::string>();
  t.keys.resize(2);
  t.tokens.resize(2);
  for (const std::string& key : keys) {
    const json seats = call(port, http::verb::get, "/api/tournaments/" + t.tournament + "/seats", key).json_body()["seats"];
    REQUIRE(seats.size() == 1);
    const int seat = seats[0]["seat"].get<int>();
    t.keys[static_cast<std::size_t>(seat)] = key;
    t.tokens[static_cast<std::size_t>(seat)] = seats[0]["token"].get<std::string>();
  }
  return t;
}

json table_result(std::uint16_t port, const TournamentTable& t) {
  return call(port, http::verb::get, "/api/tournaments/" + t.tournament).json_body()["rounds"][0]["tables"][0]["result"];
}

json play_of(const json& state, std::int64_t version) {
  const json& pick = state["turn"]["legal"][0];
  return {{"type", "play"}, {"version", version}, {"x", pick["x"]}, {"y", pick["y"]}, {"rotation", pick["rotation"]},
          {"meeple", nullptr}};
}

// What the room's state and record must say once the tournament settled it with `loser` on move.
void check_settled(std::uint16_t port, const TournamentTable& t, const json& state, int loser) {
  CHECK(state["phase"] == "finished");
  CHECK(state["turn"].is_null());
  const json& result = state["result"];
  REQUIRE(result.is_object());
  const json settled = {{"by", "tournament"}, {"reason", "round_deadline"}, {"seat", loser}, {"gone", json::array({loser})}};
  CHECK(result["settled"] == settled);
  CHECK(result["winners"] == json::array({1 - loser}));
  for (const json& p : state["players"]) CHECK(result["final_scores"][p["seat"].get<std::size_t>()] == p["score"]);
  // The record stops where the game stood: no end-of-game scoring, and it says why.
  const json record = call(port, http::verb::get, "/api/rooms/" + t.room + "/record").json_body();
  CHECK(record["final"] == false);
  CHECK(record["result"] == result);
  // The tournament stores the same (once the room answered it): the seat on move gone, every
  // score as it stood.
  json stored;
  REQUIRE(eventually([&] { return (stored = table_result(port, t)).is_array(); }, std::chrono::seconds(10)));
  for (int seat = 0; seat < 2; ++seat) {
    CAPTURE(seat);
    CHECK(stored[seat]["gone"] == (seat == loser));
    CHECK(stored[seat]["score"] == result["final_scores"][seat]);
  }
}

}  // namespace

TEST_CASE("tournament table: settled at its round's deadline, its room ends the game, tells its clients and refuses moves") {
  TempDir dir;
  const auto clock = dir.path() / "clock";
  spit(clock, "0");
  ServerProcess server(dir.path() / "data", dir.path() / "server.log", {{"CARC_TEST_CLOCK_FILE", clock.string()}},
                       {"--bot-threads", "1"}, CARC_SERVER_TEST_BIN);
  REQUIRE(server.wait_ready());
  const TournamentTable t = start_table(server.port());

  WsClient ann(server.port(), t.room), bob(server.port(), t.room), watcher(server.port(), t.room);
  ann.send({{"type", "join"}, {"token", t.tokens[0]}});
  ann.expect("welcome");
  bob.send({{"type", "join"}, {"token", t.tokens[1]}});
  bob.expect("welcome");
  watcher.send({{"type", "watch"}});
  watcher.expect("welcome");
  REQUIRE(ann.state["phase"] == "playing");
  // Ann plays her first turn; Bob is on move when the round ends.
  ann.send(play_of(ann.state, ann.version));
  REQUIRE(eventually([&] {
    ann.read();
    return ann.state["turn"].is_object() && ann.state["turn"]["seat"] == 1;
  }, std::chrono::seconds(10)));
  const json before = ann.state;

  // Half an hour on, nothing is settled.
  spit(clock, std::to_string(kHourMs / 2));
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  CHECK(table_result(server.port(), t).is_null());

  spit(clock, std::to_string(kHourMs + 60'000));
  for (WsClient* c : {&ann, &bob, &watcher}) {
    REQUIRE(eventually([&] {
      c->read();
      return c->state["phase"] == "finished";
    }, std::chrono::seconds(15)));
    check_settled(server.port(), t, c->state, 1);
  }
  // The scores are Ann's first move's, with no end-of-game scoring added.
  CHECK(ann.state["result"]["final_scores"] == json::array({before["players"][0]["score"], before["players"][1]["score"]}));

  // Bob's move comes too late: refused, nothing changes.
  const std::int64_t version = bob.version;
  bob.send(play_of(before, bob.version));
  const json refused = bob.expect("error");
  CHECK(refused["code"] == "game_over");
  CHECK(refused["message"].get<std::string>().find("round's deadline") != std::string::npos);
  bob.send({{"type", "resync"}});
  bob.expect("state");
  CHECK(bob.version == version);
  CHECK(table_result(server.port(), t)[1]["gone"] == true);
  CHECK(server.log_text().find("room " + t.room + ": settled by its tournament at the round's deadline (seat 1 on move") !=
        std::string::npos);
}

TEST_CASE("tournament table: a room out of memory at the deadline is loaded and settled; a restart keeps it settled") {
  TempDir dir;
  const auto clock = dir.path() / "clock";
  spit(clock, "0");
  const std::vector<std::string> args = {"--bot-threads", "1", "--room-ttl", "1"};
  auto server = std::make_unique<ServerProcess>(dir.path() / "data", dir.path() / "server.log",
                                                std::map<std::string, std::string>{{"CARC_TEST_CLOCK_FILE", clock.string()}},
                                                args, CARC_SERVER_TEST_BIN);
  REQUIRE(server->wait_ready());
  const TournamentTable t = start_table(server->port());
  // Nobody comes: the turn-based room leaves memory (it stays stored).
  REQUIRE(eventually([&] { return server->log_text().find("room " + t.room + ": expired") != std::string::npos; },
                     std::chrono::seconds(20)));

  spit(clock, std::to_string(kHourMs + 60'000));
  REQUIRE(eventually([&] { return table_result(server->port(), t).is_array(); }, std::chrono::seconds(20)));

  WsClient ann(server->port(), t.room);
  ann.send({{"type", "join"}, {"token", t.tokens[0]}});
  ann.expect("welcome");
  check_settled(server->port(), t, ann.state, 0);
  ann.send({{"type", "play"}, {"version", ann.version}, {"x", 1}, {"y", 0}, {"rotation", 0}, {"meeple", nullptr}});
  CHECK(ann.expect("error")["code"] == "game_over");
  const json state = ann.state;
  ann.close();

  // The settlement is in the room's log: replayed after a restart, the game reads the same.
  server->kill(SIGKILL);
  server = std::make_unique<ServerProcess>(dir.path() / "data", dir.path() / "server2.log",
                                           std::map<std::string, std::string>{{"CARC_TEST_CLOCK_FILE", clock.string()}}, args,
                                           CARC_SERVER_TEST_BIN);
  REQUIRE(server->wait_ready());
  WsClient again(server->port(), t.room);
  again.send({{"type", "join"}, {"token", t.tokens[1]}});
  again.expect("welcome");
  check_settled(server->port(), t, again.state, 0);
  CHECK(durable_part(again.state) == durable_part(state));
}
