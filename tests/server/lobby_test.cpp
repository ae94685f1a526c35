// Lobby life and rematch (docs/protocol.md) against the real server: leave, the host's seat
// passing on, kick (the kicked token stops working), rematch (rotated seats, one room for
// repeated requests, tokens, the old room's `rematch`), each refusal, and a restart keeping
// all of it.
#include <doctest/doctest.h>

#include "carc/core/game.hpp"
#include "table.hpp"

namespace carc::test {

namespace {

json players_of(Peer& p) { return p.state()["players"]; }

std::vector<std::string> names_of(const json& players) {
  std::vector<std::string> out;
  for (const auto& p : players) out.push_back(p["name"]);
  return out;
}

int host_of(const json& players) {
  int host = -1;
  for (const auto& p : players) {
    if (p["host"] == true) {
      CHECK(host == -1);  // exactly one
      host = p["seat"];
    }
  }
  return host;
}

}  // namespace

TEST_CASE("leave: the seats after it move up with their tokens; the leaver watches; its token stops working") {
  ServerProcess server;
  Table t(server, 3);
  Peer& alice = *t.players[0];
  Peer& bob = *t.players[1];
  Peer& carol = *t.players[2];
  const std::string bob_token = bob.token();
  const std::string carol_token = carol.token();
  bob.send({{"type", "leave"}});
  const json bob_welcome = bob.expect("welcome");
  CHECK(bob_welcome["seat"].is_null());
  CHECK(bob_welcome["token"].is_null());
  const json carol_welcome = carol.expect("welcome");  // Carol moved up: a welcome, not a patch
  CHECK(carol_welcome["seat"] == 1);
  CHECK(carol_welcome["token"] == carol_token);
  alice.expect("patch");
  t.sync();
  CHECK(names_of(players_of(alice)) == std::vector<std::string>{"Alice", "Carol"});
  CHECK(players_of(alice) == players_of(carol));
  CHECK(players_of(alice) == players_of(bob));
  CHECK(alice.state()["spectators"] == 1);
  CHECK(host_of(players_of(alice)) == 0);
  // Bob's token matches nothing now; Carol's follows her seat.
  Peer again(server.port(), t.room);
  again.send({{"type", "join"}, {"token", bob_token}});
  CHECK(again.expect_error() == "bad_token");
  carol.close();
  Peer carol2(server.port(), t.room);
  CHECK(carol2.join_token(carol_token)["seat"] == 1);
  // A spectator cannot leave; a seat is kept during the game.
  bob.send({{"type", "leave"}});
  CHECK(bob.expect_error() == "not_joined");
  alice.send({{"type", "start"}});
  alice.expect("patch");
  alice.send({{"type", "leave"}});
  CHECK(alice.expect_error() == "bad_message");
}

TEST_CASE("the host leaves: the next seat becomes host and can start; the old host cannot") {
  ServerProcess server;
  Table t(server, 3);
  Peer& alice = *t.players[0];
  Peer& bob = *t.players[1];
  alice.send({{"type", "leave"}});
  alice.expect("welcome");
  CHECK(bob.expect("welcome")["seat"] == 0);
  t.sync();
  CHECK(host_of(players_of(bob)) == 0);
  CHECK(players_of(bob)[0]["name"] == "Bob");
  alice.send({{"type", "start"}});
  CHECK(alice.expect_error() == "not_joined");
  t.players[2]->send({{"type", "start"}});
  CHECK(t.players[2]->expect_error() == "not_host");
  bob.send({{"type", "start"}});
  bob.expect("patch");
  CHECK(bob.state()["phase"] == "playing");
  CHECK(bob.state()["players"].size() == 2);
}

TEST_CASE("kick: the host removes a human or a computer player; the kicked token stops working; refusals") {
  ServerProcess server;
  Table t(server, 3, true);
  Peer& alice = *t.players[0];
  Peer& bob = *t.players[1];
  Peer& carol = *t.players[2];
  const std::string bob_token = bob.token();
  // Refusals first: none of them changes anything.
  const auto v = alice.version();
  bob.send({{"type", "kick"}, {"seat", 2}});
  CHECK(bob.expect_error() == "not_host");
  t.spectator->send({{"type", "kick"}, {"seat", 2}});
  CHECK(t.spectator->expect_error() == "not_joined");
  alice.send({{"type", "kick"}, {"seat", 0}});
  CHECK(alice.expect_error() == "bad_message");
  alice.send({{"type", "kick"}, {"seat", 7}});
  CHECK(alice.expect_error() == "bad_message");
  alice.send({{"type", "kick"}, {"seat", "1"}});
  CHECK(alice.expect_error() == "bad_message");
  alice.drain();
  CHECK(alice.version() == v);
  // Kick Bob: he watches, with a clear flag, and his token is dead.
  alice.send({{"type", "kick"}, {"seat", 1}});
  const json kicked = bob.expect("welcome");
  CHECK(kicked["seat"].is_null());
  CHECK(kicked["kicked"] == true);
  CHECK(carol.expect("welcome")["seat"] == 1);
  t.sync();
  CHECK(names_of(players_of(alice)) == std::vector<std::string>{"Alice", "Carol"});
  CHECK(alice.state()["spectators"] == 2);
  Peer again(server.port(), t.room);
  again.send({{"type", "join"}, {"token", bob_token}});
  CHECK(again.expect_error() == "bad_token");
  // A computer player too.
  alice.send({{"type", "add_bot"}, {"level", "easy"}});
  alice.expect("patch");
  t.sync();
  REQUIRE(players_of(alice).size() == 3);
  CHECK(players_of(alice)[2]["bot"] == "easy");
  alice.send({{"type", "kick"}, {"seat", 2}});
  alice.expect("patch");
  t.sync();
  CHECK(players_of(alice).size() == 2);
  // Not once the game has started.
  alice.send({{"type", "start"}});
  alice.expect("patch");
  alice.send({{"type", "kick"}, {"seat", 1}});
  CHECK(alice.expect_error() == "bad_message");
}

TEST_CASE("lobby changes are stored: after a crash the seats, host and settings are as they were") {
  ServerProcess server;
  std::string room;
  std::string carol_token;
  {
    Table t(server, 3);
    room = t.room;
    // Every kind of setting, so the stored row carries them all (expansions and pace too).
    t.players[0]->send({{"type", "settings"}, {"turn_seconds", 120}, {"away_seconds", 30}, {"expansions", {"abbot", "river"}},
                        {"pace", "turn_based"}, {"bank_seconds", 7200}, {"increment_seconds", 600}, {"hints", true}});
    t.players[0]->expect("patch");
    t.players[0]->send({{"type", "settings"}, {"webhook", {{"url", "https://hooks.example.org/carc"}, {"format", "discord"}}}});
    t.players[0]->expect("patch");
    t.players[0]->send({{"type", "leave"}});  // Bob becomes host
    t.players[0]->expect("welcome");
    t.players[1]->expect("welcome");
    t.players[2]->expect("welcome");
    t.players[1]->send({{"type", "add_bot"}, {"level", "hard"}});
    t.players[1]->expect("patch");
    carol_token = t.players[2]->token();
    t.sync();
  }
  server.crash_and_restart();
  Peer carol(server.port(), room);
  CHECK(carol.join_token(carol_token)["seat"] == 1);
  const json players = players_of(carol);
  CHECK(names_of(players) == std::vector<std::string>{"Bob", "Carol", "Bot 3 (hard)"});
  CHECK(host_of(players) == 0);
  CHECK(players[2]["bot"] == "hard");
  CHECK(carol.state()["settings"] == json{{"turn_seconds", 120}, {"away_seconds", 30}, {"expansions", {"river", "abbot"}},
                                          {"pace", "turn_based"}, {"bank_seconds", 7200}, {"increment_seconds", 600},
                                          {"webhook", true}, {"hints", true}, {"options", json::array()}});  // set by the host: not the default
}

TEST_CASE("rematch: the same players rotated by one, the same host and clock, one room, tokens that work there") {
  ServerProcess server;
  Table t(server, 3, true);
  Peer& alice = *t.players[0];
  alice.send({{"type", "settings"}, {"turn_seconds", 300}});
  alice.expect("patch");
  alice.send({{"type", "add_bot"}, {"level", "easy"}});
  alice.expect("patch");
  t.sync();
  // Before the end: refused.
  alice.send({{"type", "rematch"}});
  CHECK(alice.expect_error() == "bad_message");
  // The computer player (seat 3) plays for itself, so play_random is not enough: the test
  // plays the humans' turns and waits for the bot's.
  t.start();
  Rng rng(5);
  for (int moves = 0; !t.finished(); ++moves) {
    const int seat = alice.state()["turn"]["seat"];
    if (seat < 3) {
      t.play_random(rng);
    } else {
      alice.expect("patch", 10s);
      t.sync();
    }
    REQUIRE(moves < 200);
  }
  t.spectator->send({{"type", "rematch"}});
  CHECK(t.spectator->expect_error() == "not_joined");
  // Carol is away when it happens.
  const std::string carol_token = t.players[2]->token();
  t.players[2]->close();
  t.players.pop_back();
  t.players[1]->send({{"type", "rematch"}});
  const json to_bob = t.players[1]->expect("rematch");
  const json to_alice = alice.expect("rematch");
  const std::string next = to_bob["room"];
  CHECK(to_alice["room"] == next);
  CHECK(next != t.room);
  CHECK(to_alice["token"] != to_bob["token"]);
  CHECK(to_alice["token"] != alice.token());
  t.sync();
  CHECK(alice.state()["rematch"] == next);
  // A second request: the same room and the same token.
  alice.send({{"type", "rematch"}});
  const json again = alice.expect("rematch");
  CHECK(again["room"] == next);
  CHECK(again["token"] == to_alice["token"]);
  // Carol comes back to the old room and hears of it.
  Peer carol(server.port(), t.room);
  carol.join_token(carol_token);
  CHECK(carol.state()["rematch"] == next);
  const json to_carol = carol.expect("rematch");
  CHECK(to_carol["room"] == next);
  // The new room: in the lobby, seats rotated by one (Bob, Carol, the bot, Alice), Alice
  // still the host, the same clock.
  const auto info = json::parse(http(server.port(), "GET", "/api/rooms/" + next).body);
  CHECK(info["phase"] == "lobby");
  std::vector<std::string> seated;
  for (const auto& p : info["players"]) seated.push_back(p["name"]);
  CHECK(seated == std::vector<std::string>{"Bob", "Carol", "Bot 4 (easy)", "Alice"});
  Peer alice2(server.port(), next);
  CHECK(alice2.join_token(to_alice["token"])["seat"] == 3);
  CHECK(host_of(players_of(alice2)) == 3);
  CHECK(alice2.state()["settings"]["turn_seconds"] == 300);
  CHECK(players_of(alice2)[2]["bot"] == "easy");
  Peer carol2(server.port(), next);
  CHECK(carol2.join_token(to_carol["token"])["seat"] == 1);
  // The old tokens do not open the new room.
  Peer stranger(server.port(), next);
  stranger.send({{"type", "join"}, {"token", alice.token()}});
  CHECK(stranger.expect_error() == "bad_token");
  // The host starts it.
  alice2.send({{"type", "start"}});
  wait_for(alice2, [](const json& s) { return s["phase"] == "playing"; }, 5s);
  CHECK(alice2.state()["turn"]["seat"] == 0);  // Bob starts this time
  // After a crash the link is still there and the new room too.
  server.crash_and_restart();
  Peer late(server.port(), t.room);
  late.watch();
  CHECK(late.state()["rematch"] == next);
  Peer bob3(server.port(), next);
  CHECK(bob3.join_token(to_bob["token"])["seat"] == 0);
}

TEST_CASE("rematch of a game against the computer: the seats stay where they were, so the player keeps their colour") {
  ServerProcess server;
  Table t(server, 1);
  Peer& alice = *t.players[0];
  alice.send({{"type", "add_bot"}, {"level", "easy"}});
  alice.expect("patch");
  alice.send({{"type", "add_bot"}, {"level", "easy"}});
  alice.expect("patch");
  t.start();
  Rng rng(11);
  for (int moves = 0; !t.finished(); ++moves) {
    if (alice.state()["turn"]["seat"] == 0) {
      t.play_random(rng);
    } else {
      alice.expect("patch", 10s);
      t.sync();
    }
    REQUIRE(moves < 300);
  }
  const std::string colour = players_of(alice)[0]["color"];
  alice.send({{"type", "rematch"}});
  const json to_alice = alice.expect("rematch");
  const auto info = json::parse(http(server.port(), "GET", "/api/rooms/" + std::string(to_alice["room"])).body);
  std::vector<std::string> seated;
  for (const auto& p : info["players"]) seated.push_back(p["name"]);
  CHECK(seated == std::vector<std::string>{"Alice", "Bot 2 (easy)", "Bot 3 (easy)"});
  Peer alice2(server.port(), to_alice["room"]);
  CHECK(alice2.join_token(to_alice["token"])["seat"] == 0);
  CHECK(host_of(players_of(alice2)) == 0);
  CHECK(players_of(alice2)[0]["color"] == colour);
}

}  // namespace carc::test
