// The HTTP API of turn-based games beside the rooms (docs/turn-based.md): player keys
// (/api/keys...) and the server's Web Push key (/api/push/key). Network layer (Beast).
#pragma once

#include <functional>
#include <string>

#include "net/net.hpp"

namespace carc::server {

struct ApiReply {
  http::status status = http::status::ok;
  std::string body;  // JSON
};

// Answers `req` (path under /api/keys or /api/push) through `reply`, from any thread.
// `base`: the public origin, for the transfer link.
void serve_keys_api(ServerContext& ctx, const http::request<http::string_body>& req, std::string base,
                    std::function<void(ApiReply)> reply);

}  // namespace carc::server
