// Inns & Cathedrals and Traders & Builders in rooms (docs/expansions/, "On the wire" of
// each page), against the real server: six seats with inns (pink), the lobby's refusals,
// every special figure offered and refused over the protocol, a builder's two-part turn
// over WebSockets with a reconnect and a crash between the parts (SQLite), and a six-player
// game with all four expansions to the end, its breakdown, its record and its rematch.
#include <doctest/doctest.h>

#include <set>

#include "carc/protocol/record.hpp"
#include "table.hpp"

namespace carc::test {

namespace {

const json kAll = json::array({"river", "abbot", "inns", "traders"});

std::string room_with(int port, const json& expansions) {
  const auto r = http(port, "POST", "/api/rooms", json{{"expansions", expansions}}.dump());
  REQUIRE(r.status == 201);
  return json::parse(r.body)["room"].get<std::string>();
}

void add_bots(Peer& host, int n) {
  for (int i = 0; i < n; ++i) {
    host.send({{"type", "add_bot"}, {"level", "easy"}});
    host.expect("patch");
  }
}

// The cell of `seat`'s builder on the board, if it stands there.
std::optional<std::pair<int, int>> builder_cell(const json& s, int seat) {
  for (const json& t : s["board"]) {
    const json& m = t["meeple"];
    if (!m.is_null() && m["seat"] == seat && m.value("figure", "") == "builder") return std::pair<int, int>{t["x"], t["y"]};
  }
  return std::nullopt;
}

// A play for the current seat that seeks its builder's extra part: the builder where it may
// go, else a placement next to its builder, else a random one with a meeple now and then.
json builder_seeking_play(const json& s, Rng& rng, std::int64_t version) {
  const int seat = s["turn"]["seat"];
  const json& legal = s["turn"]["legal"];
  json msg{{"type", "play"}, {"version", version}};
  const auto place = [&](const json& e) {
    msg["x"] = e["x"];
    msg["y"] = e["y"];
    msg["rotation"] = e["rotation"];
  };
  for (const json& e : legal) {
    if (!e["figures"]["builder"].empty()) {
      place(e);
      msg["meeple"] = e["figures"]["builder"][0];
      msg["figure"] = "builder";
      return msg;
    }
  }
  if (const auto b = builder_cell(s, seat)) {
    for (const json& e : legal) {
      if (std::abs(e["x"].get<int>() - b->first) + std::abs(e["y"].get<int>() - b->second) == 1) {
        place(e);
        return msg;
      }
    }
  }
  const json& e = legal[rng.below(static_cast<std::uint32_t>(legal.size()))];
  place(e);
  if (!e["meeples"].empty() && rng.below(2) == 0) msg["meeple"] = e["meeples"][0];
  return msg;
}

}  // namespace

TEST_CASE("inns give rooms a sixth seat (pink); without inns five; refusals change nothing") {
  ServerProcess server;
  CHECK(http(server.port(), "POST", "/api/rooms", json{{"expansions", kAll}}.dump()).status == 201);
  CHECK(http(server.port(), "POST", "/api/rooms", R"({"expansions":["inns","traders"]})").status == 201);
  const std::string room = create_room(server.port());
  Peer host(server.port(), room);
  host.join("Host");
  host.send({{"type", "start"}});
  CHECK(host.expect_error() == "not_enough_players");
  add_bots(host, 4);
  host.send({{"type", "add_bot"}, {"level", "easy"}});
  CHECK(host.expect_error() == "room_full");
  Peer late(server.port(), room);
  CHECK(late.join("Late")["seat"].is_null());  // five seated: a spectator
  CHECK(json::parse(http(server.port(), "GET", "/api/rooms/" + room).body)["seats"] == 5);
  // With inns: a sixth seat.
  host.send({{"type", "settings"}, {"expansions", json::array({"inns"})}});
  wait_for(host, [](const json& st) { return st["settings"]["expansions"] == json::array({"inns"}); }, 10s);
  Peer sixth(server.port(), room);
  CHECK(json::parse(http(server.port(), "GET", "/api/rooms/" + room).body)["seats"] == 6);  // the join dialog's count
  CHECK(sixth.join("Sixth")["seat"] == 5);
  host.catch_up(sixth.version());
  CHECK(host.state()["players"].size() == 6);
  CHECK(host.state()["players"][5]["color"] == "pink");
  CHECK(host.state()["players"][5]["figures"] == json{{"big", 1}});
  host.send({{"type", "add_bot"}, {"level", "easy"}});
  CHECK(host.expect_error() == "room_full");
  Peer seventh(server.port(), room);
  CHECK(seventh.join("Seventh")["seat"].is_null());
  // Leaving out inns with six seated: refused, nothing changes.
  host.drain();
  const auto v = host.version();
  for (const json& set : {json::array({"traders"}), json::array(), json::array({"river", "abbot", "traders"})}) {
    host.send({{"type", "settings"}, {"expansions", set}});
    CHECK(host.expect_error() == "bad_message");
  }
  host.drain();
  CHECK(host.version() == v);
  CHECK(host.state()["settings"]["expansions"] == json::array({"inns"}));
  // Traders beside inns: builder, pig and goods in the players' panels.
  host.send({{"type", "settings"}, {"expansions", json::array({"inns", "traders"})}});
  wait_for(host, [](const json& st) { return st["settings"]["expansions"].size() == 2; }, 10s);
  const json& p = host.state()["players"][2];
  CHECK(p["figures"] == json{{"big", 1}, {"builder", 1}, {"pig", 1}});
  CHECK(p["goods"] == json{{"wine", 0}, {"grain", 0}, {"cloth", 0}});
  host.send({{"type", "start"}});
  wait_for(host, [](const json& s) { return s["phase"] == "playing"; }, 10s);
  const json& turn = host.state()["turn"];
  if (!turn.is_null()) {
    CHECK(turn.contains("extra"));
    CHECK(turn["legal"][0]["figures"].contains("big"));
    CHECK(turn["legal"][0]["figures"].contains("builder"));
    CHECK(turn["legal"][0]["figures"].contains("pig"));
  }
}

TEST_CASE("figures over the protocol: every refusal code, in a base room and an inns + traders room") {
  ServerProcess server;
  {
    Table base(server, 2);
    base.start();
    Peer& p = base.current();
    const json& e = p.state()["turn"]["legal"][0];
    json msg{{"type", "play"}, {"version", p.version()}, {"x", e["x"]}, {"y", e["y"]}, {"rotation", e["rotation"]}};
    msg["meeple"] = "C";
    msg["figure"] = "big";
    p.send(msg);
    CHECK(p.expect_error() == "illegal_meeple");  // this game has no big meeple
    CHECK_FALSE(p.state()["turn"]["legal"][0].contains("figures"));
    CHECK_FALSE(p.state()["turn"].contains("extra"));
    CHECK_FALSE(p.state()["players"][0].contains("goods"));
  }
  const std::string room = room_with(server.port(), json::array({"inns", "traders"}));
  Peer alice(server.port(), room), bob(server.port(), room);
  alice.join("Alice");
  bob.join("Bob");
  alice.send({{"type", "start"}});
  wait_for(alice, [](const json& s) { return s["phase"] == "playing"; }, 10s);
  bob.catch_up(alice.version());
  Peer& p = alice.state()["turn"]["seat"] == 0 ? alice : bob;
  p.catch_up(alice.version());
  const json legal = p.state()["turn"]["legal"];
  const json& e = legal[0];
  json msg{{"type", "play"}, {"version", p.version()}, {"x", e["x"]}, {"y", e["y"]}, {"rotation", e["rotation"]}};
  const auto refused = [&](json m, const char* code) {
    p.send(m);
    CHECK(p.expect_error() == code);
  };
  json m = msg;
  m["figure"] = "big";
  refused(m, "bad_message");  // no meeple port
  m["meeple"] = nullptr;
  refused(m, "bad_message");
  m["meeple"] = "C";
  m["figure"] = "giant";
  refused(m, "bad_message");  // unknown figure
  m["figure"] = "big";
  m["return"] = {{"x", 0}, {"y", 0}};
  refused(m, "bad_message");  // a figure and an action together
  m = msg;
  m["meeple"] = "N";
  m["figure"] = "abbot";
  refused(m, "illegal_meeple");  // a figure this game lacks
  // The builder and the pig go only beside their owner's follower: nobody has one yet.
  for (const json& l : legal) {
    CHECK(l["figures"]["builder"].empty());
    CHECK(l["figures"]["pig"].empty());
    CHECK(l["figures"]["big"] == l["meeples"]);
  }
  if (!e["meeples"].empty()) {
    m = msg;
    m["meeple"] = e["meeples"][0];
    m["figure"] = "builder";
    refused(m, "illegal_meeple");
    m["figure"] = "pig";
    refused(m, "illegal_meeple");
  }
  // The big meeple goes; the board shows it; the supply says 0; a second one is refused.
  json pick;
  for (const json& l : legal) {
    if (!l["figures"]["big"].empty()) pick = l;
  }
  REQUIRE(!pick.is_null());
  m = json{{"type", "play"}, {"version", p.version()}, {"x", pick["x"]}, {"y", pick["y"]},
           {"rotation", pick["rotation"]}, {"meeple", pick["figures"]["big"][0]}, {"figure", "big"}};
  const int seat = p.state()["turn"]["seat"];
  p.send(m);
  p.expect("patch");
  const json& board = p.state()["board"];
  CHECK(board[board.size() - 1]["meeple"]["figure"] == "big");
  const json& mover = p.state()["players"][seat];
  CHECK(mover["figures"]["big"] == 0);
  const json& placed = p.state()["events"][p.state()["events"].size() - 1];
  (void)placed;
  bool event_figure = false;
  for (const json& ev : p.state()["events"]) event_figure |= ev["type"] == "placed" && ev.value("figure", "") == "big";
  CHECK(event_figure);
}

TEST_CASE("a builder's two-part turn over WebSockets, with a reconnect and a crash between the parts") {
  ServerProcess server;
  Rng rng(33);
  bool seen = false;
  for (int game = 0; game < 4 && !seen; ++game) {
    const std::string room = room_with(server.port(), json::array({"traders"}));
    std::vector<std::unique_ptr<Peer>> peers;
    std::vector<std::string> tokens;
    for (const char* name : {"Alice", "Bob"}) {
      peers.push_back(std::make_unique<Peer>(server.port(), room));
      peers.back()->join(name);
      tokens.push_back(peers.back()->token());
    }
    peers[0]->send({{"type", "settings"}, {"turn_seconds", 600}});
    peers[0]->expect("patch");
    peers[0]->send({{"type", "start"}});
    wait_for(*peers[0], [](const json& st) { return st["phase"] == "playing"; }, 10s);
    for (auto& p : peers) p->catch_up(peers[0]->version());
    while (!seen && peers[0]->state()["phase"] == "playing") {
      const json s = peers[0]->state();
      Peer& me = *peers[s["turn"]["seat"].get<std::size_t>()];
      me.catch_up(peers[0]->version());
      const int number = s["turn"]["number"];
      const auto v1 = me.version();
      me.send(builder_seeking_play(s, rng, v1));
      const json patch = me.expect("patch");
      for (auto& p : peers) p->catch_up(me.version());
      const json mid = me.state();
      if (mid["phase"] != "playing" || mid["turn"]["extra"] != true) continue;
      seen = true;
      const int seat = mid["turn"]["seat"];
      CHECK(seat == s["turn"]["seat"]);
      CHECK(mid["turn"]["number"] == number);
      CHECK(mid["turn"]["tile"] == mid["players"][seat]["tile"]);
      // The extra part's clock starts at part 1's move (builder_room_test pins it exactly).
      CHECK(mid["turn"]["deadline"].get<std::int64_t>() >= s["turn"]["deadline"].get<std::int64_t>());
      // Part 1 and the extra tile came in one patch.
      REQUIRE(patch["version"] == v1 + 1);
      bool extra_event = false;
      for (const json& op : patch["ops"]) extra_event |= op["op"] == "add" && op["value"].is_object() && op["value"].value("type", "") == "extra";
      CHECK(extra_event);
      // The part-1 version is stale.
      json stale = builder_seeking_play(mid, rng, v1);
      me.send(stale);
      CHECK(me.expect_error() == "stale_version");
      // A reconnect between the parts sees the extra part.
      auto back = std::make_unique<Peer>(server.port(), room);
      back->join_token(tokens[static_cast<std::size_t>(seat)]);
      CHECK(back->state()["turn"] == mid["turn"]);
      // A crash between the parts: the stored move restores the extra part.
      server.crash_and_restart();
      auto again = std::make_unique<Peer>(server.port(), room);
      again->join_token(tokens[static_cast<std::size_t>(seat)]);
      const json restored = again->state();
      CHECK(restored["turn"]["extra"] == true);
      CHECK(restored["turn"]["seat"] == seat);
      CHECK(restored["turn"]["number"] == number);
      CHECK(restored["turn"]["tile"] == mid["turn"]["tile"]);
      CHECK(restored["turn"]["legal"] == mid["turn"]["legal"]);
      CHECK(restored["board"] == mid["board"]);
      CHECK(restored["players"][seat]["figures"] == mid["players"][seat]["figures"]);
      again->send(builder_seeking_play(restored, rng, again->version()));
      again->expect("patch");
      const json after = again->state();
      if (after["phase"] == "playing") {
        CHECK(after["turn"]["extra"] == false);
        CHECK(after["turn"]["number"] == number + 1);
      }
      const auto rec = http(server.port(), "GET", "/api/rooms/" + room + "/record");
      REQUIRE(rec.status == 200);
      const json record = json::parse(rec.body);
      CHECK(record["moves"][record["moves"].size() - 1]["extra"] == true);
      auto parsed = protocol::parse_record(record);
      REQUIRE(std::holds_alternative<protocol::Record>(parsed));
      CHECK(std::holds_alternative<json>(protocol::replay(std::get<protocol::Record>(parsed))));
    }
  }
  CHECK(seen);
}

TEST_CASE("a six-player game with all four expansions to the end: figures, goods, breakdown, record, rematch") {
  ServerProcess server;
  const std::string room = room_with(server.port(), kAll);
  Peer alice(server.port(), room);
  alice.join("Alice");
  add_bots(alice, 5);
  alice.send({{"type", "start"}});
  wait_for(alice, [](const json& s) { return s["phase"] != "lobby"; }, 10s);
  Rng rng(6);
  std::set<std::string> figures_played;
  for (int turn = 0; turn < 400; ++turn) {
    wait_for(alice, [](const json& s) { return s["phase"] == "finished" || s["turn"]["seat"] == 0; }, 60s);
    const json s = alice.state();
    if (s["phase"] == "finished") break;
    const json& legal = s["turn"]["legal"];
    REQUIRE(!legal.empty());
    json msg = builder_seeking_play(s, rng, alice.version());
    if (!msg.contains("figure")) {
      // Now and then each special figure where the state offers it.
      for (const char* f : {"big", "pig", "abbot"}) {
        for (const json& e : legal) {
          if (msg.contains("figure") || e["figures"][f].empty() || rng.below(2) == 0) continue;
          msg = json{{"type", "play"}, {"version", alice.version()}, {"x", e["x"]}, {"y", e["y"]},
                     {"rotation", e["rotation"]}, {"meeple", e["figures"][f][0]}, {"figure", f}};
        }
      }
    }
    if (msg.contains("figure")) figures_played.insert(msg["figure"].get<std::string>());
    alice.send(msg);
    alice.expect("patch");
  }
  REQUIRE(alice.state()["phase"] == "finished");
  MESSAGE("figures the human placed: " << figures_played.size());
  CHECK(figures_played.count("big") == 1);
  const json state = alice.state();
  CHECK(state["players"].size() == 6);
  const json& b = state["result"]["breakdown"][5];
  for (const char* k : {"inn", "cathedral"}) {
    CHECK(b["game"].contains(k));
    CHECK(b["end"].contains(k));
  }
  CHECK(b["end"].contains("pig"));
  CHECK(b["end"].contains("goods"));
  for (std::size_t s = 0; s < 6; ++s) CHECK(state["result"]["breakdown"][s]["total"] == state["result"]["final_scores"][s]);
  int goods_events = 0, goods_held = 0;
  for (const json& e : state["events"]) goods_events += e["type"] == "goods" ? 1 : 0;
  for (const json& p : state["players"]) {
    for (const auto& [k, n] : p["goods"].items()) goods_held += n.get<int>();
  }
  CHECK(goods_events > 0);
  CHECK(goods_held > 0);
  const auto rec = http(server.port(), "GET", "/api/rooms/" + room + "/record");
  const json record = json::parse(rec.body);
  CHECK(record["players"] == 6);
  auto parsed = protocol::parse_record(record);
  REQUIRE(std::holds_alternative<protocol::Record>(parsed));
  auto replayed = protocol::replay(std::get<protocol::Record>(parsed));
  REQUIRE(std::holds_alternative<json>(replayed));
  CHECK(std::get<json>(replayed)["final_scores"] == state["result"]["final_scores"]);
  // The rematch keeps all six seats.
  alice.send({{"type", "rematch"}});
  const json r = alice.expect("rematch");
  Peer again(server.port(), r["room"]);
  again.join_token(r["token"]);
  CHECK(again.state()["players"].size() == 6);
  CHECK(again.state()["settings"]["expansions"] == kAll);
}

}  // namespace carc::test
