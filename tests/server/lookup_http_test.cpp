// Lookups of unknown rooms over HTTP and WebSocket upgrades (docs/configuration.md), against the real
// server: the address's budgets are charged before any storage work, a miss asked again
// costs no storage, and a flood is answered 404 or 429, never 5xx.
#include <map>

#include <doctest/doctest.h>

#include "harness.hpp"

namespace carc::test {

namespace {

std::string unknown_id(int i) { return "NoSuchRoom" + std::to_string(100000 + i); }

const std::vector<std::pair<std::string, std::string>> kUpgrade = {
    {"Upgrade", "websocket"}, {"Connection", "Upgrade"}, {"Sec-WebSocket-Version", "13"},
    {"Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="}};

}  // namespace

TEST_CASE("a missing room asked for again is answered without storage") {
  ServerProcess server({"--lookup-rate", "0.01", "--lookup-burst", "3"});
  const int port = server.port();
  for (int i = 0; i < 30; ++i) {
    CHECK(http(port, "GET", "/api/rooms/" + unknown_id(0)).status == 404);
    CHECK(http(port, "GET", "/api/rooms/" + unknown_id(0) + "/record").status == 404);
  }
  CHECK(metric(port, "carc_room_lookups_storage_total") == 1);  // before: 60 storage tasks
  CHECK(metric(port, "carc_room_lookups_remembered_total") >= 59);
  // A room that exists is never charged: its lookups are in memory.
  const std::string room = create_room(port);
  for (int i = 0; i < 10; ++i) CHECK(http(port, "GET", "/api/rooms/" + room).status == 200);
  CHECK(metric(port, "carc_rate_limited_total{what=\"lookup\"}") == 0);
}

TEST_CASE("a flood of unknown rooms from one address is refused with 429 before storage") {
  ServerProcess server({"--lookup-rate", "1", "--lookup-burst", "5"});
  const int port = server.port();
  std::map<int, int> statuses;
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < 24; ++i) {
    const auto r = http(port, "GET", "/api/rooms/" + unknown_id(i) + (i % 2 ? "/record" : ""));
    ++statuses[r.status];
    if (r.status == 429) {
      CHECK(!r.header("Retry-After").empty());
      CHECK(json::parse(r.body)["error"] == "rate_limited");
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const long budget = 5 + static_cast<long>(seconds) + 1;  // the burst, then one a second
  // Each refusal was answered after a pause (at most 0.25 s): a flood gets a few answers a
  // second per connection.
  CHECK(seconds >= 0.1 * statuses[429]);
  CHECK(statuses.size() <= 2);
  CHECK(statuses[404] >= 5);
  CHECK(statuses[404] <= budget);
  CHECK(statuses[429] == 24 - statuses[404]);
  CHECK(metric(port, "carc_room_lookups_storage_total") == statuses[404]);  // before: 24, and no 429
  CHECK(http(port, "GET", "/healthz").status == 200);
}

TEST_CASE("WebSocket upgrades are charged before the room is looked up") {
  // Before, the upgrade budget was taken only once the room was found: upgrades to
  // unknown rooms were never limited, and each one asked storage.
  ServerProcess server({"--ws-rate", "0.01", "--ws-burst", "3"});
  const int port = server.port();
  std::map<int, int> statuses;
  for (int i = 0; i < 10; ++i) ++statuses[http(port, "GET", "/ws/" + unknown_id(i), {}, kUpgrade).status];
  CHECK(statuses[404] == 3);
  CHECK(statuses[429] == 7);
  CHECK(metric(port, "carc_room_lookups_storage_total") == 3);
  CHECK(metric(port, "carc_rate_limited_total{what=\"upgrade\"}") == 7);
}

}  // namespace carc::test
