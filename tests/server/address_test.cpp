// The pure parts of hardening: client addresses behind proxies, CIDR ranges, token buckets,
// the routing decision, and the flags that configure them.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "limits/address.hpp"
#include "app/config.hpp"
#include "net/net.hpp"
#include "limits/rate_limit.hpp"
#include "http/routing.hpp"

namespace carc::server {

namespace {

IpAddress ip(std::string_view s) {
  auto a = IpAddress::parse(s);
  REQUIRE_MESSAGE(a.has_value(), s);
  return *a;
}

std::vector<Cidr> ranges(std::initializer_list<std::string_view> list) {
  std::vector<Cidr> out;
  for (auto s : list) {
    auto c = Cidr::parse(s);
    REQUIRE_MESSAGE(c.has_value(), s);
    out.push_back(*c);
  }
  return out;
}

std::variant<Config, ConfigExit> parse(std::vector<const char*> args) {
  args.insert(args.begin(), "carcassonne-server");
  return parse_config(static_cast<int>(args.size()), args.data());
}

}  // namespace

TEST_CASE("IP addresses and CIDR ranges") {
  CHECK(ip("192.0.2.7").v4);
  CHECK(ip("192.0.2.7").to_string() == "192.0.2.7");
  CHECK(ip("::ffff:192.0.2.7") == ip("192.0.2.7"));  // an IPv4-mapped peer is the IPv4 address
  CHECK(!ip("2001:db8::1").v4);
  CHECK(ip("2001:db8::1").to_string() == "2001:db8::1");
  for (auto bad : {"", "1.2.3", "1.2.3.4.5", "256.1.1.1", "example.org", "1.2.3.4 ", "::g", "[::1]"}) {
    CHECK_MESSAGE(!IpAddress::parse(bad), bad);
  }

  const auto net = *Cidr::parse("10.1.2.3/8");
  CHECK(net.to_string() == "10.0.0.0/8");
  CHECK(net.contains(ip("10.255.0.1")));
  CHECK(!net.contains(ip("11.0.0.1")));
  CHECK(!net.contains(ip("::ffff:b00:1")));  // 11.0.0.1 mapped
  CHECK(Cidr::parse("127.0.0.1")->contains(ip("127.0.0.1")));
  CHECK(!Cidr::parse("127.0.0.1")->contains(ip("127.0.0.2")));
  CHECK(Cidr::parse("0.0.0.0/0")->contains(ip("203.0.113.9")));
  CHECK(!Cidr::parse("0.0.0.0/0")->contains(ip("2001:db8::1")));  // families never mix
  CHECK(Cidr::parse("fd00::/8")->contains(ip("fd12:3456::1")));
  CHECK(!Cidr::parse("fd00::/8")->contains(ip("fe80::1")));
  CHECK(Cidr::parse("2001:db8::/33")->contains(ip("2001:db8:7fff::1")));
  CHECK(!Cidr::parse("2001:db8::/33")->contains(ip("2001:db8:8000::1")));
  for (auto bad : {"10.0.0.0/33", "10.0.0.0/", "10.0.0.0/-1", "::/129", "10.0.0.0/8x", "x/8", "/8"}) {
    CHECK_MESSAGE(!Cidr::parse(bad), bad);
  }
}

TEST_CASE("X-Forwarded-For counts only from a trusted proxy, read from the right") {
  const auto trusted = ranges({"127.0.0.1", "10.0.0.0/8"});
  const auto client = [&](std::string_view peer, std::string_view xff) {
    return client_address(ip(peer), xff, trusted).to_string();
  };
  CHECK(client("203.0.113.5", "198.51.100.1") == "203.0.113.5");  // not a proxy: the header is ignored
  CHECK(client("127.0.0.1", "") == "127.0.0.1");                  // a proxy's own request
  CHECK(client("127.0.0.1", "198.51.100.1") == "198.51.100.1");
  // A client that sends its own header only adds entries on the left: the proxy appends the real one.
  CHECK(client("127.0.0.1", "1.1.1.1, 198.51.100.1") == "198.51.100.1");
  // Through two trusted proxies.
  CHECK(client("127.0.0.1", "198.51.100.1, 10.0.0.2") == "198.51.100.1");
  CHECK(client("127.0.0.1", "198.51.100.1,10.0.0.2,10.0.0.3") == "198.51.100.1");
  // Ports and brackets as some proxies write them; IPv6.
  CHECK(client("127.0.0.1", "198.51.100.1:4711") == "198.51.100.1");
  CHECK(client("127.0.0.1", "[2001:db8::5]:443") == "2001:db8::5");
  CHECK(client("127.0.0.1", " 2001:db8::5 ") == "2001:db8::5");
  // Junk from a proxy ends the walk there: it is counted as the proxy.
  CHECK(client("127.0.0.1", "198.51.100.1, unknown") == "127.0.0.1");
  CHECK(client("127.0.0.1", "198.51.100.1, , ") == "198.51.100.1");
  CHECK(client("127.0.0.1", ",,,") == "127.0.0.1");
  // Every entry trusted: the left-most one.
  CHECK(client("127.0.0.1", "10.9.9.9") == "10.9.9.9");
}

TEST_CASE("limit keys: IPv4 whole, IPv6 by /64") {
  CHECK(limit_key(ip("192.0.2.7")) == "192.0.2.7");
  CHECK(limit_key(ip("2001:db8:1:2:aaaa::1")) == limit_key(ip("2001:db8:1:2:bbbb::2")));
  CHECK(limit_key(ip("2001:db8:1:2::1")) != limit_key(ip("2001:db8:1:3::1")));
  CHECK(limit_key(ip("2001:db8:1:2::1")) == "2001:db8:1:2::/64");
}

TEST_CASE("token buckets: burst, refill, Retry-After, independent keys, bounded memory") {
  using namespace std::chrono_literals;
  const auto t0 = TokenBuckets::Clock::time_point{} + 1000s;
  TokenBuckets b(0.5, 3);  // one token per 2 s, 3 at once
  CHECK(b.take("a", t0) == 0);
  CHECK(b.take("a", t0) == 0);
  CHECK(b.take("a", t0) == 0);
  CHECK(b.take("a", t0) == doctest::Approx(2.0));
  CHECK(b.take("b", t0) == 0);  // one address at its limit never stops another
  CHECK(b.take("a", t0 + 1s) == doctest::Approx(1.0));
  CHECK(b.take("a", t0 + 2s) == 0);
  CHECK(b.take("a", t0 + 2s) > 0);
  CHECK(b.take("a", t0 + 100s) == 0);  // refilled to the burst, never beyond
  CHECK(b.take("a", t0 + 100s) == 0);
  CHECK(b.take("a", t0 + 100s) == 0);
  CHECK(b.take("a", t0 + 100s) > 0);
  CHECK(b.take("a", t0 + 50s) > 0);  // a clock that goes back gives nothing

  TokenBuckets off(0, 1);
  for (int i = 0; i < 100; ++i) CHECK(off.take("x", t0) == 0);

  TokenBuckets small(1, 2, 4);
  for (int i = 0; i < 4; ++i) small.take("k" + std::to_string(i), t0);
  CHECK(small.tracked() == 4);
  CHECK(small.take("new", t0) == 0);  // full table: let through untracked
  CHECK(small.tracked() == 4);
  CHECK(small.take("newer", t0 + 5s) == 0);  // the old buckets are full again: forgotten
  CHECK(small.tracked() == 1);
}

TEST_CASE("the routing decision") {
  using K = Route::Kind;
  const auto route = [](HttpMethod m, std::string_view t, bool up = false, Listen l = Listen::Public) {
    return route_request(m, t, up, l);
  };
  CHECK(route(HttpMethod::Get, "/healthz").kind == K::Healthz);
  CHECK(route(HttpMethod::Head, "/metrics").kind == K::Metrics);
  CHECK(route(HttpMethod::Get, "/metrics", false, Listen::PublicNoMetrics).kind == K::NotFound);
  CHECK(route(HttpMethod::Get, "/metrics", false, Listen::MetricsOnly).kind == K::Metrics);
  CHECK(route(HttpMethod::Get, "/healthz", false, Listen::MetricsOnly).kind == K::Healthz);
  CHECK(route(HttpMethod::Get, "/", false, Listen::MetricsOnly).kind == K::NotFound);
  CHECK(route(HttpMethod::Post, "/api/rooms", false, Listen::MetricsOnly).kind == K::NotFound);
  CHECK(route(HttpMethod::Post, "/metrics", false, Listen::MetricsOnly).kind == K::MethodNotAllowed);
  CHECK(route(HttpMethod::Post, "/api/rooms?x=1").kind == K::CreateRoom);
  const auto get_rooms = route(HttpMethod::Get, "/api/rooms");
  CHECK(get_rooms.kind == K::MethodNotAllowed);
  CHECK(get_rooms.allow == "POST");
  const auto info = route(HttpMethod::Get, "/api/rooms/abc");
  CHECK(info.kind == K::RoomInfo);
  CHECK(info.arg == "abc");
  const auto rec = route(HttpMethod::Head, "/api/rooms/abc/record?download=1");
  CHECK(rec.kind == K::RoomRecord);
  CHECK(rec.arg == "abc");
  const auto rated = route(HttpMethod::Get, "/api/rooms/abc/rated");
  CHECK(rated.kind == K::RoomRated);
  CHECK(rated.arg == "abc");
  CHECK(route(HttpMethod::Post, "/api/rooms/abc/rated").kind == K::MethodNotAllowed);
  CHECK(route(HttpMethod::Post, "/api/rooms/abc").kind == K::MethodNotAllowed);
  const auto up = route(HttpMethod::Get, "/ws/room1?v=2", true);
  CHECK(up.kind == K::Upgrade);
  CHECK(up.arg == "room1");
  CHECK(route(HttpMethod::Get, "/elsewhere", true).kind == K::NotFound);
  CHECK(route(HttpMethod::Get, "/ws/room1").kind == K::UpgradeRequired);
  CHECK(route(HttpMethod::Get, "/api/nothing").kind == K::ApiNotFound);
  CHECK(route(HttpMethod::Other, "/app.js").kind == K::MethodNotAllowed);
  const auto page = route(HttpMethod::Get, "/r/abc?x");
  CHECK(page.kind == K::Static);
  CHECK(page.arg == "/r/abc");
  CHECK(is_invite_path(page.arg));
  CHECK(!is_invite_path("/app.js"));
}

TEST_CASE("the flags of the limits, the proxies and the metrics port") {
  auto ok = parse({"--room-rate", "12", "--room-burst", "5", "--ws-rate", "3", "--ws-burst", "9", "--trusted-proxy",
                   "127.0.0.1", "--trusted-proxy=10.0.0.0/8,fd00::/8", "--metrics-bind", "127.0.0.1:9100"});
  REQUIRE(std::holds_alternative<Config>(ok));
  const auto& c = std::get<Config>(ok);
  CHECK(c.limits.room_rate_per_minute == 12);
  CHECK(c.limits.room_burst == 5);
  CHECK(c.limits.ws_rate_per_second == 3);
  CHECK(c.limits.ws_burst == 9);
  REQUIRE(c.trusted_proxies.size() == 3);
  CHECK(c.trusted_proxies[1].to_string() == "10.0.0.0/8");
  CHECK(c.metrics_bind == "127.0.0.1");
  CHECK(c.bot_think_ms == 0);
  CHECK(std::get<Config>(parse({"--bot-think-ms", "150"})).bot_think_ms == 150);
  CHECK(std::holds_alternative<ConfigExit>(parse({"--bot-think-ms", "-1"})));
  CHECK(std::holds_alternative<ConfigExit>(parse({"--bot-think-ms", "60001"})));
  CHECK(c.metrics_port == 9100);

  auto v6 = parse({"--metrics-bind", "[::1]:0"});
  REQUIRE(std::holds_alternative<Config>(v6));
  CHECK(std::get<Config>(v6).metrics_bind == "::1");

  auto defaults = parse({});
  REQUIRE(std::holds_alternative<Config>(defaults));
  CHECK(std::get<Config>(defaults).trusted_proxies.empty());
  CHECK(std::get<Config>(defaults).metrics_bind.empty());
  CHECK(std::get<Config>(defaults).limits.room_burst <= 20);

  for (std::vector<const char*> bad : {std::vector<const char*>{"--trusted-proxy", "example.org"},
                                       {"--trusted-proxy", "10.0.0.0/40"},
                                       {"--trusted-proxy", ""},
                                       {"--metrics-bind", "127.0.0.1"},
                                       {"--metrics-bind", "localhost:9100"},
                                       {"--metrics-bind", "127.0.0.1:70000"},
                                       {"--room-rate", "-1"},
                                       {"--ws-burst", "0"}}) {
    auto r = parse(bad);
    REQUIRE(std::holds_alternative<ConfigExit>(r));
    CHECK(std::get<ConfigExit>(r).code == 2);
  }
}

}  // namespace carc::server

namespace carc::server {

TEST_CASE("the per-address connection cap counts an IPv6 client by its /64") {
  // Before, the cap keyed on the whole address: one host with a /64 could open the cap's
  // worth of connections from each of its 2^64 addresses.
  namespace ip6 = boost::asio::ip;
  const auto ep = [](const char* a) { return tcp::endpoint(ip6::make_address(a), 40000); };
  CHECK(connection_key(ep("2001:db8:1:2::1")) == connection_key(ep("2001:db8:1:2:ffff::9")));
  CHECK(connection_key(ep("2001:db8:1:2::1")) != connection_key(ep("2001:db8:1:3::1")));
  CHECK(connection_key(ep("::ffff:192.0.2.7")) == connection_key(ep("192.0.2.7")));  // mapped IPv4 is IPv4
  CHECK(connection_key(ep("192.0.2.7")) != connection_key(ep("192.0.2.8")));

  ConnectionLimiter limiter(100, 2);
  auto a = limiter.acquire(connection_key(ep("2001:db8:1:2::1")));
  auto b = limiter.acquire(connection_key(ep("2001:db8:1:2::2")));
  CHECK(a.has_value());
  CHECK(b.has_value());
  CHECK(!limiter.acquire(connection_key(ep("2001:db8:1:2:dead:beef::3"))).has_value());  // same /64: over the cap
  CHECK(limiter.acquire(connection_key(ep("2001:db8:1:3::1"))).has_value());             // another /64
  b.reset();                                                                                // one closes
  CHECK(limiter.acquire(connection_key(ep("2001:db8:1:2::7"))).has_value());
}

TEST_CASE("per-address rates are bounded and Retry-After never overflows") {
  // A tiny --room-rate or --ws-rate made a refusal's wait astronomically long, and the
  // Retry-After cast ceil(wait) to int: overflow. NaN passed the range check too.
  for (std::vector<const char*> bad : {std::vector<const char*>{"--room-rate", "1e-300"},
                                       {"--room-rate", "0.001"},
                                       {"--ws-rate", "1e-12"},
                                       {"--ws-rate", "nan"},
                                       {"--room-rate", "nan"},
                                       {"--ws-rate", "inf"},
                                       {"--lookup-rate", "0.0001"},
                                       {"--rate", "nan"},
                                       {"--burst", "nan"},
                                       {"--ws-burst", "inf"}}) {
    auto r = parse(bad);
    REQUIRE_MESSAGE(std::holds_alternative<ConfigExit>(r), bad[0] << " " << bad[1]);
    CHECK(std::get<ConfigExit>(r).code == 2);
  }
  auto ok = parse({"--room-rate", "0", "--ws-rate", "0.01", "--lookup-rate", "5", "--lookup-burst", "7"});
  REQUIRE(std::holds_alternative<Config>(ok));
  CHECK(std::get<Config>(ok).limits.room_rate_per_minute == 0);  // 0 still turns it off
  CHECK(std::get<Config>(ok).limits.ws_rate_per_second == 0.01);
  CHECK(std::get<Config>(ok).limits.lookup_rate_per_second == 5);
  CHECK(std::get<Config>(ok).limits.lookup_burst == 7);

  CHECK(retry_after_seconds(0.2) == 1);
  CHECK(retry_after_seconds(2.1) == 3);
  CHECK(retry_after_seconds(1e300) == 86400);
  CHECK(retry_after_seconds(std::numeric_limits<double>::infinity()) == 86400);
  CHECK(retry_after_seconds(std::nan("")) == 1);
  CHECK(retry_after_seconds(-5) == 1);
  // The slowest rate allowed announces at most a little under two hours.
  const auto t0 = TokenBuckets::Clock::time_point{} + std::chrono::seconds(1000);
  TokenBuckets slowest(0.01 / 60.0, 1);
  CHECK(slowest.take("a", t0) == 0);
  CHECK(retry_after_seconds(slowest.take("a", t0)) == 6000);
}

}  // namespace carc::server
