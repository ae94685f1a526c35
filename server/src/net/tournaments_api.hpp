// The tournaments' HTTP API (docs/tournaments.md#the-api): GET/POST /api/tournaments and
// /api/tournaments/<id>[/register|/remove|/drop|/start|/seats]. Network layer (Beast):
// included by http_session.cpp only.
#pragma once

#include <functional>
#include <string>

#include "net/http_answers.hpp"

namespace carc::server {

struct TournamentCaller {
  std::string address;  // the client address per-address limits count
  std::string base;     // the public origin, for the tournament's link
};

// Answers `req` through `reply`, from any thread (never blocking the caller on storage).
void serve_tournaments_api(ServerContext& ctx, const Request& req, TournamentCaller caller,
                           std::function<void(Response)> reply);

}  // namespace carc::server
