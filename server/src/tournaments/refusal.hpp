// A tournament service's refusal: its status and the error body every API answer uses
// ({"error": code, "message": words}; docs/tournaments.md).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "carc/protocol/json.hpp"
#include "tournaments/service.hpp"

namespace carc::server::tournaments {

inline TournamentService::Answer refusal(int status, std::string code, std::string message) {
  return {status, protocol::json_text(nlohmann::json{{"error", std::move(code)}, {"message", std::move(message)}})};
}

}  // namespace carc::server::tournaments
