// Caps and timeouts: rooms, connections, per-address connections (off unless configured),
// room expiry, idle WebSockets (pings unanswered), frames read as they arrive and silent
// HTTP connections.
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

TEST_CASE("a WebSocket that says nothing but answers pings stays open past the idle timeout") {
  ServerProcess server({"--idle-timeout", "2"});
  const std::string room = create_room(server.port());
  Peer quiet(server.port(), room);
  quiet.watch();
  // Past two idle timeouts without a message; its reads (run while it drains) answer the
  // server's pings.
  const auto until = std::chrono::steady_clock::now() + 5s;
  while (std::chrono::steady_clock::now() < until) quiet.drain(200ms);
  CHECK_FALSE(quiet.closed());
  // It still hears the room: a player joining reaches it.
  Peer player(server.port(), room);
  player.join("Ann");
  const json patch = quiet.expect("patch");
  CHECK_FALSE(quiet.closed());
  CHECK(patch.dump().find("Ann") != std::string::npos);
}

// Between messages the server waits for the socket to be readable before it reads
// (docs/hot-path.md#memory): frames that arrive in one packet must each be read at once,
// not left waiting for the client's next bytes.
TEST_CASE("frames that arrive together are each answered at once") {
  ServerProcess server({"--idle-timeout", "60"});
  const std::string room = create_room(server.port());
  boost::asio::io_context io;
  boost::asio::ip::tcp::socket s(io);
  s.connect({boost::asio::ip::make_address("127.0.0.1"), static_cast<unsigned short>(server.port())});
  const std::string upgrade = "GET /ws/" + room +
                              " HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                              "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n";
  boost::asio::write(s, boost::asio::buffer(upgrade));
  std::string got;
  char buf[4096];
  const auto read_until = [&](const auto& done, std::chrono::milliseconds within) {
    s.non_blocking(true);
    const auto until = std::chrono::steady_clock::now() + within;
    while (!done() && std::chrono::steady_clock::now() < until) {
      boost::system::error_code ec;
      const auto n = s.read_some(boost::asio::buffer(buf), ec);
      if (ec == boost::asio::error::would_block) {
        std::this_thread::sleep_for(10ms);
        continue;
      }
      REQUIRE_FALSE(ec);
      got.append(buf, n);
    }
  };
  read_until([&] { return got.find("\r\n\r\n") != std::string::npos; }, 5000ms);
  REQUIRE(got.starts_with("HTTP/1.1 101"));
  got.erase(0, got.find("\r\n\r\n") + 4);
  // A client's frame, masked: FIN, the opcode, then the payload.
  const auto frame = [](unsigned char opcode, const std::string& payload) {
    const unsigned char mask[4] = {0x12, 0x34, 0x56, 0x78};
    std::string f;
    f += static_cast<char>(0x80 | opcode);
    if (payload.size() < 126) {
      f += static_cast<char>(0x80 | payload.size());
    } else {  // a 16-bit length
      f += static_cast<char>(0x80 | 126);
      f += static_cast<char>(payload.size() >> 8);
      f += static_cast<char>(payload.size() & 0xff);
    }
    for (unsigned char m : mask) f += static_cast<char>(m);
    for (std::size_t i = 0; i < payload.size(); ++i) f += static_cast<char>(payload[i] ^ mask[i % 4]);
    return f;
  };
  // Two messages that are not JSON (each answered with an error) around a ping, then a
  // third message split in two: its first bytes in the same packet, the rest later.
  const std::string third = frame(0x1, "not json either");
  const std::string packet = frame(0x1, "not json") + frame(0x9, "hi") + frame(0x1, "nor this") + third.substr(0, 9);
  boost::asio::write(s, boost::asio::buffer(packet));
  const auto count = [&](std::string_view what) {
    int n = 0;
    for (auto at = got.find(what); at != std::string::npos; at = got.find(what, at + 1)) ++n;
    return n;
  };
  read_until([&] { return count("bad_json") >= 2 && got.find("\x8a\x02hi") != std::string::npos; }, 2000ms);
  CHECK(count("bad_json") == 2);
  CHECK(got.find("\x8a\x02hi") != std::string::npos);  // the pong
  boost::asio::write(s, boost::asio::buffer(third.substr(9)));
  read_until([&] { return count("bad_json") >= 3; }, 2000ms);
  CHECK(count("bad_json") == 3);
  // A message with a 16-bit length, a ping and a short message in one packet; then one
  // whose header ends in the middle of its extended length.
  const std::string long_one = frame(0x1, std::string(300, 'x'));
  boost::asio::write(s, boost::asio::buffer(long_one + frame(0x9, "yo") + frame(0x1, "short")));
  read_until([&] { return count("bad_json") >= 5 && got.find("\x8a\x02yo") != std::string::npos; }, 2000ms);
  CHECK(count("bad_json") == 5);
  CHECK(got.find("\x8a\x02yo") != std::string::npos);
  boost::asio::write(s, boost::asio::buffer(long_one.substr(0, 3)));
  std::this_thread::sleep_for(50ms);
  boost::asio::write(s, boost::asio::buffer(long_one.substr(3)));
  read_until([&] { return count("bad_json") >= 6; }, 2000ms);
  CHECK(count("bad_json") == 6);
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
