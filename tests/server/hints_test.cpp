// Hints (docs/protocol-details.md) against the real server: settings.hints and its default (on when one
// human plays against computer players), the host's choice kept by a restart and by a
// rematch, the counts kept by a restart, the hint sent to the asking player only and counted once a turn in
// players[].hints, and each refusal (not_joined, not_started, hints_off, not_your_turn,
// game_over).
#include <doctest/doctest.h>

#include "table.hpp"

namespace carc::test {

namespace {

const json kHint = {{"type", "hint"}};

// The legal placement of `turn` that `move` names, or null.
const json* legal_entry(const json& turn, const json& move) {
  for (const json& l : turn["legal"]) {
    if (l["x"] == move["x"] && l["y"] == move["y"] && l["rotation"] == move["rotation"]) return &l;
  }
  return nullptr;
}

bool has_hint_frame(const Peer& p) {
  for (const auto& f : p.frames()) {
    if (json::parse(f).value("type", "") == "hint") return true;
  }
  return false;
}

}  // namespace

TEST_CASE("hints: on by default in a solo game against the computer, sent to the player only, counted once a turn") {
  ServerProcess server;
  Table t(server, 1, true);
  Peer& alice = *t.players[0];
  CHECK(alice.state()["settings"]["hints"] == false);  // nobody to play against yet
  alice.send(kHint);
  CHECK(alice.expect_error() == "not_started");
  alice.send({{"type", "add_bot"}, {"level", "easy"}});
  alice.expect("patch");
  t.sync();
  CHECK(alice.state()["settings"]["hints"] == true);  // the default follows the seats
  t.spectator->send(kHint);
  CHECK(t.spectator->expect_error() == "not_joined");
  t.start();
  Rng rng(7);
  int asked = 0;
  for (int moves = 0; !t.finished(); ++moves) {
    REQUIRE(moves < 300);
    const json turn = alice.state()["turn"];
    if (turn.is_null() || turn["seat"] != 0) {
      alice.expect("patch", std::chrono::seconds(10));
      t.sync();
      continue;
    }
    if (asked == 3) {
      t.play_random(rng);
      continue;
    }
    alice.send(kHint);
    const json h = alice.expect("hint", std::chrono::seconds(30));
    CHECK(h["turn"] == turn["number"]);
    const json& move = h["move"];
    CHECK(move["tile"] == turn["tile"]);
    const json* entry = legal_entry(turn, move);
    REQUIRE(entry != nullptr);  // a legal placement of the held tile
    if (move.contains("meeple")) {
      CHECK(std::find((*entry)["meeples"].begin(), (*entry)["meeples"].end(), move["meeple"]) != (*entry)["meeples"].end());
    }
    alice.send(kHint);  // asked again in the same turn: the same move, not counted again
    CHECK(alice.expect("hint")["move"] == move);
    ++asked;
    wait_for(alice, [&](const json& s) { return s["players"][0]["hints"] == asked; }, std::chrono::seconds(5));
    alice.send({{"type", "play"}, {"version", alice.version()}, {"x", move["x"]}, {"y", move["y"]},
                {"rotation", move["rotation"]}, {"meeple", move.value("meeple", json(nullptr))}});
    alice.expect("patch");
    t.sync();
  }
  t.sync();
  CHECK(alice.state()["players"][0]["hints"] == 3);
  CHECK(alice.state()["players"][1]["hints"] == 0);
  CHECK(t.spectator->state()["players"][0]["hints"] == 3);  // public
  CHECK_FALSE(has_hint_frame(*t.spectator));                 // the move itself is not
  alice.send(kHint);
  CHECK(alice.expect_error() == "game_over");
}

TEST_CASE("hints: off by default between humans; the host's choice, kept by a restart and by a rematch") {
  ServerProcess server;
  {
    Table t(server, 2);
    Peer& alice = *t.players[0];
    CHECK(alice.state()["settings"]["hints"] == false);
    t.start();
    t.current().send(kHint);
    CHECK(t.current().expect_error() == "hints_off");
  }
  Table t(server, 2);
  Peer& alice = *t.players[0];
  Peer& bob = *t.players[1];
  bob.send({{"type", "settings"}, {"hints", true}});
  CHECK(bob.expect_error() == "not_host");
  alice.send({{"type", "settings"}, {"hints", "yes"}});
  CHECK(alice.expect_error() == "bad_message");
  alice.send({{"type", "settings"}, {"hints", true}});
  alice.expect("patch");
  t.sync();
  CHECK(bob.state()["settings"]["hints"] == true);
  alice.send({{"type", "add_bot"}, {"level", "easy"}});  // an explicit choice no longer follows the seats
  alice.expect("patch");
  alice.send({{"type", "remove_bot"}, {"seat", 2}});
  alice.expect("patch");
  t.sync();
  CHECK(bob.state()["settings"]["hints"] == true);
  t.start();
  Peer& other = &t.current() == &alice ? bob : alice;
  other.send(kHint);
  CHECK(other.expect_error() == "not_your_turn");
  t.current().send(kHint);
  const json hinted = t.current().expect("hint", std::chrono::seconds(30))["move"];
  CHECK(hinted.is_object());
  const int asker = t.current().seat().value();
  wait_for(alice, [&](const json& s) { return s["players"][asker]["hints"] == 1; }, std::chrono::seconds(5));
  t.sync();

  // The count is stored: a crash keeps it, and the same turn's hint is not counted again.
  const std::string room = t.room;
  const std::string asker_token = t.players[static_cast<std::size_t>(asker)]->token();
  const std::string alice_token = alice.token();
  server.crash_and_restart();
  Peer alice2(server.port(), room);
  alice2.join_token(alice_token);
  CHECK(alice2.state()["settings"]["hints"] == true);
  CHECK(alice2.state()["players"][asker]["hints"] == 1);
  Peer again(server.port(), room);
  again.join_token(asker_token);
  again.send(kHint);
  CHECK(again.expect("hint", std::chrono::seconds(30))["move"].is_object());
  again.send({{"type", "chat"}, {"text", "after the hint"}});  // a later change: the count is settled by then
  wait_for(again, [&](const json& s) { return !s["chat"].empty(); }, std::chrono::seconds(5));
  CHECK(again.state()["players"][asker]["hints"] == 1);
}

TEST_CASE("hints: a rematch keeps the host's choice") {
  ServerProcess server;
  Table t(server, 2);
  t.players[0]->send({{"type", "settings"}, {"hints", true}});
  t.players[0]->expect("patch");
  t.sync();
  t.start();
  Rng rng(3);
  for (int moves = 0; !t.finished(); ++moves) {
    REQUIRE(moves < 300);
    t.play_random(rng);
  }
  t.players[0]->send({{"type", "rematch"}});
  const json to_alice = t.players[0]->expect("rematch");
  Peer next(server.port(), to_alice["room"]);
  next.join_token(to_alice["token"]);
  CHECK(next.state()["settings"]["hints"] == true);
  CHECK(next.state()["players"][0]["hints"] == 0);
}

}  // namespace carc::test
