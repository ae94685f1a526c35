// The small text forms of sign-in (docs/community.md): form and query encoding, HTTP Basic
// client credentials (RFC 6749 2.3.1: each part form-encoded first), and reading a query
// parameter or a cookie. Pure functions.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace carc::server {

// application/x-www-form-urlencoded, with %20 for spaces: unreserved characters stay.
std::string form_encode(std::string_view s);
// %XX and '+' decoded; nullopt for a malformed escape.
std::optional<std::string> form_decode(std::string_view s);
std::string basic_credentials(std::string_view client_id, std::string_view secret);
// The decoded value of `name` in a request target's query ("/x?a=1&b=2"); empty when absent.
std::string query_param(std::string_view target, std::string_view name);
// The value of cookie `name` in a Cookie header; empty when absent.
std::string cookie_value(std::string_view header, std::string_view name);

}  // namespace carc::server
