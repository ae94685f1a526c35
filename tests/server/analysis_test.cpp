// The analysis of finished games against the real server (docs/analysis.md): queued when a game
// with a human ends, done in the background, served at GET /api/rooms/<id>/analysis, carried
// on after a crash, and never in the way of a live computer player's turn. The server runs
// analyses at its normal priority here (--analysis-priority normal): under SCHED_IDLE, a
// machine busy with other work may leave them no CPU at all.
#include "analysis_helpers.hpp"

namespace carc::test {

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

}  // namespace carc::test
