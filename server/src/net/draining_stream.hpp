// The TCP stream under the server's WebSockets (net/ws_session.cpp): reads that keep to the
// client's frames, so that Beast holds no byte of the next one once a message is read, and
// a teardown that drains the client's last bytes. Included by ws_session.cpp only (Beast
// stays in net/).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>

#include <boost/asio/compose.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>

#include "net/idle_watch.hpp"
#include "net/net.hpp"

namespace carc::server {

// Where the client's bytes stand in the WebSocket framing (RFC 6455, section 5.2): in a
// frame's header (2 to 14 bytes) or in its payload. A read of Beast's is handed no byte past
// the end of the header or payload it is in, so that Beast never holds the start of the next
// frame in its own read buffer: once a message is read whole, whatever comes next is still
// in the socket, and the session can wait for the socket to be readable with no read of
// Beast's pending (docs/hot-path.md#memory). A message costs a read or two more (a frame's
// first 2 bytes, then the rest of its header with its payload when that is short).
class FrameBounds {
 public:
  // The most the next read may take.
  std::size_t next_read() const {
    if (payload_left_ > 0) return static_cast<std::size_t>(std::min<std::uint64_t>(payload_left_, SIZE_MAX));
    const std::size_t head_left = head_need_ - head_have_;
    // Past the first 2 bytes a short length (under 126) is known: the rest of the header
    // and the whole payload come in one read.
    if (head_have_ >= 2 && (head_[1] & 0x7fu) < 126) return head_left + (head_[1] & 0x7fu);
    return head_left;
  }
  // The bytes a read brought, in order.
  void feed(const unsigned char* p, std::size_t n) {
    while (n > 0) {
      if (payload_left_ > 0) {
        const auto k = static_cast<std::size_t>(std::min<std::uint64_t>(payload_left_, n));
        payload_left_ -= k;
        p += k;
        n -= k;
        continue;
      }
      head_[head_have_++] = *p++;
      --n;
      if (head_have_ == 2) {
        const unsigned len7 = head_[1] & 0x7fu;
        head_need_ = static_cast<std::uint8_t>(2 + ((head_[1] & 0x80u) ? 4 : 0) + (len7 == 126 ? 2 : len7 == 127 ? 8 : 0));
      }
      if (head_have_ == head_need_) {  // the header is whole: its payload follows
        payload_left_ = payload_length();
        head_have_ = 0;
        head_need_ = 2;
      }
    }
  }

 private:
  std::uint64_t payload_length() const {
    const unsigned len7 = head_[1] & 0x7fu;
    if (len7 < 126) return len7;
    const int bytes = len7 == 126 ? 2 : 8;
    std::uint64_t len = 0;
    for (int i = 0; i < bytes; ++i) len = (len << 8) | head_[2 + i];
    return len;
  }

  std::uint64_t payload_left_ = 0;
  std::array<unsigned char, 14> head_{};
  std::uint8_t head_have_ = 0;
  std::uint8_t head_need_ = 2;
};

// The TCP stream under a WebSocket: its reads keep to the client's frames (FrameBounds) and
// tell the idle watch that the client was heard, and its teardown reads the client's last
// bytes to their end. Beast 1.81's own teardown stops after one read (it tests a byte count
// it never sets), then closes the socket while the client's bytes are still arriving: the
// kernel answers them with a reset, and a client that was still writing (a frame after the
// one refused with 1007, its close reply) loses the close frame and its code. This one
// drains until the client's end of stream, at most kMaxDrain bytes; the WebSocket's close
// timeout still bounds how long it waits.
//
// A plain socket, not a beast::tcp_stream: the WebSocket keeps its own timer for the
// handshakes, the idle watch the rest, and a tcp_stream would add its own state (about 500
// bytes) and a layer to every read. Its executor is the HTTP session's strand, which keeps
// the session's handlers from running at once on two threads.
class DrainingStream : public tcp::socket {
 public:
  explicit DrainingStream(tcp::socket&& s) : tcp::socket(std::move(s)) {}
  tcp::socket& socket() { return *this; }

  // Told of every byte that arrives (set once, before the first read).
  IdleWatch::Watched* watched = nullptr;

  // What Beast's reads call: one read of the socket, cut at the frame's bounds.
  template <class Buffers, class Token>
  auto async_read_some(const Buffers& buffers, Token&& token) {
    return asio::async_compose<Token, void(beast::error_code, std::size_t)>(
        FramedRead<Buffers>{*this, beast::buffers_prefix(frames_.next_read(), buffers)}, token, socket());
  }

 private:
  template <class Buffers>
  struct FramedRead {
    DrainingStream& stream;
    beast::buffers_prefix_view<Buffers> buffers;
    bool started = false;

    template <class Self>
    void operator()(Self& self, beast::error_code ec = {}, std::size_t n = 0) {
      if (!started) {
        started = true;
        return stream.socket().async_read_some(buffers, std::move(self));
      }
      if (n > 0) {
        std::size_t left = n;
        for (const auto b : beast::buffers_range_ref(buffers)) {
          const std::size_t k = std::min(left, b.size());
          stream.frames_.feed(static_cast<const unsigned char*>(b.data()), k);
          left -= k;
          if (left == 0) break;
        }
        if (stream.watched) stream.watched->heard(IdleWatch::now_ms());
      }
      self.complete(ec, n);
    }
  };

  FrameBounds frames_;
};

constexpr std::size_t kMaxDrain = 256 * 1024;

struct DrainOp {
  DrainingStream& stream;
  beast::role_type role;
  std::unique_ptr<std::array<char, 4096>> buf = std::make_unique<std::array<char, 4096>>();
  std::size_t drained = 0;
  bool started = false;

  template <class Self>
  void operator()(Self& self, beast::error_code ec = {}, std::size_t n = 0) {
    auto& sock = stream.socket();
    if (!started) {
      started = true;
      if (role == beast::role_type::server) sock.shutdown(tcp::socket::shutdown_send, ec);
      if (ec) return self.complete(ec);
    } else {
      drained += n;
      if (ec || drained > kMaxDrain) {
        if (ec == asio::error::eof || !ec) {
          ec = {};
          if (role == beast::role_type::client) sock.shutdown(tcp::socket::shutdown_send, ec);
        }
        beast::error_code ignored;
        sock.close(ignored);
        return self.complete(ec);
      }
    }
    sock.async_read_some(asio::buffer(*buf), std::move(self));
  }
};

// Found by argument-dependent lookup from websocket::stream<DrainingStream>; more
// specialised than Beast's overloads for basic_stream and for any socket.
template <class Handler>
auto async_teardown(beast::role_type role, DrainingStream& stream, Handler&& handler) {
  return asio::async_compose<Handler, void(beast::error_code)>(DrainOp{stream, role}, handler, stream.socket());
}

inline void teardown(beast::role_type role, DrainingStream& stream, beast::error_code& ec) {
  beast::websocket::teardown(role, stream.socket(), ec);
}

}  // namespace carc::server
