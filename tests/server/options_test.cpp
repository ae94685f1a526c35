// The rule options against the real server (docs/options.md): chosen by POST /api/rooms or by
// the host in the lobby, bad ids refused with nothing changed, and a no_fields + small_city
// game played to the end through a crash: no field port offered, a field play refused, no
// fields row in the result, the record and the rematch keeping the options.
#include <doctest/doctest.h>

#include <set>

#include "carc/core/game.hpp"
#include "carc/core/random_player.hpp"
#include "table.hpp"

namespace carc::test {
namespace {

std::string create_room_with(int port, const json& body) {
  const auto r = http(port, "POST", "/api/rooms", body.dump());
  REQUIRE(r.status == 201);
  return json::parse(r.body)["room"].get<std::string>();
}

// Whether `port` (board orientation) of tile `letter` turned `degrees` is on a field.
bool on_field(const std::string& letter, int degrees, const std::string& port) {
  const auto t = tile_from_name(letter);
  const auto p = port_from_name(port);
  const auto r = Rotation::from_degrees(degrees);
  REQUIRE((t && p && r));
  const auto bit = 1u << static_cast<int>(unrotate(*p, *r));
  const TileDef& d = tile_def(*t);
  for (int s = 0; s < d.segment_count; ++s) {
    const Segment& seg = d.segments[static_cast<std::size_t>(s)];
    if ((seg.ports & bit) != 0) return seg.kind == Kind::Field;
  }
  return false;
}

const char* kFieldPorts[] = {"NL", "NR", "EL", "ER", "SL", "SR", "WL", "WR"};

}  // namespace

TEST_CASE("options are chosen by POST /api/rooms or by the host in the lobby; bad ids change nothing") {
  ServerProcess server;
  for (const char* body : {R"({"options":["nope"]})", R"({"options":["no_fields","no_fields"]})",
                           R"({"options":"no_fields"})", R"({"options":[1]})",
                           R"({"expansions":["traders"],"options":["tiny"]})"}) {
    CAPTURE(body);
    CHECK(http(server.port(), "POST", "/api/rooms", body).status == 400);
  }
  // Without options the state says so: [].
  Peer plain(server.port(), create_room(server.port()));
  plain.join("Plain");
  CHECK(plain.state()["settings"]["options"] == json::array());

  const std::string room =
      create_room_with(server.port(), json{{"expansions", {"traders"}}, {"options", {"no_fields"}}});
  Peer host(server.port(), room);
  host.join("Host");
  CHECK(host.state()["settings"]["options"] == json::array({"no_fields"}));
  CHECK(host.state()["settings"]["expansions"] == json::array({"traders"}));
  CHECK(host.state()["players"][0]["figures"] == json{{"builder", 1}});  // no farmer-only figure

  Peer guest(server.port(), room);
  guest.join("Guest");
  host.drain();
  const auto v = host.version();
  guest.send({{"type", "settings"}, {"options", json::array()}});
  CHECK(guest.expect_error() == "not_host");
  for (const json& bad : {json::array({"small_city", "small_city"}), json::array({"fields"}), json("small_city"),
                          json::array({2}), json::object()}) {
    CAPTURE(bad.dump());
    host.send({{"type", "settings"}, {"options", bad}});
    CHECK(host.expect_error() == "bad_message");
  }
  host.drain();
  CHECK(host.version() == v);
  CHECK(host.state()["settings"]["options"] == json::array({"no_fields"}));

  host.send({{"type", "settings"}, {"options", json::array({"small_city", "no_fields"})}});
  host.expect("patch");
  guest.catch_up(host.version());
  CHECK(guest.state()["settings"]["options"] == json::array({"no_fields", "small_city"}));
  host.send({{"type", "settings"}, {"options", json::array({"small_city"})}});
  host.expect("patch");
  guest.catch_up(host.version());
  CHECK(guest.state()["settings"]["options"] == json::array({"small_city"}));
  CHECK(guest.state()["players"][1]["figures"] == json{{"builder", 1}, {"pig", 1}});  // back with fields
  // Other settings keep the options.
  host.send({{"type", "settings"}, {"turn_seconds", 60}});
  host.expect("patch");
  CHECK(host.state()["settings"]["options"] == json::array({"small_city"}));
}

TEST_CASE("a no_fields game through a crash: no field port, a field play refused, no fields row, record and rematch") {
  ServerProcess server;
  const json kBoth = json::array({"no_fields", "small_city"});
  const std::string room = create_room_with(server.port(), json{{"options", kBoth}});
  std::vector<std::unique_ptr<Peer>> peers;
  for (const char* name : {"Alice", "Bob"}) {
    peers.push_back(std::make_unique<Peer>(server.port(), room));
    peers.back()->join(name);
  }
  const auto sync = [&] {
    std::int64_t v = 0;
    for (auto& p : peers) v = std::max(v, p->version());
    for (auto& p : peers) p->catch_up(v);
  };
  sync();
  peers[0]->send({{"type", "start"}});
  peers[0]->expect("patch");
  sync();
  Rng rng(11);
  bool refused = false, crashed = false;
  int meeples = 0;
  for (int moves = 0; peers[0]->state()["phase"] == "playing"; ++moves) {
    REQUIRE(moves < 200);
    Peer& p = *peers[peers[0]->state()["turn"]["seat"].get<std::size_t>()];
    const json turn = p.state()["turn"];  // a copy: frames taken below change the state
    const std::string tile = turn["tile"].get<std::string>();
    const json& legal = turn["legal"];
    REQUIRE(!legal.empty());
    for (const json& entry : legal) {
      for (const json& port : entry["meeples"]) {
        CHECK_FALSE(on_field(tile, entry["rotation"].get<int>(), port.get<std::string>()));
      }
    }
    const json& pick = legal[rng.below(static_cast<std::uint32_t>(legal.size()))];
    json msg{{"type", "play"}, {"version", p.version()}, {"x", pick["x"]}, {"y", pick["y"]},
             {"rotation", pick["rotation"]}, {"meeple", nullptr}};
    if (!refused && !pick["meeples"].empty()) {
      for (const char* port : kFieldPorts) {
        if (!on_field(tile, pick["rotation"].get<int>(), port)) continue;
        const auto before = p.version();
        msg["meeple"] = port;
        p.send(msg);
        CHECK(p.expect_error() == "illegal_meeple");
        p.drain();
        CHECK(p.version() == before);
        refused = true;
        break;
      }
    }
    msg["meeple"] = !pick["meeples"].empty() && rng.below(2) == 0 ? pick["meeples"][0] : json(nullptr);
    if (!msg["meeple"].is_null()) ++meeples;
    p.send(msg);
    p.expect("patch");
    sync();
    if (!crashed && peers[0]->state()["board"].size() > 30) {
      std::vector<std::string> tokens;
      for (auto& q : peers) tokens.push_back(q->token());
      server.crash_and_restart();
      crashed = true;
      for (std::size_t i = 0; i < peers.size(); ++i) {
        peers[i] = std::make_unique<Peer>(server.port(), room);
        peers[i]->join_token(tokens[i]);
      }
      sync();
      CHECK(peers[0]->state()["settings"]["options"] == kBoth);
    }
  }
  CHECK(refused);
  CHECK(crashed);
  CHECK(meeples > 0);
  const json& result = peers[0]->state()["result"];
  REQUIRE(result.is_object());
  for (const json& line : result["breakdown"]) {
    CHECK_FALSE(line["end"].contains("field"));
    CHECK(line["end"].contains("city"));
  }
  const auto rec = http(server.port(), "GET", "/api/rooms/" + room + "/record");
  REQUIRE(rec.status == 200);
  const json record = json::parse(rec.body);
  CHECK(record["options"] == kBoth);
  CHECK(record["result"]["final_scores"] == result["final_scores"]);
  // The rematch keeps the options.
  peers[0]->send({{"type", "rematch"}});
  const json to_alice = peers[0]->expect("rematch");
  Peer again(server.port(), to_alice["room"].get<std::string>());
  again.join_token(to_alice["token"].get<std::string>());
  CHECK(again.state()["settings"]["options"] == kBoth);
  CHECK(again.state()["phase"] == "lobby");
}

}  // namespace carc::test
