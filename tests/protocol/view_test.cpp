#include <doctest/doctest.h>

#include "carc/protocol/view.hpp"

using namespace carc;
using namespace carc::protocol;
using nlohmann::json;

TEST_CASE("the public view: no seed, no bag order, patches rebuild it") {
  std::vector<Event> events;
  Game g = Game::seeded(3, 0x1234, &events);
  const std::vector<SeatView> seats = {{"Alice", true}, {"Bob", false}, {"Carol", true}};
  EventLog log;
  log.append_started();
  log.append(events);
  std::deque<ChatLine> chat;
  RoomView v{"room123456", RoomPhase::Playing, &g, seats, 1, nullptr};
  const json before = full_view(v, log, chat);
  CHECK(before["bag"].size() == 2);
  CHECK(before["bag"]["left"] == g.bag_left());
  CHECK(before["players"][1]["connected"] == false);
  CHECK(before["players"][0]["color"] == "red");
  CHECK(before["turn"]["number"] == 1);
  CHECK(before.dump().find("seed") == std::string::npos);
  CHECK(before.dump().find(std::to_string(0x1234)) == std::string::npos);

  // One move: the core diff plus the appended events rebuild the new view.
  std::vector<LegalMove> legal;
  g.legal_moves(legal);
  REQUIRE(!legal.empty());
  const json core_before = core_view(v);
  events.clear();
  REQUIRE(!g.play(Move::place(*g.held(g.current_seat()), legal[0].placement.cell, legal[0].placement.rotation), &events));
  json ops = diff_core(core_before, core_view(v));
  append_ops(ops, "/events", log.append(events));
  CHECK(before.patch(ops) == full_view(v, log, chat));
}
