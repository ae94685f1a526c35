// The Princess & the Dragon in rooms (docs/protocol.md, "The Princess & the Dragon"),
// against the real server: two players play the dragon's steps over the protocol, every
// refusal of the stage changes nothing, a crash and a reconnect mid-stage show whose step it
// is, a computer player makes its steps at once, and with turn_seconds each step has its own
// deadline.
#include <doctest/doctest.h>

#include <algorithm>
#include <set>
#include <thread>

#include "carc/protocol/record.hpp"
#include "table.hpp"

namespace carc::test {

namespace {

std::string princess_room(int port) {
  const auto r = http(port, "POST", "/api/rooms", R"({"expansions":["princess"]})");
  REQUIRE(r.status == 201);
  return json::parse(r.body)["room"].get<std::string>();
}

// A play for the current seat: a random placement, now and then with its meeple, the
// princess, the fairy or the portal when they are offered.
json some_play(const json& s, Rng& rng, std::int64_t version) {
  const json& turn = s["turn"];
  const json& legal = turn["legal"];
  const json& e = legal[rng.below(static_cast<std::uint32_t>(legal.size()))];
  json msg{{"type", "play"}, {"version", version}, {"x", e["x"]}, {"y", e["y"]}, {"rotation", e["rotation"]}};
  const auto pick = [&](const json& list) { return list[rng.below(static_cast<std::uint32_t>(list.size()))]; };
  switch (rng.below(5)) {
    case 0:
      if (!e["princess"].empty()) msg["princess"] = pick(e["princess"]);
      break;
    case 1:
      if (!turn["fairy"].empty()) msg["fairy"] = pick(turn["fairy"]);
      break;
    case 2:
      if (e.contains("portal") && !e["portal"].empty()) {
        const json& t = pick(e["portal"]);
        if (!t["meeples"].empty()) {
          msg["meeple"] = t["meeples"][0];
          msg["portal"] = json{{"x", t["x"]}, {"y", t["y"]}};
        }
      }
      break;
    default:
      if (!e["meeples"].empty()) msg["meeple"] = pick(e["meeples"]);
      break;
  }
  return msg;
}

}  // namespace

TEST_CASE("princess: two players step the dragon; refusals change nothing; a crash and a reconnect mid-stage") {
  ServerProcess server;
  const std::string room = princess_room(server.port());
  std::vector<std::unique_ptr<Peer>> peers;
  std::vector<std::string> tokens;
  for (const char* name : {"Ann", "Ben"}) {
    peers.push_back(std::make_unique<Peer>(server.port(), room));
    peers.back()->join(name);
    tokens.push_back(peers.back()->token());
  }
  auto watcher = std::make_unique<Peer>(server.port(), room);
  watcher->watch();
  const auto sync = [&] {
    std::int64_t v = 0;
    for (auto& p : peers) v = std::max(v, p->version());
    for (auto& p : peers) p->catch_up(v);
    watcher->catch_up(v);
  };
  sync();
  CHECK(peers[0]->state()["dragon"].is_null());
  CHECK(peers[0]->state()["fairy"].is_null());
  CHECK(peers[0]->state()["dragon_tiles_waiting"] == 12);
  CHECK(peers[0]->state()["board"][0]["meeples"] == json::array());
  peers[0]->send({{"type", "start"}});
  wait_for(*peers[0], [](const json& st) { return st["phase"] == "playing"; }, 10s);
  sync();
  // Outside the stage: a dragon message, and a play carrying steps, are malformed.
  {
    Peer& me = *peers[peers[0]->state()["turn"]["seat"].get<std::size_t>()];
    const auto v = me.version();
    me.send({{"type", "dragon"}, {"version", v}, {"to", {{"x", 0}, {"y", 0}}}});
    CHECK(me.expect_error() == "bad_message");
    const json& e = me.state()["turn"]["legal"][0];
    me.send({{"type", "play"}, {"version", v}, {"x", e["x"]}, {"y", e["y"]}, {"rotation", e["rotation"]}, {"dragon", json::array()}});
    CHECK(me.expect_error() == "bad_message");
    me.drain();
    CHECK(me.version() == v);
  }
  Rng rng(2024);
  int steps = 0, stages = 0;
  bool refusals = false, crashed = false;
  for (int guard = 0; guard < 3000 && peers[0]->state()["phase"] == "playing"; ++guard) {
    const json s = peers[0]->state();
    REQUIRE(s["turn"].contains("stage"));
    if (s["turn"]["stage"] != "dragon") {
      Peer& me = *peers[s["turn"]["seat"].get<std::size_t>()];
      me.send(some_play(s, rng, me.version()));
      me.expect("patch");
      sync();
      if (peers[0]->state()["turn"].is_object() && peers[0]->state()["turn"]["stage"] == "dragon") ++stages;
      continue;
    }
    const json dragon = s["turn"]["dragon"];
    const int seat = dragon["seat"];
    CHECK(s["turn"]["legal"].empty());
    CHECK(dragon["visited"].back() == s["dragon"]);
    REQUIRE_FALSE(dragon["options"].empty());
    if (!refusals) {
      refusals = true;
      Peer& actor = *peers[static_cast<std::size_t>(seat)];
      Peer& other = *peers[static_cast<std::size_t>(1 - seat)];
      const auto v = actor.version();
      const json before = actor.state();
      const json to = dragon["options"][0];
      other.send({{"type", "dragon"}, {"version", v}, {"to", to}});
      CHECK(other.expect_error() == "not_your_turn");
      watcher->send({{"type", "dragon"}, {"version", v}, {"to", to}});
      CHECK(watcher->expect_error() == "not_joined");
      actor.send({{"type", "dragon"}, {"version", v}, {"to", dragon["visited"][0]}});  // where it started
      CHECK(actor.expect_error() == "illegal_dragon");
      actor.send({{"type", "dragon"}, {"version", v}, {"to", {{"x", 500}, {"y", 500}}}});
      CHECK(actor.expect_error() == "illegal_dragon");
      actor.send({{"type", "dragon"}, {"version", v}});
      CHECK(actor.expect_error() == "bad_message");
      actor.send({{"type", "dragon"}, {"version", v}, {"to", {{"x", "1"}, {"y", 0}}}});
      CHECK(actor.expect_error() == "bad_message");
      actor.send({{"type", "dragon"}, {"version", 2}, {"to", to}});
      CHECK(actor.expect_error() == "stale_version");
      for (auto& p : peers) {  // nobody plays a tile during the stage, the placer included
        p->send({{"type", "play"}, {"version", p->version()}, {"x", 0}, {"y", 1}, {"rotation", 0}});
        CHECK(p->expect_error() == "not_your_turn");
      }
      for (auto& p : peers) p->drain();
      CHECK(actor.version() == v);
      CHECK(actor.state() == before);
    }
    if (!crashed && dragon["step"] == 1) {
      // A crash mid-stage: the stored moves give the same stage back, and a client taking
      // its seat back sees whose step it is.
      crashed = true;
      server.crash_and_restart();
      peers.clear();
      for (const std::string& t : tokens) {
        peers.push_back(std::make_unique<Peer>(server.port(), room));
        peers.back()->join_token(t);
      }
      watcher = std::make_unique<Peer>(server.port(), room);
      watcher->watch();
      sync();
      const json back = peers[static_cast<std::size_t>(1 - seat)]->state();
      CHECK(back["turn"]["stage"] == "dragon");
      CHECK(back["turn"]["dragon"] == dragon);
      CHECK(back["turn"]["seat"] == s["turn"]["seat"]);
      CHECK(back["board"] == s["board"]);
      continue;
    }
    Peer& actor = *peers[static_cast<std::size_t>(seat)];
    actor.drain();  // patches of connections (after the crash) are not the step's
    const auto v = actor.version();
    actor.send({{"type", "dragon"}, {"version", v}, {"to", dragon["options"][rng.below(static_cast<std::uint32_t>(dragon["options"].size()))]}});
    const json patch = actor.expect("patch");
    CHECK(patch["version"] == v + 1);  // one step, one patch
    actor.drain();
    CHECK(actor.version() == v + 1);
    bool step_event = false;
    for (const json& op : patch["ops"]) {
      step_event |= op["op"] == "add" && op["value"].is_object() && op["value"].value("type", "") == "dragon_step";
    }
    CHECK(step_event);
    sync();
    ++steps;
  }
  CHECK(peers[0]->state()["phase"] == "finished");
  CHECK(refusals);
  CHECK(crashed);
  CHECK(stages > 0);
  CHECK(steps > 0);
  // Both players stepped, and the state a late watcher gets is the one the patches built.
  std::set<int> steppers;
  for (const json& e : peers[0]->state()["events"]) {
    if (e["type"] == "dragon_step") steppers.insert(e["seat"].get<int>());
  }
  CHECK(steppers.size() == 2);
  Peer late(server.port(), room);
  late.watch();
  json a = peers[0]->state(), b = late.state();
  for (json* d : {&a, &b}) {
    d->erase("spectators");
    d->erase("players");
  }
  CHECK(a == b);
  // The room's record lists the steps in their placements' entries and replays.
  const auto rec = http(server.port(), "GET", "/api/rooms/" + room + "/record");
  REQUIRE(rec.status == 200);
  const json record = json::parse(rec.body);
  std::size_t recorded_steps = 0;
  for (const json& m : record["moves"]) recorded_steps += m.contains("dragon") ? m["dragon"].size() : 0;
  CHECK(recorded_steps == static_cast<std::size_t>(std::count_if(
                              a["events"].begin(), a["events"].end(), [](const json& e) { return e["type"] == "dragon_step"; })));
  auto parsed = protocol::parse_record(record);
  REQUIRE(std::holds_alternative<protocol::Record>(parsed));
  const auto replayed = protocol::replay(std::get<protocol::Record>(parsed));
  REQUIRE(std::holds_alternative<json>(replayed));
  CHECK(std::get<json>(replayed)["final_scores"] == a["result"]["final_scores"]);
  MESSAGE("dragon stages " << stages << ", steps " << steps);
}

TEST_CASE("princess: a computer player steps at once; each step has its own deadline, and a late step is made for its seat") {
  ServerProcess server;
  const std::string room = princess_room(server.port());
  Peer me(server.port(), room);
  me.join("Ann");
  me.send({{"type", "add_bot"}, {"level", "easy"}});
  me.expect("patch");
  me.send({{"type", "settings"}, {"turn_seconds", 10}, {"away_seconds", 5}});
  me.expect("patch");
  Peer watcher(server.port(), room);
  watcher.watch();
  me.send({{"type", "start"}});
  wait_for(me, [](const json& st) { return st["phase"] == "playing"; }, 10s);
  Rng rng(77);
  const auto mine = [](const json& st) {
    if (st["phase"] != "playing") return true;
    const json& t = st["turn"];
    return t["stage"] == "dragon" ? t["dragon"]["seat"] == 0 : t["seat"] == 0;
  };
  bool timed_out = false;
  std::int64_t last_deadline = 0;
  for (int guard = 0; guard < 3000 && !timed_out; ++guard) {
    wait_for(me, mine, 30s);  // the computer player places and steps by itself
    const json s = me.state();
    if (s["phase"] != "playing") break;
    const std::int64_t deadline = s["turn"]["deadline"];
    if (s["turn"]["stage"] != "dragon") {
      last_deadline = deadline;
      // A moment into the turn, so that a step's clock, which starts at the placement, ends
      // later than the placement's (the times are in milliseconds, and a loopback answer
      // can come within the same one).
      std::this_thread::sleep_for(20ms);
      me.send(some_play(s, rng, me.version()));
      me.expect("patch");
      continue;
    }
    // My step: a deadline of its own, later than the placement's; nobody steps for me
    // before it passes, and then a computer player does, once.
    CHECK(deadline > last_deadline);
    const json dragon = s["turn"]["dragon"];
    const auto steps_before = [&] {
      int n = 0;
      for (const json& e : me.state()["events"]) n += e["type"] == "dragon_step" ? 1 : 0;
      return n;
    };
    const int before = steps_before();
    std::this_thread::sleep_for(2s);
    me.drain();
    CHECK(me.state()["turn"]["dragon"] == dragon);
    wait_for(me, [&](const json& st) { return st["phase"] != "playing" || st["turn"].value("dragon", json()) != dragon; }, 30s);
    CHECK(steps_before() == before + 1);
    json last;
    for (const json& e : me.state()["events"]) {
      if (e["type"] == "dragon_step") last = e;
    }
    CHECK(last["seat"] == 0);
    CHECK(last["to"].is_object());
    CHECK(me.state()["players"][0]["away"] == true);
    timed_out = true;
  }
  REQUIRE(timed_out);
  // Gone for away_seconds, my turns and steps are made for me at once: the game runs to its end.
  me.close();
  wait_for(watcher, [](const json& st) { return st["phase"] == "finished"; }, 180s);
  int bot_steps = 0, my_auto_steps = 0;
  for (const json& e : watcher.state()["events"]) {
    bot_steps += e["type"] == "dragon_step" && e["seat"] == 1 ? 1 : 0;
    my_auto_steps += e["type"] == "dragon_step" && e["seat"] == 0 ? 1 : 0;
  }
  CHECK(bot_steps > 0);
  CHECK(my_auto_steps >= 1);
}

}  // namespace carc::test
