// Where the server may send notifications (docs/turn-based.md): a webhook URL or a push endpoint
// must be https, and must not name "localhost" or an address of a special-purpose block
// (special_addresses.hpp: loopback, private, link-local, NAT64 of those, ...), unless the
// server runs with --allow-private-hooks (tests, home networks), which also allows plain
// http. Checked when the URL is set (its literal host, which must then be written plainly)
// and again on every send (each address the name resolves to), so a name cannot be pointed
// at the inside later.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "carc/protocol/messages.hpp"

namespace carc::server::push {

struct Url {
  bool https = true;
  std::string host;  // without brackets
  std::string port;
  std::string target;  // path and query, at least "/"
  std::string origin;  // scheme://host[:port], the VAPID audience
};
std::optional<Url> parse_url(std::string_view url);

// Why `url` may not be used (as set): nullopt if it may.
std::optional<std::string> refuse_target(std::string_view url, bool allow_private);
// Why a client message may not be accepted (a webhook or push endpoint it may not use, push
// keys that are not a P-256 point): nullopt if it may.
std::optional<std::string> refuse_message(const protocol::ClientMessage& msg, bool allow_private);

}  // namespace carc::server::push
