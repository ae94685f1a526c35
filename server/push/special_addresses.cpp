#include "push/special_addresses.hpp"

#include <arpa/inet.h>

#include <algorithm>
#include <cstring>
#include <span>
#include <vector>

namespace carc::server::push {

namespace {

// What an IPv6 block means for a destination.
enum class Kind : std::uint8_t {
  Refuse,    // not to be called
  Embedded,  // carries an IPv4 address at `at` (bytes 12..15 or 2..5): that one is checked
  Teredo,    // RFC 4380: the server's IPv4 (bytes 4..7) and the client's (bytes 12..15, inverted)
  Global,    // global unicast: may be called
};

struct Row {
  const char* block;
  const char* name;
  Kind kind = Kind::Refuse;
  int at = 12;  // Embedded: where the IPv4 address starts
};

// IANA IPv4 Special-Purpose Address Registry (RFC 6890), every entry; the most specific
// block that contains an address names it. Entries the registry marks globally reachable
// are refused too: they are anycast services (the nearest instance answers, which may be
// inside the server's own network) and no webhook lives there.
constexpr Row kSpecialV4[] = {
    {"0.0.0.0/8", "\"This network\" (RFC 791)"},
    {"0.0.0.0/32", "\"This host on this network\" (RFC 1122)"},
    {"10.0.0.0/8", "Private-Use (RFC 1918)"},
    {"100.64.0.0/10", "Shared Address Space (RFC 6598)"},
    {"127.0.0.0/8", "Loopback (RFC 1122)"},
    {"169.254.0.0/16", "Link Local (RFC 3927)"},
    {"172.16.0.0/12", "Private-Use (RFC 1918)"},
    {"192.0.0.0/24", "IETF Protocol Assignments (RFC 6890)"},
    {"192.0.0.0/29", "IPv4 Service Continuity Prefix (RFC 7335)"},
    {"192.0.0.8/32", "IPv4 dummy address (RFC 7600)"},
    {"192.0.0.9/32", "Port Control Protocol Anycast (RFC 7723)"},                   // anycast
    {"192.0.0.10/32", "Traversal Using Relays around NAT Anycast (RFC 8155)"},      // anycast
    {"192.0.0.170/32", "NAT64/DNS64 Discovery (RFC 8880)"},
    {"192.0.0.171/32", "NAT64/DNS64 Discovery (RFC 8880)"},
    {"192.0.2.0/24", "Documentation (TEST-NET-1) (RFC 5737)"},
    {"192.31.196.0/24", "AS112-v4 (RFC 7535)"},                                      // anycast
    {"192.52.193.0/24", "AMT (RFC 7450)"},                                           // anycast
    {"192.88.99.0/24", "Deprecated (6to4 Relay Anycast) (RFC 7526)"},
    {"192.168.0.0/16", "Private-Use (RFC 1918)"},
    {"192.175.48.0/24", "Direct Delegation AS112 Service (RFC 7534)"},               // anycast
    {"198.18.0.0/15", "Benchmarking (RFC 2544)"},
    {"198.51.100.0/24", "Documentation (TEST-NET-2) (RFC 5737)"},
    {"203.0.113.0/24", "Documentation (TEST-NET-3) (RFC 5737)"},
    {"240.0.0.0/4", "Reserved (RFC 1112)"},
    {"255.255.255.255/32", "Limited Broadcast (RFC 919)"},
    // IANA IPv4 Multicast Address Space Registry.
    {"224.0.0.0/4", "Multicast (RFC 5771)"},
};

// IANA IPv6 Special-Purpose Address Registry (RFC 6890), every entry, the IPv4-in-IPv6
// forms, and IANA's IPv6 Address Space registry: only 2000::/3 is global unicast, the rest
// (reserved by the IETF, unique-local, link-local, site-local, multicast) is refused. The
// most specific block wins. IPv4-mapped addresses (::ffff:0:0/96, "IPv4-mapped Address",
// RFC 4291) are read as IPv4 by IpAddress and checked against the table above.
constexpr Row kSpecialV6[] = {
    {"::/128", "Unspecified Address (RFC 4291)"},
    {"::1/128", "Loopback Address (RFC 4291)"},
    {"::/96", "IPv4-compatible address (deprecated, RFC 4291)", Kind::Embedded},
    {"::ffff:0:0:0/96", "IPv4-translated address (RFC 2765)", Kind::Embedded},
    {"64:ff9b::/96", "IPv4-IPv6 Translat. (RFC 6052)", Kind::Embedded},
    {"64:ff9b:1::/48", "IPv4-IPv6 Translat. (local use, RFC 8215)"},
    {"100::/64", "Discard-Only Address Block (RFC 6666)"},
    {"100:0:0:1::/64", "Dummy IPv6 Prefix (RFC 9780)"},
    {"2001::/23", "IETF Protocol Assignments (RFC 2928)"},
    {"2001::/32", "TEREDO (RFC 4380)", Kind::Teredo},
    {"2001:1::1/128", "Port Control Protocol Anycast (RFC 7723)"},                  // anycast
    {"2001:1::2/128", "Traversal Using Relays around NAT Anycast (RFC 8155)"},     // anycast
    {"2001:1::3/128", "DNS-SD Service Registration Protocol Anycast (RFC 9665)"},  // anycast
    {"2001:2::/48", "Benchmarking (RFC 5180)"},
    {"2001:3::/32", "AMT (RFC 7450)"},                                              // anycast
    {"2001:4:112::/48", "AS112-v6 (RFC 7535)"},                                     // anycast
    {"2001:10::/28", "Deprecated (previously ORCHID) (RFC 4843)"},
    {"2001:20::/28", "ORCHIDv2 (RFC 7343)"},                                        // identifiers
    {"2001:30::/28", "Drone Remote ID Protocol Entity Tags (DETs) Prefix (RFC 9374)"},  // identifiers
    {"2001:db8::/32", "Documentation (RFC 3849)"},
    {"2002::/16", "6to4 (RFC 3056)", Kind::Embedded, 2},
    {"2620:4f:8000::/48", "Direct Delegation AS112 Service (RFC 7534)"},            // anycast
    {"3fff::/20", "Documentation (RFC 9637)"},
    {"5f00::/16", "Segment Routing (SRv6) SIDs (RFC 9602)"},
    {"fc00::/7", "Unique-Local (RFC 4193)"},
    {"fe80::/10", "Link-Local Unicast (RFC 4291)"},
    {"fec0::/10", "Site-local (deprecated, RFC 3879)"},
    {"ff00::/8", "Multicast (RFC 4291)"},
    // IANA IPv6 Address Space registry.
    {"2000::/3", "Global Unicast (RFC 4291)", Kind::Global},
};

struct Block {
  Cidr cidr;
  const Row* row;
};

std::vector<Block> parse_table(std::span<const Row> rows) {
  std::vector<Block> out;
  for (const Row& r : rows) out.push_back({*Cidr::parse(r.block), &r});  // the tables above parse
  return out;
}

// The most specific block of `table` holding `a`, if any.
const Block* find(const std::vector<Block>& table, const IpAddress& a) {
  const Block* best = nullptr;
  for (const Block& b : table) {
    if (b.cidr.contains(a) && (best == nullptr || b.cidr.prefix > best->cidr.prefix)) best = &b;
  }
  return best;
}

const std::vector<Block>& v4_table() {
  static const std::vector<Block> t = parse_table(kSpecialV4);
  return t;
}

const std::vector<Block>& v6_table() {
  static const std::vector<Block> t = parse_table(kSpecialV6);
  return t;
}

std::string described(const Block& b) { return std::string(b.row->name) + ", " + b.row->block; }

IpAddress v4_at(const IpAddress& a, int at, bool inverted = false) {
  IpAddress v4;
  v4.v4 = true;
  v4.bytes[10] = v4.bytes[11] = 0xff;
  for (int i = 0; i < 4; ++i) {
    const auto b = a.bytes[static_cast<std::size_t>(at + i)];
    v4.bytes[static_cast<std::size_t>(12 + i)] = inverted ? static_cast<std::uint8_t>(~b) : b;
  }
  return v4;
}

}  // namespace

std::optional<std::string> special_address(const IpAddress& a) {
  if (a.v4) {
    if (const Block* b = find(v4_table(), a)) return described(*b);
    return std::nullopt;
  }
  const Block* b = find(v6_table(), a);
  if (b == nullptr) return std::string("outside global unicast (IPv6 Address Space registry: reserved by the IETF)");
  switch (b->row->kind) {
    case Kind::Refuse: return described(*b);
    case Kind::Global: return std::nullopt;
    case Kind::Embedded:
      if (auto why = special_address(v4_at(a, b->row->at))) return described(*b) + " of " + *why;
      return std::nullopt;
    case Kind::Teredo:
      if (auto why = special_address(v4_at(a, 4))) return described(*b) + ", server " + *why;
      if (auto why = special_address(v4_at(a, 12, true))) return described(*b) + ", client " + *why;
      return std::nullopt;
  }
  return described(*b);
}

std::optional<std::string> refuse_host(std::string_view host, bool bracketed) {
  if (bracketed) {
    const auto ip = IpAddress::parse(host);
    if (!ip || host.find(':') == std::string_view::npos) return std::string("has a bracketed host that is not an IPv6 address");
    if (auto why = special_address(*ip)) return "names a special-purpose address: " + *why;
    return std::nullopt;
  }
  // What inet_aton (and so the resolver) reads as an IPv4 address, in whatever spelling.
  char buf[256];
  if (host.empty() || host.size() >= sizeof buf) return std::nullopt;
  std::memcpy(buf, host.data(), host.size());
  buf[host.size()] = '\0';
  in_addr parsed{};
  if (::inet_aton(buf, &parsed) == 0) return std::nullopt;  // a name
  char canonical[INET_ADDRSTRLEN] = {};
  ::inet_ntop(AF_INET, &parsed, canonical, sizeof canonical);
  if (host != canonical) {
    return "writes an IPv4 address other than as four decimal numbers (" + std::string(canonical) + ")";
  }
  if (auto why = special_address(*IpAddress::parse(host))) return "names a special-purpose address: " + *why;
  return std::nullopt;
}

}  // namespace carc::server::push
