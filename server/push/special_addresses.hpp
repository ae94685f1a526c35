// The addresses notifications may not be sent to (docs/turn-based.md, "Where the server may
// send"): every block of IANA's IPv4 and IPv6 Special-Purpose Address Registries, plus
// multicast and, for IPv6, everything outside global unicast (2000::/3). IPv4 carried inside
// IPv6 (IPv4-mapped, IPv4-compatible, IPv4-translated, NAT64 64:ff9b::/96, 6to4, Teredo) is
// taken out and checked as IPv4. Pure: no sockets, no name lookups.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "limits/address.hpp"

namespace carc::server::push {

// Why `a` may not be called (its registry block, as "Private-Use (RFC 1918), 10.0.0.0/8"),
// or nullopt for a globally reachable unicast address.
std::optional<std::string> special_address(const IpAddress& a);

// Why the host of a URL may not be used as written: an IPv4 address spelled other than as
// four decimal numbers (127.1, 0x7f000001, 2130706433, 017700000001: inet_aton and the
// resolver read them all), a bracketed host that is no IPv6 address, or an address literal
// in a special block. Names pass (their addresses are checked when they are resolved).
// `bracketed`: the URL wrote the host in brackets ("[...]"), as only an IPv6 address is.
std::optional<std::string> refuse_host(std::string_view host, bool bracketed);

}  // namespace carc::server::push
