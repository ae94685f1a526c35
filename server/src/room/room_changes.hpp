// A room's change queue: the one change on its way to storage (applied once it is stored)
// and the commands that arrived meanwhile, replayed in order once it is. At most
// kMaxWaitingMessages client messages wait; the other commands (a connection leaving, the
// clock, a computer player's answer, a rematch's room) are never refused and are bounded
// by the connections and by one each.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "carc/core/game.hpp"
#include "carc/core/packed_game.hpp"
#include "carc/protocol/messages.hpp"
#include "room/client.hpp"
#include "room/lazy_deque.hpp"
#include "durable/persistence.hpp"

namespace carc::server {

using SteadyClock = std::chrono::steady_clock;

// Client messages a room holds while a change is being stored (a stalled store): past it,
// a message is refused with `unavailable` at once.
inline constexpr std::size_t kMaxWaitingMessages = 256;

// A change on its way to storage.
struct PendingJoin {
  ClientPtr client;
  std::string token;
  SeatTaken taken;
};
struct PendingMove {
  ClientPtr client;  // null for a computer player
  MovePlayed action;
  PackedGame next;  // the game after it (checked on a copy; swapped in once stored)
  std::vector<Event> events;
};
struct PendingAction {
  ClientPtr client;  // who asked (for refusals), if anyone
  RoomAction action;
};
using Pending = std::variant<PendingJoin, PendingMove, PendingAction>;

// A command that arrived while a change was being stored.
struct DeferredMessage {
  ClientPtr client;
  protocol::ClientMessage msg;
  SteadyClock::time_point received;
};
struct DeferredDetach {
  ClientPtr client;
};
struct DeferredWake {};
struct DeferredBotMove {
  std::uint64_t ticket;
  Move move;
};
struct DeferredBotFailed {
  std::uint64_t ticket;
};
struct DeferredHint {  // a hint (docs/protocol-details.md)
  std::uint64_t ticket;
  std::optional<Move> move;
};
struct DeferredRematch {
  std::string room;
};
struct DeferredDropPush {  // a push service said the seat's subscription is gone
  int seat;
  std::string endpoint;
};
struct DeferredBindPlayer {  // a seat shown to a player key (docs/community.md#ratings)
  std::string token;
  std::string player;
};
struct DeferredSettle {};  // its tournament settles the table (docs/tournaments.md#rounds)
using Deferred = std::variant<DeferredMessage, DeferredDetach, DeferredWake, DeferredBotMove, DeferredBotFailed,
                              DeferredRematch, DeferredDropPush, DeferredHint, DeferredBindPlayer, DeferredSettle>;

class ChangeQueue {
  std::optional<Pending> pending_;
  SteadyClock::time_point received_{};
  LazyDeque<Deferred> waiting_;
  std::size_t messages_ = 0;  // DeferredMessage entries in waiting_

 public:
  // A change is being stored: commands wait.
  bool busy() const { return pending_.has_value(); }
  void start(Pending p, SteadyClock::time_point received) {
    pending_ = std::move(p);
    received_ = received;
  }
  // The change storage just answered for (nullopt if none was on its way).
  std::optional<Pending> finish() {
    std::optional<Pending> p = std::move(pending_);
    pending_.reset();
    return p;
  }
  // When the request behind the last change arrived (its broadcast's latency starts there).
  SteadyClock::time_point received() const { return received_; }

  // Queues a command behind the change; false (nothing queued) for a client message past the cap.
  bool hold(Deferred d) {
    const bool message = std::holds_alternative<DeferredMessage>(d);
    if (message && messages_ >= kMaxWaitingMessages) return false;
    if (message) ++messages_;
    waiting_.push_back(std::move(d));
    return true;
  }
  // The next waiting command, once no change is on its way.
  std::optional<Deferred> next() {
    if (pending_ || waiting_.empty()) return std::nullopt;
    Deferred d = std::move(waiting_.front());
    waiting_.pop_front();
    if (std::holds_alternative<DeferredMessage>(d)) --messages_;
    return d;
  }
  // The game a move on its way to storage holds (RoomLogic::memory).
  std::size_t pending_game_bytes() const {
    const auto* move = pending_ ? std::get_if<PendingMove>(&*pending_) : nullptr;
    return move != nullptr ? move->next.memory_bytes() : 0;
  }
  // Drops every reference to a connection (see RoomLogic::forget_clients).
  void forget_clients() {
    if (pending_) std::visit([](auto& p) { p.client.reset(); }, *pending_);
    waiting_.clear();
    messages_ = 0;
  }
};

}  // namespace carc::server
