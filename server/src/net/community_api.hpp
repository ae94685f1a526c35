// The community's HTTP API (docs/community.md): the open games (GET /api/open-games), quick
// play (POST /api/quick-play) and players' names (PUT /api/me/name, GET
// /api/players/<id>/names). Network layer (Beast): included by http_session.cpp only.
#pragma once

#include <functional>
#include <string>

#include "net/http_answers.hpp"

namespace carc::server {

struct CommunityCaller {
  std::string address;  // the client address per-address limits count
  std::string base;     // the public origin, for invite links
};

// Answers `req` through `reply`, from any thread (never blocking the caller on storage).
void serve_community_api(ServerContext& ctx, const Request& req, CommunityCaller caller,
                         std::function<void(Response)> reply);

}  // namespace carc::server
