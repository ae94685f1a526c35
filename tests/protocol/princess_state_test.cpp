// The Princess & the Dragon in the public state (docs/expansions/princess-dragon.md, "The
// public state"): whose dragon step it is, its options and the tiles visited, where the
// dragon and the fairy are, every figure of a tile, and the princess's and the portal's
// targets; a client that reconnects in the middle of the dragon's move reads them here.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <map>
#include <string>
#include <vector>

#include "carc/core/expansions/princess/princess.hpp"
#include "carc/core/random_player.hpp"
#include "carc/protocol/json.hpp"
#include "carc/protocol/record.hpp"
#include "carc/protocol/room_state.hpp"
#include "princess_example.hpp"

using namespace carc;
using namespace carc::protocol;
using nlohmann::json;

namespace {

const ExpansionSet kP = ExpansionSet{}.with(Expansion::Princess);

using carc::example::kPrincessOpening;
using carc::example::princess_opening;

json state(const Game& g, ExpansionSet set = kP) {
  std::vector<SeatFacts> seats(static_cast<std::size_t>(g.players()));
  RoomFacts f;
  f.room = "r";
  f.phase = RoomPhase::Playing;
  f.seats = seats;
  f.settings.expansions = set;
  f.game = &g;
  EventHistory h;
  h.append_started(nullptr);
  std::string text;
  write_state(text, f, h, {});
  return json::parse(text);
}


}  // namespace

TEST_CASE("princess state: the dragon's stage names the seat whose step it is, its options and the tiles visited") {
  Game g = princess_opening(7);
  REQUIRE(g.in_stage());
  json s = state(g);
  CHECK(s["turn"]["seat"] == 0);
  CHECK(s["turn"]["stage"] == "dragon");
  CHECK(s["turn"]["dragon"] == json::parse(R"({"seat": 0, "step": 1, "options": [{"x": 0, "y": 0}], "visited": [{"x": -1, "y": 0}]})"));
  CHECK(s["dragon"] == json::parse(R"({"x": -1, "y": 0})"));
  CHECK(s["fairy"] == json::parse(R"({"x": 1, "y": 0, "next_to": {"x": 1, "y": 0, "at": "E", "seat": 1}})"));
  CHECK(s["dragon_tiles_waiting"] == 0);
  REQUIRE_FALSE(g.play(Move::step({0, 0})));
  s = state(g);
  CHECK(s["turn"]["dragon"]["seat"] == 1);
  CHECK(s["turn"]["dragon"]["step"] == 2);
  CHECK(s["turn"]["dragon"]["options"] == json::parse(R"([{"x": 0, "y": -1}, {"x": 0, "y": 1}])"));
  CHECK(s["turn"]["dragon"]["visited"] == json::parse(R"([{"x": -1, "y": 0}, {"x": 0, "y": 0}])"));
  REQUIRE_FALSE(g.play(Move::step({0, 1})));
  s = state(g);
  CHECK(s["turn"]["stage"] == "place");
  CHECK_FALSE(s["turn"].contains("dragon"));
  CHECK(s["turn"]["seat"] == 1);
  CHECK(s["dragon"] == json::parse(R"({"x": 0, "y": 1})"));
}

TEST_CASE("princess state: board entries list every figure; the lobby waits for 12 dragon tiles") {
  const Game g = princess_opening(5);  // seat 0's monk on B at (0,1); seat 1's road meeple on U at (1,0)
  const json s = state(g);
  bool monk = false;
  for (const json& t : s["board"]) {
    CHECK(t.contains("meeples"));
    CHECK_FALSE(t.contains("meeple"));
    if (t["x"] == 0 && t["y"] == 1) monk = t["meeples"] == json::parse(R"([{"seat": 0, "at": "C"}])");
  }
  CHECK(monk);
  CHECK(s["turn"]["stage"] == "place");
  CHECK(s["turn"]["fairy"] == json::parse(R"([{"x": 1, "y": 0, "at": "E"}])"));  // seat 1's follower
  for (const json& l : s["turn"]["legal"]) CHECK(l.contains("princess"));
  std::vector<SeatFacts> seats(2);
  RoomFacts lobby;
  lobby.room = "r";
  lobby.seats = seats;
  lobby.settings.expansions = kP;
  EventHistory h;
  std::string text;
  write_state(text, lobby, h, {});
  const json l = json::parse(text);
  CHECK(l["dragon_tiles_waiting"] == 12);
  CHECK(l["dragon"].is_null());
}

TEST_CASE("princess state: a portal tile's legal placements list the tiles a follower may reach through it") {
  Game g = princess_opening(2);  // seat 0 holds P18 (named by the next entry)
  std::string why;
  const json next = json::parse(kPrincessOpening)[2];
  const auto m = parse_move(next, &why, kP, nullptr);
  REQUIRE(m.has_value());
  // A replay learns the held tile from the move: play a copy to see the offer for it.
  std::vector<Spot> spots;
  g.figure_targets_elsewhere(Tile::P18, m->placement, 0, Figure::Meeple, spots);
  CHECK(std::find(spots.begin(), spots.end(), Spot{{0, 0}, Port::N}) != spots.end());   // the start tile's city
  CHECK(std::find_if(spots.begin(), spots.end(), [](const Spot& s) { return s.cell == Cell{-1, 0}; }) == spots.end());  // the dragon's
  CHECK(std::find_if(spots.begin(), spots.end(), [](const Spot& s) { return s.cell == Cell{1, 0} && s.port == Port::E; }) == spots.end());  // occupied road
  // The same in turn.legal[]: the entry of P18 at (2,0) lists the start tile's city.
  const json st = state(g);
  bool listed = false;
  for (const json& l : st["turn"]["legal"]) {
    if (l["x"] != 2 || l["y"] != 0 || l["rotation"] != 0) continue;
    REQUIRE(l.contains("portal"));
    for (const json& t : l["portal"]) {
      if (t["x"] == 0 && t["y"] == 0) listed = std::find(t["meeples"].begin(), t["meeples"].end(), json("N")) != t["meeples"].end();
      CHECK_FALSE((t["x"] == -1 && t["y"] == 0));  // the dragon's tile
    }
  }
  CHECK(listed);
}

TEST_CASE("princess state: every portal entry lists every figure of the game besides the meeple, each with its ports") {
  // docs/protocol.md: "figures" holds every figure in the game, as a placement's own
  // "figures" does, possibly with no port (builders and pigs never go through the portal).
  const ExpansionSet set = kP.with(Expansion::Abbot).with(Expansion::Inns).with(Expansion::Traders);
  const std::vector<std::string> names = {"big", "abbot", "builder", "pig"};
  int entries = 0;
  int abbots = 0;
  for (std::uint64_t seed = 1; seed <= 6 && entries < 200; ++seed) {
    Game g = Game::seeded(2, seed * 7919, set);
    RandomPlayer player(seed);
    while (g.anyone_holds()) {
      const auto t = g.held(g.current_seat());
      if (!g.in_stage() && t && carc::princess::symbol_of(*t) == carc::princess::Symbol::Portal) {
        const json s = state(g, set);
        for (const json& l : s["turn"]["legal"]) {
          REQUIRE(l.contains("portal"));
          for (const json& e : l["portal"]) {
            CAPTURE(e.dump());
            REQUIRE(e["figures"].is_object());
            CHECK(e["figures"].size() == names.size());
            for (const std::string& name : names) {
              REQUIRE(e["figures"].contains(name));
              CHECK(e["figures"][name].is_array());
            }
            CHECK(e["figures"]["builder"].empty());
            CHECK(e["figures"]["pig"].empty());
            abbots += e["figures"]["abbot"].empty() ? 0 : 1;
            ++entries;
          }
        }
      }
      REQUIRE_FALSE(g.play(player.choose(g)));
    }
  }
  CHECK(entries > 0);
  CHECK(abbots > 0);  // and the abbot's ports are there where it may go
}

TEST_CASE("princess tiles in GET /api/tiles: their expansion, their symbol and the princess city") {
  const json all = tiles_json();
  std::map<std::string, json> by_id;
  for (const json& t : all["tiles"]) by_id[t["letter"]] = t;
  CHECK(by_id.size() == static_cast<std::size_t>(kTileKinds));
  CHECK(by_id["P1"]["expansion"] == "princess");
  CHECK(by_id["P5"]["symbol"] == "volcano");
  CHECK(by_id["P12"]["symbol"] == "dragon");
  CHECK(by_id["P18"]["symbol"] == "portal");
  CHECK(by_id["P26"]["symbol"] == "princess");
  CHECK(by_id["P25"]["features"][0]["princess"] == true);
  CHECK_FALSE(by_id["P25"]["features"][1].contains("princess"));
  CHECK_FALSE(by_id["A"].contains("symbol"));
  const json set = tiles_json(kP);
  CHECK(set["bag"] == 101);
}
