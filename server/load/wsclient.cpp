#include "wsclient.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <utility>

namespace carc::load {
namespace {

// Room kept after a partial frame, so that the rest of a frame and those behind it come in
// one recv.
constexpr std::size_t kChunk = 16 * 1024;

// A TCP socket connecting to 127.0.0.1:`port` (non-blocking unless `blocking`), from the
// loopback address `source` (host order; 0: the system's choice), or -1 with errno set.
// No Nagle: a play must leave at once.
int start_connect(int port, bool blocking = false, std::uint32_t source = 0) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | (blocking ? 0 : SOCK_NONBLOCK), 0);
  if (fd < 0) return -1;
  const int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  if (source != 0) {
    sockaddr_in from{};
    from.sin_family = AF_INET;
    from.sin_addr.s_addr = htonl(source);
    if (::bind(fd, reinterpret_cast<const sockaddr*>(&from), sizeof from) != 0) {
      const int e = errno;
      ::close(fd);
      errno = e;
      return -1;
    }
  }
  if (blocking) {  // a short timeout for each step of a blocking request (connect included)
    const timeval tv{5, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
  }
  sockaddr_in to{};
  to.sin_family = AF_INET;
  to.sin_port = htons(static_cast<std::uint16_t>(port));
  to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&to), sizeof to) != 0 && errno != EINPROGRESS) {
    const int e = errno;
    ::close(fd);
    errno = e;
    return -1;
  }
  return fd;
}

// Why a non-blocking connect failed.
std::string connect_error(int fd) {
  int err = 0;
  socklen_t len = sizeof err;
  ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len);
  return std::strerror(err != 0 ? err : ECONNREFUSED);
}

std::string request_text(int port, std::string_view method, std::string_view target, std::string_view body = "{}") {
  return std::string(method) + " " + std::string(target) + " HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(port) +
         "\r\nConnection: close\r\nContent-Type: application/json\r\n" +
         (method == "POST" ? "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + std::string(body)
                           : std::string("\r\n"));
}

// A chunked body (Node's http answers so): hex size, CRLF, data, CRLF, ..., 0.
std::string unchunk(const std::string& in) {
  std::string out;
  std::size_t at = 0;
  while (at < in.size()) {
    const auto eol = in.find("\r\n", at);
    if (eol == std::string::npos) break;
    const std::size_t n = std::strtoul(in.substr(at, eol - at).c_str(), nullptr, 16);
    if (n == 0 || eol + 2 + n > in.size()) break;
    out.append(in, eol + 2, n);
    at = eol + 2 + n + 2;
  }
  return out;
}

// The status (0 if none) and body of a whole response (the server closed after it).
std::pair<int, std::string> parse_response(const std::string& response) {
  const auto head_end = response.find("\r\n\r\n");
  int status = 0;
  if (response.size() > 12 && response.starts_with("HTTP/1.1 ")) status = std::atoi(response.c_str() + 9);
  if (head_end == std::string::npos) return {status, std::string()};
  std::string head = response.substr(0, head_end);
  for (char& c : head) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::string body = response.substr(head_end + 4);
  if (head.find("transfer-encoding: chunked") != std::string::npos) body = unchunk(body);
  return {status, std::move(body)};
}

// One request on the loop; it frees itself once `done` has been called.
class HttpCall final : public Io {
  Loop& loop_;
  int fd_ = -1;
  std::string request_;
  std::size_t sent_ = 0;
  std::string response_;
  std::function<void(int, std::string)> done_;
  bool connected_ = false;
  bool finished_ = false;

  void on_ready(std::uint32_t events) override {
    if (finished_) return;
    if (!connected_) {
      if ((events & (EPOLLERR | EPOLLHUP)) != 0) return finish(0, connect_error(fd_));
      if ((events & EPOLLOUT) == 0) return;
      connected_ = true;
    }
    if (sent_ < request_.size() && (events & EPOLLOUT) != 0) {
      const ssize_t n = ::send(fd_, request_.data() + sent_, request_.size() - sent_, MSG_NOSIGNAL);
      if (n < 0 && errno != EAGAIN && errno != EINTR) return finish(0, std::strerror(errno));
      if (n > 0) sent_ += static_cast<std::size_t>(n);
    }
    if ((events & (EPOLLIN | EPOLLRDHUP | EPOLLERR | EPOLLHUP)) == 0) return;
    const bool ended = (events & (EPOLLRDHUP | EPOLLERR | EPOLLHUP)) != 0;  // read on to the end
    const std::span<char> buf = loop_.scratch();
    for (;;) {
      const ssize_t n = ::recv(fd_, buf.data(), buf.size(), 0);
      if (n < 0 && (errno == EAGAIN || errno == EINTR)) return;
      if (n <= 0) break;  // the server closes after the answer
      response_.append(buf.data(), static_cast<std::size_t>(n));
      if (static_cast<std::size_t>(n) < buf.size() && !ended) return;
    }
    auto [status, body] = parse_response(response_);
    finish(status, std::move(body));
  }

 public:
  HttpCall(Loop& loop, std::string request, std::function<void(int, std::string)> done)
      : loop_(loop), request_(std::move(request)), done_(std::move(done)) {}
  ~HttpCall() override {
    if (fd_ >= 0) ::close(fd_);
  }
  HttpCall(const HttpCall&) = delete;
  HttpCall& operator=(const HttpCall&) = delete;

  void start(int port) {
    fd_ = start_connect(port);
    if (fd_ < 0 || !loop_.watch(fd_, *this)) {
      // Reported at the end of the turn, as any failure is: the caller is not re-entered.
      const std::string why = std::strerror(errno);
      loop_.later([this, why] { finish(0, why); });
    }
  }
  void finish(int status, std::string body) {
    if (finished_) return;
    finished_ = true;
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
    done_(status, std::move(body));
    loop_.retire(std::unique_ptr<Io>(this));
  }
};

}  // namespace

WsConn::WsConn(Loop& loop, Handler& handler, std::uint64_t seed)
    : loop_(loop), handler_(handler), mask_state_(seed | 1) {}

WsConn::~WsConn() {
  if (fd_ >= 0) ::close(fd_);
}

void WsConn::connect(int port, const std::string& path, std::uint32_t source) {
  // The key only has to be 16 bytes in base64; servers check its form, not its randomness.
  out_ = "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(port) +
         "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
         "Sec-WebSocket-Version: 13\r\n\r\n";
  fd_ = start_connect(port, false, source);
  if (fd_ < 0 || !loop_.watch(fd_, *this)) {
    // Reported at the end of the turn, as any failure is: the caller is not re-entered.
    const std::string why = std::string("connect: ") + std::strerror(errno);
    loop_.later([this, why] { fail(why); });
  }
}

void WsConn::on_ready(std::uint32_t events) {
  if (closed_) return;
  if (!connected_) {
    on_connected(events);
    if (!connected_ || closed_) return;
  }
  if ((events & (EPOLLIN | EPOLLRDHUP | EPOLLERR | EPOLLHUP)) != 0) {
    read((events & (EPOLLRDHUP | EPOLLERR | EPOLLHUP)) != 0);
  }
  if (!closed_ && blocked_ && (events & EPOLLOUT) != 0) {
    blocked_ = false;
    write();
  }
}

void WsConn::on_connected(std::uint32_t events) {
  if ((events & (EPOLLERR | EPOLLHUP)) != 0) return fail("connect: " + connect_error(fd_));
  if ((events & EPOLLOUT) == 0) return;
  connected_ = true;
  write();  // the upgrade request
}

void WsConn::fail(std::string_view why) {
  if (closed_) return;
  close();
  handler_.on_closed(*this, why);
}

void WsConn::close() {
  if (closed_) return;
  closed_ = true;
  open_ = false;
  if (fd_ >= 0) ::close(fd_);  // which also takes it out of the epoll set
  fd_ = -1;
}

// Edge-triggered: read until the socket is drained. A recv that fills less than its buffer
// has taken everything there was (a later arrival is a new edge), so the usual last recv
// that only says EAGAIN is saved; unless the server has `ended` its side, whose end then
// still waits behind the data with no edge to come.
void WsConn::read(bool ended) {
  const std::span<char> scratch = loop_.scratch();
  for (;;) {
    // With nothing held back, read into the loop's buffer and keep only a partial frame;
    // else read behind what is held, to join it.
    const bool direct = open_ && in_len_ == 0;
    if (!direct) reserve(std::max(in_len_ + kChunk, need_));
    char* const to = direct ? scratch.data() : in_.get() + in_len_;
    const std::size_t room = direct ? scratch.size() : in_cap_ - in_len_;
    const ssize_t got = ::recv(fd_, to, room, 0);
    if (got < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) return;
      return fail(std::strerror(errno));
    }
    if (got == 0) return fail("closed by the server");
    const auto n = static_cast<std::size_t>(got);
    if (direct) {
      const std::size_t used = parse(to, n);
      if (closed_) return;
      keep(to + used, n - used);
    } else {
      in_len_ += n;
      const std::size_t used = parse(in_.get(), in_len_);
      if (closed_) return;
      in_len_ -= used;
      if (in_len_ == 0) {
        in_.reset();  // idle sockets hold no buffer
        in_cap_ = 0;
      } else if (used > 0) {
        std::memmove(in_.get(), in_.get() + used, in_len_);
      }
    }
    if (n < room && !ended) return;
  }
}

void WsConn::reserve(std::size_t n) {
  if (in_cap_ >= n) return;
  const std::size_t cap = std::max(n, 2 * in_cap_);
  auto bigger = std::make_unique_for_overwrite<char[]>(cap);
  if (in_len_ > 0) std::memcpy(bigger.get(), in_.get(), in_len_);
  in_ = std::move(bigger);
  in_cap_ = cap;
}

void WsConn::keep(const char* data, std::size_t n) {
  if (n == 0) return;
  reserve(std::max(n + kChunk, need_));
  std::memcpy(in_.get(), data, n);
  in_len_ = n;
}

std::size_t WsConn::parse(const char* data, std::size_t n) {
  std::size_t at = 0;
  need_ = 0;
  if (!open_) {
    const std::string_view got(data, n);
    const auto end = got.find("\r\n\r\n");
    if (end == std::string_view::npos) return 0;
    if (!got.starts_with("HTTP/1.1 101")) {
      fail("upgrade refused: " + std::string(got.substr(0, got.find("\r\n"))));
      return 0;
    }
    at = end + 4;
    open_ = true;
    was_open_ = true;
    handler_.on_open(*this);
  }
  while (!closed_) {
    const std::size_t left = n - at;
    if (left < 2) break;
    const auto* p = reinterpret_cast<const unsigned char*>(data + at);
    const std::uint8_t opcode = p[0] & 0x0F;
    if ((p[1] & 0x80) != 0) {
      fail("a masked frame from the server");
      break;
    }
    std::uint64_t len = p[1] & 0x7F;
    std::size_t head = 2;
    if (len == 126) {
      if (left < 4) break;
      len = (std::uint64_t{p[2]} << 8) | p[3];
      head = 4;
    } else if (len == 127) {
      if (left < 10) break;
      len = 0;
      for (int i = 0; i < 8; ++i) len = (len << 8) | p[2 + i];
      head = 10;
    }
    if (left < head + len) {
      need_ = static_cast<std::size_t>(head + len);  // room for the whole frame, read next
      break;
    }
    frame(opcode, std::string_view(data + at + head, static_cast<std::size_t>(len)));
    at += head + static_cast<std::size_t>(len);
  }
  return at;
}

void WsConn::frame(std::uint8_t opcode, std::string_view payload) {
  switch (opcode) {
    case 0x1: return handler_.on_text(*this, payload);
    case 0x8: return fail("close frame");
    case 0x9: {  // ping: pong with the same payload
      const char head[] = {static_cast<char>(0x8A), static_cast<char>(0x80 | static_cast<int>(payload.size() & 0x7F)),
                           0, 0, 0, 0};  // a zero mask leaves the payload as it is
      queue(std::string_view(head, sizeof head));
      queue(payload);
      return;
    }
    default: return;
  }
}

void WsConn::send_text(std::string_view text) {
  if (closed_) return;
  const std::size_t n = text.size();
  char head[14];
  std::size_t h = 0;
  head[h++] = static_cast<char>(0x81);
  if (n < 126) {
    head[h++] = static_cast<char>(0x80 | n);
  } else if (n < 65536) {
    head[h++] = static_cast<char>(0x80 | 126);
    head[h++] = static_cast<char>(n >> 8);
    head[h++] = static_cast<char>(n & 0xFF);
  } else {
    head[h++] = static_cast<char>(0x80 | 127);
    for (int i = 7; i >= 0; --i) head[h++] = static_cast<char>((static_cast<std::uint64_t>(n) >> (8 * i)) & 0xFF);
  }
  mask_state_ ^= mask_state_ << 13;
  mask_state_ ^= mask_state_ >> 7;
  mask_state_ ^= mask_state_ << 17;
  char key[4];
  std::memcpy(key, &mask_state_, 4);
  std::memcpy(head + h, key, 4);
  h += 4;
  queue(std::string_view(head, h));
  const std::size_t start = out_.size();
  out_.append(text);
  char* const masked = out_.data() + start;
  for (std::size_t i = 0; i < n; ++i) masked[i] = static_cast<char>(masked[i] ^ key[i & 3]);
}

// Frames wait in out_ for the end of the loop's turn (or for EPOLLOUT, after a partial send).
void WsConn::queue(std::string_view bytes) {
  out_.append(bytes);
  if (open_ && !flush_queued_ && !blocked_) {
    flush_queued_ = true;
    loop_.flush_later(*this);
  }
}

void WsConn::on_flush() {
  flush_queued_ = false;
  if (!closed_ && !blocked_) write();
}

void WsConn::write() {
  if (out_sent_ < out_.size()) {
    const ssize_t n = ::send(fd_, out_.data() + out_sent_, out_.size() - out_sent_, MSG_NOSIGNAL);
    if (n < 0) {
      if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
        return fail(std::string("write: ") + std::strerror(errno));
      }
      blocked_ = true;
      return;
    }
    out_sent_ += static_cast<std::size_t>(n);
    if (out_sent_ < out_.size()) {  // the send buffer is full: the rest waits for EPOLLOUT
      blocked_ = true;
      return;
    }
  }
  out_.clear();
  out_sent_ = 0;
}

void http_request(Loop& loop, int port, std::string_view method, std::string_view target,
                  std::function<void(int, std::string)> done, std::string_view body) {
  auto call = std::make_unique<HttpCall>(loop, request_text(port, method, target, body), std::move(done));
  call.release()->start(port);  // it owns itself until it is done
}

std::string http_get(int port, std::string_view target) {
  const int fd = start_connect(port, true);
  if (fd < 0) return std::string();
  const std::string request = request_text(port, "GET", target);
  std::string response;
  bool ok = ::send(fd, request.data(), request.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(request.size());
  char buf[16 * 1024];
  while (ok) {
    const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n <= 0) break;  // the server closes after the answer (or the timeout)
    response.append(buf, static_cast<std::size_t>(n));
  }
  ::close(fd);
  auto [status, body] = parse_response(response);
  return status == 200 ? std::move(body) : std::string();
}

}  // namespace carc::load
