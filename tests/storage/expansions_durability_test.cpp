// Durable games with Inns & Cathedrals and Traders & Builders (issue 33): SIGKILL between
// the two parts of a builder's turn restores the extra part from SQLite (each part is one
// stored move); a six-seat inns room and a game with all four expansions survive a crash
// in the middle and finish to the scores their record replays to.
#include <doctest/doctest.h>

#include <memory>
#include <random>
#include <string>
#include <vector>

#include "carc/protocol/record.hpp"
#include "harness.hpp"
#include "helpers.hpp"

namespace fs = std::filesystem;
using namespace carc::test;

namespace {

struct Room {
  std::string id;
  std::vector<std::unique_ptr<WsClient>> seats;
  std::mt19937 rng{33};

  const json& state() { return seats.at(0)->state; }
  WsClient& mover() { return *seats.at(state()["turn"]["seat"].get<std::size_t>()); }
  void sync(const WsClient& c) {
    for (auto& p : seats) {
      if (p.get() != &c) p->read_until_version(c.version);
    }
  }
};

Room open_room(std::uint16_t port, const json& expansions, int players) {
  const auto reply = http_request(port, http::verb::post, "/api/rooms", json{{"expansions", expansions}}.dump());
  REQUIRE(reply.status == 201);
  Room r;
  r.id = reply.json_body()["room"].get<std::string>();
  for (int i = 0; i < players; ++i) {
    auto c = std::make_unique<WsClient>(port, r.id);
    c->send({{"type", "join"}, {"name", "P" + std::to_string(i)}});
    c->expect("welcome");
    REQUIRE(c->seat == i);
    r.seats.push_back(std::move(c));
    r.sync(*r.seats.back());
  }
  r.seats[0]->send({{"type", "start"}});
  while (r.state()["phase"] != "playing") r.seats[0]->expect("patch");
  r.sync(*r.seats[0]);
  return r;
}

// The builder where the state offers it, else a placement next to one's builder, else any
// legal play (with a special figure or a meeple now and then).
json seeking_play(Room& r, const WsClient& m) {
  const json& s = m.state;
  const int seat = s["turn"]["seat"];
  const json& legal = s["turn"]["legal"];
  json play = choose_play(s, m.version, r.rng);
  for (const json& e : legal) {
    if (e.contains("figures") && e["figures"].contains("builder") && !e["figures"]["builder"].empty()) {
      return json{{"type", "play"}, {"version", m.version}, {"x", e["x"]}, {"y", e["y"]}, {"rotation", e["rotation"]},
                  {"meeple", e["figures"]["builder"][0]}, {"figure", "builder"}};
    }
  }
  for (const json& t : s["board"]) {
    const json& f = t["meeple"];
    if (f.is_null() || f["seat"] != seat || f.value("figure", "") != "builder") continue;
    for (const json& e : legal) {
      if (std::abs(e["x"].get<int>() - t["x"].get<int>()) + std::abs(e["y"].get<int>() - t["y"].get<int>()) == 1) {
        return json{{"type", "play"}, {"version", m.version}, {"x", e["x"]}, {"y", e["y"]}, {"rotation", e["rotation"]}};
      }
    }
  }
  for (const json& e : legal) {
    if (!e.contains("figures") || r.rng() % 4 != 0) continue;
    for (const auto& [name, ports] : e["figures"].items()) {
      if (ports.empty()) continue;
      return json{{"type", "play"}, {"version", m.version}, {"x", e["x"]}, {"y", e["y"]}, {"rotation", e["rotation"]},
                  {"meeple", ports[0]}, {"figure", name}};
    }
  }
  return play;
}

void play_one(Room& r) {
  WsClient& m = r.mover();
  m.send(seeking_play(r, m));
  m.expect("patch");
  r.sync(m);
}

void reconnect(Room& r, std::uint16_t port) {
  for (auto& p : r.seats) {
    const std::string token = p->token;
    const int seat = *p->seat;
    p = std::make_unique<WsClient>(port, r.id);
    p->send({{"type", "join"}, {"token", token}});
    p->expect("welcome");
    REQUIRE(p->seat == seat);
    p->token = token;
  }
  std::int64_t latest = 0;
  for (auto& p : r.seats) latest = std::max(latest, p->version);
  for (auto& p : r.seats) p->read_until_version(latest);
}

void finish_and_replay(Room& r, std::uint16_t port) {
  for (int i = 0; i < 400 && r.state()["phase"] == "playing"; ++i) play_one(r);
  REQUIRE(r.state()["phase"] == "finished");
  const auto reply = http_request(port, http::verb::get, "/api/rooms/" + r.id + "/record");
  REQUIRE(reply.status == 200);
  auto parsed = carc::protocol::parse_record(reply.json_body());
  REQUIRE(std::holds_alternative<carc::protocol::Record>(parsed));
  auto replayed = carc::protocol::replay(std::get<carc::protocol::Record>(parsed));
  REQUIRE(std::holds_alternative<json>(replayed));
  CHECK(std::get<json>(replayed)["final_scores"] == r.state()["result"]["final_scores"]);
}

}  // namespace

TEST_CASE("durability: SIGKILL between the two parts of a builder's turn restores the extra part") {
  TempDir tmp;
  const fs::path data = tmp.path() / "data";
  std::vector<Room> rooms;
  json before;
  std::int64_t part1_version = 0;
  std::size_t builder_room = 0;
  Room six;
  json six_before;
  {
    ServerProcess server(data, tmp.path() / "run1.log");
    REQUIRE_MESSAGE(server.wait_ready(), server.log_text());
    const auto port = server.port();
    for (int attempt = 0; attempt < 4 && before.is_null(); ++attempt) {
      rooms.push_back(open_room(port, json::array({"traders"}), 2));
      Room& r = rooms.back();
      while (r.state()["phase"] == "playing") {
        const std::int64_t v = r.mover().version;
        play_one(r);
        if (r.state()["phase"] == "playing" && r.state()["turn"]["extra"] == true) {
          before = durable_part(r.state());
          part1_version = v;
          builder_room = rooms.size() - 1;
          break;
        }
      }
    }
    REQUIRE_MESSAGE(!before.is_null(), "no builder's extra part in four games");
    // Six seats with all four expansions, in the middle of the game.
    six = open_room(port, json::array({"river", "abbot", "inns", "traders"}), 6);
    for (int i = 0; i < 30; ++i) play_one(six);
    six_before = durable_part(six.state());
    CHECK(WTERMSIG(server.kill(SIGKILL)) == SIGKILL);
  }
  ServerProcess server(data, tmp.path() / "run2.log");
  REQUIRE_MESSAGE(server.wait_ready(), server.log_text());
  const auto port = server.port();
  Room& r = rooms[builder_room];
  reconnect(r, port);
  CHECK(durable_part(r.state()) == before);
  CHECK(r.state()["turn"]["extra"] == true);
  // The part-1 version is stale after the restart too.
  WsClient& m = r.mover();
  json stale = seeking_play(r, m);
  stale["version"] = part1_version;
  m.send(stale);
  CHECK(m.expect("error")["code"] == "stale_version");
  finish_and_replay(r, port);
  reconnect(six, port);
  CHECK(durable_part(six.state()) == six_before);
  CHECK(six.state()["players"][5]["color"] == "pink");
  finish_and_replay(six, port);
}
