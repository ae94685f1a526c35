// Turn-based rooms end to end (docs/turn-based.md): the real server, a bank that runs out while
// the server is down and while the room is out of memory. Banks last an hour at least, so
// each run of the server is started "later" with CARC_TEST_CLOCK_OFFSET_MS (a test-only
// shift of the server's wall clock); the deadlines themselves are the server's.
#include <doctest/doctest.h>

#include <chrono>
#include <memory>
#include <string>
#include <thread>

#include "harness.hpp"
#include "helpers.hpp"

namespace fs = std::filesystem;
using namespace carc::test;

namespace {

std::int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

// The server started so that its clock reads `server_now` now.
std::unique_ptr<ServerProcess> start_at(const TempDir& dir, std::int64_t server_now, std::vector<std::string> args = {}) {
  const std::int64_t offset = server_now - now_ms();
  args.insert(args.end(), {"--room-ttl", "1", "--bot-threads", "1"});
  auto s = std::make_unique<ServerProcess>(dir.path() / "data", dir.path() / "server.log",
                                           std::map<std::string, std::string>{{"CARC_TEST_CLOCK_OFFSET_MS", std::to_string(offset)}},
                                           args, CARC_SERVER_TEST_BIN);
  REQUIRE(s->wait_ready());
  return s;
}

// The record's placements: its moves without the discards. The server's seed is random,
// and a tile with no legal placement (C, all city, beside four tiles) is discarded at the
// start of its holder's turn: a move of the record, but nobody's turn.
json placements(const json& record) {
  json out = json::array();
  for (const json& m : record["moves"]) {
    if (!m.value("discard", false)) out.push_back(m);
  }
  return out;
}

std::size_t count(const std::string& hay, const std::string& needle) {
  std::size_t n = 0;
  for (auto at = hay.find(needle); at != std::string::npos; at = hay.find(needle, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("turn-based: settings out of range are refused and change nothing") {
  TempDir dir;
  auto server = start_at(dir, now_ms());
  const auto reply = http_request(server->port(), http::verb::post, "/api/rooms", "{}");
  const std::string room = reply.json_body()["room"].get<std::string>();
  WsClient host(server->port(), room);
  host.send({{"type", "join"}, {"name", "Alice"}});
  host.expect("welcome");
  const json before = host.state["settings"];
  CHECK(before["pace"] == "live");
  CHECK(before["bank_seconds"] == 259200);
  CHECK(before["increment_seconds"] == 86400);
  CHECK(before["webhook"] == false);
  for (const json& bad : {json{{"type", "settings"}, {"pace", "slow"}}, json{{"type", "settings"}, {"bank_seconds", 3599}},
                          json{{"type", "settings"}, {"bank_seconds", 2592001}},
                          json{{"type", "settings"}, {"increment_seconds", -1}},
                          json{{"type", "settings"}, {"increment_seconds", 604801}},
                          json{{"type", "settings"}, {"bank_seconds", "3600"}},
                          json{{"type", "settings"}, {"bank_seconds", nullptr}}}) {
    host.send(bad);
    const json e = host.read();
    CHECK(e["type"] == "error");
    CHECK(e["code"] == "bad_message");
    CHECK(!e["message"].get<std::string>().empty());
  }
  host.send({{"type", "resync"}});
  host.expect("state");
  CHECK(host.state["settings"] == before);
}

TEST_CASE("turn-based: a bank runs out while the server is down, then while the room is out of memory") {
  TempDir dir;
  std::string room;
  std::string bob_token;
  std::int64_t deadline1 = 0;
  {
    auto server = start_at(dir, now_ms());
    room = http_request(server->port(), http::verb::post, "/api/rooms", "{}").json_body()["room"].get<std::string>();
    WsClient alice(server->port(), room);
    alice.send({{"type", "join"}, {"name", "Alice"}});
    alice.expect("welcome");
    WsClient bob(server->port(), room);
    bob.send({{"type", "join"}, {"name", "Bob"}});
    bob.expect("welcome");
    bob_token = bob.token;
    alice.send({{"type", "settings"}, {"pace", "turn_based"}, {"bank_seconds", 3600}, {"increment_seconds", 7200}});
    while (alice.state["settings"]["pace"] != "turn_based") alice.read();
    CHECK(alice.state["settings"]["bank_seconds"] == 3600);
    CHECK(alice.state["settings"]["increment_seconds"] == 7200);
    alice.send({{"type", "start"}});
    while (alice.state["phase"] != "playing") alice.read();
    CHECK(alice.state["players"][0]["bank_ms"] == 3'600'000);
    CHECK(alice.state["players"][1]["bank_ms"] == 3'600'000);
    REQUIRE(alice.state["turn"]["seat"] == 0);
    const std::int64_t started_version = alice.version;
    std::mt19937 rng(7);
    alice.send(choose_play(alice.state, alice.version, rng));
    while (alice.version == started_version || alice.state["turn"]["seat"] != 1) alice.read();
    // Alice's bank: 3600 s less the seconds she took, plus 7200, capped at 3600.
    CHECK(alice.state["players"][0]["bank_ms"] == 3'600'000);
    deadline1 = alice.state["turn"]["deadline"].get<std::int64_t>();
    CHECK(deadline1 > now_ms() + 3'590'000);
    alice.close();
    bob.close();
    // The room leaves memory (no connection for --room-ttl) but stays stored.
    REQUIRE(wait_for_log(*server, "room " + room + ": expired", std::chrono::seconds(10)));
    server->kill(SIGKILL);
  }
  std::int64_t deadline2 = 0;
  {
    // Bob's bank ran out while the server was down: the start-up makes his move, once.
    auto server = start_at(dir, deadline1 + 5000);
    WsClient watcher(server->port(), room);
    watcher.send({{"type", "watch"}});
    watcher.expect("welcome");
    while (watcher.state["turn"].is_null() || watcher.state["turn"]["seat"] != 0) watcher.read();
    const json record = http_request(server->port(), http::verb::get, "/api/rooms/" + room + "/record").json_body();
    INFO("the record: " << record.dump());
    REQUIRE(placements(record).size() == 2);
    CHECK(placements(record)[1].value("auto", false));
    CHECK(watcher.state["players"][1]["away"] == true);
    CHECK(watcher.state["players"][1]["bank_ms"] == 3'600'000);  // starts again at the increment, capped
    deadline2 = watcher.state["turn"]["deadline"].get<std::int64_t>();
    CHECK(deadline2 >= deadline1 + 5000 + 3'590'000);
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    CHECK(count(server->log_text(), "a computer player makes seat 1's turn") == 1);
    watcher.close();
    server->kill(SIGTERM);
  }
  {
    // The next deadline comes while the room is out of memory: woken, its move made once,
    // within a few seconds of the deadline.
    const std::int64_t lead_ms = 8000;
    const std::int64_t real_deadline = now_ms() + lead_ms;
    // Where this run's log begins, taken before the start: the room may expire (after
    // --room-ttl) before this thread looks at the log again on a busy machine.
    const std::size_t from = fs::exists(dir.path() / "server.log") ? fs::file_size(dir.path() / "server.log") : 0;
    auto server = start_at(dir, deadline2 - lead_ms);
    REQUIRE(wait_for_log(*server, "room " + room + ": expired", std::chrono::milliseconds(lead_ms - 1000), from));
    REQUIRE(wait_for_log(*server, "a computer player makes seat 0's turn", std::chrono::milliseconds(lead_ms + 5000), from));
    const std::int64_t late = now_ms() - real_deadline;
    MESSAGE("the out-of-memory deadline fired " << late << " ms after it");
    CHECK(late >= 0);
    CHECK(late < 3000);
    CHECK(server->log_text().find("out of memory: loading it", from) != std::string::npos);
    // The game goes on: Bob takes his seat back and plays.
    WsClient bob(server->port(), room);
    bob.send({{"type", "join"}, {"token", bob_token}});
    bob.expect("welcome");
    while (bob.state["turn"]["seat"] != 1) bob.read();
    const json record = http_request(server->port(), http::verb::get, "/api/rooms/" + room + "/record").json_body();
    INFO("the record: " << record.dump());
    CHECK(placements(record).size() == 3);
    std::mt19937 rng(9);
    const std::int64_t v = bob.version;
    bob.send(choose_play(bob.state, bob.version, rng));
    while (bob.version == v || bob.state["turn"]["seat"] != 0) bob.read();
    CHECK(bob.state["players"][1]["away"] == false);
    CHECK(count(server->log_text().substr(from), "a computer player makes seat 0's turn") == 1);
  }
}
