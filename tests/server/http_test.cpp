// HTTP: rooms API, invite URLs, tiles, health, metrics, static files and path traversal.
#include <doctest/doctest.h>

#include <stdlib.h>

#include <filesystem>
#include <fstream>

#include "harness.hpp"

namespace carc::test {

TEST_CASE("POST /api/rooms creates a room with an unguessable id and an invite URL") {
  ServerProcess server;
  const auto r = http(server.port(), "POST", "/api/rooms", "{}");
  REQUIRE(r.status == 201);
  CHECK(r.header("Content-Type").starts_with("application/json"));
  const json body = json::parse(r.body);
  const std::string id = body["room"];
  CHECK(id.size() >= 12);
  CHECK(id.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") == std::string::npos);
  CHECK(body["invite_url"] == "http://127.0.0.1:" + std::to_string(server.port()) + "/r/" + id);
  CHECK(json::parse(http(server.port(), "POST", "/api/rooms").body)["room"] != id);  // an empty body is fine

  // Behind a proxy: its forwarded headers make the link, from a trusted proxy only.
  const std::vector<std::pair<std::string, std::string>> forwarded = {
      {"Host", "internal:8080"}, {"X-Forwarded-Proto", "https"}, {"X-Forwarded-Host", "carc.example.org"}};
  const json ignored = json::parse(http(server.port(), "POST", "/api/rooms", "{}", forwarded).body);
  CHECK(ignored["invite_url"] == "http://internal:8080/r/" + ignored["room"].get<std::string>());
  ServerProcess behind_proxy({"--trusted-proxy", "127.0.0.1"});
  const json pb = json::parse(http(behind_proxy.port(), "POST", "/api/rooms", "{}", forwarded).body);
  CHECK(pb["invite_url"] == "https://carc.example.org/r/" + pb["room"].get<std::string>());

  const auto info = http(server.port(), "GET", "/api/rooms/" + id);
  REQUIRE(info.status == 200);
  CHECK(json::parse(info.body) == json{{"room", id}, {"phase", "lobby"}, {"pace", "live"}, {"players", json::array()}, {"seats", 5}, {"turn", nullptr}, {"spectators", 0}});
  const auto record = http(server.port(), "GET", "/api/rooms/" + id + "/record");
  REQUIRE(record.status == 200);
  CHECK(json::parse(record.body)["format"] == "carcassonne-record/1");
  CHECK(http(server.port(), "GET", "/api/rooms").status == 405);
}

TEST_CASE("--base-url makes the invite links") {
  ServerProcess server({"--base-url", "https://play.example.net/"});
  const json body = json::parse(http(server.port(), "POST", "/api/rooms").body);
  CHECK(body["invite_url"] == "https://play.example.net/r/" + body["room"].get<std::string>());
}

TEST_CASE("/api/tiles, /healthz and /metrics") {
  ServerProcess server;
  const auto tiles = http(server.port(), "GET", "/api/tiles");
  REQUIRE(tiles.status == 200);
  const json t = json::parse(tiles.body);
  // Every tile the server knows (docs/expansions.md): the 24 base tiles have
  // no expansion.
  int base = 0;
  for (const auto& tile : t["tiles"]) base += tile["expansion"].is_null() ? 1 : 0;
  CHECK(base == 24);
  CHECK(t["start"]["tile"] == "D");
  CHECK(http(server.port(), "GET", "/healthz").status == 200);
  const auto m = http(server.port(), "GET", "/metrics");
  CHECK(m.status == 200);
  CHECK(m.header("Content-Type").starts_with("text/plain"));
  for (const char* name : {"carc_rooms{phase=\"lobby\"}", "carc_connections{kind=\"websocket\"}", "carc_moves_total",
                           "carc_refused_requests_total{code=\"stale_version\"}",
                           "carc_broadcast_latency_seconds_bucket{le=\"+Inf\"}"}) {
    CHECK_MESSAGE(m.body.find(name) != std::string::npos, name);
  }
}

TEST_CASE("static files: content types, caching, invite page, and no path out of the web root") {
  ServerProcess server;
  const auto index = http(server.port(), "GET", "/");
  if (index.status == 200) {  // the web client may not be there in a partial checkout
    CHECK(index.header("Content-Type") == "text/html; charset=utf-8");
    CHECK(!index.header("Cache-Control").empty());
    CHECK(!index.header("ETag").empty());
    const auto invite = http(server.port(), "GET", "/r/abcdefghijkl");
    CHECK(invite.status == 200);
    CHECK(invite.body == index.body);
    const auto replay = http(server.port(), "GET", "/replay/abcdefghijkl");
    CHECK(replay.status == 200);
    CHECK(replay.body == index.body);
    CHECK(http(server.port(), "GET", "/replay/abcdefghijkl/more").status == 404);
    CHECK(http(server.port(), "GET", "/replayx").status == 404);
    const auto again = http(server.port(), "GET", "/", {}, {{"If-None-Match", index.header("ETag")}});
    CHECK(again.status == 304);
    const auto head = http(server.port(), "HEAD", "/");
    CHECK(head.status == 200);
  }
  const auto missing = http(server.port(), "GET", "/nope.js");
  CHECK(missing.status == 404);

  for (const char* target :
       {"/../../../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/%2E%2E/%2E%2E/etc/passwd", "/..%2f..%2fetc%2fpasswd",
        "/js/../../etc/passwd", "/%2e%2e%5c%2e%2e%5cetc%5cpasswd", "/..\\..\\etc\\passwd", "/index.html%00.js",
        "/%00", "//etc/passwd", "/./index.html", "/.git/config", "/r/../../etc/passwd", "/replay/../../etc/passwd", "/%252e%252e/etc/passwd",
        "/%", "/%zz"}) {
    const auto r = http(server.port(), "GET", target);
    CHECK_MESSAGE((r.status == 400 || r.status == 404), target << " -> " << r.status);
    CHECK(r.body.find("root:") == std::string::npos);
  }
  CHECK(http(server.port(), "DELETE", "/index.html").status == 405);
}

TEST_CASE("a page's module links: every style sheet and module under js/, written where the marker is") {
  char tmpl[] = "/tmp/carc-web-root-XXXXXX";
  const std::filesystem::path root = ::mkdtemp(tmpl);
  const auto write = [&](const std::string& rel, const std::string& text) {
    std::filesystem::create_directories((root / rel).parent_path());
    std::ofstream(root / rel) << text;
  };
  write("index.html", "<head>\n  <!-- module links -->\n</head>\n");
  write("js/app-part.js", "export {};\n");
  write("js/expansions/x/index.js", "export {};\n");
  write("js/expansions/x/style.css", ".x {}\n");
  write("js/.hidden/secret.js", "export {};\n");  // hidden: never listed
  write("js/notes.txt", "not a module\n");
  write("outside.js", "export {};\n");
  std::filesystem::create_symlink(root / "outside.js", root / "js" / "link.js");  // a link: never listed
  ServerProcess server({"--web-root", root.string()});
  const auto page = http(server.port(), "GET", "/");
  REQUIRE(page.status == 200);
  CHECK(page.body ==
        "<head>\n"
        "  <link rel=\"stylesheet\" href=\"/js/expansions/x/style.css\">\n"
        "  <link rel=\"modulepreload\" href=\"/js/app-part.js\">\n"
        "  <link rel=\"modulepreload\" href=\"/js/expansions/x/index.js\">\n"
        "</head>\n");
  CHECK(http(server.port(), "GET", "/r/abcdefghijkl").body == page.body);
  CHECK(http(server.port(), "GET", "/", {}, {{"If-None-Match", page.header("ETag")}}).status == 304);
  // A new module is listed at once, under a new tag.
  write("js/expansions/y/index.js", "export {};\n");
  const auto after = http(server.port(), "GET", "/", {}, {{"If-None-Match", page.header("ETag")}});
  CHECK(after.status == 200);
  CHECK(after.header("ETag") != page.header("ETag"));
  CHECK(after.body.find("<link rel=\"modulepreload\" href=\"/js/expansions/y/index.js\">") != std::string::npos);
  std::error_code ec;
  std::filesystem::remove_all(root, ec);
}

TEST_CASE("SIGTERM closes WebSockets with going away and exits 0") {
  ServerProcess server;
  const std::string room = create_room(server.port());
  Peer p(server.port(), room);
  p.join("Alice");
  CHECK(server.terminate() == 0);
  while (p.next(2000ms)) {
  }
  CHECK(p.closed());
  CHECK(p.close_code() == 1001);
}

}  // namespace carc::test
