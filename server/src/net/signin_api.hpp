// The HTTP API of sign-in and rated play (docs/community.md): GET /api/me, POST
// /api/signin/start, GET /api/signin/callback, POST /api/invites (admin) and POST
// /api/invites/redeem. Network layer (Beast).
#pragma once

#include <functional>
#include <string>

#include "net/http_answers.hpp"

namespace carc::server {

// Answers `req` through `reply`, from any thread. `base`: the public origin (the redirect URI
// the provider sends the browser back to is base + "/api/signin/callback").
void serve_signin_api(ServerContext& ctx, const Request& req, std::string base, std::function<void(Response)> reply);

}  // namespace carc::server
