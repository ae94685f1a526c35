// One test per refusal: each gets its error code and changes nothing.
#include <thread>

#include <doctest/doctest.h>

#include "table.hpp"

namespace carc::test {

namespace {

json play_msg(std::int64_t version, const json& x, const json& y, const json& rotation, const json& meeple = nullptr) {
  return json{{"type", "play"}, {"version", version}, {"x", x}, {"y", y}, {"rotation", rotation}, {"meeple", meeple}};
}

// After a refusal nothing changed: no patch follows, and the state is as before.
void check_unchanged(Table& t, std::int64_t version) {
  for (Peer* p : t.all()) p->drain(30ms);
  for (Peer* p : t.all()) CHECK(p->version() == version);
}

struct Started {
  ServerProcess server;
  Table t{server, 2, true};
  Started() { t.start(); }
};

}  // namespace

TEST_CASE("malformed JSON gets bad_json") {
  Started s;
  const auto v = s.t.max_version();
  s.t.players[0]->send_raw("{\"type\": \"play\", ");
  CHECK(s.t.players[0]->expect_error() == "bad_json");
  s.t.players[0]->send_raw("");
  CHECK(s.t.players[0]->expect_error() == "bad_json");
  check_unchanged(s.t, v);
}

TEST_CASE("wrong field types get bad_message") {
  Started s;
  Peer& p = s.t.current();
  const auto v = s.t.max_version();
  p.send(play_msg(p.version(), "1", 0, 0));
  CHECK(p.expect_error() == "bad_message");
  p.send(play_msg(p.version(), 1.5, 0, 0));
  CHECK(p.expect_error() == "bad_message");
  p.send(play_msg(p.version(), 1, 0, 0, 7));
  CHECK(p.expect_error() == "bad_message");
  p.send({{"type", "play"}, {"x", 1}, {"y", 0}, {"rotation", 0}});
  CHECK(p.expect_error() == "bad_message");
  p.send({{"type", "chat"}, {"text", 42}});
  CHECK(p.expect_error() == "bad_message");
  p.send({{"type", 3}});
  CHECK(p.expect_error() == "bad_message");
  p.send(json::array({1, 2}));
  CHECK(p.expect_error() == "bad_message");
  p.send({{"type", "join"}, {"token", 12}});
  CHECK(p.expect_error() == "bad_message");
  check_unchanged(s.t, v);
}

TEST_CASE("an unknown type gets bad_message") {
  Started s;
  const auto v = s.t.max_version();
  s.t.players[1]->send({{"type", "dance"}});
  CHECK(s.t.players[1]->expect_error() == "bad_message");
  check_unchanged(s.t, v);
}

TEST_CASE("an oversized frame is refused (close 1009) and the seat stays the player's") {
  Started s;
  const std::string token = s.t.players[1]->token();
  s.t.players[1]->send({{"type", "chat"}, {"text", std::string(5000, 'x')}});
  while (s.t.players[1]->next(3000ms)) {
  }
  CHECK(s.t.players[1]->closed());
  CHECK(s.t.players[1]->close_code() == 1009);
  s.t.players[0]->expect("patch");  // seat 1 disconnected
  CHECK(s.t.players[0]->state()["players"][1]["connected"] == false);
  Peer back(s.server.port(), s.t.room);
  CHECK(back.join_token(token)["seat"] == 1);
  const auto metrics = http(s.server.port(), "GET", "/metrics").body;
  CHECK(metrics.find("carc_refused_requests_total{code=\"too_large\"} 1") != std::string::npos);
}

TEST_CASE("a flood gets rate_limited, and the connection keeps working afterwards") {
  Started s;
  Peer& p = *s.t.spectator;
  for (int i = 0; i < 150; ++i) p.send({{"type", "resync"}});
  int states = 0;
  int limited = 0;
  while (auto msg = p.next(500ms)) {
    if ((*msg)["type"] == "state") ++states;
    if ((*msg)["type"] == "error") {
      CHECK((*msg)["code"] == "rate_limited");
      ++limited;
    }
  }
  // Every message over the budget is refused; one rate_limited answer waits to go out at a
  // time, so a flood not yet read gets fewer answers than messages, and never none.
  CHECK(states >= 50);
  CHECK(limited > 0);
  CHECK(states + limited <= 150);
  CHECK(states + metric(s.server.port(), "carc_refused_requests_total{code=\"rate_limited\"}") == 150);
  std::this_thread::sleep_for(200ms);
  p.send({{"type", "resync"}});
  CHECK(p.expect("state")["version"] == p.version());
}

TEST_CASE("a play before joining gets not_joined; so does a spectator's") {
  Started s;
  Peer stranger(s.server.port(), s.t.room);
  const auto v = s.t.max_version();
  stranger.send(play_msg(v, 1, 0, 0));
  CHECK(stranger.expect_error() == "not_joined");
  s.t.spectator->send(play_msg(v, 1, 0, 0));
  CHECK(s.t.spectator->expect_error() == "not_joined");
  stranger.send({{"type", "chat"}, {"text", "hello"}});
  CHECK(stranger.expect_error() == "not_joined");
  check_unchanged(s.t, v);
}

TEST_CASE("a play out of turn, or for the seat whose turn it is, gets not_your_turn") {
  Started s;
  Peer& mover = s.t.current();
  Peer& other = *s.t.players[mover.seat() == 0 ? 1 : 0];
  const json& legal = mover.state()["turn"]["legal"][0];
  const auto v = s.t.max_version();
  other.send(play_msg(other.version(), legal["x"], legal["y"], legal["rotation"]));
  CHECK(other.expect_error() == "not_your_turn");
  check_unchanged(s.t, v);
}

TEST_CASE("a play on a stale version gets stale_version; chat and connection flags never make it stale") {
  Started s;
  Rng rng(5);
  // Decided on version v0, then the game changed: stale.
  Peer& first = s.t.current();
  const auto v0 = first.version();
  s.t.play_random(rng);
  Peer& second = s.t.current();
  REQUIRE(&second != &first);
  const json legal = second.state()["turn"]["legal"][0];
  second.send(play_msg(v0, legal["x"], legal["y"], legal["rotation"]));
  CHECK(second.expect_error() == "stale_version");
  check_unchanged(s.t, s.t.max_version());

  // Decided on v1; then only chat, a spectator and a connection flag change: still valid.
  const auto v1 = second.version();
  first.send({{"type", "chat"}, {"text", "thinking..."}});
  first.expect("patch");
  Peer late(s.server.port(), s.t.room);
  late.watch();
  late.close();
  second.catch_up(v1 + 3);  // chat, a spectator in, the spectator out
  second.send(play_msg(v1, legal["x"], legal["y"], legal["rotation"]));
  const json patch = second.expect("patch");
  CHECK(patch["version"] == second.version());
  s.t.sync();
  CHECK(s.t.players[0]->state()["events"].back()["type"].is_string());
}

TEST_CASE("an illegal cell or rotation gets illegal_placement") {
  Started s;
  Peer& p = s.t.current();
  const auto v = s.t.max_version();
  const json& legal = p.state()["turn"]["legal"][0];
  p.send(play_msg(p.version(), 40, 40, 0));  // touches nothing
  CHECK(p.expect_error() == "illegal_placement");
  p.send(play_msg(p.version(), 0, 0, 0));  // the start tile's cell
  CHECK(p.expect_error() == "illegal_placement");
  p.send(play_msg(p.version(), legal["x"], legal["y"], 45));
  CHECK(p.expect_error() == "illegal_placement");
  p.send(play_msg(p.version(), 1LL << 40, 0, 0));
  CHECK(p.expect_error() == "illegal_placement");
  // A rotation that is not in the legal list for that cell, if there is one.
  for (const auto& l : p.state()["turn"]["legal"]) {
    bool found = false;
    for (int r : {0, 90, 180, 270}) {
      found = std::any_of(p.state()["turn"]["legal"].begin(), p.state()["turn"]["legal"].end(), [&](const json& o) {
        return o["x"] == l["x"] && o["y"] == l["y"] && o["rotation"] == r;
      });
      if (!found) {
        p.send(play_msg(p.version(), l["x"], l["y"], r));
        CHECK(p.expect_error() == "illegal_placement");
        break;
      }
    }
    if (!found) break;
  }
  check_unchanged(s.t, v);
}

TEST_CASE("an illegal meeple gets illegal_meeple, including on an occupied feature") {
  Started s;
  Rng rng(17);
  // Not a port of any feature of this tile, or not a port at all.
  {
    Peer& p = s.t.current();
    const json& legal = p.state()["turn"]["legal"][0];
    const auto v = s.t.max_version();
    p.send(play_msg(p.version(), legal["x"], legal["y"], legal["rotation"], "Q"));
    CHECK(p.expect_error() == "illegal_meeple");
    const Tile tile = *tile_from_name(p.state()["turn"]["tile"].get<std::string>());
    const bool monastery = tile_def(tile).segments[0].kind == Kind::Monastery;
    if (!monastery) {
      p.send(play_msg(p.version(), legal["x"], legal["y"], legal["rotation"], "C"));
      CHECK(p.expect_error() == "illegal_meeple");
    }
    check_unchanged(s.t, v);
  }
  // Play with meeples until a legal placement touches a feature that holds one; a meeple
  // on that feature must be refused.
  bool tested = false;
  for (int turn = 0; turn < 70 && !tested && !s.t.finished(); ++turn) {
    Peer& p = s.t.current();
    const json turn_state = p.state()["turn"];
    const Tile tile = *tile_from_name(turn_state["tile"].get<std::string>());
    const int seat = *p.seat();
    if (p.state()["players"][seat]["meeples"].get<int>() > 0) {
      for (const auto& l : turn_state["legal"]) {
        const auto rot = *Rotation::from_degrees(l["rotation"].get<int>());
        const TileDef& def = tile_def(tile);
        for (int f = 0; f < def.segment_count && !tested; ++f) {
          std::vector<std::string> ports;
          for (int k = 0; k < kPortCount; ++k) {
            if ((def.segments[static_cast<std::size_t>(f)].ports >> k) & 1) {
              ports.emplace_back(port_name(rotate(static_cast<Port>(k), rot)));
            }
          }
          const bool offered = std::any_of(ports.begin(), ports.end(), [&](const std::string& port) {
            return std::find(l["meeples"].begin(), l["meeples"].end(), json(port)) != l["meeples"].end();
          });
          if (!offered) {
            const auto v = s.t.max_version();
            p.send(play_msg(p.version(), l["x"], l["y"], l["rotation"], ports.front()));
            CHECK(p.expect_error() == "illegal_meeple");
            check_unchanged(s.t, v);
            tested = true;
          }
        }
        if (tested) break;
      }
    }
    // A meeple on every turn where possible, to occupy features quickly.
    const json& pick = turn_state["legal"][rng.below(static_cast<std::uint32_t>(turn_state["legal"].size()))];
    const json meeple = pick["meeples"].empty() ? json(nullptr) : pick["meeples"][0];
    p.send(play_msg(p.version(), pick["x"], pick["y"], pick["rotation"], meeple));
    p.expect("patch");
    s.t.sync();
  }
  CHECK(tested);
}

TEST_CASE("start: not by a guest, not with one player, not twice") {
  ServerProcess server;
  const std::string room = create_room(server.port());
  Peer a(server.port(), room);
  a.join("Alice");
  a.send({{"type", "start"}});
  CHECK(a.expect_error() == "not_enough_players");
  Peer b(server.port(), room);
  b.join("Bob");
  a.catch_up(b.version());
  b.send({{"type", "start"}});
  CHECK(b.expect_error() == "not_host");
  Peer c(server.port(), room);
  c.send({{"type", "start"}});
  CHECK(c.expect_error() == "not_joined");
  a.drain(30ms);
  b.drain(30ms);
  CHECK(a.state()["phase"] == "lobby");
  CHECK(a.version() == b.version());
  a.send({{"type", "start"}});
  a.expect("patch");
  CHECK(a.state()["phase"] == "playing");
}

TEST_CASE("a token that matches no seat gets bad_token") {
  Started s;
  Peer p(s.server.port(), s.t.room);
  const auto v = s.t.max_version();
  for (const std::string& token : {std::string("nope"), std::string(), std::string(32, 'A'),
                                   s.t.players[0]->token() + "x"}) {
    p.send({{"type", "join"}, {"token", token}});
    CHECK(p.expect_error() == "bad_token");
  }
  // A seat token of another room is no token here.
  Table other(s.server, 2);
  p.send({{"type", "join"}, {"token", other.players[0]->token()}});
  CHECK(p.expect_error() == "bad_token");
  check_unchanged(s.t, v);
}

TEST_CASE("a bad name gets bad_message") {
  ServerProcess server;
  const std::string room = create_room(server.port());
  Peer p(server.port(), room);
  for (const json& name : {json(""), json("   "), json(std::string(25, 'n')), json("a\u0001b"), json("tab\there"),
                           json("line\nbreak"), json(nullptr)}) {
    INFO("name: " << name.dump());
    p.send({{"type", "join"}, {"name", name}});
    CHECK(p.expect_error() == "bad_message");
  }
  // 24 characters (not bytes) is fine.
  CHECK(p.join("ÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉ")["seat"] == 0);
  // A text frame that is not UTF-8 breaks the WebSocket protocol itself: closed with 1007.
  Peer q(server.port(), room);
  q.send_raw(std::string("{\"type\":\"join\",\"name\":\"\xff\xfe\"}"));
  while (q.next(2000ms)) {
  }
  CHECK(q.closed());
  CHECK(q.close_code() == 1007);
}

TEST_CASE("chat longer than 280 characters gets bad_message") {
  Started s;
  s.t.players[0]->send({{"type", "chat"}, {"text", std::string(281, 'c')}});
  CHECK(s.t.players[0]->expect_error() == "bad_message");
  s.t.players[0]->send({{"type", "chat"}, {"text", ""}});
  CHECK(s.t.players[0]->expect_error() == "bad_message");
  std::string smileys;
  for (int i = 0; i < 280; ++i) smileys += "☺";  // 840 bytes, 280 characters
  s.t.players[0]->send({{"type", "chat"}, {"text", smileys}});
  s.t.players[0]->expect("patch");
}

TEST_CASE("a client that stops reading is disconnected, not buffered without bound") {
  ServerProcess server({"--max-queue", "8", "--max-queue-bytes", "65536", "--rate", "100000", "--burst", "100000"});
  Table t(server, 2);
  t.start();
  // The slow client watches, then asks for many full states and never reads them (some
  // 8 MB, far more than the kernel's socket buffers hold: refusals alone, a few dozen
  // bytes each, could all fit in them).
  Peer slow(server.port(), t.room);
  slow.watch();
  for (int i = 0; i < 4000; ++i) slow.send_raw(R"({"type":"resync"})");
  std::string metrics;
  for (int i = 0; i < 50; ++i) {
    metrics = http(server.port(), "GET", "/metrics").body;
    if (metrics.find("carc_slow_clients_dropped_total 1") != std::string::npos) break;
    std::this_thread::sleep_for(100ms);
  }
  CHECK(metrics.find("carc_slow_clients_dropped_total 1") != std::string::npos);
}

TEST_CASE("a WebSocket to an unknown room is answered 404 before the upgrade") {
  ServerProcess server;
  CHECK_THROWS(Peer(server.port(), "doesnotexist00"));
  const auto r = http(server.port(), "GET", "/ws/doesnotexist00",
                      {}, {{"Upgrade", "websocket"}, {"Connection", "Upgrade"}, {"Sec-WebSocket-Version", "13"},
                           {"Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="}});
  CHECK(r.status == 404);
  CHECK(http(server.port(), "GET", "/api/rooms/doesnotexist00").status == 404);
  CHECK(http(server.port(), "GET", "/api/rooms/doesnotexist00/record").status == 404);
}

}  // namespace carc::test
