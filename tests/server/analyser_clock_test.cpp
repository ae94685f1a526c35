// The clock of a background analysis (server/src/bots/analyser.hpp): once a live computer turn
// waits, the search stops after its current playout, whenever the preemption comes, even
// at the search's very first reading of the clock (it read its start after the preemption
// and then ran its whole budget: a live turn waited a minute in analysis_server_test).
#include <doctest/doctest.h>

#include "bots/analyser.hpp"
#include "carc/core/bot.hpp"
#include "carc/core/game.hpp"
#include "carc/core/player_view.hpp"

namespace carc::server {
namespace {

TEST_CASE("analysis: a search preempted at any reading of its clock stops after its current playout") {
  // A minute's budget: a search that missed the preemption would run for a minute and make
  // thousands of playouts; one that saw it makes at most one playout per reading before it.
  for (const int preempt_at : {1, 2, 3, 6}) {
    CAPTURE(preempt_at);
    int readings = 0;
    bool preempted = false;
    BotSpec spec;
    spec.kind = BotKind::Mcts;
    spec.think_ns = 60'000'000'000;
    spec.clock = preemptible_clock([&] { return ++readings >= preempt_at; }, spec.think_ns, &preempted);
    const Game g = Game::seeded(2, 7);
    const BotChoice c = choose(PlayerView(g), spec, 1);
    CHECK(preempted);
    CHECK(c.playouts >= 1);
    CHECK(c.playouts <= preempt_at);
  }
}

TEST_CASE("analysis: the clock is the wall clock until the preemption, and moves a budget at every reading after it") {
  bool preempted = false;
  bool live_turn_waits = false;
  auto clock = preemptible_clock([&] { return live_turn_waits; }, 1'000, &preempted);
  const std::int64_t a = clock();
  const std::int64_t b = clock();
  CHECK(b >= a);
  CHECK(b - a < 1'000'000'000);  // no jump while nothing waits
  CHECK_FALSE(preempted);
  live_turn_waits = true;
  const std::int64_t c = clock();
  const std::int64_t d = clock();
  CHECK(preempted);
  CHECK(c - b > 1'000);
  CHECK(d - c > 1'000);
  live_turn_waits = false;  // preempted stays preempted
  CHECK(clock() - d > 1'000);
}

}  // namespace
}  // namespace carc::server

namespace carc::server {
namespace {

// A game ends on its room's strand, which then waits for its record to be written and
// replayed; flat out the queue is full and neither is needed (docs/hot-path.md).
TEST_CASE("analysis: a finished game the full queue refuses is neither written out nor replayed") {
  AnalysisOptions o;
  o.max_queued = 1;
  Analyser a(o);
  int made = 0;
  const auto record = [&made] {
    ++made;
    return std::string(R"({"format":"carcassonne-record/1","players":2,"moves":[]})");
  };
  CHECK(a.enqueue("first", record));
  CHECK(made == 1);
  CHECK_FALSE(a.enqueue("second", record));  // the queue holds one
  CHECK_FALSE(a.enqueue("first", record));   // already queued
  CHECK(made == 1);
}

}  // namespace
}  // namespace carc::server
