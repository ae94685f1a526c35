// The Princess & the Dragon on the wire (docs/protocol.md, "The Princess & the Dragon"):
// its play keys and the dragon message as parsed at the edge, its refusal codes, its moves in
// the stored form, and its public state over whole random games: every patch turns the
// previous document into the written one, and the state says what the engine says (the
// dragon's stage and whose step it is, the options, every figure of every tile, the dragon
// and the fairy, the waiting dragon tiles).
#include <doctest/doctest.h>

#include <deque>
#include <map>

#include "carc/core/expansions/princess/princess.hpp"
#include "carc/core/random_player.hpp"
#include "carc/protocol/json.hpp"
#include "carc/protocol/messages.hpp"
#include "carc/protocol/move_codec.hpp"
#include "carc/protocol/room_state.hpp"

using namespace carc;
using namespace carc::protocol;
using nlohmann::json;

namespace {

ExpansionSet princess_set() { return ExpansionSet::from_bits(static_cast<std::uint8_t>(1u << static_cast<int>(Expansion::Princess))); }

ClientMessage parsed(std::string_view text) {
  auto r = parse_client_message(text);
  if (const auto* e = std::get_if<MessageError>(&r)) FAIL("refused: " << e->message);
  return std::get<ClientMessage>(r);
}

std::string refused(std::string_view text) {
  auto r = parse_client_message(text);
  REQUIRE(std::holds_alternative<MessageError>(r));
  return std::string(error_code_name(std::get<MessageError>(r).code));
}

bool same_move(const Move& a, const Move& b) {
  return a.type == b.type && a.placement.cell == b.placement.cell &&
         (a.type == Move::Type::Step || (a.tile == b.tile && a.placement == b.placement && a.meeple == b.meeple &&
                                          a.figure == b.figure && a.action == b.action &&
                                          a.figure_cell == b.figure_cell && a.action_kind == b.action_kind &&
                                          a.action_port == b.action_port));
}

}  // namespace

TEST_CASE("princess: play keys, the dragon message and the new refusal codes") {
  const auto fairy = std::get<PlayMsg>(parsed(
      R"({"type":"play","version":3,"x":1,"y":0,"rotation":90,"fairy":{"x":2,"y":-1,"at":"E"}})"));
  REQUIRE(fairy.action);
  CHECK(fairy.action->first == 2);
  CHECK(fairy.action->second == -1);
  CHECK(fairy.action_kind == princess::kFairyAction);
  CHECK(fairy.action_port == Port::E);
  const auto knight = std::get<PlayMsg>(parsed(
      R"({"type":"play","version":3,"x":1,"y":0,"rotation":0,"princess":{"x":0,"y":0,"at":"N"}})"));
  CHECK(knight.action_kind == princess::kPrincessAction);
  const auto portal = std::get<PlayMsg>(parsed(
      R"({"type":"play","version":3,"x":1,"y":0,"rotation":0,"meeple":"C","portal":{"x":-2,"y":4}})"));
  REQUIRE(portal.figure_cell);
  CHECK(portal.figure_cell->first == -2);
  CHECK(portal.figure_cell->second == 4);
  CHECK(portal.meeple == "C");
  // Malformed values, two of meeple / return / fairy / princess, a portal without a meeple,
  // the dragon's steps in a play: bad_message.
  for (const char* bad : {
           R"({"type":"play","version":3,"x":1,"y":0,"rotation":0,"fairy":{"x":2,"y":-1}})",
           R"({"type":"play","version":3,"x":1,"y":0,"rotation":0,"fairy":{"x":2,"y":-1,"at":"Q"}})",
           R"({"type":"play","version":3,"x":1,"y":0,"rotation":0,"princess":[0,0]})",
           R"({"type":"play","version":3,"x":1,"y":0,"rotation":0,"portal":{"x":"2","y":1},"meeple":"C"})",
           R"({"type":"play","version":3,"x":1,"y":0,"rotation":0,"portal":{"x":2,"y":1}})",
           R"({"type":"play","version":3,"x":1,"y":0,"rotation":0,"meeple":"C","fairy":{"x":2,"y":-1,"at":"E"}})",
           R"({"type":"play","version":3,"x":1,"y":0,"rotation":0,"return":{"x":2,"y":-1},"princess":{"x":0,"y":0,"at":"N"}})",
           R"({"type":"play","version":3,"x":1,"y":0,"rotation":0,"fairy":{"x":2,"y":-1,"at":"E"},"princess":{"x":0,"y":0,"at":"N"}})",
           R"({"type":"play","version":3,"x":1,"y":0,"rotation":0,"dragon":[{"x":1,"y":1}]})",
       }) {
    INFO(bad);
    CHECK(refused(bad) == "bad_message");
  }
  const auto step = std::get<StepMsg>(parsed(R"({"type":"dragon","version":12,"to":{"x":-3,"y":2}})"));
  CHECK(step.version == 12);
  CHECK(step.x == -3);
  CHECK(step.y == 2);
  for (const char* bad : {R"({"type":"dragon","version":12})", R"({"type":"dragon","version":12,"to":{"x":1}})",
                          R"({"type":"dragon","version":12,"to":[1,2]})", R"({"type":"dragon","to":{"x":1,"y":2}})",
                          R"({"type":"dragon","version":"12","to":{"x":1,"y":2}})"}) {
    INFO(bad);
    CHECK(refused(bad) == "bad_message");
  }
  CHECK(error_code_name(target_refusal(princess::kFairyAction)) == "illegal_fairy");
  CHECK(error_code_name(target_refusal(princess::kPrincessAction)) == "illegal_princess");
  CHECK(error_code_name(step_refusal()) == "illegal_dragon");
}

TEST_CASE("princess: every move of random games, steps included, round-trips in the stored form") {
  int steps = 0, portals = 0, targets = 0;
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    Game g = Game::seeded(2 + static_cast<int>(seed % 3), seed * 104729, princess_set());
    RandomPlayer player(seed);
    while (g.anyone_holds()) {
      const Move m = player.choose(g);
      std::string why;
      const auto back = parse_move_text(move_text(m), &why);
      REQUIRE_MESSAGE(back, why << " in " << move_text(m));
      CHECK_MESSAGE(same_move(*back, m), move_text(m));
      steps += m.type == Move::Type::Step ? 1 : 0;
      portals += m.figure_cell ? 1 : 0;
      targets += m.action_kind != 0 ? 1 : 0;
      REQUIRE_FALSE(g.play(m).has_value());
    }
  }
  CHECK(steps > 0);
  CHECK(portals > 0);
  CHECK(targets > 0);
  std::string why;
  CHECK_FALSE(parse_move_text("step,1", &why));
  CHECK_FALSE(parse_move_text("P18,1,0,0,C,on,2", &why));
  CHECK_FALSE(parse_move_text("P18,1,0,0,on,2,3", &why));
  CHECK_FALSE(parse_move_text("P24,0,1,0,act,2,1,1,Q", &why));
  CHECK_FALSE(parse_move_text("P24,0,1,0,act,0,1,1,N", &why));
}

TEST_CASE("princess: the public state says what the engine says, and every patch gives it") {
  int stage_changes = 0, shared_tiles = 0, fairy_seen = 0, eaten = 0;
  for (std::uint64_t seed = 1; seed <= 8; ++seed) {
    const int players = 2 + static_cast<int>(seed % 4);
    std::vector<std::string> names;
    std::vector<SeatFacts> seats;
    for (int i = 0; i < players; ++i) names.push_back("P" + std::to_string(i));
    for (int i = 0; i < players; ++i) {
      SeatFacts seat;
      seat.name = names[static_cast<std::size_t>(i)];
      seat.connected = true;
      seats.push_back(seat);
    }
    ClockSettings settings;
    settings.expansions = princess_set();
    std::unique_ptr<Game> game;
    EventHistory history;
    std::deque<ChatLine> chat;
    RoomPhase phase = RoomPhase::Lobby;
    std::string result;
    const auto facts = [&] {
      RoomFacts f;
      f.room = "r";
      f.phase = phase;
      f.seats = seats;
      f.host = 0;
      f.settings = settings;
      f.game = game.get();
      f.result = result;
      f.turn_number = game ? history.turn_number(game->in_extra_part()) : 0;
      return f;
    };
    const auto written = [&] {
      std::string text;
      write_state(text, facts(), history, chat);
      return json::parse(text);
    };
    StatePatcher patcher;
    patcher.reset(facts(), 1, 0);
    json published = written();
    // The lobby: the three keys, and the board's entry listing its figures.
    CHECK(published["dragon"].is_null());
    CHECK(published["fairy"].is_null());
    CHECK(published["dragon_tiles_waiting"] == 12);
    CHECK(published["board"][0]["meeples"] == json::array());
    CHECK_FALSE(published["board"][0].contains("meeple"));
    std::int64_t version = 1;
    const auto commit = [&] {
      patcher.sync(facts());
      const json frame = json::parse(patcher.take_frame());
      for (const json& op : frame["ops"]) {
        INFO("op: " << op.dump());
        REQUIRE_NOTHROW(published.patch_inplace(json::array({op})));
      }
      REQUIRE(published == written());
    };
    patcher.begin(++version);
    std::vector<Event> ev;
    game = std::make_unique<Game>(Game::seeded(players, seed * 31, settings.expansions, &ev));
    phase = RoomPhase::Playing;
    patcher.events_started(history);
    patcher.game_events(history, ev);
    commit();
    RandomPlayer player(seed);
    bool was_stage = false;
    while (!game->finished()) {
      patcher.begin(++version);
      ev.clear();
      REQUIRE_FALSE(game->play(player.choose(*game), &ev));
      patcher.game_events(history, ev);
      if (game->finished()) {
        phase = RoomPhase::Finished;
        result = result_text(*game, history);
      }
      commit();
      if (game->finished()) break;
      const json& turn = published["turn"];
      REQUIRE(turn.is_object());
      CHECK(turn["seat"] == game->current_seat());
      if (game->in_stage()) {
        CHECK(turn["stage"] == "dragon");
        CHECK(turn["dragon"]["seat"] == game->acting_seat());
        CHECK(turn["dragon"]["step"] == game->stage_step());
        std::vector<Cell> options;
        game->step_options(options);
        REQUIRE(turn["dragon"]["options"].size() == options.size());
        for (std::size_t i = 0; i < options.size(); ++i) {
          CHECK(turn["dragon"]["options"][i] == json{{"x", options[i].x}, {"y", options[i].y}});
        }
        CHECK(turn["dragon"]["visited"].size() == static_cast<std::size_t>(game->stage_step()));
        CHECK(turn["dragon"]["visited"].back() == published["dragon"]);
        CHECK(turn["legal"].empty());
      } else {
        CHECK(turn["stage"] == "place");
        CHECK_FALSE(turn.contains("dragon"));
        for (const json& e : turn["legal"]) REQUIRE(e.contains("princess"));
      }
      stage_changes += game->in_stage() != was_stage ? 1 : 0;
      was_stage = game->in_stage();
      // Every figure of the engine is listed on its tile, nothing else.
      std::vector<Game::Standing> all;
      game->standing(all);
      std::size_t listed = 0;
      for (const json& t : published["board"]) {
        listed += t["meeples"].size();
        shared_tiles += t["meeples"].size() > 1 ? 1 : 0;
      }
      CHECK(listed == all.size());
      for (const Game::Standing& s : all) {
        const json& t = published["board"][static_cast<std::size_t>(s.tile)];
        bool found = false;
        for (const json& m : t["meeples"]) found = found || (m["seat"] == s.seat && m["at"] == port_name(s.port));
        CHECK(found);
      }
      CHECK(published["dragon_tiles_waiting"] == game->held_back_waiting());
      fairy_seen += published["fairy"].is_object() ? 1 : 0;
    }
    for (const json& e : published["events"]) {
      if (e["type"] == "dragon_step") eaten += static_cast<int>(e["eaten"].size());
    }
    CHECK(published["result"]["breakdown"].dump().find("fairy") != std::string::npos);
  }
  CHECK(stage_changes > 0);
  CHECK(fairy_seen > 0);
  CHECK(eaten > 0);
  MESSAGE("stage changes " << stage_changes << ", tiles with several figures " << shared_tiles << ", eaten " << eaten);
}

TEST_CASE("princess: GET /api/tiles names each tile's symbol and marks the princess city") {
  const json tiles = tiles_json()["tiles"];
  std::map<std::string, std::string> symbols;
  for (const json& t : tiles) {
    if (t.contains("symbol")) symbols[t["letter"].get<std::string>()] = t["symbol"].get<std::string>();
    if (t["letter"] == "P24") {
      CHECK(t["expansion"] == "princess");
      CHECK(t["features"][0]["kind"] == "city");
      CHECK(t["features"][0]["princess"] == true);
    }
    if (t["letter"] == "D") CHECK_FALSE(t.contains("symbol"));
  }
  CHECK(symbols["P1"] == "volcano");
  CHECK(symbols["P7"] == "dragon");
  CHECK(symbols["P18"] == "portal");
  CHECK(symbols["P29"] == "princess");
  CHECK(symbols.size() == 29 + 2);  // P1..P29 (P11 twice, one id) and the garden copies P7g, P28g
}
