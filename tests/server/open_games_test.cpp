// Open games and quick play (docs/community.md) against the real server: the host lists the
// lobby with {"type":"open"}; GET /api/open-games shows it (with an ETag) until it starts,
// fills, is closed or its host goes away; refusals change nothing; one address opens at
// most 3; POST /api/quick-play joins the best fit or makes a new lobby, and refuses bad
// preferences with 400 and no room made.
#include <doctest/doctest.h>

#include <thread>

#include "table.hpp"

namespace carc::test {

namespace {

json open_games(int port) {
  const auto r = http(port, "GET", "/api/open-games");
  REQUIRE(r.status == 200);
  return json::parse(r.body)["games"];
}

// Polls the list until `pred` holds (a room tells the list from its strand, just after
// the frames of the change went out).
template <class Pred>
json wait_games(int port, Pred pred) {
  const auto deadline = std::chrono::steady_clock::now() + 3s;
  for (;;) {
    json games = open_games(port);
    if (pred(games)) return games;
    REQUIRE_MESSAGE(std::chrono::steady_clock::now() < deadline, "the list never became what was expected: " << games.dump());
    std::this_thread::sleep_for(20ms);
  }
}

const json* find_room(const json& games, const std::string& room) {
  for (const auto& g : games) {
    if (g["room"] == room) return &g;
  }
  return nullptr;
}

bool listed(const json& games, const std::string& room) { return find_room(games, room) != nullptr; }

}  // namespace

TEST_CASE("open games: only the host lists the lobby; it is listed with its facts until it starts") {
  ServerProcess server;
  const int port = server.port();
  Table t(server, 2);
  Peer& alice = *t.players[0];
  Peer& bob = *t.players[1];
  CHECK(open_games(port).empty());
  CHECK(alice.state().contains("open") == false);  // beside the state, never in it

  bob.send({{"type", "open"}, {"open", true}});
  CHECK(bob.expect_error() == "not_host");
  alice.send({{"type", "open"}, {"open", "yes"}});
  CHECK(alice.expect_error() == "bad_message");
  CHECK(open_games(port).empty());

  alice.send({{"type", "open"}, {"open", true}});
  CHECK(alice.expect("open")["open"] == true);
  CHECK(bob.expect("open")["open"] == true);
  const json games = wait_games(port, [&](const json& g) { return listed(g, t.room); });
  REQUIRE(games.size() == 1);
  const json& g = games[0];
  CHECK(g["seats_taken"] == 2);
  CHECK(g["seats_free"] == 3);
  CHECK(g["seats"] == 5);
  CHECK(g["host"] == "Alice");
  CHECK(g["pace"] == "live");
  CHECK(g["expansions"] == json::array());
  CHECK(g["turn_seconds"].is_null());
  CHECK(g["bank_seconds"].is_null());
  CHECK(g["rating"].is_null());
  CHECK(g["opened"].is_number_integer());

  // The ETag: the same list is a 304, a change a new body.
  const auto first = http(port, "GET", "/api/open-games");
  const std::string etag = first.header("ETag");
  REQUIRE(!etag.empty());
  CHECK(http(port, "GET", "/api/open-games", {}, {{"If-None-Match", etag}}).status == 304);
  Peer carol(port, t.room);
  const json welcome = carol.join("Carol");
  CHECK(welcome["open"] == true);  // a newcomer hears it in its welcome
  wait_games(port, [&](const json& gs) { return listed(gs, t.room) && (*find_room(gs, t.room))["seats_taken"] == 3; });
  const auto changed = http(port, "GET", "/api/open-games", {}, {{"If-None-Match", etag}});
  CHECK(changed.status == 200);
  CHECK(changed.header("ETag") != etag);

  alice.send({{"type", "start"}});
  wait_games(port, [&](const json& gs) { return gs.empty(); });
  alice.drain();
  alice.send({{"type", "open"}, {"open", true}});
  CHECK(alice.expect_error() == "bad_message");  // only in the lobby
  CHECK(open_games(port).empty());
}

TEST_CASE("open games: a full lobby, a closed one and one whose host went away leave the list") {
  ServerProcess server;
  const int port = server.port();
  Table t(server, 1);
  Peer& alice = *t.players[0];
  alice.send({{"type", "open"}, {"open", true}});
  alice.expect("open");
  wait_games(port, [&](const json& g) { return listed(g, t.room); });
  for (int i = 0; i < 4; ++i) {
    alice.send({{"type", "add_bot"}, {"level", "easy"}});
    alice.expect("patch");
  }
  wait_games(port, [&](const json& g) { return g.empty(); });  // five of five seats: full
  alice.send({{"type", "remove_bot"}, {"seat", 4}});
  wait_games(port, [&](const json& g) { return listed(g, t.room) && g[0]["seats_taken"] == 4; });
  alice.send({{"type", "open"}, {"open", false}});
  CHECK(alice.expect("open")["open"] == false);
  wait_games(port, [&](const json& g) { return g.empty(); });
  alice.send({{"type", "open"}, {"open", true}});
  alice.expect("open");
  wait_games(port, [&](const json& g) { return listed(g, t.room); });
  alice.close();  // nobody to start it: abandoned
  wait_games(port, [&](const json& g) { return g.empty(); });
  Peer back(port, t.room);
  back.join_token(alice.token());
  wait_games(port, [&](const json& g) { return listed(g, t.room); });
}

TEST_CASE("open games: one address opens at most 3; a started one frees its place") {
  ServerProcess server;
  const int port = server.port();
  std::vector<std::unique_ptr<Table>> tables;
  for (int i = 0; i < 4; ++i) tables.push_back(std::make_unique<Table>(server, 2));
  for (int i = 0; i < 3; ++i) {
    tables[i]->players[0]->send({{"type", "open"}, {"open", true}});
    CHECK(tables[i]->players[0]->expect("open")["open"] == true);
  }
  Peer& fourth = *tables[3]->players[0];
  fourth.send({{"type", "open"}, {"open", true}});
  CHECK(fourth.expect_error() == "limit_reached");
  wait_games(port, [&](const json& g) { return g.size() == 3; });
  CHECK(!listed(open_games(port), tables[3]->room));
  // Quick play from the same address makes no fourth lobby either.
  const auto quick = http(port, "POST", "/api/quick-play", R"({"pace":"turn_based"})");
  CHECK(quick.status == 429);
  CHECK(json::parse(quick.body)["error"] == "limit_reached");
  tables[0]->players[0]->send({{"type", "start"}});
  wait_games(port, [&](const json& g) { return g.size() == 2; });
  fourth.send({{"type", "open"}, {"open", true}});
  CHECK(fourth.expect("open")["open"] == true);
  wait_games(port, [&](const json& g) { return listed(g, tables[3]->room); });
}

TEST_CASE("quick play: bad preferences are a 400 and make nothing; the best fit is joined, else a new lobby") {
  ServerProcess server;
  const int port = server.port();
  auto created = [&] {
    const auto m = http(port, "GET", "/metrics").body;
    const auto at = m.find("\ncarc_rooms_created_total ");
    REQUIRE(at != std::string::npos);
    return std::stol(m.substr(at + 26));
  };
  const long before = created();
  for (const char* bad : {"not json", "[]", R"({"pace":"fast"})", R"({"expansions":["nope"]})", R"({"expansions":"river"})",
                          R"({"colour":"red"})", R"({"pace":1})"}) {
    CAPTURE(bad);
    const auto r = http(port, "POST", "/api/quick-play", bad);
    CHECK(r.status == 400);
    CHECK(json::parse(r.body)["error"] == "bad_request");
  }
  CHECK(http(port, "GET", "/api/quick-play").status == 405);
  CHECK(created() == before);

  // Nothing open: a new lobby with the asked settings.
  const auto first = http(port, "POST", "/api/quick-play", R"({"expansions":["river"],"pace":"live"})");
  REQUIRE(first.status == 201);
  const json a = json::parse(first.body);
  CHECK(a["created"] == true);
  const std::string room = a["room"];
  CHECK(std::string(a["invite_url"]).ends_with("/r/" + room));
  CHECK(created() == before + 1);
  Peer host(port, room);
  CHECK(host.join("Dee")["state"]["settings"]["expansions"] == json::array({"river"}));
  host.send({{"type", "open"}, {"open", true}});
  host.expect("open");
  wait_games(port, [&](const json& g) { return listed(g, room); });

  // The same wish finds it; another pace or other expansions do not.
  const auto again = http(port, "POST", "/api/quick-play", R"({"expansions":["river"]})");
  CHECK(again.status == 200);
  CHECK(json::parse(again.body)["room"] == room);
  CHECK(json::parse(again.body)["created"] == false);
  const auto other = http(port, "POST", "/api/quick-play", R"({"expansions":["river"],"pace":"turn_based"})");
  CHECK(other.status == 201);
  const std::string tb_room = json::parse(other.body)["room"];
  CHECK(tb_room != room);
  const auto base = http(port, "POST", "/api/quick-play", "");
  CHECK(base.status == 201);

  // Two fits: the one with more seats taken wins, though it was opened later.
  Peer tb_host(port, tb_room);
  tb_host.join("Eve");
  CHECK(tb_host.state()["settings"]["pace"] == "turn_based");
  Table t(server, 2);  // a river lobby with two seated, opened after Dee's
  t.players[0]->send({{"type", "settings"}, {"expansions", json::array({"river"})}});
  t.players[0]->expect("patch");
  t.players[0]->send({{"type", "open"}, {"open", true}});
  t.players[0]->expect("open");
  wait_games(port, [&](const json& g) { return listed(g, t.room); });
  const auto best = http(port, "POST", "/api/quick-play", R"({"expansions":["river"],"pace":"live"})");
  CHECK(json::parse(best.body)["room"] == t.room);
}

}  // namespace carc::test
