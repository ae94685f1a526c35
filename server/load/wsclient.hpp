// A minimal WebSocket client for the load generator (RFC 6455, text frames only), on the
// generator's epoll loop (loop.hpp): a non-blocking socket, one recv takes every frame that
// has arrived, and the frames queued for a socket during one turn of the loop leave in one
// send. It exists so the generator is never the bottleneck of a benchmark; it is not a
// general client (no extensions, no fragmented messages). 127.0.0.1 only.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "loop.hpp"

namespace carc::load {

class WsConn final : public Io {
 public:
  struct Handler {
    virtual ~Handler() = default;
    virtual void on_open(WsConn& c) = 0;
    virtual void on_text(WsConn& c, std::string_view text) = 0;
    virtual void on_closed(WsConn& c, std::string_view why) = 0;
  };

 private:
  Loop& loop_;
  Handler& handler_;
  int fd_ = -1;
  // What the last reads left unparsed (a partial frame or handshake), usually nothing: then
  // no buffer is held at all.
  std::unique_ptr<char[]> in_;
  std::size_t in_cap_ = 0;
  std::size_t in_len_ = 0;
  std::size_t need_ = 0;  // the size of the partial frame held, when its header is in
  std::string out_;          // frames not sent yet
  std::size_t out_sent_ = 0;  // of out_, after a partial send
  bool connected_ = false;    // the TCP connection is up
  bool open_ = false;         // handshake done
  bool was_open_ = false;
  bool closed_ = false;
  bool flush_queued_ = false;  // on the loop's flush list
  bool blocked_ = false;       // a send was partial: the rest waits for EPOLLOUT
  std::uint64_t mask_state_;

  void on_ready(std::uint32_t events) override;
  void on_flush() override;
  void on_connected(std::uint32_t events);
  void read(bool ended);
  std::size_t parse(const char* data, std::size_t n);  // bytes used
  void frame(std::uint8_t opcode, std::string_view payload);
  void keep(const char* data, std::size_t n);
  void reserve(std::size_t n);
  void queue(std::string_view bytes);
  void write();
  void fail(std::string_view why);

 public:
  WsConn(Loop& loop, Handler& handler, std::uint64_t seed);
  ~WsConn() override;
  WsConn(const WsConn&) = delete;
  WsConn& operator=(const WsConn&) = delete;

  // Connects to 127.0.0.1:`port` and asks to upgrade `path`; on_open or on_closed follows.
  // From the loopback address `source` (host order, e.g. 127.1.0.1), 0: the system's choice.
  void connect(int port, const std::string& path, std::uint32_t source = 0);
  void send_text(std::string_view text);
  void close();  // without calling on_closed
  bool open() const { return open_; }
  bool was_open() const { return was_open_; }  // the handshake succeeded at some point
  int tag = 0;  // for the handler
};

// One HTTP/1.1 request to 127.0.0.1:`port` on a fresh connection, on the loop:
// `done(status, body)`, status 0 on failure. A chunked answer is decoded. A POST sends `body`.
void http_request(Loop& loop, int port, std::string_view method, std::string_view target,
                  std::function<void(int, std::string)> done, std::string_view body = "{}");

// The same, blocking, with a few seconds' timeout: the body of a 200, else "". For the
// requests before and after a run, and the rare /metrics sample.
std::string http_get(int port, std::string_view target);

}  // namespace carc::load
