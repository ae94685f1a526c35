// A room's part in the ratings (docs/community.md#ratings): which player sits in each seat
// (bound when the seat is shown to a player key, stored in the log as PlayerBound), the
// finished game as a result, and the `rated` message once the ratings changed.
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include "room/room_logic.hpp"

namespace carc::server {

using protocol::RoomPhase;

void RoomLogic::bind_player(std::string_view token, const std::string& player, Effects& fx) {
  if (changes_.busy()) return defer(DeferredBindPlayer{std::string(token), player});
  if (phase_ == RoomPhase::Finished) return;  // its result is what the log said at the end
  const auto seat = seat_of_token(token);
  if (!seat) return;  // the seat was given up meanwhile
  const SeatState& s = seats_.at(*seat);
  if (s.bot || !s.player.empty() || never_rated_) return;  // the first binding wins; a never rated room binds none
  const RoomAction action = PlayerBound{*seat, player};
  store(PendingAction{nullptr, action}, action, false, fx, SteadyClock::now());
}

void RoomLogic::player_bound(const PlayerBound& b) {
  SeatState& s = seats_.at(b.seat);
  if (s.player.empty()) s.player = b.player;
}

community::GameResult RoomLogic::result() const {
  community::GameResult r;
  r.room = id_;
  r.pace = settings_.turn_based() ? "turn-based" : "live";
  for (int e = 0; e < kExpansionKinds; ++e) {
    if (!settings_.expansions.has(static_cast<Expansion>(e))) continue;
    r.expansions += (r.expansions.empty() ? "" : ",") + std::string(expansion_name(static_cast<Expansion>(e)));
  }
  r.finished_ms = turn_started_ms_;  // the last move's time: the same whenever it is derived
  r.never_rated = never_rated_;
  // Each seat's points by kind: the result's breakdown (docs/protocol.md), its rows during
  // the game and at the end added up, so the players' pages can say where points came from.
  nlohmann::json breakdown;
  if (game_ && phase_ == RoomPhase::Finished) {
    breakdown = nlohmann::json::parse(protocol::result_text(*game_, events_), nullptr, false).value("breakdown", nlohmann::json());
  }
  for (int i = 0; i < seats_.count(); ++i) {
    const SeatState& s = seats_.at(i);
    community::ResultSeat seat;
    seat.player = s.player;
    seat.name = s.name;
    seat.bot = s.bot.has_value();
    seat.score = game_ ? game_->score(static_cast<Seat>(i)) : 0;
    seat.turns = s.turns;
    seat.auto_turns = s.auto_turns;
    seat.gone = s.last_auto || (settled_ && settled_->seat == i);  // on move when its tournament settled the game
    if (breakdown.is_array() && static_cast<std::size_t>(i) < breakdown.size()) {
      for (const char* part : {"game", "end"}) {
        const auto rows = breakdown[static_cast<std::size_t>(i)].find(part);
        if (rows == breakdown[static_cast<std::size_t>(i)].end() || !rows->is_object()) continue;
        for (const auto& [kind, v] : rows->items()) {
          if (v.is_number_integer()) seat.points[kind] += v.get<int>();
        }
      }
    }
    r.seats.push_back(std::move(seat));
  }
  return r;
}

void RoomLogic::tell_rated(const std::string& frame) {
  auto shared = std::make_shared<const std::string>(frame);
  for (Member& m : members_) m.client->send(shared);
}

}  // namespace carc::server
