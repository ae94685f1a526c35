// The game of a room: started, played move by move (a move is tried on a copy first), and
// finished with its result in the record. The same calls replay a stored log (fx null).
#include <spdlog/spdlog.h>

#include "base/metrics.hpp"
#include "room/room_logic.hpp"

namespace carc::server {

using protocol::RoomPhase;

void RoomLogic::start_game(const GameStarted& g, Effects* fx) {
  std::vector<Event> events;
  game_.set(Game::seeded(g.players, g.seed, settings_.expansions, settings_.options, &events));
  phase_ = RoomPhase::Playing;
  // Every tile left to draw is one placement or discard (steps come on top).
  record_.reserve(static_cast<std::size_t>(game_->bag_left()) + 1);
  turn_started_ms_ = g.time_ms;
  for (auto& s : seats_) s.bank_ms = std::int64_t{settings_.bank_seconds} * 1000;
  if (fx != nullptr) {
    patcher_.events_started(events_);
    patcher_.game_events(events_, events);
  } else {
    events_.append_started(nullptr);
    events_.append(events, nullptr);
  }
  record_.add(events, false);
  if (game_->finished()) finish_game(fx);
}

std::variant<PackedGame, RuleError> RoomLogic::try_move(const Move& move, std::vector<Event>& events) const {
  Game& next = RoomGame::scratch_copy(*game_);
  if (const auto err = next.play(move, &events)) return *err;
  return PackedGame(next);
}

void RoomLogic::play_move(const MovePlayed& action, const std::vector<Event>& events, Effects* fx) {
  ++moves_;
  // An extra part of the turn (an expansion's, docs/expansions.md) is one turn with part 1: a
  // bank runs on through both parts and gets its increment once, at the end. A live clock
  // (turn_seconds) and a bank that ran out start again for the extra part.
  const bool bank_runs_on = settings_.turn_based() && !action.automatic && game_->in_extra_part() &&
                            game_->current_seat() == action.seat;
  if (!bank_runs_on) {
    bank_after_move(action);
    turn_started_ms_ = action.time_ms;
  }
  if (fx != nullptr) patcher_.game_events(events_, events);
  else events_.append(events, nullptr);
  if (action.move.type == Move::Type::Step) record_.add_step(action.move);
  record_.add(events, action.automatic);
  SeatState& seat = seats_[static_cast<std::size_t>(action.seat)];
  if (!action.automatic && !seat.bot) seat.away = false;  // they play again themselves
  const bool step = action.move.type == Move::Type::Step;  // a step inside a turn is no turn of its own
  seat.turns += step ? 0 : 1;
  seat.auto_turns += action.automatic && !step ? 1 : 0;
  seat.last_auto = action.automatic;
  if (fx != nullptr) metrics_.moves.fetch_add(1, std::memory_order_relaxed);
  if (action.automatic && fx != nullptr) metrics_.auto_moves.fetch_add(1, std::memory_order_relaxed);
  if (game_->finished()) finish_game(fx);
}

void RoomLogic::settle(std::int64_t now_ms, Effects& fx) {
  settling_ = true;
  if (changes_.busy()) return defer(DeferredSettle{});
  if (phase_ != RoomPhase::Playing || !game_) {
    settling_ = false;
    return;
  }
  const RoomAction action = GameSettled{GameSettled::Reason::RoundDeadline, static_cast<int>(game_->acting_seat()), now_ms};
  store(PendingAction{nullptr, action}, action, true, fx, SteadyClock::now());
}

// A settled game ends where it stands: no end-of-game scoring, the seat on move loses on time
// (with the seats whose last turn a computer made, below every seat still there), and the
// record stops there (`final: false`), so its replay gives the scores that counted.
void RoomLogic::settle_game(const GameSettled& e, Effects* fx) {
  settled_ = e;
  thinking_ = 0;  // a computer player's answer for the last turn comes too late
  turn_started_ms_ = e.time_ms;
  finish_game(fx);
  if (fx != nullptr) {
    spdlog::info("room {}: settled by its tournament at the round's deadline (seat {} on move loses on time)", id_, e.seat);
  }
}

void RoomLogic::finish_game(Effects* fx) {
  if (settled_) {
    protocol::Settlement s;
    s.seat = settled_->seat;
    for (int i = 0; i < seats_.count(); ++i) {
      if (seats_.at(i).last_auto || i == settled_->seat) s.gone.push_back(i);
    }
    record_.finish(protocol::result_text(*game_, events_, s));
  } else {
    record_.finish(protocol::result_text(*game_, events_));
  }
  phase_ = RoomPhase::Finished;
  for (auto& s : seats_) s.away = false;
  if (fx == nullptr) return;
  fx->finished = true;
  metrics_.games_finished.fetch_add(1, std::memory_order_relaxed);
  spdlog::info("room {}: game over after {} moves", id_, moves_);
}

}  // namespace carc::server
