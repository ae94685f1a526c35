// Turn-based rooms and their notifications (docs/turn-based.md). A bank is a function of the
// stored log (every move carries its time), so a restored room computes the same banks and
// the same deadline; the deadline is also kept beside the room (stored_wake) so that a
// room out of memory, or held by a node that died, is woken for it.
#include <algorithm>

#include <spdlog/spdlog.h>

#include "base/random.hpp"
#include "room/room_logic.hpp"

namespace carc::server {

using protocol::ErrorCode;
using protocol::RoomPhase;

void RoomLogic::settings_changed(const SettingsChanged& c) {
  settings_.turn_seconds = c.turn_seconds;
  settings_.away_seconds = c.away_seconds;
  settings_.expansions = c.expansions;
  settings_.options = c.options;
  settings_.pace = c.pace;
  settings_.bank_seconds = c.bank_seconds;
  settings_.increment_seconds = c.increment_seconds;
  hints_choice_ = c.hints;
}

void RoomLogic::bank_after_move(const MovePlayed& action) {
  if (!settings_.turn_based()) return;
  SeatState& s = seats_[static_cast<std::size_t>(action.seat)];
  const std::int64_t cap = std::int64_t{settings_.bank_seconds} * 1000;
  const std::int64_t inc = std::int64_t{settings_.increment_seconds} * 1000;
  // A step inside another seat's turn (Game::in_stage) spends the stepping seat's bank
  // and earns no increment.
  const std::int64_t earned = action.move.type == Move::Type::Step ? 0 : inc;
  if (action.automatic) {
    s.bank_ms = std::min(cap, inc);  // the bank ran out: it starts again at the increment
  } else {
    const std::int64_t used = std::max<std::int64_t>(0, action.time_ms - turn_started_ms_);
    s.bank_ms = std::min(cap, std::max<std::int64_t>(0, s.bank_ms - used) + earned);
  }
}

std::optional<std::int64_t> RoomLogic::stored_wake() const {
  if (!settings_.turn_based() || phase_ != RoomPhase::Playing || !game_ || game_->finished()) return std::nullopt;
  if (seats_[static_cast<std::size_t>(game_->acting_seat())].bot) return turn_started_ms_;  // due at once
  return deadline();
}

std::optional<int> RoomLogic::seat_of_token(std::string_view token) const {
  const int seat = seats_.by_token_hash(sha256_hex(token));
  if (seat < 0) return std::nullopt;
  return seat;
}

void RoomLogic::replay_notices(Effects& fx) {
  const std::size_t from = fx.notices.size();
  if (phase_ == RoomPhase::Finished) notify_over(fx);
  else if (phase_ == RoomPhase::Playing) notify_turn(fx);
  for (std::size_t i = from; i < fx.notices.size(); ++i) fx.notices[i].replayed = true;
}

void RoomLogic::drop_push(int seat, const std::string& endpoint, Effects& fx) {
  if (changes_.busy()) return defer(DeferredDropPush{seat, endpoint});
  if (seat < 0 || seat >= static_cast<int>(seats_.size())) return;
  const auto& push = seats_[static_cast<std::size_t>(seat)].push;
  if (!push || push->endpoint != endpoint) return;  // replaced meanwhile
  const RoomAction action = PushChanged{seat, {}, {}, {}};
  store(PendingAction{nullptr, action}, action, false, fx, {});
}

Notice RoomLogic::notice(Notice::Event e, std::optional<int> seat) const {
  Notice n;
  n.event = e;
  n.room = id_;
  n.seat = seat;
  if (seat) n.name = seats_[static_cast<std::size_t>(*seat)].name;
  n.id = id_ + "-" + notice_event_name(e) + "-" + std::to_string(moves_) + "-" + (seat ? std::to_string(*seat) : "x");
  return n;
}

void RoomLogic::notify_turn(Effects& fx) {
  // The extra part of a turn (an expansion's, docs/expansions.md) goes on the turn already announced.
  if (!settings_.turn_based() || !game_ || game_->finished() || game_->in_extra_part()) return;
  const int seat = game_->acting_seat();
  const SeatState& s = seats_[static_cast<std::size_t>(seat)];
  if (s.bot) return;
  Notice n = notice(Notice::Event::YourTurn, seat);
  n.hook = hook_;
  if (s.push) n.push = *s.push;
  if (n.hook || n.push) fx.notices.push_back(std::move(n));
}

void RoomLogic::notify_over(Effects& fx) {
  if (hook_) {
    Notice n = notice(Notice::Event::GameOver, std::nullopt);
    n.hook = hook_;
    fx.notices.push_back(std::move(n));
  }
  for (std::size_t i = 0; i < seats_.size(); ++i) {
    if (!seats_[i].push) continue;
    Notice n = notice(Notice::Event::GameOver, static_cast<int>(i));
    n.push = *seats_[i].push;
    fx.notices.push_back(std::move(n));
  }
}

void RoomLogic::on_push_subscribe(Member& m, const protocol::PushSubscribeMsg& msg, SteadyClock::time_point t0,
                                  Effects& fx) {
  if (m.role != Role::Player) return refuse(*m.client, ErrorCode::NotJoined, "only a seated player can subscribe to pushes");
  if (notify_bound_reached(m)) return;
  const RoomAction action = PushChanged{m.seat, msg.endpoint, msg.p256dh, msg.auth};
  store(PendingAction{m.client, action}, action, false, fx, t0);
}

void RoomLogic::on_push_unsubscribe(Member& m, SteadyClock::time_point t0, Effects& fx) {
  if (m.role != Role::Player) return refuse(*m.client, ErrorCode::NotJoined, "only a seated player has a subscription");
  if (!seats_[static_cast<std::size_t>(m.seat)].push) return;  // nothing to remove
  if (notify_bound_reached(m)) return;
  const RoomAction action = PushChanged{m.seat, {}, {}, {}};
  store(PendingAction{m.client, action}, action, false, fx, t0);
}

// Each change of a webhook or a subscription is stored with the room for good.
bool RoomLogic::notify_bound_reached(Member& m) {
  if (notify_changes_stored_ < bounds_.notify_changes) return false;
  refuse(*m.client, ErrorCode::LimitReached,
         "this room stores no more notification settings (" + std::to_string(bounds_.notify_changes) + " changes)");
  return true;
}

void RoomLogic::on_webhook(Member& m, const protocol::SettingsMsg& msg, SteadyClock::time_point t0, Effects& fx) {
  if (m.role != Role::Player) return refuse(*m.client, ErrorCode::NotJoined, "only the host can set the webhook");
  if (m.seat != seats_.host()) return refuse(*m.client, ErrorCode::NotHost, "only the host can set the webhook");
  if (notify_bound_reached(m)) return;
  const RoomAction action = WebhookChanged{*msg.webhook};
  store(PendingAction{m.client, action}, action, false, fx, t0);
}

}  // namespace carc::server
