// Notifications are sent at least once and, within one process, at most once
// (docs/turn-based.md "At least once"): the stored move is the outbox, so a kill -9 between
// storing it and sending is notified after the restart, once; and a room restored while its
// notice is still being retried does not send that notice a second time.
#include <doctest/doctest.h>

#include <memory>
#include <random>

#include "harness.hpp"
#include "helpers.hpp"
#include "receivers.hpp"

using namespace carc::test;

namespace {

// Alice and Bob in a turn-based room whose json webhook is `hooks`, started: Alice has been
// told of her turn.
struct Game {
  std::string room;
  std::unique_ptr<WsClient> alice, bob;
};

Game start_game(ServerProcess& server, Receiver& hooks) {
  Game g;
  g.room = http_request(server.port(), http::verb::post, "/api/rooms", "{}").json_body()["room"].get<std::string>();
  g.alice = std::make_unique<WsClient>(server.port(), g.room);
  g.alice->send({{"type", "join"}, {"name", "Alice"}});
  g.alice->expect("welcome");
  g.bob = std::make_unique<WsClient>(server.port(), g.room);
  g.bob->send({{"type", "join"}, {"name", "Bob"}});
  g.bob->expect("welcome");
  WsClient& alice = *g.alice;
  alice.send({{"type", "settings"}, {"webhook", {{"url", hooks.base() + "/hook"}, {"format", "json"}}}});
  while (alice.state["settings"]["webhook"] != true) alice.read();
  alice.send({{"type", "settings"}, {"pace", "turn_based"}, {"bank_seconds", 86400}});
  while (alice.state["settings"]["pace"] != "turn_based") alice.read();
  alice.send({{"type", "start"}});
  while (alice.state["phase"] != "playing") alice.read();
  REQUIRE(hooks.wait_for(1, std::chrono::seconds(10)));  // Alice's turn
  return g;
}

}  // namespace

TEST_CASE("notifications: a move stored just before a kill -9 is notified after the restart, once") {
  TempDir dir;
  Receiver hooks;
  const auto data = dir.path() / "data";
  std::string room;
  {
    ServerProcess server(data, dir.path() / "server.log", {{"CARC_CRASH_AFTER_PERSIST", "1"}}, {"--allow-private-hooks"},
                         CARC_SERVER_TEST_BIN);
    REQUIRE(server.wait_ready());
    Game g = start_game(server, hooks);
    room = g.room;
    std::mt19937 rng(4);
    g.alice->send(choose_play(g.alice->state, g.alice->version, rng));  // stored, then the process dies
    REQUIRE(server.wait_exit(std::chrono::seconds(10)));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  REQUIRE(hooks.received().size() == 1);
  for (int run = 0; run < 2; ++run) {
    ServerProcess server(data, dir.path() / "server.log", {}, {"--allow-private-hooks"});
    REQUIRE(server.wait_ready());
    if (run == 0) REQUIRE(hooks.wait_for(2, std::chrono::seconds(10)));
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    server.kill(SIGTERM);
  }
  const auto got = hooks.received();
  REQUIRE(got.size() == 2);  // Bob's turn, once: the second restart finds it delivered
  const json bob_turn = json::parse(got[1].body);
  CHECK(bob_turn["event"] == "your_turn");
  CHECK(bob_turn["seat"] == 1);
  CHECK(bob_turn["room"] == room);
  CHECK(got[1].headers.at("X-Carcassonne-Id") == bob_turn["id"]);
}

TEST_CASE("notifications: a room loaded again while its notice is being retried does not send it twice") {
  TempDir dir;
  Receiver hooks;
  ServerProcess server(dir.path() / "data", dir.path() / "server.log", {}, {"--allow-private-hooks", "--room-ttl", "1"});
  REQUIRE(server.wait_ready());
  Game g = start_game(server, hooks);
  // Bob's turn: the receiver refuses three times (retries after 1, 2 and 4 s), then accepts.
  hooks.answer_next({503, 503, 503});
  std::mt19937 rng(5);
  const auto v = g.alice->version;
  const auto moved = std::chrono::steady_clock::now();
  g.alice->send(choose_play(g.alice->state, g.alice->version, rng));
  while (g.alice->version == v) g.alice->read();
  g.alice->close();
  g.bob->close();
  // Meanwhile the room leaves memory and is loaded again, as for a visitor of its link: its
  // restore derives Bob's "your turn" again while the first is still being retried.
  REQUIRE(wait_for_log(server, "room " + g.room + ": expired", std::chrono::seconds(10)));
  REQUIRE(http_request(server.port(), http::verb::get, "/api/rooms/" + g.room).status == 200);
  REQUIRE(hooks.received().size() < 5);  // the accepted try was still to come: the test means something
  REQUIRE(hooks.wait_for(5, std::chrono::seconds(15)));
  // The first sender's last try is due 7 s after the move: a second one would have sent by then.
  std::this_thread::sleep_until(moved + std::chrono::seconds(10));
  const auto got = hooks.received();
  REQUIRE(got.size() == 5);  // Alice's turn, then Bob's: 3 refused tries and the accepted one
  CHECK(server.log_text().find("already taken on; not sent again") != std::string::npos);
  const std::string id = json::parse(got[1].body)["id"].get<std::string>();
  for (std::size_t i = 1; i < got.size(); ++i) {
    CHECK(json::parse(got[i].body)["id"] == id);
    CHECK(json::parse(got[i].body)["seat"] == 1);
  }
}
