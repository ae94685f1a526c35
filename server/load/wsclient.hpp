// A minimal WebSocket client for the load generator (RFC 6455, text frames only): one read
// syscall takes every frame that has arrived, and frames queued while a write is in flight
// leave together in the next one. It exists so the generator is never the bottleneck of a
// benchmark; it is not a general client (no extensions, no fragmented messages).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>

namespace carc::load {

class WsConn : public std::enable_shared_from_this<WsConn> {
 public:
  struct Handler {
    virtual ~Handler() = default;
    virtual void on_open(WsConn& c) = 0;
    virtual void on_text(WsConn& c, std::string_view text) = 0;
    virtual void on_closed(WsConn& c, std::string_view why) = 0;
  };

  WsConn(boost::asio::io_context& io, Handler& handler, std::uint64_t seed);
  void connect(const boost::asio::ip::tcp::endpoint& ep, const std::string& path);
  void send_text(std::string_view text);
  void close();
  bool open() const { return open_; }
  bool was_open() const { return was_open_; }  // the handshake succeeded at some point
  int tag = 0;  // for the handler

 private:
  void read();
  void on_read(std::size_t n);
  bool parse_handshake();
  void parse_frames();
  void frame(std::uint8_t opcode, std::string_view payload);
  void write();
  void fail(std::string_view why);

  boost::asio::ip::tcp::socket sock_;
  Handler& handler_;
  std::vector<char> in_;
  std::size_t in_len_ = 0;
  std::string out_;      // frames waiting for the next write
  std::string writing_;  // the write in flight
  bool busy_ = false;
  bool open_ = false;    // handshake done
  bool was_open_ = false;
  bool closed_ = false;
  std::uint64_t mask_state_;
};

// One HTTP/1.1 request on a fresh connection; `done(status, body)` (status 0 on failure).
void http_request(boost::asio::io_context& io, const boost::asio::ip::tcp::endpoint& ep, std::string_view method,
                  std::string_view target, std::function<void(int, std::string)> done);

}  // namespace carc::load
