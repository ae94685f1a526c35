#include "push/http_client.hpp"

#include <openssl/ssl.h>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>

#include "push/special_addresses.hpp"
#include "push/targets.hpp"

namespace carc::server::push {

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

// Why the server may not connect to `ep` (special_addresses.hpp), if it may not.
std::optional<std::string> special_endpoint(const tcp::endpoint& ep) {
  IpAddress a;
  const auto ip = ep.address();
  if (ip.is_v4()) {
    const auto v4 = ip.to_v4().to_bytes();
    a.v4 = true;
    a.bytes[10] = a.bytes[11] = 0xff;
    std::copy(v4.begin(), v4.end(), a.bytes.begin() + 12);
  } else {
    const auto v6 = ip.to_v6();
    const auto bytes = v6.to_bytes();
    std::copy(bytes.begin(), bytes.end(), a.bytes.begin());
    a.v4 = v6.is_v4_mapped();
  }
  return special_address(a);
}

// One request: resolve, check the addresses, connect, (TLS handshake), write, read.
class Call : public std::enable_shared_from_this<Call> {
 public:
  Call(asio::io_context& io, asio::ssl::context* tls, Url url, OutRequest req, bool allow_private, int timeout_s,
       std::function<void(OutResponse)> done)
      : resolver_(io), tcp_(io), url_(std::move(url)), allow_private_(allow_private), timeout_s_(timeout_s),
        done_(std::move(done)) {
    if (url_.https) tls_.emplace(io, *tls);
    req_.method(req.method == "GET" ? http::verb::get : http::verb::post);
    req_.target(url_.target);
    req_.version(11);
    req_.set(http::field::host, url_.origin.substr(url_.origin.find("://") + 3));
    req_.set(http::field::user_agent, "carcassonne-server");
    req_.set(http::field::connection, "close");
    for (auto& [k, v] : req.headers) req_.set(k, v);
    if (req_.method() == http::verb::post) {
      req_.body() = std::move(req.body);
      req_.prepare_payload();
    }
  }

  void start() {
    resolver_.async_resolve(url_.host, url_.port, [self = shared_from_this()](beast::error_code ec, tcp::resolver::results_type r) {
      self->resolved(ec, std::move(r));
    });
  }

 private:
  void fail(std::string why) {
    if (!done_) return;
    OutResponse r;
    r.error = std::move(why);
    auto d = std::move(done_);
    d(std::move(r));
  }

  beast::tcp_stream& stream() { return tls_ ? beast::get_lowest_layer(*tls_) : tcp_; }

  void resolved(beast::error_code ec, tcp::resolver::results_type results) {
    if (ec) return fail("cannot resolve " + url_.host + ": " + ec.message());
    if (!allow_private_) {
      for (const auto& e : results) {
        if (auto why = special_endpoint(e.endpoint())) {
          return fail(url_.host + " resolves to " + e.endpoint().address().to_string() + ", " + *why + " (refused)");
        }
      }
    }
    stream().expires_after(std::chrono::seconds(timeout_s_));
    stream().async_connect(results, [self = shared_from_this()](beast::error_code cec, const tcp::endpoint&) {
      if (cec) return self->fail("cannot connect to " + self->url_.host + ": " + cec.message());
      if (!self->tls_) return self->write();
      auto* ssl = self->tls_->native_handle();
      // SNI for names, and the certificate must name the host (a name, or an address literal).
      beast::error_code ignored;
      (void)asio::ip::make_address(self->url_.host, ignored);
      if (ignored) {
        SSL_ctrl(ssl, SSL_CTRL_SET_TLSEXT_HOSTNAME, TLSEXT_NAMETYPE_host_name, const_cast<char*>(self->url_.host.c_str()));
      }
      self->tls_->set_verify_mode(asio::ssl::verify_peer);
      self->tls_->set_verify_callback(asio::ssl::host_name_verification(self->url_.host));
      self->tls_->async_handshake(asio::ssl::stream_base::client, [self](beast::error_code hec) {
        if (hec) return self->fail("TLS with " + self->url_.host + ": " + hec.message());
        self->write();
      });
    });
  }

  void write() {
    stream().expires_after(std::chrono::seconds(timeout_s_));
    auto after = [self = shared_from_this()](beast::error_code ec, std::size_t) {
      if (ec) return self->fail("cannot send to " + self->url_.host + ": " + ec.message());
      self->read();
    };
    if (tls_) http::async_write(*tls_, req_, after);
    else http::async_write(tcp_, req_, after);
  }

  void read() {
    parser_.body_limit(256 * 1024);
    auto after = [self = shared_from_this()](beast::error_code ec, std::size_t) {
      if (ec) return self->fail("no answer from " + self->url_.host + ": " + ec.message());
      OutResponse r;
      const auto& res = self->parser_.get();
      r.status = static_cast<int>(res.result_int());
      if (const auto ra = res[http::field::retry_after]; !ra.empty()) {
        try {
          r.retry_after_s = std::stoi(std::string(ra));
        } catch (...) {
        }
      }
      r.body = std::move(self->parser_.get().body());
      auto d = std::move(self->done_);
      if (d) d(std::move(r));
      beast::error_code ignored;
      self->stream().socket().shutdown(tcp::socket::shutdown_both, ignored);
    };
    if (tls_) http::async_read(*tls_, buffer_, parser_, after);
    else http::async_read(tcp_, buffer_, parser_, after);
  }

  tcp::resolver resolver_;
  beast::tcp_stream tcp_;
  std::optional<beast::ssl_stream<beast::tcp_stream>> tls_;
  Url url_;
  bool allow_private_;
  int timeout_s_;
  std::function<void(OutResponse)> done_;
  http::request<http::string_body> req_;
  beast::flat_buffer buffer_;
  http::response_parser<http::string_body> parser_;
};

}  // namespace

HttpClient::HttpClient(asio::io_context& io, bool allow_private, const std::string& extra_ca, int timeout_s)
    : io_(io), allow_private_(allow_private), timeout_s_(timeout_s),
      tls_(std::make_unique<asio::ssl::context>(asio::ssl::context::tls_client)) {
  tls_->set_default_verify_paths();
  if (!extra_ca.empty()) {
    beast::error_code ec;
    tls_->load_verify_file(extra_ca, ec);
    if (ec) throw std::runtime_error("cannot read the CA file " + extra_ca + " (--extra-ca): " + ec.message());
  }
}

HttpClient::~HttpClient() = default;

void HttpClient::post(OutRequest request, std::function<void(OutResponse)> done) {
  auto url = parse_url(request.url);
  if (!url) return done(OutResponse{0, "not a URL", -1, {}});
  const bool allow_private = allow_private_ || request.trusted;
  if (!url->https && !allow_private) return done(OutResponse{0, "plain http is refused (--allow-private-hooks allows it)", -1, {}});
  std::make_shared<Call>(io_, tls_.get(), std::move(*url), std::move(request), allow_private, timeout_s_, std::move(done))
      ->start();
}

}  // namespace carc::server::push
