// The HTTP answers that need no session: plain and JSON responses, the headers every
// answer carries, and the bodies of the stateless routes (the tile catalogue, a replayed
// record, a new room's settings). Network layer: included by http_session.cpp only.
#pragma once

#include <string>
#include <string_view>
#include <variant>

#include "net/net.hpp"

namespace carc::server {

using Request = http::request<http::string_body>;
using Response = http::response<http::string_body>;

Response make_response(http::status status, std::string body, unsigned version, bool keep_alive,
                       std::string_view type = "text/plain; charset=utf-8");
Response json_response(const Request& req, http::status status, std::string body);
Response method_not_allowed(const Request& req, std::string_view allow);
// How the APIs refuse: `{"error": code, "message": message}` with the status.
Response error_answer(const Request& req, http::status status, std::string_view code, std::string_view message);
// The key from "Authorization: Bearer <key>", or "": a key is never taken from a URL.
std::string bearer_key(const Request& req);
// 429 with Retry-After: too many `what` from one address.
Response rate_limited(const Request& req, double wait, std::string_view what);

void set_security_headers(Response& res, std::string_view host);

// Every X-Forwarded-For header of the request, in order, as one comma-separated list.
std::string forwarded_for(const Request& req);

// The public origin invite links start with: the configured base URL, else what the
// request (or a proxy in front) says, else the address the server listens on.
// The public address in invite links: --base-url, else X-Forwarded-Proto and
// X-Forwarded-Host when the request came through a trusted proxy, else Host.
std::string invite_base(const Config& config, const Request& req, bool via_trusted_proxy);

// GET /api/tiles[?expansions=...]: `all` is the base game's catalogue.
Response tiles_answer(const Request& req, std::string_view query, const std::string& all);

// POST /api/replay: the record replayed by the server's engine, nothing stored.
Response replay_answer(const Request& req);

// The expansions POST /api/rooms asks for (`{"expansions": [...]}`, or no body), or why
// they are refused.
std::variant<ExpansionSet, std::string> requested_expansions(const Request& req);
// The rule options it asks for (`{"options": [...]}`, docs/options.md), or why they are refused.
std::variant<OptionSet, std::string> requested_options(const Request& req);

}  // namespace carc::server
