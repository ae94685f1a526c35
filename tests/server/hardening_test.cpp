// Hardening against the real server: security headers, per-address limits on room creation
// and WebSocket upgrades (X-Forwarded-For only from trusted proxies), the separate metrics
// port, and network errors counted in /metrics.
#include <sys/socket.h>

#include <thread>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>
#include <doctest/doctest.h>

#include "harness.hpp"

namespace carc::test {

namespace {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using Headers = std::vector<std::pair<std::string, std::string>>;

int pick_port() {
  asio::io_context ctx;
  tcp::acceptor a(ctx, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
  return a.local_endpoint().port();
}

HttpResult create_from(int port, const std::string& forwarded_for) {
  return http(port, "POST", "/api/rooms", "{}", {{"X-Forwarded-For", forwarded_for}});
}

// A WebSocket upgrade request as a browser sends it (http() answers with the 101 or the refusal).
HttpResult upgrade(int port, const std::string& room, Headers extra = {}) {
  Headers h = {{"Upgrade", "websocket"},
               {"Connection", "Upgrade"},
               {"Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="},
               {"Sec-WebSocket-Version", "13"}};
  h.insert(h.end(), extra.begin(), extra.end());
  return http(port, "GET", "/ws/" + room, {}, h);
}

void check_security_headers(const HttpResult& r, std::string_view what) {
  INFO(what);
  const std::string csp = r.header("Content-Security-Policy");
  CHECK(csp.find("script-src 'self'") != std::string::npos);
  CHECK(csp.find("frame-ancestors 'none'") != std::string::npos);
  CHECK(csp.find("connect-src 'self'") != std::string::npos);
  CHECK(csp.find("unsafe-inline") == std::string::npos);
  CHECK(csp.find("unsafe-eval") == std::string::npos);
  CHECK(r.header("Referrer-Policy") == "no-referrer");
  CHECK(r.header("X-Content-Type-Options") == "nosniff");
  CHECK(r.header("X-Frame-Options") == "DENY");
}

}  // namespace

TEST_CASE("every response carries the CSP, no-referrer and nosniff; invite pages stay out of shared caches") {
  ServerProcess server;
  const int port = server.port();
  const std::string room = create_room(port);
  const auto page = http(port, "GET", "/");
  REQUIRE(page.status == 200);
  check_security_headers(page, "/");
  // The page's own WebSocket is allowed by name too (some browsers do not count ws: as 'self').
  const std::string host = "127.0.0.1:" + std::to_string(port);
  CHECK(page.header("Content-Security-Policy").find("connect-src 'self' ws://" + host + " wss://" + host) !=
        std::string::npos);
  CHECK(page.header("Cache-Control").find("private") != std::string::npos);

  const auto invite = http(port, "GET", "/r/" + room);
  REQUIRE(invite.status == 200);
  check_security_headers(invite, "invite page");
  CHECK(invite.header("Cache-Control") == "private, no-store");
  const auto replay = http(port, "GET", "/replay/" + room);
  REQUIRE(replay.status == 200);
  check_security_headers(replay, "replay page");
  CHECK(replay.header("Cache-Control") == "private, no-store");

  for (const char* target : {"/app.js", "/style.css", "/api/tiles", "/healthz", "/metrics", "/nope", "/api/nope"}) {
    check_security_headers(http(port, "GET", target), target);
  }
  check_security_headers(http(port, "GET", "/api/rooms/" + room), "room info");
  check_security_headers(http(port, "POST", "/api/rooms"), "POST /api/rooms");
  check_security_headers(http(port, "GET", "/%zz"), "bad path");
  // A Host that is not a plain host name never reaches the policy.
  const auto odd = http(port, "GET", "/", {}, {{"Host", "evil.example; script-src *"}});
  CHECK(odd.header("Content-Security-Policy").find("evil") == std::string::npos);
  const auto ws = upgrade(port, room);
  CHECK(ws.status == 101);
  CHECK(ws.header("X-Content-Type-Options") == "nosniff");
}

TEST_CASE("room creation is limited per client address, behind a trusted proxy by X-Forwarded-For") {
  ServerProcess server({"--room-burst", "3", "--room-rate", "1", "--trusted-proxy", "127.0.0.1"});
  const int port = server.port();
  for (int i = 0; i < 3; ++i) CHECK(create_from(port, "203.0.113.5").status == 201);
  const auto refused = create_from(port, "203.0.113.5");
  CHECK(refused.status == 429);
  const int wait = std::stoi(refused.header("Retry-After"));
  CHECK(wait >= 1);
  CHECK(wait <= 60);  // one room a minute
  CHECK(refused.header("Content-Type") == "application/json");
  const json body = json::parse(refused.body);
  CHECK(body["error"] == "rate_limited");
  CHECK(body["retry_after"] == wait);
  CHECK(!body["message"].get<std::string>().empty());
  check_security_headers(refused, "429");

  // One address at its limit never stops another, nor the proxy's own requests.
  CHECK(create_from(port, "203.0.113.6").status == 201);
  CHECK(http(port, "POST", "/api/rooms").status == 201);
  // A client cannot escape by sending its own X-Forwarded-For: the proxy appends the real address.
  CHECK(create_from(port, "198.51.100.77, 203.0.113.5").status == 429);
  // IPv6 clients are counted by their /64.
  for (int i = 0; i < 3; ++i) CHECK(create_from(port, "2001:db8:0:1::" + std::to_string(i + 1)).status == 201);
  CHECK(create_from(port, "2001:db8:0:1::99").status == 429);
  CHECK(create_from(port, "2001:db8:0:2::1").status == 201);

  CHECK(metric(port, "carc_rate_limited_total{what=\"room\"}") == 3);
  CHECK(metric(port, "carc_rooms_created_total") == 9);
}

TEST_CASE("without --trusted-proxy, X-Forwarded-For is ignored") {
  ServerProcess server({"--room-burst", "2", "--room-rate", "1"});
  const int port = server.port();
  CHECK(create_from(port, "203.0.113.1").status == 201);
  CHECK(create_from(port, "203.0.113.2").status == 201);
  CHECK(create_from(port, "203.0.113.3").status == 429);  // all three are 127.0.0.1
}

TEST_CASE("the default limits let a LAN party behind one address create several games") {
  ServerProcess server;
  for (int i = 0; i < 20; ++i) REQUIRE(http(server.port(), "POST", "/api/rooms").status == 201);
}

TEST_CASE("WebSocket upgrades are limited per client address") {
  ServerProcess server({"--ws-burst", "3", "--ws-rate", "1", "--trusted-proxy", "127.0.0.1"});
  const int port = server.port();
  const std::string room = create_room(port);
  for (int i = 0; i < 3; ++i) CHECK(upgrade(port, room, {{"X-Forwarded-For", "203.0.113.5"}}).status == 101);
  const auto refused = upgrade(port, room, {{"X-Forwarded-For", "203.0.113.5"}});
  CHECK(refused.status == 429);
  CHECK(std::stoi(refused.header("Retry-After")) >= 1);
  CHECK(json::parse(refused.body)["error"] == "rate_limited");
  CHECK(upgrade(port, room, {{"X-Forwarded-For", "203.0.113.6"}}).status == 101);
  // Direct connections from this machine have their own budget.
  Peer direct(port, room);
  CHECK(direct.watch()["type"] == "welcome");
  std::this_thread::sleep_for(1100ms);  // refilled: one more
  CHECK(upgrade(port, room, {{"X-Forwarded-For", "203.0.113.5"}}).status == 101);
  CHECK(metric(port, "carc_rate_limited_total{what=\"upgrade\"}") == 1);
}

TEST_CASE("--metrics-bind serves /metrics on its own port, and the public port no longer does") {
  const int mport = pick_port();
  ServerProcess server({"--metrics-bind", "127.0.0.1:" + std::to_string(mport)});
  const int port = server.port();
  CHECK(http(port, "GET", "/metrics").status == 404);
  CHECK(http(port, "GET", "/healthz").status == 200);
  create_room(port);
  const auto m = http(mport, "GET", "/metrics");
  CHECK(m.status == 200);
  CHECK(m.body.find("carc_rooms{phase=\"lobby\"} 1") != std::string::npos);
  CHECK(http(mport, "GET", "/healthz").status == 200);
  CHECK(http(mport, "GET", "/").status == 404);  // nothing else there
  CHECK(http(mport, "POST", "/api/rooms").status == 404);
  CHECK(http(mport, "POST", "/metrics").status == 405);
}

TEST_CASE("network errors are logged and counted; normal closes are not") {
  ServerProcess server;
  const int port = server.port();
  const std::string room = create_room(port);
  const auto ws_read = "carc_network_errors_total{op=\"ws_read\"}";
  {
    Peer polite(port, room);
    polite.watch();
    polite.close();  // a close frame: normal
  }
  for (int i = 0; i < 3; ++i) http(port, "GET", "/healthz");  // HTTP connections that end normally
  std::this_thread::sleep_for(200ms);
  CHECK(metric(port, ws_read) == 0);
  CHECK(metric(port, "carc_network_errors_total{op=\"http_read\"}") == 0);

  {
    // A client that resets its connection mid-game (SO_LINGER 0 makes close() send RST).
    asio::io_context ctx;
    tcp::socket s(ctx);
    s.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), static_cast<unsigned short>(port)));
    const std::string req = "GET /ws/" + room + " HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n";
    asio::write(s, asio::buffer(req));
    char buf[512];
    const auto n = s.read_some(asio::buffer(buf));
    REQUIRE(std::string_view(buf, n).starts_with("HTTP/1.1 101"));
    s.set_option(asio::socket_base::linger(true, 0));
    s.close();
  }
  long count = 0;
  for (int i = 0; i < 50 && count == 0; ++i) {
    std::this_thread::sleep_for(50ms);
    count = metric(port, ws_read);
  }
  CHECK(count == 1);
}


// The server closes on a message over 4096 bytes (1009) and on a text frame that is not
// UTF-8 (1007). A client does not know that yet and goes on writing; the server must read
// those bytes to the client's close reply before it closes its socket, or its kernel
// answers them with a reset that overtakes the close frame, and the client only sees a
// dropped connection.
TEST_CASE("a client that goes on writing after a refused message still gets the close code") {
  // No limit gets in the way: the client asks for states faster than it reads them, so
  // that the server's answers, and its close frame after them, wait in its socket.
  ServerProcess server({"--rate", "1000000", "--burst", "1000000", "--max-queue", "100000", "--max-queue-bytes",
                        "200000000"});
  const std::string room = create_room(server.port());
  const std::string more = "{\"type\":\"resync\"}";
  for (int round = 0; round < 4; ++round) {
    Peer big(server.port(), room);
    for (int i = 0; i < 2000; ++i) big.send_raw(more);
    big.send_raw(std::string(20000, ' '));  // read up to the limit, the rest drained by the close
    for (int i = 0; i < 20; ++i) big.send_raw(more);
    while (big.next(2000ms)) {
    }
    CHECK(big.closed());
    CHECK(big.close_code() == 1009);

    Peer bad(server.port(), room);
    for (int i = 0; i < 2000; ++i) bad.send_raw(more);
    bad.send_raw(std::string("{\"type\":\"join\",\"name\":\"\xff\xfe\"}"));
    for (int i = 0; i < 20; ++i) bad.send_raw(std::string(300, ' '));
    while (bad.next(2000ms)) {
    }
    CHECK(bad.closed());
    CHECK(bad.close_code() == 1007);
  }
  CHECK(http(server.port(), "GET", "/healthz").status == 200);
}

}  // namespace carc::test
