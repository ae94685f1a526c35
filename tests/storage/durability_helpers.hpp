#pragma once
// The shape the durability tests share: seat the players of a room over real WebSockets,
// play, take every seat back with its token after a restart, and check the finished game
// against what its record replays to.
#include <doctest/doctest.h>

#include <algorithm>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "carc/protocol/record.hpp"
#include "harness.hpp"

namespace carc::test {

// The players of one room, each mirroring the state.
struct Table {
  std::string room;
  std::vector<std::unique_ptr<WsClient>> players;
  std::mt19937 rng{12345};

  WsClient& host() { return *players.at(0); }
  const json& state() { return host().state; }
  std::string phase() { return state()["phase"].get<std::string>(); }

  // Every other client catches up with `c`'s version.
  void sync_with(const WsClient& c) {
    for (auto& p : players) {
      if (p.get() != &c) p->read_until_version(c.version);
    }
  }
};

// `body` is the JSON of POST /api/rooms (the expansions, say).
inline std::string create_room(std::uint16_t port, const std::string& body = "{}") {
  const auto reply = http_request(port, http::verb::post, "/api/rooms", body);
  REQUIRE(reply.status == 201);
  return reply.json_body()["room"].get<std::string>();
}

inline void join(Table& t, std::uint16_t port, const std::string& name) {
  auto c = std::make_unique<WsClient>(port, t.room);
  c->send({{"type", "join"}, {"name", name}});
  c->expect("welcome");
  REQUIRE(c->seat);
  t.players.push_back(std::move(c));
  t.sync_with(*t.players.back());
}

// A new room with players P0..P<n-1> in seats 0..n-1.
inline Table seat_players(std::uint16_t port, int n, const std::string& body = "{}") {
  Table t;
  t.room = create_room(port, body);
  for (int i = 0; i < n; ++i) {
    std::string name = "P";
    name += std::to_string(i);  // not "P" + ...: GCC 12 -Wrestrict false positive at -O2
    join(t, port, name);
    REQUIRE(t.players.back()->seat == i);
  }
  return t;
}

inline void start(Table& t) {
  t.host().send({{"type", "start"}});
  while (t.host().state["phase"] != "playing") t.host().expect("patch");
  t.sync_with(t.host());
}

inline WsClient& mover(Table& t) {
  const int seat = t.state()["turn"]["seat"].get<int>();
  for (auto& p : t.players) {
    if (p->seat == seat) return *p;
  }
  FAIL("no client holds seat " << seat);
  throw std::logic_error("unreachable");
}

// Plays up to `n` turns (all remaining when n < 0), each the one `choose(t, mover)` picks.
template <class Choose>
void play(Table& t, int n, Choose choose) {
  for (int i = 0; (n < 0 || i < n) && t.phase() == "playing"; ++i) {
    WsClient& m = mover(t);
    m.send(choose(t, m));
    m.expect("patch");
    t.sync_with(m);
  }
}

// Random legal plays (choose_play).
inline void play(Table& t, int n) {
  play(t, n, [](Table& table, const WsClient& m) { return choose_play(m.state, m.version, table.rng); });
}

// Takes every seat back with its token on a restarted server.
inline void reconnect(Table& t, std::uint16_t port) {
  for (auto& p : t.players) {
    const std::string token = p->token;
    const int seat = *p->seat;
    p = std::make_unique<WsClient>(port, t.room);
    p->send({{"type", "join"}, {"token", token}});
    p->expect("welcome");
    REQUIRE(p->seat == seat);
    p->token = token;
  }
  // Earlier clients learn of the later reconnections.
  std::int64_t latest = 0;
  for (auto& p : t.players) latest = std::max(latest, p->version);
  for (auto& p : t.players) p->read_until_version(latest);
}

// The finished game's scores and winners are those its stored record replays to.
inline void check_against_replay(Table& t, std::uint16_t port) {
  REQUIRE(t.phase() == "finished");
  const auto reply = http_request(port, http::verb::get, "/api/rooms/" + t.room + "/record");
  REQUIRE(reply.status == 200);
  auto parsed = carc::protocol::parse_record(reply.json_body());
  REQUIRE(std::holds_alternative<carc::protocol::Record>(parsed));
  auto replayed = carc::protocol::replay(std::get<carc::protocol::Record>(parsed));
  REQUIRE(std::holds_alternative<json>(replayed));
  CHECK(std::get<json>(replayed)["final_scores"] == t.state()["result"]["final_scores"]);
  CHECK(std::get<json>(replayed)["winners"] == t.state()["result"]["winners"]);
}

}  // namespace carc::test
