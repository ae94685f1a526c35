// Durable games with Inns & Cathedrals and Traders & Builders (docs/expansions/): SIGKILL between
// the two parts of a builder's turn restores the extra part from SQLite (each part is one
// stored move); a six-seat inns room and a game with all four expansions survive a crash
// in the middle and finish to the scores their record replays to.
#include <doctest/doctest.h>

#include <memory>
#include <random>
#include <string>
#include <vector>

#include "durability_helpers.hpp"
#include "helpers.hpp"

namespace fs = std::filesystem;
using namespace carc::test;

namespace {

// A started room of `players` seats with these expansions.
Table open_room(std::uint16_t port, const json& expansions, int players) {
  Table t = seat_players(port, players, json{{"expansions", expansions}}.dump());
  t.rng.seed(33);
  start(t);
  return t;
}

// The builder where the state offers it, else a placement next to one's builder, else any
// legal play (with a special figure or a meeple now and then).
json seeking_play(Table& r, const WsClient& m) {
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

void play_one(Table& r) { play(r, 1, seeking_play); }

// Plays the game to its end and checks it against its record's replay.
void finish_and_replay(Table& r, std::uint16_t port) {
  play(r, 400, seeking_play);
  check_against_replay(r, port);
}

}  // namespace

TEST_CASE("durability: SIGKILL between the two parts of a builder's turn restores the extra part") {
  TempDir tmp;
  const fs::path data = tmp.path() / "data";
  std::vector<Table> rooms;
  json before;
  std::int64_t part1_version = 0;
  std::size_t builder_room = 0;
  Table six;
  json six_before;
  {
    ServerProcess server(data, tmp.path() / "run1.log");
    REQUIRE_MESSAGE(server.wait_ready(), server.log_text());
    const auto port = server.port();
    for (int attempt = 0; attempt < 4 && before.is_null(); ++attempt) {
      rooms.push_back(open_room(port, json::array({"traders"}), 2));
      Table& r = rooms.back();
      while (r.state()["phase"] == "playing") {
        const std::int64_t v = mover(r).version;
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
  Table& r = rooms[builder_room];
  reconnect(r, port);
  CHECK(durable_part(r.state()) == before);
  CHECK(r.state()["turn"]["extra"] == true);
  // The part-1 version is stale after the restart too.
  WsClient& m = mover(r);
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
