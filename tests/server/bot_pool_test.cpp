// The bot pool on the real server: the computer players of several rooms think on it at
// once (two threads), while their hosts play their own turns from the state.
// Under ThreadSanitizer (scripts/sanitize.sh tsan) this is where the pool, the rooms'
// strands and the storage writer meet.
#include <doctest/doctest.h>

#include "carc/protocol/record.hpp"
#include "harness.hpp"

namespace carc::test {

namespace {

struct BotRoom {
  std::string id;
  std::unique_ptr<Peer> host;
  int bots = 0;
  std::int64_t played_at = -1;  // the version the host last played from
};

}  // namespace

TEST_CASE("computer players of several rooms play whole games on the bot pool at once") {
  ServerProcess server({"--bot-threads", "2"});
  std::vector<BotRoom> rooms;
  for (int bots : {1, 2, 4}) {
    BotRoom r{create_room(server.port()), nullptr, bots};
    r.host = std::make_unique<Peer>(server.port(), r.id);
    r.host->join("Host");
    for (int i = 0; i < bots; ++i) r.host->send({{"type", "add_bot"}, {"level", i % 2 ? "easy" : "medium"}});
    r.host->catch_up(r.host->version() + bots);
    REQUIRE(r.host->state()["players"].size() == static_cast<std::size_t>(bots + 1));
    r.host->send({{"type", "start"}});
    rooms.push_back(std::move(r));
  }

  const auto deadline = std::chrono::steady_clock::now() + 120s;
  for (bool done = false; !done;) {
    REQUIRE(std::chrono::steady_clock::now() < deadline);
    done = true;
    for (auto& r : rooms) {
      Peer& h = *r.host;
      while (h.next(2ms)) {
      }
      REQUIRE(h.errors.empty());
      const json& s = h.state();
      if (s["phase"] == "finished") continue;
      done = false;
      if (s["phase"] != "playing" || s["turn"]["seat"] != 0 || r.played_at == h.version()) continue;
      // The host's own turn: the first legal placement.
      const json& legal = s["turn"]["legal"];
      REQUIRE(!legal.empty());
      h.send({{"type", "play"}, {"version", h.version()}, {"x", legal[0]["x"]}, {"y", legal[0]["y"]},
              {"rotation", legal[0]["rotation"]}, {"meeple", nullptr}});
      r.played_at = h.version();
    }
  }

  for (auto& r : rooms) {
    Peer& h = *r.host;
    const json mine = h.state();
    h.send({{"type", "resync"}});
    CHECK(h.expect("state")["state"] == mine);
    // The record replays to the scores everybody saw.
    const auto res = http(server.port(), "GET", "/api/rooms/" + r.id + "/record");
    REQUIRE(res.status == 200);
    const auto record = protocol::parse_record(json::parse(res.body));
    REQUIRE(std::holds_alternative<protocol::Record>(record));
    const auto replayed = protocol::replay(std::get<protocol::Record>(record));
    REQUIRE(std::holds_alternative<json>(replayed));
    std::vector<int> scores;
    for (const auto& p : mine["players"]) scores.push_back(p["score"].get<int>());
    CHECK(std::get<json>(replayed)["final_scores"].get<std::vector<int>>() == scores);
  }
  const auto metrics = http(server.port(), "GET", "/metrics").body;
  CHECK(metrics.find("carc_bot_moves_total 0\n") == std::string::npos);
}

}  // namespace carc::test
