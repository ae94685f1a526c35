// Whole games over real WebSockets: every client applies every patch, and its state must
// equal the server's full state after each resync and at the end; the final scores must
// match a replay of the room's record; nothing sent may reveal the bag's order.
#include <doctest/doctest.h>

#include "carc/protocol/record.hpp"
#include "table.hpp"

namespace carc::test {

namespace {

// The tiles of the whole game in draw order (what the bag's order decided).
std::string tile_sequence(const json& record) {
  std::string s;
  for (const auto& m : record.at("moves")) s += m.at("tile").get<std::string>();
  return s;
}

void check_no_bag_order(const std::vector<std::string>& frames, const std::string& sequence) {
  constexpr std::size_t kWindow = 8;
  for (const auto& f : frames) {
    CHECK(f.find("seed") == std::string::npos);
    CHECK(f.find("order") == std::string::npos);
    for (std::size_t i = 0; i + kWindow <= sequence.size(); i += 1) {
      const std::string window = sequence.substr(i, kWindow);
      std::string as_array = "[";
      for (std::size_t k = 0; k < kWindow; ++k) as_array += std::string(k ? "," : "") + "\"" + window[k] + "\"";
      REQUIRE_MESSAGE(f.find(window) == std::string::npos, "a frame holds part of the draw order: " << window);
      REQUIRE(f.find(as_array) == std::string::npos);
    }
    const json msg = json::parse(f);
    if (msg.contains("state")) {
      const json& bag = msg["state"]["bag"];
      CHECK(bag.size() == 2);
      CHECK(bag.contains("left"));
      CHECK(bag.contains("tiles"));
    }
    if (msg.value("type", "") == "patch") {
      for (const auto& op : msg["ops"]) {
        const std::string path = op.value("path", "");
        if (path == "/bag") CHECK(op["value"].size() == 2);
        if (path.starts_with("/bag/")) CHECK((path == "/bag/left" || path.starts_with("/bag/tiles/")));
      }
    }
  }
}

void play_whole_game(int players, bool spectator, std::uint64_t rng_seed) {
  ServerProcess server;
  Table t(server, players, spectator);
  t.start();
  Rng rng(rng_seed);
  int moves = 0;
  while (!t.finished()) {
    t.play_random(rng);
    ++moves;
    // Everybody holds the same state...
    for (Peer* p : t.all()) REQUIRE(p->state() == t.players[0]->state());
    // ...which is the server's.
    if (moves % 9 == 0) {
      Peer& p = *t.all()[static_cast<std::size_t>(moves / 9) % t.all().size()];
      const json mine = p.state();
      p.send({{"type", "resync"}});
      const json s = p.expect("state");
      REQUIRE(s["version"] == p.version());
      REQUIRE(s["state"] == mine);
    }
    REQUIRE(moves < 100);
  }
  const json& state = t.players[0]->state();
  CHECK(state["turn"].is_null());
  CHECK(state["bag"]["left"] == 0);
  REQUIRE(state["result"].is_object());
  for (Peer* p : t.all()) {
    const json mine = p->state();
    p->send({{"type", "resync"}});
    CHECK(p->expect("state")["state"] == mine);
  }

  // The record replays to the same scores.
  const auto r = http(server.port(), "GET", "/api/rooms/" + t.room + "/record");
  REQUIRE(r.status == 200);
  const json record = json::parse(r.body);
  CHECK(record["format"] == "carcassonne-record/1");
  CHECK(record["players"] == players);
  CHECK(record["result"] == state["result"]);
  const auto parsed = protocol::parse_record(record);
  REQUIRE(std::holds_alternative<protocol::Record>(parsed));
  const auto replayed = protocol::replay(std::get<protocol::Record>(parsed));
  REQUIRE(std::holds_alternative<json>(replayed));
  const json& result = std::get<json>(replayed);
  CHECK(result["final_scores"] == state["result"]["final_scores"]);
  CHECK(result["winners"] == state["result"]["winners"]);
  for (int s = 0; s < players; ++s) CHECK(state["players"][s]["score"] == result["final_scores"][s]);
  CHECK(record["moves"].size() + 1 == state["board"].size() + static_cast<std::size_t>(std::count_if(
                                                              state["events"].begin(), state["events"].end(),
                                                              [](const json& e) { return e["type"] == "discarded"; })));

  const std::string sequence = tile_sequence(record);
  for (Peer* p : t.all()) check_no_bag_order(p->frames(), sequence);

  const auto info = json::parse(http(server.port(), "GET", "/api/rooms/" + t.room).body);
  CHECK(info["phase"] == "finished");
  CHECK(info["players"].size() == static_cast<std::size_t>(players));
  CHECK(info["spectators"] == (spectator ? 1 : 0));
}

}  // namespace

TEST_CASE("three players and a spectator play a whole game; every client keeps the server's state") {
  play_whole_game(3, true, 7);
}

TEST_CASE("two players play a whole game") { play_whole_game(2, false, 11); }

TEST_CASE("five players and a spectator play a whole game") { play_whole_game(5, true, 23); }

TEST_CASE("a player who drops keeps the seat, is shown disconnected, and comes back with the token") {
  ServerProcess server;
  Table t(server, 2, true);
  t.start();
  Rng rng(3);
  for (int i = 0; i < 4; ++i) t.play_random(rng);
  const std::string token = t.players[1]->token();
  REQUIRE(token.size() >= 22);  // at least 128 bits
  t.players[1]->close();
  t.players[1].reset();
  t.players[0]->expect("patch");
  t.spectator->catch_up(t.players[0]->version());
  CHECK(t.players[0]->state()["players"][1]["connected"] == false);
  // The game waits: seat 1 cannot be played by anybody else.
  if (t.players[0]->state()["turn"]["seat"] == 1) {
    const json& legal = t.players[0]->state()["turn"]["legal"][0];
    t.players[0]->send({{"type", "play"}, {"version", t.players[0]->version()}, {"x", legal["x"]}, {"y", legal["y"]},
                        {"rotation", legal["rotation"]}, {"meeple", nullptr}});
    CHECK(t.players[0]->expect_error() == "not_your_turn");
  }
  // Back from "another browser".
  t.players[1] = std::make_unique<Peer>(server.port(), t.room);
  const json welcome = t.players[1]->join_token(token);
  CHECK(welcome["seat"] == 1);
  CHECK(welcome["state"]["players"][1]["connected"] == true);
  t.sync();
  CHECK(t.players[0]->state() == t.players[1]->state());
  while (!t.finished()) t.play_random(rng);
  for (Peer* p : t.all()) CHECK(p->state() == t.players[0]->state());
}

TEST_CASE("a join is in the joiner's welcome; everybody else gets one patch for it") {
  ServerProcess server;
  const std::string room = create_room(server.port());
  Peer a(server.port(), room);
  const json wa = a.join("Alice");
  CHECK(wa["seat"] == 0);
  CHECK(wa["state"]["players"][0]["host"] == true);
  CHECK(wa["state"]["players"][0]["color"] == "red");
  Peer b(server.port(), room);
  const json wb = b.join("  Bob  ");
  CHECK(wb["seat"] == 1);
  CHECK(wb["state"]["players"][1]["name"] == "Bob");
  a.catch_up(wb["version"].get<std::int64_t>());
  CHECK(a.state() == b.state());
  b.drain(100ms);
  CHECK(b.version() == wb["version"]);  // no patch for its own join

  // Chat: kept as text, seat and name attached.
  a.send({{"type", "chat"}, {"text", "<b>hi</b> ☺"}});
  a.expect("patch");
  b.catch_up(a.version());
  CHECK(b.state()["chat"].back()["text"] == "<b>hi</b> ☺");
  CHECK(b.state()["chat"].back()["seat"] == 0);
  CHECK(b.state()["chat"].back()["name"] == "Alice");
  CHECK(a.state() == b.state());

  // Only the last 100 messages are kept (two senders: each stays within its burst budget).
  for (int i = 0; i < 105; ++i) {
    Peer& from = i % 2 == 0 ? a : b;
    from.send({{"type", "chat"}, {"text", "m" + std::to_string(i)}});
    from.expect("patch");
    (i % 2 == 0 ? b : a).catch_up(from.version());
  }
  b.catch_up(a.version());
  CHECK(b.state()["chat"].size() == 100);
  CHECK(b.state()["chat"].back()["text"] == "m104");
  CHECK(a.state() == b.state());

  // Late joiners watch once the game has started.
  a.send({{"type", "start"}});
  a.expect("patch");
  Peer c(server.port(), room);
  const json wc = c.join("Carol");
  CHECK(wc["seat"].is_null());
  CHECK(wc["token"].is_null());
  CHECK(wc["state"]["spectators"] == 1);
  a.catch_up(wc["version"].get<std::int64_t>());
  CHECK(a.state() == c.state());
}

}  // namespace carc::test
