// Client addresses for per-address limits: IP parsing, CIDR ranges of trusted proxies,
// and the client address behind them (X-Forwarded-For). Pure: no sockets, no Asio.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace carc::server {

// An IPv4 or IPv6 address; IPv4 is kept as its IPv4-mapped IPv6 form (::ffff:a.b.c.d).
struct IpAddress {
  std::array<std::uint8_t, 16> bytes{};
  bool v4 = false;

  // Plain literals only ("192.0.2.1", "2001:db8::1"); also "::ffff:192.0.2.1" as IPv4.
  static std::optional<IpAddress> parse(std::string_view text);
  std::string to_string() const;
  bool operator==(const IpAddress&) const = default;
};

struct Cidr {
  IpAddress base;  // with the bits past the prefix cleared
  int prefix = 0;  // in bits of the address's own family (0..32 for IPv4, 0..128 for IPv6)

  // "10.0.0.0/8", "fd00::/8", or a single address ("127.0.0.1" is 127.0.0.1/32).
  static std::optional<Cidr> parse(std::string_view text);
  bool contains(const IpAddress& a) const;
  std::string to_string() const;
};

bool any_contains(std::span<const Cidr> ranges, const IpAddress& a);

// The address a request is counted against. `peer` is the TCP peer. Only when the peer is
// a trusted proxy is `forwarded_for` (X-Forwarded-For, all its headers joined by commas)
// read: from the right, past every trusted proxy, the first address is the client's. An
// entry that is not an address ends the walk at the proxy that added it.
IpAddress client_address(const IpAddress& peer, std::string_view forwarded_for, std::span<const Cidr> trusted);

// What per-address limits key on: an IPv4 address whole, an IPv6 address by its /64 (one
// subscriber's network: a single host can pick any address inside it).
std::string limit_key(const IpAddress& a);

}  // namespace carc::server
