// Receivers for the notification tests: a plain HTTP server and an HTTPS one (Beast, a
// certificate made by the openssl command for 127.0.0.1), both on loopback, each recording
// every request and answering with the statuses it is given (then 201).
#pragma once

#include <boost/asio/ssl.hpp>
#include <boost/beast/ssl.hpp>
#include <deque>
#include <mutex>

#include "harness.hpp"

namespace carc::test {

namespace ssl = asio::ssl;

struct Received {
  std::string target;
  std::map<std::string, std::string> headers;
  std::string body;
};

class Receiver {
 public:
  // `cert_dir` set: HTTPS with cert.pem / key.pem from there.
  explicit Receiver(std::filesystem::path cert_dir = {})
      : acceptor_(io_, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0)), tls_(ssl::context::tls_server) {
    if (!cert_dir.empty()) {
      https_ = true;
      tls_.use_certificate_chain_file((cert_dir / "cert.pem").string());
      tls_.use_private_key_file((cert_dir / "key.pem").string(), ssl::context::pem);
    }
    thread_ = std::thread([this] { loop(); });
  }
  ~Receiver() {
    stop_ = true;
    beast::error_code ec;
    // Wake the blocking accept with a connection of our own.
    tcp::socket s(io_);
    s.connect(acceptor_.local_endpoint(), ec);
    thread_.join();
  }
  std::uint16_t port() const { return acceptor_.local_endpoint().port(); }
  std::string base() const { return std::string(https_ ? "https" : "http") + "://127.0.0.1:" + std::to_string(port()); }
  void answer_next(std::vector<int> statuses) {
    std::lock_guard lock(mu_);
    for (int s : statuses) statuses_.push_back(s);
  }
  std::vector<Received> received() {
    std::lock_guard lock(mu_);
    return got_;
  }
  bool wait_for(std::size_t n, std::chrono::milliseconds limit) {
    const auto end = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < end) {
      if (received().size() >= n) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return false;
  }

  // Makes a self-signed CA certificate for 127.0.0.1 in `dir` (cert.pem, key.pem).
  static void make_cert(const std::filesystem::path& dir) {
    const std::string cmd = "openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 -subj /CN=127.0.0.1 "
                            "-addext subjectAltName=IP:127.0.0.1 -addext basicConstraints=critical,CA:TRUE "
                            "-keyout " + (dir / "key.pem").string() + " -out " + (dir / "cert.pem").string() + " 2>/dev/null";
    if (std::system(cmd.c_str()) != 0) throw std::runtime_error("openssl could not make a certificate");
  }

 private:
  template <class Stream>
  void serve(Stream& stream) {
    beast::flat_buffer buf;
    http::request<http::string_body> req;
    beast::error_code ec;
    http::read(stream, buf, req, ec);
    if (ec) return;
    Received r{std::string(req.target()), {}, req.body()};
    for (const auto& f : req) r.headers[std::string(f.name_string())] = std::string(f.value());
    int status = 201;
    {
      std::lock_guard lock(mu_);
      got_.push_back(std::move(r));
      if (!statuses_.empty()) {
        status = statuses_.front();
        statuses_.pop_front();
      }
    }
    http::response<http::string_body> res{static_cast<http::status>(status), 11};
    res.set(http::field::connection, "close");
    res.prepare_payload();
    http::write(stream, res, ec);
  }
  void loop() {
    while (!stop_) {
      tcp::socket sock(io_);
      beast::error_code ec;
      acceptor_.accept(sock, ec);
      if (ec || stop_) return;
      timeval tv{5, 0};
      ::setsockopt(sock.native_handle(), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
      if (https_) {
        beast::ssl_stream<tcp::socket> s(std::move(sock), tls_);
        s.handshake(ssl::stream_base::server, ec);
        if (!ec) serve(s);
        s.shutdown(ec);
      } else {
        serve(sock);
      }
    }
  }

  asio::io_context io_;
  tcp::acceptor acceptor_;
  ssl::context tls_;
  bool https_ = false;
  std::atomic<bool> stop_{false};
  std::mutex mu_;
  std::deque<int> statuses_;
  std::vector<Received> got_;
  std::thread thread_;
};

}  // namespace carc::test
