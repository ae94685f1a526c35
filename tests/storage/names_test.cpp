// Players' names end to end (docs/community.md, "Names"): the real server and its SQLite
// file. PUT /api/me/name with the player key in the Authorization header; the name passes
// the seat names' checks, may change once a day (the test build's clock is moved a day on,
// across a restart), and every earlier name stays in GET /api/players/<id>/names. Bad input
// gets a clear 400 or 401 and changes nothing.
#include <doctest/doctest.h>

#include <string>

#include "harness.hpp"
#include "helpers.hpp"

using namespace carc::test;

namespace {

HttpReply send(std::uint16_t port, http::verb verb, const std::string& target, const std::string& key = "",
               const std::string& body = "") {
  asio::io_context io;
  beast::tcp_stream stream(io);
  stream.expires_after(std::chrono::seconds(10));
  stream.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port));
  http::request<http::string_body> req{verb, target, 11};
  req.set(http::field::host, "127.0.0.1:" + std::to_string(port));
  req.set(http::field::content_type, "application/json");
  if (!key.empty()) req.set(http::field::authorization, "Bearer " + key);
  req.body() = body;
  req.prepare_payload();
  http::write(stream, req);
  beast::flat_buffer buf;
  http::response<http::string_body> res;
  http::read(stream, buf, res);
  return {static_cast<int>(res.result_int()), res.body()};
}

std::vector<std::string> history(std::uint16_t port, const std::string& player) {
  const auto r = send(port, http::verb::get, "/api/players/" + player + "/names");
  REQUIRE(r.status == 200);
  std::vector<std::string> out;
  const json body = r.json_body();  // kept: a loop over a temporary's member would dangle
  for (const auto& n : body["names"]) out.push_back(n["name"]);
  return out;
}

}  // namespace

TEST_CASE("names: set with the key, once a day, bad input refused, history kept across a restart and a day") {
  TempDir dir;
  const auto data = dir.path() / "data";
  std::string key, player;
  {
    ServerProcess server(data, dir.path() / "server.log", {}, {}, CARC_SERVER_TEST_BIN);
    REQUIRE(server.wait_ready());
    const auto port = server.port();
    key = send(port, http::verb::post, "/api/keys").json_body()["key"];
    const std::string body = R"({"name":"  Ann  "})";
    // Without a key, an unknown one, or a malformed one: 401 and nothing stored.
    CHECK(send(port, http::verb::put, "/api/me/name", "", body).status == 401);
    CHECK(send(port, http::verb::put, "/api/me/name", std::string(43, 'A'), body).json_body()["error"] == "unknown_key");
    CHECK(send(port, http::verb::put, "/api/me/name", "short", body).status == 401);
    // Bodies and names that fail the checks: 400, nothing stored.
    for (const std::string bad : {R"({"name":""})", R"({"name":"   "})", R"({"name":"a\u0007b"})",
                                  R"({"name":"0123456789012345678901234"})", R"({"name":7})", "nope", R"({"nom":"Ann"})",
                                  R"({"name":"Ann","x":1})", "\"Ann\""}) {
      CAPTURE(bad);
      const auto r = send(port, http::verb::put, "/api/me/name", key, bad);
      CHECK(r.status == 400);
      CHECK(r.json_body()["error"].is_string());
    }
    const auto none = send(port, http::verb::get, "/api/me/name", key);
    REQUIRE(none.status == 200);
    CHECK(none.json_body()["name"].is_null());
    player = none.json_body()["player"];
    CHECK(player.size() == 16);
    CHECK(history(port, player).empty());

    const auto set = send(port, http::verb::put, "/api/me/name", key, body);
    REQUIRE(set.status == 200);
    CHECK(set.json_body()["name"] == "Ann");  // trimmed, as a seat name is
    CHECK(set.json_body()["player"] == player);
    CHECK(set.json_body()["next_change"].get<std::int64_t>() > 0);
    // The same name again changes nothing; another one the same day is too soon.
    CHECK(send(port, http::verb::put, "/api/me/name", key, R"({"name":"Ann"})").status == 200);
    const auto soon = send(port, http::verb::put, "/api/me/name", key, R"({"name":"Annie"})");
    CHECK(soon.status == 429);
    CHECK(soon.json_body()["error"] == "too_soon");
    CHECK(soon.json_body()["next_change"] == set.json_body()["next_change"]);
    CHECK(history(port, player) == std::vector<std::string>{"Ann"});
    // Ids: malformed is a 400, an id nobody named is an empty history.
    CHECK(send(port, http::verb::get, "/api/players/not-an-id!/names").status == 400);
    CHECK(history(port, "AAAAAAAAAAAAAAAA").empty());
    CHECK(send(port, http::verb::post, "/api/players/" + player + "/names").status == 405);
    CHECK(send(port, http::verb::post, "/api/me/name", key, body).status == 405);
  }
  {
    // A day and a minute later, after a restart: the change is allowed; the old name stays.
    ServerProcess server(data, dir.path() / "server.log", {{"CARC_TEST_CLOCK_OFFSET_MS", std::to_string(86'460'000)}}, {},
                         CARC_SERVER_TEST_BIN);
    REQUIRE(server.wait_ready());
    const auto port = server.port();
    CHECK(history(port, player) == std::vector<std::string>{"Ann"});
    const auto changed = send(port, http::verb::put, "/api/me/name", key, R"({"name":"Ånnie 🎲"})");
    REQUIRE(changed.status == 200);
    CHECK(changed.json_body()["name"] == "Ånnie 🎲");
    CHECK(history(port, player) == std::vector<std::string>{"Ånnie 🎲", "Ann"});
    const auto me = send(port, http::verb::get, "/api/me/name", key).json_body();
    CHECK(me["name"] == "Ånnie 🎲");
    CHECK(me["names"].size() == 2);
  }
}
