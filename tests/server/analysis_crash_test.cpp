// The analysis of finished games against the real server (docs/analysis.md): queued when a game
// with a human ends, done in the background, served at GET /api/rooms/<id>/analysis, carried
// on after a crash, and never in the way of a live computer player's turn. The server runs
// analyses at its normal priority here (--analysis-priority normal): under SCHED_IDLE, a
// machine busy with other work may leave them no CPU at all.
#include "analysis_helpers.hpp"

namespace carc::test {

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

}  // namespace carc::test
