// Computer players, clocks and absent players (docs/protocol.md) against the real server: the
// host's lobby requests and their refusals, a game of computer players watched to the end
// (its scores equal a replay of its record), a player who drops on their turn, a clock that
// runs out, and restarts in the middle of a clock and of a computer player's turn.
#include <doctest/doctest.h>

#include "carc/protocol/record.hpp"
#include "table.hpp"

#include <chrono>
#include <thread>

namespace carc::test {

namespace {

json record_of(const ServerProcess& server, const std::string& room) {
  const auto r = http(server.port(), "GET", "/api/rooms/" + room + "/record");
  REQUIRE(r.status == 200);
  return json::parse(r.body);
}

// The record's placements: a drawn tile with no legal place is discarded, and the record
// lists the discard as an entry of its own (docs/record-format.md), rare but possible on any turn.
json placements(const json& record) {
  json out = json::array();
  for (const auto& m : record["moves"]) {
    if (!m.value("discard", false)) out.push_back(m);
  }
  return out;
}

// The record replayed by the engine gives the scores the clients saw.
void check_record_replays(const json& record, const json& state) {
  auto parsed = protocol::parse_record(record);
  REQUIRE(std::holds_alternative<protocol::Record>(parsed));
  auto replayed = protocol::replay(std::get<protocol::Record>(parsed));
  REQUIRE(std::holds_alternative<json>(replayed));
  CHECK(std::get<json>(replayed)["final_scores"] == state["result"]["final_scores"]);
  CHECK(record["result"]["final_scores"] == state["result"]["final_scores"]);
}

}  // namespace

TEST_CASE("add_bot, remove_bot and settings: the host's, in the lobby; every refusal changes nothing") {
  ServerProcess server;
  Table t(server, 2, true);
  Peer& alice = *t.players[0];
  Peer& bob = *t.players[1];
  const auto v = alice.version();
  bob.send({{"type", "add_bot"}, {"level", "easy"}});
  CHECK(bob.expect_error() == "not_host");
  t.spectator->send({{"type", "add_bot"}, {"level", "easy"}});
  CHECK(t.spectator->expect_error() == "not_joined");
  alice.send({{"type", "add_bot"}, {"level", "genius"}});
  CHECK(alice.expect_error() == "bad_message");
  alice.send({{"type", "add_bot"}});
  CHECK(alice.expect_error() == "bad_message");
  alice.send({{"type", "remove_bot"}, {"seat", 1}});  // Bob is no computer player
  CHECK(alice.expect_error() == "bad_message");
  for (const json& bad : {json{{"turn_seconds", 9}}, json{{"turn_seconds", 604801}}, json{{"away_seconds", 4}},
                          json{{"away_seconds", "60"}}, json{{"turn_seconds", 30.5}}}) {
    json msg = bad;
    msg["type"] = "settings";
    alice.send(msg);
    CHECK(alice.expect_error() == "bad_message");
  }
  bob.send({{"type", "settings"}, {"turn_seconds", 60}});
  CHECK(bob.expect_error() == "not_host");
  alice.drain();
  CHECK(alice.version() == v);
  // Three computer players fill the room; a fourth has no seat.
  for (const char* level : {"easy", "medium", "hard"}) {
    alice.send({{"type", "add_bot"}, {"level", level}});
    alice.expect("patch");
  }
  t.sync();
  const json& players = alice.state()["players"];
  REQUIRE(players.size() == 5);
  CHECK(players[2]["bot"] == "easy");
  CHECK(players[3]["bot"] == "medium");
  CHECK(players[4]["bot"] == "hard");
  CHECK(players[4]["name"] == "Bot 5 (hard)");
  CHECK(players[0]["bot"].is_null());
  alice.send({{"type", "add_bot"}, {"level", "easy"}});
  CHECK(alice.expect_error() == "room_full");
  // Removing one moves the seats after it up.
  alice.send({{"type", "remove_bot"}, {"seat", 2}});
  alice.expect("patch");
  t.sync();
  CHECK(alice.state()["players"].size() == 4);
  CHECK(alice.state()["players"][2]["bot"] == "medium");
  CHECK(alice.state()["players"][2]["seat"] == 2);
  // Settings: keys left out keep their value; everyone sees them.
  alice.send({{"type", "settings"}, {"turn_seconds", 45}});
  alice.expect("patch");
  alice.send({{"type", "settings"}, {"away_seconds", nullptr}});
  alice.expect("patch");
  t.sync();
  CHECK(bob.state()["settings"] == json{{"turn_seconds", 45}, {"away_seconds", nullptr}, {"expansions", json::array()}, {"pace", "live"}, {"bank_seconds", 259200}, {"increment_seconds", 86400}, {"webhook", false}, {"hints", false}, {"options", json::array()}});
  // Once started: refused.
  t.start();
  alice.send({{"type", "add_bot"}, {"level", "easy"}});
  CHECK(alice.expect_error() == "bad_message");
  alice.send({{"type", "settings"}, {"turn_seconds", 60}});
  CHECK(alice.expect_error() == "bad_message");
}

TEST_CASE("a game of computer players, watched to the end: its scores equal a replay of its record") {
  ServerProcess server;
  const std::string room = create_room(server.port());
  Peer host(server.port(), room);
  host.join("Host");
  host.send({{"type", "settings"}, {"away_seconds", 5}});
  host.expect("patch");
  for (const char* level : {"easy", "easy", "easy"}) {
    host.send({{"type", "add_bot"}, {"level", level}});
    host.expect("patch");
  }
  Peer watcher(server.port(), room);
  watcher.watch();
  host.send({{"type", "start"}});
  host.expect("patch");
  // The host goes away: after 5 s a computer player plays for them too.
  host.close();
  wait_for(watcher, [](const json& s) { return s["phase"] == "finished"; }, 240s);
  const json& state = watcher.state();
  CHECK(state["players"][0]["away"] == false);  // the game is over
  const json record = record_of(server, room);
  check_record_replays(record, state);
  // The host's moves were made for them: "auto" in the record; the bots' are their own.
  int autos = 0;
  int index = 0;
  for (const auto& m : record["moves"]) {
    if (m.value("auto", false)) ++autos;
    ++index;
  }
  CHECK(autos > 0);
  CHECK(autos <= (index + 3) / 4);
  const auto metrics = http(server.port(), "GET", "/metrics").body;
  CHECK(metrics.find("carc_bot_moves_total 0\n") == std::string::npos);
  CHECK(metrics.find("carc_auto_moves_total " + std::to_string(autos) + "\n") != std::string::npos);
}

TEST_CASE("a player drops on their turn: after away_seconds a computer plays for them; back, they play again") {
  ServerProcess server;
  Table t(server, 2);
  t.players[0]->send({{"type", "settings"}, {"away_seconds", 5}});
  t.players[0]->expect("patch");
  t.start();
  // Alice's turn (seat 0); she drops.
  const std::string token = t.players[0]->token();
  t.players[0]->close();
  Peer& bob = *t.players[1];
  wait_for(bob, [](const json& s) { return s["players"][0]["connected"] == false; }, 5s);
  const auto t0 = std::chrono::steady_clock::now();
  wait_for(bob, [](const json& s) { return s["players"][0]["away"] == true; }, 15s);
  CHECK(std::chrono::steady_clock::now() - t0 > 3s);  // not before away_seconds
  wait_for(bob, [](const json& s) { return s["turn"]["seat"] == 1; }, 10s);
  CHECK(bob.state()["board"].size() == 2);
  // Bob plays; it is Alice's turn again: the computer plays it at once (she is still away).
  Rng rng(3);
  const json& legal = bob.state()["turn"]["legal"];
  bob.send({{"type", "play"}, {"version", bob.version()}, {"x", legal[0]["x"]}, {"y", legal[0]["y"]},
            {"rotation", legal[0]["rotation"]}, {"meeple", nullptr}});
  wait_for(bob, [](const json& s) { return s["turn"]["seat"] == 1 && s["board"].size() == 4; }, 10s);
  // She comes back: no longer away, and her next turn is hers.
  Peer alice(server.port(), t.room);
  alice.join_token(token);
  CHECK(alice.state()["players"][0]["away"] == false);
  CHECK(alice.state()["players"][0]["connected"] == true);
  const json& legal2 = alice.state()["turn"]["legal"];
  bob.send({{"type", "play"}, {"version", bob.version()}, {"x", legal2[0]["x"]}, {"y", legal2[0]["y"]},
            {"rotation", legal2[0]["rotation"]}, {"meeple", nullptr}});
  wait_for(alice, [](const json& s) { return s["turn"]["seat"] == 0; }, 5s);
  alice.drain(1500ms);
  CHECK(alice.state()["turn"]["seat"] == 0);  // nobody played for her
  const json record = record_of(server, t.room);
  const json placed = placements(record);
  INFO("the record: " << record["moves"].dump() << "; Alice sees " << alice.state()["turn"].dump());
  REQUIRE(placed.size() == 4);  // Alice (computer), Bob, Alice (computer), Bob
  CHECK(placed[0].value("auto", false));
  CHECK(placed[1].value("auto", false) == false);
  CHECK(placed[2].value("auto", false));
  CHECK(placed[3].value("auto", false) == false);
}

TEST_CASE("a turn's clock runs out: a computer makes that one turn; turn.deadline and server_time say when") {
  ServerProcess server;
  Table t(server, 2);
  t.players[0]->send({{"type", "settings"}, {"turn_seconds", 10}, {"away_seconds", nullptr}});
  t.players[0]->expect("patch");
  t.start();
  Peer& alice = *t.players[0];
  const json welcome_like = alice.state();
  const std::int64_t deadline = welcome_like["turn"]["deadline"];
  Peer late(server.port(), t.room);
  const json w = late.watch();
  const std::int64_t server_time = w["server_time"];
  CHECK(deadline > server_time);
  CHECK(deadline <= server_time + 10'000);
  // Nobody plays: at the deadline a computer plays Alice's turn, and she shows away until
  // she plays herself.
  wait_for(alice, [](const json& s) { return s["turn"]["seat"] == 1; }, 20s);
  CHECK(alice.state()["players"][0]["away"] == true);
  const std::int64_t next_deadline = alice.state()["turn"]["deadline"];
  CHECK(next_deadline >= deadline + 10'000);
  Peer& bob = *t.players[1];
  t.sync();
  const json& legal = bob.state()["turn"]["legal"];
  bob.send({{"type", "play"}, {"version", bob.version()}, {"x", legal[0]["x"]}, {"y", legal[0]["y"]},
            {"rotation", legal[0]["rotation"]}, {"meeple", nullptr}});
  wait_for(alice, [](const json& s) { return s["turn"]["seat"] == 0; }, 5s);
  t.sync();
  const json& mine = alice.state()["turn"]["legal"];
  alice.send({{"type", "play"}, {"version", alice.version()}, {"x", mine[0]["x"]}, {"y", mine[0]["y"]},
              {"rotation", mine[0]["rotation"]}, {"meeple", nullptr}});
  wait_for(alice, [](const json& s) { return s["turn"]["seat"] == 1; }, 5s);
  CHECK(alice.state()["players"][0]["away"] == false);
  const json placed = placements(record_of(server, t.room));
  REQUIRE_MESSAGE(placed.size() == 3, placed.dump());
  CHECK(placed[0].value("auto", false));
  CHECK_FALSE(placed[2].value("auto", false));
}

TEST_CASE("a restart in the middle of a clock keeps its deadline") {
  ServerProcess server;
  std::string room;
  std::string token;
  std::int64_t deadline = 0;
  {
    Table t(server, 2);
    room = t.room;
    t.players[0]->send({{"type", "settings"}, {"turn_seconds", 10}, {"away_seconds", nullptr}});
    t.players[0]->expect("patch");
    t.start();
    deadline = t.players[0]->state()["turn"]["deadline"];
    token = t.players[1]->token();
  }
  std::this_thread::sleep_for(2s);
  server.crash_and_restart();
  Peer bob(server.port(), room);
  bob.join_token(token);
  CHECK(bob.state()["turn"]["deadline"] == deadline);  // stored, not restarted
  CHECK(bob.state()["turn"]["seat"] == 0);
  wait_for(bob, [](const json& s) { return s["turn"]["seat"] == 1; }, 20s);
  const auto now = bob.state();
  CHECK(placements(record_of(server, room))[0].value("auto", false));
}

TEST_CASE("a restart in the middle of a computer player's turn: it thinks again and moves") {
  ServerProcess server;
  const std::string room = create_room(server.port());
  std::string token;
  {
    Peer host(server.port(), room);
    host.join("Host");
    host.send({{"type", "add_bot"}, {"level", "hard"}});
    host.expect("patch");
    host.send({{"type", "start"}});
    host.expect("patch");
    token = host.token();
    const json& legal = host.state()["turn"]["legal"];
    host.send({{"type", "play"}, {"version", host.version()}, {"x", legal[0]["x"]}, {"y", legal[0]["y"]},
               {"rotation", legal[0]["rotation"]}, {"meeple", nullptr}});
    wait_for(host, [](const json& s) { return s["turn"]["seat"] == 1; }, 5s);
  }
  // The hard computer player thinks for about 1.5 s: crash in the middle.
  std::this_thread::sleep_for(200ms);
  server.crash_and_restart();
  Peer host(server.port(), room);
  host.join_token(token);
  wait_for(host, [](const json& s) { return s["turn"]["seat"] == 0 && s["board"].size() == 3; }, 30s);
  const json record = record_of(server, room);
  const json placed = placements(record);
  REQUIRE_MESSAGE(placed.size() == 2, record.dump());
  CHECK_FALSE(placed[1].value("auto", false));  // the bot's own move
}

}  // namespace carc::test
