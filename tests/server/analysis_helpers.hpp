// Shared by the analysis tests against the real server (docs/analysis.md): a game played out
// by computer players, and waiting for its analysis.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <thread>

#include "table.hpp"

namespace carc::test {

inline json analysis_of(const ServerProcess& server, const std::string& room, int* status = nullptr) {
  const auto r = http(server.port(), "GET", "/api/rooms/" + room + "/analysis");
  if (status != nullptr) *status = r.status;
  return r.status == 200 ? json::parse(r.body) : json();
}

// A host and one easy computer player; the host leaves at once, so that computers play the
// whole game (the host's seat stays a human's: the game is analysed). `longest_turn`: the
// longest wait between two turns of the game, from the third (the host is away by then).
// `room_body`: the room's settings as POST /api/rooms takes them.
inline std::string play_out(ServerProcess& server, std::chrono::steady_clock::duration* longest_turn = nullptr,
                            const std::string& room_body = "{}") {
  const auto made = http(server.port(), "POST", "/api/rooms", room_body);
  REQUIRE(made.status == 201);
  const std::string room = json::parse(made.body).at("room").get<std::string>();
  Peer host(server.port(), room);
  host.join("Host");
  host.send({{"type", "settings"}, {"away_seconds", 5}});
  host.expect("patch");
  host.send({{"type", "add_bot"}, {"level", "easy"}});
  host.expect("patch");
  Peer watcher(server.port(), room);
  watcher.watch();
  host.send({{"type", "start"}});
  host.expect("patch");
  host.close();
  auto last = std::chrono::steady_clock::now();
  int last_turn = -1;
  wait_for(watcher, [&](const json& s) {
    const int turn = s["turn"].is_object() ? s["turn"]["number"].get<int>() : last_turn + 1;
    if (turn != last_turn) {
      const auto now = std::chrono::steady_clock::now();
      if (longest_turn != nullptr && turn > 2) *longest_turn = std::max(*longest_turn, now - last);
      last = now;
      last_turn = turn;
    }
    return s["phase"] == "finished";
  }, 240s);
  return room;
}

inline json wait_analysis(const ServerProcess& server, const std::string& room, std::size_t done_at_least,
                   std::chrono::seconds timeout) {
  const auto until = std::chrono::steady_clock::now() + timeout;
  json a;
  while (std::chrono::steady_clock::now() < until) {
    a = analysis_of(server, room);
    if (a.is_object() && (a["status"] == "done" || a["moves"].size() >= done_at_least)) return a;
    std::this_thread::sleep_for(100ms);
  }
  FAIL("the analysis did not get there: " << a.dump());
  return a;
}

inline void check_entries(const json& analysis, const json& record) {
  REQUIRE(analysis["moves"].size() == record["moves"].size());
  int k = 0;
  for (const auto& m : analysis["moves"]) {
    CHECK(m["move"] == k);
    const bool discard = record["moves"][k].value("discard", false);
    if (discard) {
      CHECK(m["label"].is_null());
      CHECK(m["best"].is_null());
    } else {
      const std::string label = m["label"];
      CHECK((label == "best" || label == "good" || label == "inaccuracy" || label == "mistake" || label == "blunder"));
      CHECK(m["loss"].get<double>() >= 0);
      CHECK(m["best"].contains("x"));
      CHECK(m["best"].contains("meeple"));
      if (label == "best") CHECK(m["best_value"].get<double>() >= m["played_value"].get<double>() - 1e-9);
    }
    ++k;
  }
}

}  // namespace carc::test
