// A server that strangers can reach: no request ends the process, one address cannot take
// every slot, every byte of memory or every lookup, and what a room stores is bounded.
// Each case was written against a server that failed it (docs/configuration.md).
#include <sys/resource.h>
#include <sys/socket.h>

#include <thread>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/streambuf.hpp>
#include <boost/asio/write.hpp>
#include <doctest/doctest.h>

#include "table.hpp"

namespace carc::test {

namespace {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;

// An open TCP connection from `source` (a loopback address) that sends nothing.
std::unique_ptr<tcp::socket> idle_connection(asio::io_context& io, int port, const char* source = "127.0.0.1") {
  auto s = std::make_unique<tcp::socket>(io);
  s->open(tcp::v4());
  s->bind(tcp::endpoint(asio::ip::make_address(source), 0));
  s->connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), static_cast<unsigned short>(port)));
  return s;
}

// One request on a connection that stays open; the status line's code, or 0 when the
// server closed the connection without an answer.
int request_on(tcp::socket& s, const std::string& request) {
  boost::system::error_code ec;
  asio::write(s, asio::buffer(request), ec);
  if (ec) return 0;
  asio::streambuf buf;
  asio::read_until(s, buf, "\r\n\r\n", ec);
  if (ec && buf.size() == 0) return 0;
  std::string head(asio::buffers_begin(buf.data()), asio::buffers_end(buf.data()));
  if (!head.starts_with("HTTP/1.1 ")) return 0;
  return std::stoi(head.substr(9, 3));
}

// Whether the server closed this connection (reads EOF within `wait`).
bool closed_by_server(tcp::socket& s, std::chrono::milliseconds wait) {
  timeval tv{0, static_cast<suseconds_t>(std::chrono::duration_cast<std::chrono::microseconds>(wait).count())};
  ::setsockopt(s.native_handle(), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  char c;
  const auto n = ::recv(s.native_handle(), &c, 1, 0);
  return n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK);
}

// A WebSocket upgrade on a raw socket that then never reads: a client that stopped reading.
std::unique_ptr<tcp::socket> deaf_websocket(asio::io_context& io, int port, const std::string& room) {
  auto s = idle_connection(io, port);
  const int small = 4096;
  ::setsockopt(s->native_handle(), SOL_SOCKET, SO_RCVBUF, &small, sizeof small);
  const std::string req = "GET /ws/" + room + " HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                          "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n";
  REQUIRE(request_on(*s, req) == 101);
  return s;
}

// A masked client text frame (RFC 6455), as a browser sends it.
std::string ws_frame(const std::string& text) {
  std::string f;
  f += static_cast<char>(0x81);
  if (text.size() < 126) {
    f += static_cast<char>(0x80 | text.size());
  } else {
    f += static_cast<char>(0x80 | 126);
    f += static_cast<char>(text.size() >> 8);
    f += static_cast<char>(text.size() & 0xff);
  }
  const char mask[4] = {0x11, 0x22, 0x33, 0x44};
  f.append(mask, 4);
  for (std::size_t i = 0; i < text.size(); ++i) f += static_cast<char>(text[i] ^ mask[i % 4]);
  return f;
}

}  // namespace

TEST_CASE("bytes that are not UTF-8 get a clear refusal, never the end of the process; the other games go on") {
  ServerProcess server;
  const int port = server.port();
  Table t(server, 2);
  t.start();
  // The request that aborted the server: an unknown expansion's name is quoted in the answer.
  const auto tiles = http(port, "GET", "/api/tiles?expansions=%ff\xff\xfe");
  CHECK(tiles.status == 400);
  CHECK(json::parse(tiles.body, nullptr, false).value("error", "") == "bad_request");
  // The same class elsewhere: a room's expansions, a forwarded host in links, a seat's token.
  CHECK(http(port, "POST", "/api/rooms", "{\"expansions\":[\"\xff\"]}").status == 400);
  CHECK(http(port, "POST", "/api/rooms", "{}", {{"Host", "a\xff" "b"}, {"X-Forwarded-Host", "\xff"}}).status == 201);
  const auto key = json::parse(http(port, "POST", "/api/keys").body).at("key").get<std::string>();
  const auto seats = http(port, "POST", "/api/keys/seats", "{\"room\":\"\xff\",\"token\":\"\xfe\"}",
                          {{"Authorization", "Bearer " + key}});
  CHECK(seats.status == 400);  // not JSON: a JSON text is UTF-8
  const auto transfer = http(port, "POST", "/api/keys/transfer", "", {{"Authorization", "Bearer " + key}, {"Host", "\xff"}});
  CHECK(transfer.status == 200);
  CHECK(json::parse(transfer.body, nullptr, false).is_object());
  // A WebSocket text frame with such bytes ends that connection (1007, as RFC 6455 says).
  for (const char* frame : {"{\"type\":\"chat\",\"text\":\"\xff\"}", "{\"type\":\"join\",\"name\":\"\xc3\"}"}) {
    Peer odd(port, t.room);
    odd.send_raw(frame);
    odd.next(2000ms);
    CHECK(odd.closed());
    CHECK(odd.close_code() == 1007);
  }
  // The game in the other room goes on: a move, and its patch reaches both players.
  Rng rng(7);
  t.play_random(rng);
  t.sync();
  CHECK(http(port, "GET", "/healthz").status == 200);
  CHECK(metric(port, "carc_internal_errors_total") == 0);
}

TEST_CASE("one address cannot take every connection slot by default; behind a trusted proxy the forwarded client counts") {
  SUBCASE("the default cap") {
    ServerProcess server;
    const int port = server.port();
    asio::io_context io;
    std::vector<std::unique_ptr<tcp::socket>> idle;
    for (int i = 0; i < 256; ++i) idle.push_back(idle_connection(io, port));
    // The 257th from the same address is closed at once; another address is served.
    auto over = idle_connection(io, port);
    CHECK(closed_by_server(*over, 2000ms));
    auto other = idle_connection(io, port, "127.0.0.2");
    CHECK(request_on(*other, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n") == 200);
    idle.clear();
    std::this_thread::sleep_for(200ms);
    CHECK(metric(port, "carc_connections_refused_total") >= 1);
  }
  SUBCASE("behind a trusted proxy") {
    ServerProcess server({"--trusted-proxy", "127.0.0.1", "--max-connections-per-ip", "3"});
    const int port = server.port();
    asio::io_context io;
    const std::string as_client = "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 203.0.113.5\r\n\r\n";
    std::vector<std::unique_ptr<tcp::socket>> held;
    for (int i = 0; i < 3; ++i) {
      held.push_back(idle_connection(io, port));
      CHECK(request_on(*held.back(), as_client) == 200);
    }
    // The proxy's own address is not what counts: a fourth connection for that client is
    // refused, one for another client is served.
    auto fourth = idle_connection(io, port);
    CHECK(request_on(*fourth, as_client) == 429);
    auto another = idle_connection(io, port);
    CHECK(request_on(*another, "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 203.0.113.6\r\n\r\n") == 200);
    // A client whose connection closed has its slot back.
    held.pop_back();
    std::this_thread::sleep_for(200ms);
    auto again = idle_connection(io, port);
    CHECK(request_on(*again, as_client) == 200);
  }
}

TEST_CASE("clients that stop reading cannot hold more than the server's budget of queued frames") {
  // Each deaf client asks for the whole state over and over and reads nothing: its queue
  // grows by a state frame each time. The budget is small here, the per-connection caps high.
  ServerProcess server({"--max-queued-bytes", "1048576", "--max-queue-bytes", "67108864", "--max-queue", "1000000",
                        "--rate", "100000", "--burst", "100000"});
  const int port = server.port();
  Table t(server, 2);
  t.start();
  asio::io_context io;
  std::vector<std::unique_ptr<tcp::socket>> deaf;
  for (int i = 0; i < 6; ++i) {
    deaf.push_back(deaf_websocket(io, port, t.room));
    boost::system::error_code ec;
    asio::write(*deaf.back(), asio::buffer(ws_frame(R"({"type":"watch"})")), ec);
  }
  std::string resyncs;
  for (int i = 0; i < 400; ++i) resyncs += ws_frame(R"({"type":"resync"})");
  long peak = 0;
  for (int round = 0; round < 20; ++round) {
    for (auto& s : deaf) {
      // A dropped client's socket fails: the others go on.
      ::send(s->native_handle(), resyncs.data(), resyncs.size(), MSG_DONTWAIT | MSG_NOSIGNAL);
    }
    peak = std::max(peak, metric(port, "carc_queued_bytes"));
  }
  std::this_thread::sleep_for(300ms);
  // Some of them were dropped, and what stays queued is within the budget (plus the frames
  // in flight when the drop was decided: one state frame each).
  CHECK(metric(port, "carc_queue_budget_drops_total") >= 1);
  CHECK(peak <= 1048576 + 6 * 64 * 1024);
  CHECK(metric(port, "carc_queued_bytes") <= 1048576);
  // The players, who read, were never dropped and play on.
  Rng rng(3);
  t.play_random(rng);
  t.sync();
  CHECK(!t.players[0]->closed());
  CHECK(!t.players[1]->closed());
}

TEST_CASE("seat attachments and new player keys are charged to the address's budgets") {
  ServerProcess server({"--lookup-burst", "5", "--lookup-rate", "0.01", "--key-burst", "3", "--key-rate", "0.01"});
  const int port = server.port();
  int made = 0, refused_keys = 0;
  std::string key;
  for (int i = 0; i < 6; ++i) {
    const auto r = http(port, "POST", "/api/keys");
    if (r.status == 201) {
      ++made;
      key = json::parse(r.body).at("key").get<std::string>();
    } else if (r.status == 429) {
      ++refused_keys;
      CHECK(!r.header("Retry-After").empty());
    }
  }
  CHECK(made == 3);
  CHECK(refused_keys == 3);
  int not_found = 0, limited = 0;
  for (int i = 0; i < 12; ++i) {
    const std::string room = "unknownroom" + std::to_string(i) + "xxxxxxxxxxx";
    const auto r = http(port, "POST", "/api/keys/seats", json{{"room", room}, {"token", "t"}}.dump(),
                        {{"Authorization", "Bearer " + key}});
    if (r.status == 404) ++not_found;
    if (r.status == 429) ++limited;
  }
  CHECK(not_found == 5);
  CHECK(limited == 7);
}

TEST_CASE("accept without file descriptors waits instead of spinning, and recovers") {
  ServerProcess server;
  const int port = server.port();
  // Few descriptors for the running server: connections soon exhaust them.
  const rlimit low{48, 48};
  REQUIRE(::prlimit(server.pid(), RLIMIT_NOFILE, &low, nullptr) == 0);
  asio::io_context io;
  std::vector<std::unique_ptr<tcp::socket>> held;
  for (int i = 0; i < 80; ++i) held.push_back(idle_connection(io, port));
  std::this_thread::sleep_for(3000ms);
  held.clear();  // descriptors come back
  std::this_thread::sleep_for(1500ms);
  const auto health = http(port, "GET", "/healthz");
  CHECK(health.status == 200);
  // A spinning accept loop fails hundreds of thousands of times in three seconds; with the
  // pause (10 ms doubling to 1 s) it is a handful.
  const auto body = http(port, "GET", "/metrics").body;
  const auto at = body.find("carc_network_errors_total{op=\"accept\"} ");
  REQUIRE(at != std::string::npos);
  const long failures = std::stol(body.substr(at + std::string("carc_network_errors_total{op=\"accept\"} ").size()));
  CHECK(failures >= 1);
  CHECK(failures <= 20);
}

TEST_CASE("a room's stored chat and notification settings are bounded; chat refuses control characters") {
  ServerProcess server({"--max-chat-lines", "5", "--max-notify-changes", "3"});
  const int port = server.port();
  std::string room;
  {
    Table t(server, 2);
    room = t.room;
    Peer& alice = *t.players[0];
    alice.send({{"type", "chat"}, {"text", std::string("a\0b", 3)}});
    CHECK(alice.expect_error() == "bad_message");
    alice.send({{"type", "chat"}, {"text", "two\nlines"}});
    CHECK(alice.expect_error() == "bad_message");
    for (int i = 0; i < 5; ++i) {
      alice.send({{"type", "chat"}, {"text", "line " + std::to_string(i)}});
      alice.expect("patch");
    }
    alice.send({{"type", "chat"}, {"text", "one too many"}});
    CHECK(alice.expect_error() == "limit_reached");
    for (int i = 0; i < 3; ++i) {
      // Stored; only the first changes the public state (settings.webhook), so no patch to wait for.
      alice.send({{"type", "settings"}, {"webhook", {{"url", "https://hooks.example.org/" + std::to_string(i)}, {"format", "json"}}}});
    }
    alice.send({{"type", "settings"}, {"webhook", nullptr}});
    CHECK(alice.expect_error() == "limit_reached");  // the first error: the three before were stored
    CHECK(alice.state()["settings"]["webhook"] == true);
  }
  // The bound counts what is stored, so a restart does not reset it.
  server.crash_and_restart();
  Peer bob(port, room);
  bob.join("Carol");
  bob.send({{"type", "chat"}, {"text", "after the restart"}});
  CHECK(bob.expect_error() == "limit_reached");
}

TEST_CASE("links trust X-Forwarded-Host only from a trusted proxy; a play from a future version is refused") {
  {
    ServerProcess server;
    const auto r = http(server.port(), "POST", "/api/rooms", "{}", {{"X-Forwarded-Host", "evil.example"}});
    REQUIRE(r.status == 201);
    CHECK(json::parse(r.body).at("invite_url").get<std::string>().find("evil.example") == std::string::npos);
  }
  {
    ServerProcess server({"--trusted-proxy", "127.0.0.1"});
    const auto r = http(server.port(), "POST", "/api/rooms", "{}", {{"X-Forwarded-Host", "carc.example.org"}});
    REQUIRE(r.status == 201);
    CHECK(json::parse(r.body).at("invite_url").get<std::string>().starts_with("http://carc.example.org/r/"));
  }
  ServerProcess server;
  Table t(server, 2);
  t.start();
  Peer& p = t.current();
  const json& legal = p.state()["turn"]["legal"][0];
  p.send({{"type", "play"}, {"version", INT64_MAX}, {"x", legal["x"]}, {"y", legal["y"]}, {"rotation", legal["rotation"]}, {"meeple", nullptr}});
  CHECK(p.expect_error() == "bad_message");
  p.send({{"type", "play"}, {"version", p.version()}, {"x", legal["x"]}, {"y", legal["y"]}, {"rotation", legal["rotation"]}, {"meeple", nullptr}});
  p.expect("patch");
}

}  // namespace carc::test
