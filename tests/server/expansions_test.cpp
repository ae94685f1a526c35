// Expansions against the real server (docs/expansions/, the River and the Abbot):
// choosing them (POST /api/rooms, the lobby's settings), the tile catalog per set, the
// abbot's figure and take-back over the protocol with every refusal code, and a whole
// river + abbot game played to the end through a crash and a restart, its record
// replaying to the scores everybody saw.
#include <doctest/doctest.h>

#include "carc/core/random_player.hpp"
#include "carc/protocol/record.hpp"
#include "table.hpp"

namespace carc::test {

namespace {

const json kRiverAbbot = json::array({"river", "abbot"});

std::string create_room_with(int port, const json& expansions) {
  const auto r = http(port, "POST", "/api/rooms", json{{"expansions", expansions}}.dump());
  REQUIRE(r.status == 201);
  return json::parse(r.body)["room"].get<std::string>();
}

}  // namespace

TEST_CASE("expansions are chosen by POST /api/rooms or by the host in the lobby; bad ids change nothing") {
  ServerProcess server;
  for (const char* body : {R"({"expansions":["nope"]})", R"({"expansions":["river","river"]})",
                                  R"({"expansions":["tunnel"]})", R"({"expansions":"river"})", R"([1,2])"}) {
    CAPTURE(body);
    CHECK(http(server.port(), "POST", "/api/rooms", body).status == 400);
  }
  const std::string room = create_room_with(server.port(), kRiverAbbot);
  Peer host(server.port(), room);
  host.join("Host");
  const json& s = host.state();
  CHECK(s["settings"]["expansions"] == kRiverAbbot);
  CHECK(s["board"][0]["tile"] == "RS");
  CHECK(s["bag"]["left"] == 82);
  CHECK(s["bag"]["tiles"]["R6g"] == 1);
  CHECK(s["bag"]["tiles"]["D"] == 3);
  CHECK_FALSE(s["bag"]["tiles"].contains("RS"));
  CHECK(s["players"][0]["figures"] == json{{"abbot", 1}});

  // The lobby: the host changes them; others and bad ids are refused and change nothing.
  Peer guest(server.port(), room);
  guest.join("Guest");
  host.drain();
  const auto v = host.version();
  guest.send({{"type", "settings"}, {"expansions", json::array({"abbot"})}});
  CHECK(guest.expect_error() == "not_host");
  for (const json& bad : {json::array({"abbot", "abbot"}), json::array({"tunnel"}), json("abbot"), json::array({1})}) {
    host.send({{"type", "settings"}, {"expansions", bad}});
    CHECK(host.expect_error() == "bad_message");
  }
  host.drain();
  CHECK(host.version() == v);
  host.send({{"type", "settings"}, {"expansions", json::array()}});
  host.expect("patch");
  guest.catch_up(host.version());
  CHECK(guest.state()["settings"]["expansions"] == json::array());
  CHECK(guest.state()["board"][0]["tile"] == "D");
  CHECK(guest.state()["bag"]["left"] == 71);
  CHECK_FALSE(guest.state()["players"][0].contains("figures"));
  host.send({{"type", "settings"}, {"expansions", json::array({"abbot"})}});
  host.expect("patch");
  guest.catch_up(host.version());
  CHECK(guest.state()["settings"]["expansions"] == json::array({"abbot"}));
  CHECK(guest.state()["bag"]["tiles"]["Eg"] == 1);
  CHECK(guest.state()["players"][1]["figures"] == json{{"abbot", 1}});
}

TEST_CASE("GET /api/tiles lists every tile with its expansion; ?expansions= gives that game's set") {
  ServerProcess server;
  const auto all = json::parse(http(server.port(), "GET", "/api/tiles").body);
  std::map<std::string, json> by_id;
  for (const auto& t : all["tiles"]) by_id[t["letter"]] = t;
  CHECK(by_id.size() == 119);
  CHECK(by_id["P29"]["expansion"] == "princess");
  CHECK(by_id["P5"]["symbol"] == "volcano");
  CHECK(by_id["P11"]["count"] == 2);
  CHECK(by_id["P25"]["features"][0]["princess"] == true);
  CHECK(by_id["P28g"]["expansion"] == "abbot");
  CHECK(by_id["I1"]["expansion"] == "inns");
  CHECK(by_id["P12"]["expansion"] == "princess");
  CHECK(by_id["P12"]["symbol"] == "dragon");
  CHECK(by_id["P26"]["features"][0]["princess"] == true);
  CHECK(by_id["T24"]["expansion"] == "traders");
  CHECK(by_id["T11g"]["expansion"] == "abbot");
  CHECK(by_id["A"]["expansion"].is_null());
  CHECK(by_id["R5"]["expansion"] == "river");
  CHECK(by_id["Vg"]["expansion"] == "abbot");
  CHECK(by_id["RS"]["sides"] == json::array({"field", "river", "field", "field"}));
  const auto set = json::parse(http(server.port(), "GET", "/api/tiles?expansions=river,abbot").body);
  CHECK(set["start"]["tile"] == "RS");
  CHECK(set["bag"] == 82);
  int count = 0;
  for (const auto& t : set["tiles"]) count += t["count"].get<int>();
  CHECK(count == 83);  // the spring included
  CHECK(http(server.port(), "GET", "/api/tiles?expansions=river,bogus").status == 400);
  const auto encoded = http(server.port(), "GET", "/api/tiles?expansions=river%2Cabbot");
  REQUIRE(encoded.status == 200);
  CHECK(json::parse(encoded.body)["bag"] == 82);
}

TEST_CASE("POST /api/replay replays a record of any set and stores nothing; other bodies stay at 4 KiB") {
  ServerProcess server;
  const json example = json::parse(R"({"format": "carcassonne-record/1", "expansions": ["abbot"], "players": 2, "moves": [
    {"tile": "B", "x": 0, "y": 1, "rotation": 0, "meeple": "C", "figure": "abbot"},
    {"tile": "Vg", "x": 1, "y": 0, "rotation": 0, "meeple": "G", "figure": "abbot"},
    {"tile": "U", "x": -1, "y": 0, "rotation": 0},
    {"tile": "E", "x": 0, "y": -1, "rotation": 180, "return": {"x": 1, "y": 0}},
    {"tile": "U", "x": 1, "y": 1, "rotation": 90, "meeple": "N"},
    {"tile": "Eg", "x": -1, "y": 1, "rotation": 180, "meeple": "G", "figure": "abbot"}], "final": true})");
  const auto ok = http(server.port(), "POST", "/api/replay", example.dump());
  REQUIRE(ok.status == 200);
  CHECK(json::parse(ok.body)["final_scores"] == json::array({10, 8}));
  CHECK(json::parse(ok.body)["figures_in_supply"] == json::parse(R"([{"abbot":0},{"abbot":0}])"));
  json bad = example;
  bad["moves"][3]["return"] = {{"x", 0}, {"y", 1}};
  const auto refused = http(server.port(), "POST", "/api/replay", bad.dump());
  CHECK(refused.status == 422);
  CHECK(json::parse(refused.body)["move"] == 3);
  CHECK(http(server.port(), "POST", "/api/replay", "{nope").status == 400);
  // A whole river + abbot game (about 6 KB) fits; other routes still refuse 5 KB bodies.
  Game g = Game::seeded(4, 99, ExpansionSet{}.with(Expansion::River).with(Expansion::Abbot));
  std::vector<Event> events;
  RandomPlayer player(5);
  while (!g.finished()) REQUIRE_FALSE(g.play(player.choose(g), &events));
  std::vector<Move> moves;
  for (const Event& e : events) {
    if (const auto* p = std::get_if<TilePlaced>(&e)) moves.push_back(move_of(*p));
    if (const auto* d = std::get_if<TileDiscarded>(&e)) moves.push_back(Move::discard(d->tile));
  }
  json record = protocol::record_json(4, moves, true, g.expansions());
  record["note"] = std::string(1000, 'n');  // extra keys are welcome (docs/record-format.md)
  const std::string big = record.dump();
  REQUIRE(big.size() > 4096);
  const auto whole = http(server.port(), "POST", "/api/replay", big);
  REQUIRE(whole.status == 200);
  for (Seat s = 0; s < 4; ++s) CHECK(json::parse(whole.body)["final_scores"][static_cast<std::size_t>(s)] == g.score(s));
  CHECK(http(server.port(), "POST", "/api/rooms", std::string(5000, ' ')).status == 413);
  CHECK(http(server.port(), "GET", "/api/rooms").status == 405);  // nothing was made or stored by the replays
}

TEST_CASE("a river + abbot game to the end: abbot targets, take-backs and refusals, through a crash") {
  ServerProcess server;
  const std::string room = create_room_with(server.port(), kRiverAbbot);
  auto alice_ptr = std::make_unique<Peer>(server.port(), room);
  Peer* alice_p = alice_ptr.get();
  alice_p->join("Alice");
  std::string token = alice_p->token();
  for (int i = 0; i < 2; ++i) {
    alice_p->send({{"type", "add_bot"}, {"level", "easy"}});
    alice_p->expect("patch");
  }
  alice_p->send({{"type", "start"}});
  alice_p->expect("patch");
  Rng rng(11);
  int take_backs = 0;
  int abbots_placed = 0;
  int refusals_checked = 0;
  bool crashed = false;
  for (int turn = 0; turn < 400; ++turn) {
    wait_for(*alice_p, [](const json& s) { return s["phase"] == "finished" || s["turn"]["seat"] == 0; }, 60s);
    const json s = alice_p->state();
    if (s["phase"] == "finished") break;
    const json& legal = s["turn"]["legal"];
    REQUIRE(!legal.empty());
    // The river's turns offer no port of the river, and never a garden to a meeple.
    for (const auto& e : legal) {
      for (const auto& p : e["meeples"]) CHECK(p != "G");
      REQUIRE(e.contains("figures"));
      REQUIRE(e.contains("return"));
    }
    // Prefer a take-back, then the abbot, else a random placement with a meeple now and then.
    json pick = legal[rng.below(static_cast<std::uint32_t>(legal.size()))];
    json msg{{"type", "play"}, {"version", alice_p->version()}};
    for (const auto& e : legal) {
      if (!e["return"].is_null()) pick = e;
    }
    if (pick["return"].is_null()) {
      for (const auto& e : legal) {
        if (!e["figures"]["abbot"].empty()) pick = e;
      }
    }
    msg["x"] = pick["x"];
    msg["y"] = pick["y"];
    msg["rotation"] = pick["rotation"];
    if (refusals_checked == 0) {
      // Refusals first, each changing nothing.
      json bad = msg;
      bad["figure"] = "abbot";
      bad["meeple"] = nullptr;
      alice_p->send(bad);
      CHECK(alice_p->expect_error() == "bad_message");
      bad["meeple"] = "C";
      bad["figure"] = "wizard";
      alice_p->send(bad);
      CHECK(alice_p->expect_error() == "bad_message");
      bad = msg;
      bad["return"] = {{"x", 99}, {"y", 99}};
      alice_p->send(bad);
      CHECK(alice_p->expect_error() == "illegal_return");
      bad["meeple"] = "C";
      alice_p->send(bad);
      CHECK(alice_p->expect_error() == "bad_message");
      bad = msg;
      bad["return"] = "yes";
      alice_p->send(bad);
      CHECK(alice_p->expect_error() == "bad_message");
      ++refusals_checked;
    }
    const int score_before = s["players"][0]["score"];
    int expected_gain = -1;
    if (!pick["return"].is_null()) {
      msg["return"] = pick["return"];
      expected_gain = pick["return_points"];
      ++take_backs;
    } else if (!pick["figures"]["abbot"].empty()) {
      // The abbot where it may not go first: a road or a field port of this tile.
      msg["meeple"] = "N";
      msg["figure"] = "abbot";
      if (pick["figures"]["abbot"][0] != "N") {
        alice_p->send(msg);
        CHECK(alice_p->expect_error() == "illegal_meeple");
      }
      msg["meeple"] = pick["figures"]["abbot"][0];
      ++abbots_placed;
    } else if (!pick["meeples"].empty() && rng.below(3) == 0) {
      msg["meeple"] = pick["meeples"][0];
    }
    alice_p->send(msg);
    alice_p->expect("patch");
    if (expected_gain >= 0) {
      // The take-back scores at once (a city or road this tile closes may add more).
      CHECK(alice_p->state()["players"][0]["score"].get<int>() >= score_before + expected_gain);
      CHECK(alice_p->state()["players"][0]["figures"]["abbot"] == 1);
    }
    if (!crashed && s["board"].size() > 30) {
      server.crash_and_restart();
      crashed = true;
      // Alice comes back on a fresh connection: the game and its expansions are as they were.
      alice_ptr = std::make_unique<Peer>(server.port(), room);
      alice_p = alice_ptr.get();
      alice_p->join_token(token);
      CHECK(alice_p->state()["settings"]["expansions"] == kRiverAbbot);
      CHECK(alice_p->state()["board"][0]["tile"] == "RS");
    }
  }
  REQUIRE(alice_p->state()["phase"] == "finished");
  CHECK(crashed);
  CHECK(abbots_placed > 0);
  MESSAGE("abbots placed " << abbots_placed << ", take-backs " << take_backs);
  const json& result = alice_p->state()["result"];
  CHECK(result["breakdown"][0]["end"].contains("garden"));
  CHECK(result["breakdown"][0]["game"].contains("abbot"));
  const auto rec = http(server.port(), "GET", "/api/rooms/" + room + "/record");
  REQUIRE(rec.status == 200);
  const json record = json::parse(rec.body);
  CHECK(record["expansions"] == kRiverAbbot);
  int returns = 0;
  for (const auto& m : record["moves"]) returns += m.contains("return") ? 1 : 0;
  CHECK(take_backs > 0);
  CHECK(returns >= take_backs);  // the computer players take theirs back too
  auto parsed = protocol::parse_record(record);
  REQUIRE(std::holds_alternative<protocol::Record>(parsed));
  auto replayed = protocol::replay(std::get<protocol::Record>(parsed));
  REQUIRE(std::holds_alternative<json>(replayed));
  CHECK(std::get<json>(replayed)["final_scores"] == result["final_scores"]);
}

}  // namespace carc::test
