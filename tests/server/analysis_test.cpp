// The analysis of finished games against the real server (docs/analysis.md): queued when a game
// with a human ends, done in the background, served at GET /api/rooms/<id>/analysis, carried
// on after a crash, and never in the way of a live computer player's turn. The server runs
// analyses at its normal priority here (--analysis-priority normal): under SCHED_IDLE, a
// machine busy with other work may leave them no CPU at all.
#include <doctest/doctest.h>

#include <chrono>
#include <thread>

#include "table.hpp"

namespace carc::test {
namespace {

json analysis_of(const ServerProcess& server, const std::string& room, int* status = nullptr) {
  const auto r = http(server.port(), "GET", "/api/rooms/" + room + "/analysis");
  if (status != nullptr) *status = r.status;
  return r.status == 200 ? json::parse(r.body) : json();
}

// A host and one easy computer player; the host leaves at once, so that computers play the
// whole game (the host's seat stays a human's: the game is analysed). `longest_turn`: the
// longest wait between two turns of the game, from the third (the host is away by then).
std::string play_out(ServerProcess& server, std::chrono::steady_clock::duration* longest_turn = nullptr) {
  const std::string room = create_room(server.port());
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

json wait_analysis(const ServerProcess& server, const std::string& room, std::size_t done_at_least,
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

void check_entries(const json& analysis, const json& record) {
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

}  // namespace

TEST_CASE("analysis: a finished game is analysed in the background, one entry per move of its record") {
  ServerProcess server({"--analysis-ms", "20", "--analysis-priority", "normal"});
  int status = 0;
  analysis_of(server, "no-such-room-x", &status);
  CHECK(status == 404);
  const std::string room = play_out(server);
  const json first = analysis_of(server, room, &status);
  REQUIRE(status == 200);
  CHECK((first["status"] == "queued" || first["status"] == "running" || first["status"] == "done"));
  CHECK(first["total"].get<int>() > 0);
  CHECK(first.contains("eta_seconds"));
  const json done = wait_analysis(server, room, 1000, 120s);
  CHECK(done["status"] == "done");
  const auto record = json::parse(http(server.port(), "GET", "/api/rooms/" + room + "/record").body);
  check_entries(done, record);
  // Seats: the record's moves alternate between the two seats (discards keep the turn).
  CHECK(done["moves"][0]["seat"] == 0);
}

TEST_CASE("analysis: a crash in the middle resumes from the moves saved, and finishes") {
  ServerProcess server({"--analysis-ms", "250", "--analysis-priority", "normal"});
  const std::string room = play_out(server);
  const json partial = wait_analysis(server, room, 4, 120s);
  REQUIRE(partial["status"] == "running");
  const std::size_t before = partial["moves"].size();
  server.crash_and_restart();
  // Straight after the restart: what was saved is there (saves are queued on the writer,
  // not waited for: the last few moves analysed may be lost, and are done again).
  const json after = analysis_of(server, room);
  REQUIRE(after.is_object());
  CHECK(after["moves"].size() + 3 >= before);
  CHECK(after["moves"].size() > 0);
  CHECK(after["status"] != "done");
  const json done = wait_analysis(server, room, 1000, 120s);
  CHECK(done["status"] == "done");
  const auto record = json::parse(http(server.port(), "GET", "/api/rooms/" + room + "/record").body);
  check_entries(done, record);
}

TEST_CASE("analysis: a live computer player's turn never waits behind an analysis") {
  // One bot thread, and each analysed move would think for a minute: a live game is
  // played to its end all the same, well before a single analysed move could be done.
  ServerProcess server({"--analysis-ms", "60000", "--bot-threads", "1", "--analysis-priority", "normal"});
  const std::string first = play_out(server);
  const json a = analysis_of(server, first);
  REQUIRE(a.is_object());
  CHECK(a["status"] != "done");
  // 70-odd computer turns on the one worker the analysis runs on. A turn that waited behind
  // an analysed move would wait a minute; the game as a whole may be slow on a busy machine.
  std::chrono::steady_clock::duration longest{};
  const auto t0 = std::chrono::steady_clock::now();
  play_out(server, &longest);
  const auto took = std::chrono::steady_clock::now() - t0;
  CHECK(longest < 30s);
  CHECK(analysis_of(server, first)["status"] != "done");  // the analysis was still at its first moves
  MESSAGE("a second game of computer players took " << std::chrono::duration<double>(took).count()
                                                    << " s beside the analysis, its longest turn "
                                                    << std::chrono::duration<double>(longest).count() << " s");
}

}  // namespace carc::test
