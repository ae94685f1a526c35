// Computer players, turn clocks and absent players (docs/protocol.md). A computer player's
// turn, a human's turn whose clock ran out, and the turn of a human gone for away_seconds
// are all asked of the bot pool the same way; the answer comes back as bot_moved() and is
// checked and stored like any other move. A ticket (the game version of the turn) makes a
// late answer for a turn that has passed harmless.
#include <algorithm>

#include <spdlog/spdlog.h>

#include "base/metrics.hpp"
#include "base/random.hpp"
#include "room/room_logic.hpp"

namespace carc::server {

using protocol::RoomPhase;

namespace {
constexpr std::int64_t kBotRetryMs = 1000;  // after storage could not take a computer player's move
}

std::optional<RoomLogic::Auto> RoomLogic::auto_reason(std::int64_t now_ms) const {
  const SeatState& s = seats_[static_cast<std::size_t>(game_->acting_seat())];
  if (s.bot) return std::nullopt;
  if (const auto d = deadline(); d && now_ms >= *d) return Auto::Timeout;
  if (s.holder == nullptr && settings_.away_seconds && !settings_.turn_based() &&
      now_ms >= s.gone_since_ms + std::int64_t{*settings_.away_seconds} * 1000) {
    return Auto::Away;
  }
  return std::nullopt;
}

void RoomLogic::maybe_think(std::int64_t now_ms, Effects& fx) {
  if (phase_ != RoomPhase::Playing || !game_ || game_->finished() || changes_.busy()) return;
  const auto ticket = static_cast<std::uint64_t>(game_version_);
  if (thinking_ == ticket || now_ms < bot_retry_ms_) return;
  const Seat seat = game_->acting_seat();
  SeatState& s = seats_[static_cast<std::size_t>(seat)];
  BotRequest r;
  if (s.bot) {
    r.level = *s.bot;
    thinking_for_ = Auto::No;
  } else {
    const auto why = auto_reason(now_ms);
    if (!why) return;
    r.level = protocol::BotLevel::Medium;
    r.automatic = true;
    thinking_for_ = *why;
    if (!s.away) {
      s.away = true;
      spdlog::info("room {}: a computer player makes seat {}'s turn ({})", id_, seat,
                   *why == Auto::Timeout ? "out of time" : "away");
      begin_change();
      publish(nullptr, fx);
    }
  }
  thinking_ = ticket;
  r.ticket = ticket;
  r.seat = seat;
  r.seed = think_seed(game_->moves_played(), seat);
  r.game = std::make_shared<const Game>(*game_);
  fx.think = std::move(r);
}

void RoomLogic::seat_back(SeatState& s) {
  s.away = false;
  s.gone_since_ms = 0;
  // Back before the computer player answered for an absent human: their turn again. A
  // turn whose clock ran out is still played for them.
  if (thinking_ != 0 && thinking_for_ == Auto::Away && game_ &&
      &seats_[static_cast<std::size_t>(game_->acting_seat())] == &s) {
    thinking_ = 0;
    thinking_for_ = Auto::No;
  }
}

std::optional<std::int64_t> RoomLogic::next_wake() const {
  if (phase_ != RoomPhase::Playing || !game_ || game_->finished()) return std::nullopt;
  const auto ticket = static_cast<std::uint64_t>(game_version_);
  if (thinking_ == ticket) return std::nullopt;  // the pool answers
  if (bot_retry_ms_ > 0 && thinking_ == 0) {
    const SeatState& s = seats_[static_cast<std::size_t>(game_->acting_seat())];
    if (s.bot || s.away) return bot_retry_ms_;
  }
  const SeatState& s = seats_[static_cast<std::size_t>(game_->acting_seat())];
  if (s.bot) return std::nullopt;  // asked at the start of the turn
  std::optional<std::int64_t> at = deadline();
  if (s.holder == nullptr && settings_.away_seconds && !settings_.turn_based()) {
    const std::int64_t gone = s.gone_since_ms + std::int64_t{*settings_.away_seconds} * 1000;
    at = at ? std::min(*at, gone) : gone;
  }
  return at;
}

void RoomLogic::wake(std::int64_t now_ms, Effects& fx) {
  if (changes_.busy()) return defer(DeferredWake{});
  if (bot_retry_ms_ > 0 && now_ms >= bot_retry_ms_) bot_retry_ms_ = 0;
  maybe_think(now_ms, fx);
}

void RoomLogic::bot_moved(std::uint64_t ticket, const Move& move, std::int64_t now_ms, Effects& fx) {
  if (changes_.busy()) return defer(DeferredBotMove{ticket, move});
  if (ticket != thinking_ || ticket != static_cast<std::uint64_t>(game_version_) || !game_ || game_->finished() ||
      phase_ != RoomPhase::Playing) {
    metrics_.bot_stale.fetch_add(1, std::memory_order_relaxed);
    return;  // the turn has passed (the human played or came back)
  }
  thinking_ = 0;
  const Seat seat = game_->acting_seat();
  const bool automatic = !seats_[static_cast<std::size_t>(seat)].bot;
  Move chosen = move;
  std::vector<Event> events;
  auto next = try_move(chosen, events);
  if (std::holds_alternative<RuleError>(next)) {
    // Never expected: a computer player's move is never refused, so the room falls back
    // to the first legal placement rather than stall the game.
    spdlog::error("room {}: a computer player's move for seat {} was refused ({}); playing the first legal one", id_,
                  seat, rule_error_name(std::get<RuleError>(next)));
    std::vector<Placement> ps;
    if (game_->in_stage()) {  // a step inside the turn: its first option
      std::vector<Cell> options;
      game_->step_options(options);
      if (options.empty()) return;
      chosen = Move::step(options.front());
    } else {
      const Tile t = *game_->held(seat);
      game_->legal_placements(t, ps);
      if (ps.empty()) return;
      chosen = Move::place(t, ps.front().cell, ps.front().rotation);
    }
    events.clear();
    next = try_move(chosen, events);
    if (std::holds_alternative<RuleError>(next)) return;
  }
  metrics_.bot_moves.fetch_add(1, std::memory_order_relaxed);
  const MovePlayed action{moves_, seat, chosen, automatic, now_ms};
  store(PendingMove{nullptr, action, std::move(std::get<PackedGame>(next)), std::move(events)}, action,
        true, fx, {});
}

void RoomLogic::bot_failed(std::uint64_t ticket, std::int64_t now_ms, Effects& fx) {
  if (changes_.busy()) return defer(DeferredBotFailed{ticket});
  if (ticket != thinking_) return;
  thinking_ = 0;
  bot_retry_ms_ = now_ms + kBotRetryMs;
  (void)fx;
}

}  // namespace carc::server
