// The room's cold HTTP views: GET /api/rooms/<id> and /record, built as JSON trees (they
// are asked for rarely, never on a move's path).
#include <nlohmann/json.hpp>

#include "carc/protocol/json.hpp"

#include "room/room_logic.hpp"

namespace carc::server {

std::string RoomLogic::info_json() const {
  nlohmann::json players = nlohmann::json::array();
  for (std::size_t i = 0; i < seats_.size(); ++i) {
    const auto& s = seats_[i];
    players.push_back({{"seat", i},
                       {"name", s.name},
                       {"connected", s.holder != nullptr},
                       {"bot", s.bot ? nlohmann::json(protocol::bot_level_name(*s.bot)) : nlohmann::json(nullptr)}});
    // For "your games" (docs/turn-based.md): what is left of each bank.
    if (settings_.turn_based()) players.back()["bank_ms"] = s.bank_ms;
  }
  nlohmann::json turn = nullptr;
  if (phase_ == protocol::RoomPhase::Playing && game_ && !game_->finished()) {
    const auto d = deadline();
    turn = {{"seat", game_->current_seat()}, {"deadline", d ? nlohmann::json(*d) : nlohmann::json(nullptr)}};
  }
  return protocol::json_text(nlohmann::json{{"room", id_},
                        {"phase", protocol::phase_name(phase_)},
                        {"pace", protocol::pace_name(settings_.pace)},
                        {"players", std::move(players)},
                        {"seats", max_seats()},  // what the expansions allow: the join dialog's count
                        {"turn", std::move(turn)},
                        {"spectators", spectators_}});
}

std::string RoomLogic::record_json() const {
  const int players = game_ ? game_->players() : static_cast<int>(seats_.size());
  // A settled game stops where it stood: no end-of-game scoring (docs/tournaments.md#rounds).
  return record_.json(players, phase_ == protocol::RoomPhase::Finished && !settled_, settings_.expansions, settings_.options);
}

}  // namespace carc::server
