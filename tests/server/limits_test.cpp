// Caps and timeouts: rooms, connections, per-address connections (off unless configured),
// room expiry, idle WebSockets (pings unanswered) and silent HTTP connections.
#include <thread>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>
#include <doctest/doctest.h>

#include "harness.hpp"

namespace carc::test {

TEST_CASE("the room cap refuses new rooms with 503") {
  ServerProcess server({"--max-rooms", "2"});
  create_room(server.port());
  create_room(server.port());
  CHECK(http(server.port(), "POST", "/api/rooms").status == 503);
}

TEST_CASE("the connection cap and the optional per-address cap") {
  // The HTTP connection that created the room counts until the server has closed its end,
  // which may come a moment after the client read the answer: wait for it.
  {
    ServerProcess server({"--max-connections", "3"});
    const std::string room = create_room(server.port());
    std::this_thread::sleep_for(200ms);
    Peer a(server.port(), room), b(server.port(), room), c(server.port(), room);
    CHECK_THROWS(Peer(server.port(), room));
    a.close();
    std::this_thread::sleep_for(200ms);
    CHECK_NOTHROW(Peer(server.port(), room));
  }
  {
    ServerProcess server({"--max-connections-per-ip", "2"});
    const std::string room = create_room(server.port());
    std::this_thread::sleep_for(200ms);
    Peer a(server.port(), room), b(server.port(), room);
    CHECK_THROWS(Peer(server.port(), room));
  }
  {
    ServerProcess server;  // off by default: many connections from one address
    const std::string room = create_room(server.port());
    std::vector<std::unique_ptr<Peer>> peers;
    for (int i = 0; i < 60; ++i) peers.push_back(std::make_unique<Peer>(server.port(), room));
    CHECK(peers.back()->watch()["state"]["spectators"] == 1);
  }
}

TEST_CASE("a room without connections expires after its time to live") {
  // Checked by order and by lower bounds, polled: a busy machine can only make the sweeper
  // late, never early. The room nobody sat in goes first (1 s), the room a player left goes
  // after its own 8 s (never before), the room with a connection stays.
  using Clock = std::chrono::steady_clock;
  ServerProcess server({"--room-ttl", "8", "--empty-room-ttl", "1"});
  const auto status = [&](const std::string& id) { return http(server.port(), "GET", "/api/rooms/" + id).status; };
  const auto created = Clock::now();
  const std::string empty = create_room(server.port());
  const std::string left = create_room(server.port());
  const std::string busy = create_room(server.port());
  {
    Peer gone(server.port(), left);
    gone.join("Alice");
    gone.close();
  }
  const auto left_at = Clock::now();  // the server saw the close after this
  Peer p(server.port(), busy);
  p.watch();
  const auto until_gone = [&](const std::string& id) {
    const auto deadline = Clock::now() + 30s;
    while (status(id) != 404 && Clock::now() < deadline) std::this_thread::sleep_for(100ms);
    return Clock::now();
  };
  const auto empty_gone = until_gone(empty);
  CHECK(empty_gone - created >= 1s);
  CHECK(empty_gone - created < 30s);
  CHECK(status(left) == 200);  // a seated room lasts longer (unless the sweeper was 7 s late)
  const auto left_gone = until_gone(left);
  CHECK(left_gone - left_at >= 8s);
  CHECK(left_gone - left_at < 30s);
  CHECK(status(busy) == 200);
}

TEST_CASE("a WebSocket that answers no ping is closed after the idle timeout") {
  ServerProcess server({"--idle-timeout", "2"});
  const std::string room = create_room(server.port());
  // A raw socket: after the handshake it neither reads nor answers pings.
  boost::asio::io_context io;
  boost::asio::ip::tcp::socket s(io);
  s.connect({boost::asio::ip::make_address("127.0.0.1"), static_cast<unsigned short>(server.port())});
  const std::string upgrade = "GET /ws/" + room +
                              " HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                              "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n";
  boost::asio::write(s, boost::asio::buffer(upgrade));
  const auto t0 = std::chrono::steady_clock::now();
  std::this_thread::sleep_for(3500ms);
  std::string got;
  char buf[512];
  boost::system::error_code ec;
  while (!ec && std::chrono::steady_clock::now() - t0 < 8s) {
    const auto n = s.read_some(boost::asio::buffer(buf), ec);
    got.append(buf, n);
  }
  CHECK(got.starts_with("HTTP/1.1 101"));
  CHECK(ec);  // the server closed the connection
  CHECK(std::chrono::steady_clock::now() - t0 < 8s);
}

TEST_CASE("a connection that sends nothing is closed after the HTTP timeout") {
  ServerProcess server({"--http-timeout", "1"});
  boost::asio::io_context io;
  boost::asio::ip::tcp::socket s(io);
  s.connect({boost::asio::ip::make_address("127.0.0.1"), static_cast<unsigned short>(server.port())});
  const auto t0 = std::chrono::steady_clock::now();
  char buf[16];
  boost::system::error_code ec;
  boost::asio::read(s, boost::asio::buffer(buf), ec);
  CHECK(ec);  // closed by the server
  CHECK(std::chrono::steady_clock::now() - t0 < 5s);
}

}  // namespace carc::test
