// HTTP request handling up to the routing decision, without sockets: the bytes of one
// request go through Beast's parser with the server's limits, then through what the
// session decides from them: the route, the client address behind trusted proxies, the
// static path check and the page's Content-Security-Policy.
#include <algorithm>
#include <string>

#include <boost/asio/buffer.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket/rfc6455.hpp>

#include "limits/address.hpp"
#include "fuzz_check.hpp"
#include "http/routing.hpp"
#include "http/static_files.hpp"

namespace http = boost::beast::http;
using namespace carc::server;

namespace {

bool within(std::string_view part, std::string_view whole) {
  return part.empty() || (part.data() >= whole.data() && part.data() + part.size() <= whole.data() + whole.size());
}

const std::vector<Cidr>& trusted() {
  static const std::vector<Cidr> t = {*Cidr::parse("127.0.0.0/8"), *Cidr::parse("10.0.0.0/8"), *Cidr::parse("fd00::/8")};
  return t;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  http::request_parser<http::string_body> parser;
  parser.header_limit(8 * 1024);  // as HttpSession
  parser.body_limit(4 * 1024);
  boost::beast::error_code ec;
  std::size_t used = 0;
  while (used < size && !parser.is_done()) {
    const std::size_t n = parser.put(boost::asio::buffer(data + used, size - used), ec);
    used += n;
    if (ec == http::error::need_more) {
      ec = {};
      if (n == 0) break;
      continue;
    }
    if (ec) return 0;  // the session answers 400/413/431
  }
  if (!parser.is_done()) {
    parser.put_eof(ec);
    if (ec || !parser.is_done()) return 0;
  }
  const auto req = parser.release();
  const std::string_view target = req.target();
  const HttpMethod method = method_from(req.method_string());
  const bool upgrade = boost::beast::websocket::is_upgrade(req);

  for (const Listen listen : {Listen::Public, Listen::PublicNoMetrics, Listen::MetricsOnly}) {
    const Route r = route_request(method, target, upgrade, listen);
    FUZZ_CHECK(within(r.arg, target));
    if (listen == Listen::MetricsOnly) {
      FUZZ_CHECK(r.kind == Route::Kind::Metrics || r.kind == Route::Kind::Healthz || r.kind == Route::Kind::NotFound ||
                 r.kind == Route::Kind::MethodNotAllowed);
    }
    if (listen != Listen::Public) FUZZ_CHECK(r.kind != Route::Kind::Metrics || listen == Listen::MetricsOnly);
    if (r.kind == Route::Kind::CreateRoom) FUZZ_CHECK(method == HttpMethod::Post);
    if (r.kind == Route::Kind::Static) {
      FUZZ_CHECK(method == HttpMethod::Get || method == HttpMethod::Head);
      if (const auto rel = safe_relative_path(r.arg)) {
        // Nothing that could climb out of the web root survives the check.
        FUZZ_CHECK(rel->find('\0') == std::string::npos && rel->find('\\') == std::string::npos);
        FUZZ_CHECK(*rel != ".." && !rel->starts_with("../") && rel->find("/../") == std::string::npos &&
                   !rel->ends_with("/.."));
        FUZZ_CHECK(!rel->starts_with('/'));
      }
    }
  }

  // The client address: only trusted proxies' X-Forwarded-For counts.
  std::string xff;
  for (auto [it, end] = req.equal_range("X-Forwarded-For"); it != end; ++it) {
    if (!xff.empty()) xff += ',';
    xff += it->value();
  }
  const IpAddress proxy = *IpAddress::parse("127.0.0.1");
  const IpAddress stranger = *IpAddress::parse("203.0.113.9");
  FUZZ_CHECK(client_address(stranger, xff, trusted()) == stranger);
  const IpAddress client = client_address(proxy, xff, trusted());
  const auto again = IpAddress::parse(client.to_string());
  FUZZ_CHECK(again && *again == client);
  FUZZ_CHECK(!limit_key(client).empty());

  // The policy never takes anything from the Host header that could add a directive.
  const std::string csp = content_security_policy(req[http::field::host]);
  FUZZ_CHECK(std::count(csp.begin(), csp.end(), ';') == 8);
  FUZZ_CHECK(csp.find_first_of("\r\n\0,", 0, 4) == std::string::npos);
  return 0;
}
