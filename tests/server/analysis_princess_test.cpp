// The analysis of a finished game of The Princess & the Dragon against the real server
// (docs/analysis.md): the record's entries carry the dragon's steps inside their placement,
// and the analysis reviews the game entry by entry, one entry per record entry.
#include "analysis_helpers.hpp"

namespace carc::test {

TEST_CASE("analysis: a Princess & the Dragon game, dragon steps in its record, is analysed entry by entry") {
  ServerProcess server({"--analysis-ms", "20", "--analysis-priority", "normal"});
  const std::string room = play_out(server, nullptr, R"({"expansions":["princess"]})");
  const auto record = json::parse(http(server.port(), "GET", "/api/rooms/" + room + "/record").body);
  int steps = 0;
  for (const auto& m : record["moves"]) steps += m.contains("dragon") ? static_cast<int>(m["dragon"].size()) : 0;
  REQUIRE(steps > 0);  // the dragon moved in this game: its steps are in the record
  const json first = analysis_of(server, room);
  REQUIRE(first.is_object());
  CHECK(first["total"] == record["moves"].size());
  const json done = wait_analysis(server, room, 1000, 180s);
  CHECK(done["status"] == "done");
  check_entries(done, record);
}

}  // namespace carc::test
