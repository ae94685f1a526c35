// The analysis of finished games against the real server (docs/analysis.md): queued when a game
// with a human ends, done in the background, served at GET /api/rooms/<id>/analysis, carried
// on after a crash, and never in the way of a live computer player's turn. The server runs
// analyses at its normal priority here (--analysis-priority normal): under SCHED_IDLE, a
// machine busy with other work may leave them no CPU at all.
#include "analysis_helpers.hpp"

namespace carc::test {

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
