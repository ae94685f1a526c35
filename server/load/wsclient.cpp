#include "wsclient.hpp"

#include <cctype>
#include <cstdlib>
#include <cstring>

#include <boost/asio/connect.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>

namespace carc::load {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;

WsConn::WsConn(asio::io_context& io, Handler& handler, std::uint64_t seed)
    : sock_(io), handler_(handler), in_(64 * 1024), mask_state_(seed | 1) {}

void WsConn::connect(const tcp::endpoint& ep, const std::string& path) {
  sock_.async_connect(ep, [self = shared_from_this(), ep, path](boost::system::error_code ec) {
    if (ec) return self->fail("connect: " + ec.message());
    self->sock_.set_option(tcp::no_delay(true));
    // The key only has to be 16 bytes in base64; servers check its form, not its randomness.
    self->out_ = "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(ep.port()) +
                 "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                 "Sec-WebSocket-Version: 13\r\n\r\n";
    self->write();
    self->read();
  });
}

void WsConn::fail(std::string_view why) {
  if (closed_) return;
  closed_ = true;
  open_ = false;
  boost::system::error_code ignored;
  sock_.close(ignored);
  handler_.on_closed(*this, why);
}

void WsConn::close() {
  if (closed_) return;
  closed_ = true;
  open_ = false;
  boost::system::error_code ignored;
  sock_.shutdown(tcp::socket::shutdown_both, ignored);
  sock_.close(ignored);
}

void WsConn::read() {
  if (in_len_ == in_.size()) in_.resize(in_.size() * 2);
  sock_.async_read_some(asio::buffer(in_.data() + in_len_, in_.size() - in_len_),
                        [self = shared_from_this()](boost::system::error_code ec, std::size_t n) {
                          if (self->closed_) return;
                          if (ec) return self->fail(ec == asio::error::eof ? "closed by the server" : ec.message());
                          self->on_read(n);
                        });
}

void WsConn::on_read(std::size_t n) {
  in_len_ += n;
  if (!open_ && !parse_handshake()) return read();
  parse_frames();
  if (!closed_) read();
}

bool WsConn::parse_handshake() {
  const std::string_view got(in_.data(), in_len_);
  const auto end = got.find("\r\n\r\n");
  if (end == std::string_view::npos) return false;
  if (got.substr(0, 12) != "HTTP/1.1 101") {
    fail("upgrade refused: " + std::string(got.substr(0, got.find("\r\n"))));
    return false;
  }
  const std::size_t used = end + 4;
  std::memmove(in_.data(), in_.data() + used, in_len_ - used);
  in_len_ -= used;
  open_ = true;
  was_open_ = true;
  handler_.on_open(*this);
  return true;
}

void WsConn::parse_frames() {
  std::size_t at = 0;
  while (!closed_) {
    const std::size_t left = in_len_ - at;
    if (left < 2) break;
    const auto* p = reinterpret_cast<const unsigned char*>(in_.data() + at);
    const std::uint8_t opcode = p[0] & 0x0F;
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
      // Make room for a frame larger than the buffer.
      if (head + len > in_.size()) in_.resize(static_cast<std::size_t>(head + len) * 2);
      break;
    }
    frame(opcode, std::string_view(in_.data() + at + head, static_cast<std::size_t>(len)));
    at += head + static_cast<std::size_t>(len);
  }
  if (at > 0 && !closed_) {
    std::memmove(in_.data(), in_.data() + at, in_len_ - at);
    in_len_ -= at;
  }
}

void WsConn::frame(std::uint8_t opcode, std::string_view payload) {
  switch (opcode) {
    case 0x1: return handler_.on_text(*this, payload);
    case 0x8: return fail("close frame");
    case 0x9: {  // ping: pong with the same payload
      std::string pong;
      pong += static_cast<char>(0x8A);
      pong += static_cast<char>(0x80 | static_cast<int>(payload.size()));
      pong.append(4, '\0');  // a zero mask leaves the payload as it is
      pong.append(payload);
      out_ += pong;
      if (!busy_) write();
      return;
    }
    default: return;
  }
}

void WsConn::send_text(std::string_view text) {
  if (closed_) return;
  const std::size_t n = text.size();
  out_ += static_cast<char>(0x81);
  if (n < 126) {
    out_ += static_cast<char>(0x80 | n);
  } else if (n < 65536) {
    out_ += static_cast<char>(0x80 | 126);
    out_ += static_cast<char>(n >> 8);
    out_ += static_cast<char>(n & 0xFF);
  } else {
    out_ += static_cast<char>(0x80 | 127);
    for (int i = 7; i >= 0; --i) out_ += static_cast<char>((static_cast<std::uint64_t>(n) >> (8 * i)) & 0xFF);
  }
  mask_state_ ^= mask_state_ << 13;
  mask_state_ ^= mask_state_ >> 7;
  mask_state_ ^= mask_state_ << 17;
  char key[4];
  std::memcpy(key, &mask_state_, 4);
  out_.append(key, 4);
  const std::size_t start = out_.size();
  out_.append(text);
  for (std::size_t i = 0; i < n; ++i) out_[start + i] = static_cast<char>(out_[start + i] ^ key[i & 3]);
  if (!busy_ && open_) write();
}

void WsConn::write() {
  if (out_.empty() || closed_) return;
  busy_ = true;
  writing_.swap(out_);
  out_.clear();
  asio::async_write(sock_, asio::buffer(writing_), [self = shared_from_this()](boost::system::error_code ec, std::size_t) {
    self->busy_ = false;
    self->writing_.clear();
    if (self->closed_) return;
    if (ec) return self->fail("write: " + ec.message());
    if (self->open_) self->write();
  });
}

// ---------------------------------------------------------------------------------------

namespace {

struct HttpCall : std::enable_shared_from_this<HttpCall> {
  tcp::socket sock;
  std::string request;
  std::string response;
  std::array<char, 4096> buf{};
  std::function<void(int, std::string)> done;
  explicit HttpCall(asio::io_context& io) : sock(io) {}

  void finish() {
    const auto head_end = response.find("\r\n\r\n");
    int status = 0;
    if (response.size() > 12 && response.starts_with("HTTP/1.1 ")) status = std::atoi(response.c_str() + 9);
    if (head_end == std::string::npos) return done(status, std::string());
    std::string head = response.substr(0, head_end);
    for (char& c : head) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    std::string body = response.substr(head_end + 4);
    if (head.find("transfer-encoding: chunked") != std::string::npos) body = unchunk(body);
    done(status, std::move(body));
  }
  // A chunked body (Node's http answers so): hex size, CRLF, data, CRLF, ..., 0.
  static std::string unchunk(const std::string& in) {
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
  void read() {
    sock.async_read_some(asio::buffer(buf), [self = shared_from_this()](boost::system::error_code ec, std::size_t n) {
      self->response.append(self->buf.data(), n);
      if (ec) return self->finish();  // the server closes after the answer
      self->read();
    });
  }
};

}  // namespace

void http_request(asio::io_context& io, const tcp::endpoint& ep, std::string_view method, std::string_view target,
                  std::function<void(int, std::string)> done) {
  auto call = std::make_shared<HttpCall>(io);
  call->done = std::move(done);
  call->request = std::string(method) + " " + std::string(target) + " HTTP/1.1\r\nHost: 127.0.0.1:" +
                  std::to_string(ep.port()) + "\r\nConnection: close\r\nContent-Type: application/json\r\n" +
                  (method == "POST" ? "Content-Length: 2\r\n\r\n{}" : "\r\n");
  call->sock.async_connect(ep, [call](boost::system::error_code ec) {
    if (ec) return call->done(0, ec.message());
    asio::async_write(call->sock, asio::buffer(call->request), [call](boost::system::error_code ec2, std::size_t) {
      if (ec2) return call->done(0, ec2.message());
      call->read();
    });
  });
}

}  // namespace carc::load
