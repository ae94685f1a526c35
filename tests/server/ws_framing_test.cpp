// The server's own WebSocket framing, from outside (docs/hot-path.md#memory): fragmented
// messages with control frames between their pieces, the client's close answered with its
// code, and the protocol errors that close with 1002 or 1009.
#include <thread>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/write.hpp>
#include <doctest/doctest.h>

#include "harness.hpp"

namespace carc::test {
namespace {

// A WebSocket client on a raw socket: it writes frames byte for byte as a test says and
// keeps everything the server sends.
class RawWs {
 public:
  RawWs(int port, const std::string& room) : s_(io_) {
    s_.connect({boost::asio::ip::make_address("127.0.0.1"), static_cast<unsigned short>(port)});
    const std::string upgrade = "GET /ws/" + room +
                                " HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                                "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n";
    boost::asio::write(s_, boost::asio::buffer(upgrade));
    read_until([&] { return got.find("\r\n\r\n") != std::string::npos; });
    REQUIRE(got.starts_with("HTTP/1.1 101"));
    got.erase(0, got.find("\r\n\r\n") + 4);
  }

  // A frame: `first` is its first byte (FIN, opcode); masked unless told otherwise.
  static std::string frame(unsigned char first, const std::string& payload, bool masked = true) {
    const unsigned char mask[4] = {0x0a, 0xb1, 0x5c, 0x77};
    std::string f;
    f += static_cast<char>(first);
    const unsigned char m = masked ? 0x80 : 0x00;
    if (payload.size() < 126) {
      f += static_cast<char>(m | payload.size());
    } else {
      f += static_cast<char>(m | 126);
      f += static_cast<char>(payload.size() >> 8);
      f += static_cast<char>(payload.size() & 0xff);
    }
    if (masked) {
      for (unsigned char k : mask) f += static_cast<char>(k);
    }
    for (std::size_t i = 0; i < payload.size(); ++i) f += static_cast<char>(masked ? payload[i] ^ mask[i % 4] : payload[i]);
    return f;
  }

  void write(const std::string& bytes) { boost::asio::write(s_, boost::asio::buffer(bytes)); }

  // Reads until `done()` or the server's end of stream (then `ended` is set), at most 3 s.
  template <class Done>
  void read_until(const Done& done) {
    s_.non_blocking(true);
    const auto until = std::chrono::steady_clock::now() + 3s;
    char buf[4096];
    while (!done() && !ended && std::chrono::steady_clock::now() < until) {
      boost::system::error_code ec;
      const auto n = s_.read_some(boost::asio::buffer(buf), ec);
      if (ec == boost::asio::error::would_block) {
        std::this_thread::sleep_for(5ms);
        continue;
      }
      if (ec) {
        ended = true;
        break;
      }
      got.append(buf, n);
    }
  }

  int count(std::string_view what) const {
    int n = 0;
    for (auto at = got.find(what); at != std::string::npos; at = got.find(what, at + 1)) ++n;
    return n;
  }

  // The code of the server's close frame (0x88), or -1.
  int close_code() const {
    const auto at = got.find("\x88");
    if (at == std::string::npos || at + 4 > got.size()) return -1;
    return (static_cast<unsigned char>(got[at + 2]) << 8) | static_cast<unsigned char>(got[at + 3]);
  }

  std::string got;
  bool ended = false;

 private:
  boost::asio::io_context io_;
  boost::asio::ip::tcp::socket s_;
};

}  // namespace

TEST_CASE("a message in fragments is one message; a ping between them is answered") {
  ServerProcess server;
  const std::string room = create_room(server.port());
  RawWs ws(server.port(), room);
  ws.write(RawWs::frame(0x01, "{\"type\":") + RawWs::frame(0x89, "mid") + RawWs::frame(0x00, "\"wa"));
  ws.read_until([&] { return ws.got.find("\x8a\x03mid") != std::string::npos; });
  CHECK(ws.got.find("\x8a\x03mid") != std::string::npos);  // the pong, while the message is unfinished
  ws.write(RawWs::frame(0x80, "tch\"}"));
  ws.read_until([&] { return ws.count("\"welcome\"") >= 1; });
  CHECK(ws.count("\"welcome\"") == 1);  // {"type":"watch"}, put back together, was answered
  CHECK(ws.count("\"error\"") == 0);
  // A binary message is refused, the connection kept.
  ws.write(RawWs::frame(0x82, "{}"));
  ws.read_until([&] { return ws.count("bad_message") >= 1; });
  CHECK(ws.count("bad_message") == 1);
  CHECK_FALSE(ws.ended);
}

TEST_CASE("the client's close is answered with its code, then the server ends the connection") {
  ServerProcess server;
  const std::string room = create_room(server.port());
  RawWs ws(server.port(), room);
  ws.write(RawWs::frame(0x88, std::string("\x0f\xa0", 2) + "bye"));  // 4000
  ws.read_until([] { return false; });
  CHECK(ws.close_code() == 4000);
  CHECK(ws.ended);
}

TEST_CASE("protocol errors close with 1002, a message over the limit in fragments with 1009") {
  ServerProcess server;  // messages of at most 4,096 bytes (docs/protocol.md)
  const std::string room = create_room(server.port());
  SUBCASE("a continuation with no message begun") {
    RawWs ws(server.port(), room);
    ws.write(RawWs::frame(0x80, "x"));
    ws.read_until([] { return false; });
    CHECK(ws.close_code() == 1002);
    CHECK(ws.ended);
  }
  SUBCASE("an unmasked frame") {
    RawWs ws(server.port(), room);
    ws.write(RawWs::frame(0x81, "{\"type\":\"resync\"}", false));
    ws.read_until([] { return false; });
    CHECK(ws.close_code() == 1002);
    CHECK(ws.count("\"state\"") == 0);
  }
  SUBCASE("a new message before the last one ended") {
    RawWs ws(server.port(), room);
    ws.write(RawWs::frame(0x01, "{") + RawWs::frame(0x81, "{}"));
    ws.read_until([] { return false; });
    CHECK(ws.close_code() == 1002);
  }
  SUBCASE("fragments that add up past the limit") {
    RawWs ws(server.port(), room);
    ws.write(RawWs::frame(0x01, std::string(2100, ' ')) + RawWs::frame(0x00, std::string(2100, ' ')));
    ws.read_until([] { return false; });
    CHECK(ws.close_code() == 1009);
    CHECK(ws.ended);
  }
  SUBCASE("fragments that stay within it are one message") {
    RawWs ws(server.port(), room);
    ws.write(RawWs::frame(0x01, std::string(2000, ' ')) + RawWs::frame(0x80, std::string(2000, ' ')));
    ws.read_until([&] { return ws.count("bad_json") >= 1; });
    CHECK(ws.count("bad_json") == 1);
    CHECK(ws.close_code() == -1);
  }
}

}  // namespace carc::test
