// Where notifications may go (docs/turn-based.md, "Where the server may send"): one address
// in every block of IANA's special-purpose registries (and its edges, which are public),
// the IPv4 forms carried in IPv6, every numeric spelling of an IPv4 host that inet_aton
// reads, both when a URL is set (refuse_target) and when it is dialled (HttpClient, after
// the name is resolved).
#include <doctest/doctest.h>

#include <future>

#include <boost/asio/io_context.hpp>

#include "push/http_client.hpp"
#include "push/special_addresses.hpp"
#include "push/targets.hpp"

namespace carc::server::push {

namespace {

struct Case {
  const char* address;
  const char* block;  // the registry block that refuses it; nullptr: it may be called
};

// IPv4: one address inside each block, and public neighbours just outside some of them.
constexpr Case kV4[] = {
    {"0.0.0.0", "0.0.0.0/32"},          {"0.1.2.3", "0.0.0.0/8"},
    {"10.20.30.40", "10.0.0.0/8"},      {"100.64.0.1", "100.64.0.0/10"},
    {"100.127.255.254", "100.64.0.0/10"}, {"127.0.0.1", "127.0.0.0/8"},
    {"127.255.255.254", "127.0.0.0/8"}, {"169.254.169.254", "169.254.0.0/16"},
    {"172.16.0.1", "172.16.0.0/12"},    {"172.31.255.255", "172.16.0.0/12"},
    {"192.0.0.100", "192.0.0.0/24"},    {"192.0.0.3", "192.0.0.0/29"},
    {"192.0.0.8", "192.0.0.8/32"},      {"192.0.0.9", "192.0.0.9/32"},
    {"192.0.0.10", "192.0.0.10/32"},    {"192.0.0.170", "192.0.0.170/32"},
    {"192.0.0.171", "192.0.0.171/32"},  {"192.0.2.44", "192.0.2.0/24"},
    {"192.31.196.1", "192.31.196.0/24"}, {"192.52.193.1", "192.52.193.0/24"},
    {"192.88.99.1", "192.88.99.0/24"},  {"192.168.1.5", "192.168.0.0/16"},
    {"192.175.48.6", "192.175.48.0/24"}, {"198.18.0.1", "198.18.0.0/15"},
    {"198.19.255.255", "198.18.0.0/15"}, {"198.51.100.7", "198.51.100.0/24"},
    {"203.0.113.9", "203.0.113.0/24"},  {"224.0.0.251", "224.0.0.0/4"},
    {"239.255.255.250", "224.0.0.0/4"}, {"240.0.0.1", "240.0.0.0/4"},
    {"255.255.255.254", "240.0.0.0/4"}, {"255.255.255.255", "255.255.255.255/32"},
    // Public: the edges of the blocks above.
    {"1.1.1.1", nullptr},               {"9.255.255.255", nullptr},
    {"11.0.0.0", nullptr},              {"100.63.255.255", nullptr},
    {"100.128.0.0", nullptr},           {"126.255.255.255", nullptr},
    {"128.0.0.0", nullptr},             {"169.253.255.255", nullptr},
    {"172.15.255.255", nullptr},        {"172.32.0.0", nullptr},
    {"192.0.1.0", nullptr},             {"192.0.3.0", nullptr},
    {"192.167.255.255", nullptr},       {"192.169.0.0", nullptr},
    {"198.17.255.255", nullptr},        {"198.20.0.0", nullptr},
    {"223.255.255.255", nullptr},       {"8.8.8.8", nullptr},
};

// IPv6: one address inside each block, the IPv4 forms unwrapped, and public neighbours.
constexpr Case kV6[] = {
    {"::", "::/128"},
    {"::1", "::1/128"},
    {"::ffff:127.0.0.1", "127.0.0.0/8"},       // IPv4-mapped
    {"::ffff:10.0.0.1", "10.0.0.0/8"},
    {"::127.0.0.1", "127.0.0.0/8"},            // IPv4-compatible
    {"::a00:1", "10.0.0.0/8"},
    {"::ffff:0:127.0.0.1", "127.0.0.0/8"},     // IPv4-translated
    {"::ffff:0:a9fe:a9fe", "169.254.0.0/16"},
    {"64:ff9b::a00:1", "10.0.0.0/8"},          // NAT64, the address of the report
    {"64:ff9b::127.0.0.1", "127.0.0.0/8"},
    {"64:ff9b::192.168.0.1", "192.168.0.0/16"},
    {"64:ff9b:1::1", "64:ff9b:1::/48"},
    {"64:ff9b:1:ffff::8.8.8.8", "64:ff9b:1::/48"},
    {"100::1", "100::/64"},
    {"100:0:0:1::1", "100:0:0:1::/64"},
    {"2001::1", "0.0.0.0/32"},                 // Teredo, server 0.0.0.0
    {"2001:0:4136:e378:8000:63bf:80ff:fffe", "127.0.0.0/8"},  // Teredo client ~7f000001
    {"2001:0:a00:1:0:0:f7f7:f7f7", "10.0.0.0/8"},             // Teredo server 10.0.0.1
    {"2001:1::1", "2001:1::1/128"},
    {"2001:1::2", "2001:1::2/128"},
    {"2001:1::3", "2001:1::3/128"},
    {"2001:2::1", "2001:2::/48"},
    {"2001:3::1", "2001:3::/32"},
    {"2001:4:112::1", "2001:4:112::/48"},
    {"2001:10::1", "2001:10::/28"},
    {"2001:20::1", "2001:20::/28"},
    {"2001:30::1", "2001:30::/28"},
    {"2001:100::1", "2001::/23"},
    {"2001:db8::1", "2001:db8::/32"},
    {"2002:7f00:1::1", "127.0.0.0/8"},         // 6to4 of 127.0.0.1
    {"2002:c0a8:101::1", "192.168.0.0/16"},
    {"2620:4f:8000::53", "2620:4f:8000::/48"},
    {"3fff::1", "3fff::/20"},
    {"5f00::1", "5f00::/16"},
    {"fc00::1", "fc00::/7"},
    {"fd12:3456::1", "fc00::/7"},
    {"fe80::1", "fe80::/10"},
    {"febf::1", "fe80::/10"},
    {"fec0::1", "fec0::/10"},
    {"ff02::1", "ff00::/8"},
    {"ff0e::1", "ff00::/8"},
    {"4000::1", "outside global unicast"},
    {"1::1", "outside global unicast"},
    {"::2:0:0:1", "outside global unicast"},
    // Public.
    {"2606:4700:4700::1111", nullptr},
    {"2a00:1450:4001:81b::200e", nullptr},
    {"64:ff9b::8.8.8.8", nullptr},             // NAT64 of a public address
    {"2002:808:808::1", nullptr},              // 6to4 of 8.8.8.8
    {"2001:0:808:808:0:0:f7f7:f7f7", nullptr},  // Teredo, server 8.8.8.8, client 8.8.8.8
    {"2001:200::1", nullptr},                  // just past 2001::/23
    {"2001:db9::1", nullptr},
    {"3ffe:ffff::1", nullptr},
    {"3fff:1000::1", nullptr},                 // just past 3fff::/20
};

IpAddress ip(std::string_view s) {
  auto a = IpAddress::parse(s);
  REQUIRE_MESSAGE(a.has_value(), s);
  return *a;
}

void check(const Case& c) {
  CAPTURE(std::string(c.address));
  const bool bracketed = std::string_view(c.address).find(':') != std::string_view::npos;
  const std::string url = bracketed ? "https://[" + std::string(c.address) + "]/hook" : "https://" + std::string(c.address) + "/hook";
  CHECK(refuse_target(url, false).has_value() == (c.block != nullptr));  // as a room's webhook
  const auto why = special_address(ip(c.address));
  if (c.block == nullptr) {
    CHECK_MESSAGE(!why.has_value(), why.value_or(""));
    CHECK(!refuse_host(c.address, bracketed).has_value());
  } else {
    REQUIRE(why.has_value());
    CHECK_MESSAGE(why->find(c.block) != std::string::npos, *why);
    CHECK(refuse_host(c.address, bracketed).has_value());
  }
}

}  // namespace

TEST_CASE("special addresses: every IPv4 special-purpose block is refused, its public edges are not") {
  for (const Case& c : kV4) check(c);
}

TEST_CASE("special addresses: every IPv6 special-purpose block, with the IPv4 inside IPv6 forms unwrapped") {
  for (const Case& c : kV6) check(c);
}

TEST_CASE("targets: a URL naming a special address, in any spelling, is refused when it is set") {
  const char* refused[] = {
      "https://[64:ff9b::a00:1]/",     "https://[64:ff9b::10.0.0.1]/x", "https://[::ffff:127.0.0.1]/",
      "https://[::127.0.0.1]/",        "https://[::ffff:0:7f00:1]/",   "https://[2002:a00:1::]/",
      "https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/", "https://[fec0::1]/", "https://[100::1]/",
      "https://192.0.0.1/",            "https://198.18.0.1/",           "https://198.19.1.1:8443/x",
      "https://240.1.2.3/",            "https://255.255.255.255/",      "https://224.0.0.1/",
      // Numeric spellings inet_aton (and so the resolver) reads, canonical or not.
      "https://127.1/",                "https://127.0.1/",              "https://0x7f000001/",
      "https://0x7F.0.0.1/",           "https://2130706433/",           "https://017700000001/",
      "https://0177.0.0.1/",           "https://127.000.000.001/",      "https://10.1/",
      "https://0/",                    "https://134744072/",            "https://8.8.2056/",
      "https://010.8.8.8/",
      // Names of this machine.
      "https://localhost/",            "https://LOCALHOST./",           "https://a.localhost/",
      // A bracketed host must be an IPv6 address.
      "https://[fe80::1%25eth0]/",     "https://[not-an-address]/",
  };
  for (const std::string url : refused) {
    CAPTURE(url);
    const auto why = refuse_target(url, false);
    CHECK(why.has_value());
    CHECK(refuse_target(url, true) == std::nullopt);  // --allow-private-hooks: tests, home networks
  }
  // 134744072 and 8.8.2056 are 8.8.8.8: public, but only its plain spelling is accepted.
  CHECK(refuse_target("https://134744072/", false)->find("8.8.8.8") != std::string::npos);
  for (const char* url : {"https://8.8.8.8/hook", "https://[2606:4700:4700::1111]:8443/x", "https://hooks.example.org/carc",
                          "https://127.0.0.1.example.org/", "https://0x7f.example.org/", "https://[64:ff9b::808:808]/"}) {
    CAPTURE(std::string(url));
    CHECK(refuse_target(url, false) == std::nullopt);
  }
  // Through a client message, as a room receives it.
  protocol::SettingsMsg s;
  s.webhook = std::optional<protocol::WebhookSetting>(protocol::WebhookSetting{"https://[64:ff9b::a00:1]/", {}});
  CHECK(refuse_message(protocol::ClientMessage{s}, false).has_value());
}

TEST_CASE("targets: when sent, an address literal in a special block is refused after resolving, never dialled") {
  boost::asio::io_context io;
  HttpClient client(io, false, "", 2);
  // Each resolves (numerically) to an address the server must not call. Before the check
  // covered them, the NAT64 and 6to4 forms of 10.0.0.1 were dialled.
  for (const char* url : {"https://[64:ff9b::a00:1]/", "https://[2002:a00:1::1]/", "https://[::ffff:0:a00:1]/",
                          "https://198.18.0.1/", "https://192.0.0.170/", "https://[fec0::1]/"}) {
    CAPTURE(std::string(url));
    std::optional<OutResponse> got;
    client.post(OutRequest{url, {}, "{}"}, [&](OutResponse r) { got = std::move(r); });
    io.restart();
    io.run_for(std::chrono::seconds(5));
    REQUIRE(got.has_value());
    CHECK(got->status == 0);
    CHECK_MESSAGE(got->error.find("(refused)") != std::string::npos, got->error);
  }
}

}  // namespace carc::server::push
