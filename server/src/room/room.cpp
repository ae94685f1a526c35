#include "room/room.hpp"

#include <atomic>
#include <cstdio>
#include <cstdlib>

#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>
#include <spdlog/spdlog.h>

#include "bots/bot_pool.hpp"
#include "base/metrics.hpp"

namespace carc::server {

std::int64_t steady_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

namespace {
std::atomic<ClockOffset> clock_offset{nullptr};
}  // namespace

void set_clock_offset(ClockOffset offset) { clock_offset.store(offset, std::memory_order_relaxed); }

std::int64_t unix_ms() {
  const ClockOffset offset = clock_offset.load(std::memory_order_relaxed);
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
             .count() +
         (offset != nullptr ? offset() : 0);
}

Room::Room(Strand strand, std::string id, std::shared_ptr<const RoomServices> services)
    : Room(strand, std::make_unique<RoomLogic>(std::move(id), services->metrics), services) {}  // not moved: read first

Room::Room(Strand strand, std::string id, RoomServices services)
    : Room(std::move(strand), std::move(id), std::make_shared<const RoomServices>(std::move(services))) {}

Room::Room(Strand strand, std::unique_ptr<RoomLogic> logic, std::shared_ptr<const RoomServices> services)
    : strand_(std::move(strand)), services_(std::move(services)), logic_(std::move(logic)), timer_(strand_) {
  logic_->set_bounds(services_->bounds);
  if (services_->open_gate) logic_->set_open_gate(services_->open_gate);
  phase_ = static_cast<std::uint8_t>(logic_->phase());
  seated_ = logic_->seated();
  idle_since_ms_ = steady_ms();
  // A live room has never had a wake-up stored; a restored turn-based one writes its own
  // once (what storage holds may predate its last move).
  wake_known_ = !logic_->turn_based();
}

std::variant<std::shared_ptr<Room>, std::string> Room::restore(Strand strand, std::string id,
                                                               std::shared_ptr<const RoomServices> services,
                                                               const RestoredRoom& r) {
  auto logic = RoomLogic::restore(std::move(id), services->metrics, r, unix_ms());
  if (auto* why = std::get_if<std::string>(&logic)) return *why;
  return std::make_shared<Room>(std::move(strand), std::move(std::get<std::unique_ptr<RoomLogic>>(logic)),
                                std::move(services));
}

std::variant<std::shared_ptr<Room>, std::string> Room::restore(Strand strand, std::string id, RoomServices services,
                                                               const RestoredRoom& r) {
  return restore(std::move(strand), std::move(id), std::make_shared<const RoomServices>(std::move(services)), r);
}

void Room::carry_out() {
  Effects fx = fx_ ? std::move(*fx_) : Effects{};
  fx_.reset();
  if (retired_) return;
  const std::string& id = logic_->id();
  auto& persistence = services_->persistence;
  if (fx.version_bump) persistence.version_changed(id, *fx.version_bump);
  if (fx.finished) {
    persistence.room_finished(id, unix_ms());
    if (services_->game_over && logic_->humans() > 0) services_->game_over(id, [this] { return logic_->record_json(); });
    hand_result();
  }
  if (fx.store) {
    storing_ = true;
    persistence.persist_async(id, fx.store->version, fx.store->game_version, fx.store->action,
                              [self = shared_from_this()](bool ok) {
                                // Inline when the store answered on the strand; else back onto it.
                                boost::asio::dispatch(self->strand_, [self, ok] {
                                  self->storing_ = false;
                                  self->logic_->stored(ok, unix_ms(), self->fx());
                                  self->carry_out();
                                  self->answer_settle();
                                });
                              });
  }
  if (fx.think) {
    if (services_->bots != nullptr) {
      // The room stays in memory until the answer is in (retire_if_idle): a room retired
      // meanwhile would drop the move, and the turn would be played again when the room
      // is next loaded (a turn-based room woken for a deadline has no connection).
      ++asked_;
      services_->bots->submit(std::move(*fx.think), [self = shared_from_this()](BotPool::Answer a) {
        boost::asio::post(self->strand_, [self, a] {
          --self->asked_;
          if (a.move) self->logic_->bot_moved(a.ticket, *a.move, unix_ms(), self->fx());
          else self->logic_->bot_failed(a.ticket, unix_ms(), self->fx());
          self->carry_out();
        });
      });
    } else {
      spdlog::warn("room {}: a computer player's turn, but this server runs no bot pool", id);
    }
  }
  if (fx.hint && services_->bots != nullptr) {
    // A hint: on the bot pool like a computer player's turn, never on this strand.
    ++asked_;
    services_->bots->submit(std::move(*fx.hint), [self = shared_from_this()](BotPool::Answer a) {
      boost::asio::post(self->strand_, [self, a] {
        --self->asked_;
        self->logic_->hint_ready(a.ticket, a.move, self->fx());
        self->carry_out();
      });
    });
  } else if (fx.hint) {
    logic_->hint_ready(fx.hint->ticket, std::nullopt, this->fx());
  }
  if (!fx.notices.empty() && services_->notify) services_->notify(std::move(fx.notices));
  if (fx.rematch) {
    if (services_->make_rematch) {
      services_->make_rematch(std::move(fx.rematch->actions), [self = shared_from_this()](std::string room) {
        boost::asio::post(self->strand_, [self, room = std::move(room)] {
          self->logic_->rematch_created(room, unix_ms(), self->fx());
          self->carry_out();
        });
      });
    } else {
      logic_->rematch_created({}, unix_ms(), this->fx());
      return carry_out();
    }
  }
  arm(logic_->next_wake());
  if (services_->wake_changed) {
    const auto due = logic_->stored_wake();
    if (!wake_known_ || due != wake_due_) {
      wake_known_ = true;
      wake_due_ = due;
      services_->wake_changed(id, due);
    }
  }
  keep_stored_ = logic_->turn_based() && logic_->phase() != protocol::RoomPhase::Finished;
  relist();
  phase_ = static_cast<std::uint8_t>(logic_->phase());
  seated_ = logic_->seated();
  const auto mem = logic_->memory();
  mem_engine_.store(mem.engine, std::memory_order_relaxed);
  mem_history_.store(mem.history, std::memory_order_relaxed);
  mem_view_.store(mem.view, std::memory_order_relaxed);
  mem_other_.store(mem.other, std::memory_order_relaxed);
}

void Room::relist(bool gone) {
  if (!services_->listing_changed) return;
  auto now = gone ? std::nullopt : logic_->listing();
  const bool open = !gone && logic_->open();
  const bool same = now ? listed_ && *listed_ == *now : !listed_;
  if (same && open == open_told_) return;
  listed_ = now ? std::make_unique<const OpenListing>(*now) : nullptr;
  open_told_ = open;
  services_->listing_changed(logic_->id(), now, open);
}

void Room::arm(std::optional<std::int64_t> at) {
  if (at == armed_at_) return;
  armed_at_ = at;
  if (!at) {
    timer_.cancel();
    return;
  }
  const auto delay = std::chrono::milliseconds(std::max<std::int64_t>(0, *at - unix_ms()));
  timer_.expires_after(delay);
  timer_.async_wait([self = shared_from_this(), at](boost::system::error_code ec) {
    if (ec || self->armed_at_ != at) return;  // re-armed or cancelled meanwhile
    self->armed_at_.reset();
    self->logic_->wake(unix_ms(), self->fx());
    self->carry_out();
  });
}

RoomLogic::Memory Room::memory() const {
  return RoomLogic::Memory{mem_engine_.load(std::memory_order_relaxed), mem_history_.load(std::memory_order_relaxed),
                           mem_view_.load(std::memory_order_relaxed), mem_other_.load(std::memory_order_relaxed)};
}

void Room::hand_result() {
  if (!services_->game_result || logic_->phase() != protocol::RoomPhase::Finished) return;
  services_->game_result(logic_->result(), [self = shared_from_this()](std::string frame) {
    boost::asio::post(self->strand_, [self, frame = std::move(frame)] {
      if (!self->retired_) self->logic_->tell_rated(frame);
    });
  });
}

void Room::settle(std::function<void(std::optional<community::GameResult>)> done) {
  if (retired_) return done(std::nullopt);
  settle_waiters_.push_back(std::move(done));
  logic_->settle(unix_ms(), fx());
  carry_out();
  answer_settle();
}

void Room::answer_settle() {
  if (settle_waiters_.empty() || (logic_->settling() && !retired_)) return;
  std::optional<community::GameResult> result;
  if (!retired_ && logic_->phase() == protocol::RoomPhase::Finished) result = logic_->result();
  auto waiters = std::move(settle_waiters_);
  settle_waiters_.clear();
  for (auto& w : waiters) w(result);
}

bool Room::bind_player(const std::string& token, const std::string& player) {
  if (retired_) return false;
  logic_->bind_player(token, player, fx());
  carry_out();
  return true;
}

void Room::start() {
  hand_result();  // the outbox of the ratings: a result the last run did not store yet
  logic_->replay_notices(fx());  // the outbox: what its last stored change should have sent
  logic_->wake(unix_ms(), fx());
  carry_out();
}

void Room::attach(const ClientPtr& c) {
  if (retired_) return c->close(CloseReason::RoomClosed);
  logic_->attach(c);
  connections_.fetch_add(1);
  idle_since_ms_ = 0;
}

bool Room::retire_if_idle(std::int64_t now_steady_ms, std::int64_t ttl_ms) {
  const std::int64_t since = idle_since_ms_.load();
  if (retired_ || storing_ || asked_ > 0 || logic_->connections() > 0 || since == 0 || now_steady_ms - since <= ttl_ms) {
    return false;
  }
  retired_ = true;
  armed_at_.reset();
  timer_.cancel();
  relist(true);
  return true;
}

void Room::evict() {
  if (retired_) return;
  retired_ = true;
  armed_at_.reset();
  timer_.cancel();
  relist(true);
  logic_->close_all(CloseReason::Moved);
  answer_settle();  // none: the node that takes the room settles it
}

void Room::detach(const ClientPtr& c) {
  if (retired_) return;  // it had no member left, and took no new one
  logic_->detach(c, unix_ms(), fx());
  const bool last = connections_.fetch_sub(1) == 1;
  if (last) idle_since_ms_ = steady_ms();
  carry_out();
  if (last && phase() == protocol::RoomPhase::Finished && services_->finished_idle) services_->finished_idle(shared_from_this());
}

void Room::handle(const ClientPtr& c, const protocol::ClientMessage& msg, Clock::time_point received) {
  if (retired_) return;
  logic_->handle(c, msg, unix_ms(), received, fx());
  carry_out();
}

void Room::close_all(CloseReason why) { logic_->close_all(why); }

void Room::drop_push(int seat, const std::string& endpoint) {
  if (retired_) return;
  logic_->drop_push(seat, endpoint, fx());
  carry_out();
}

std::string Room::state_text() { return logic_->state_text(unix_ms()); }

}  // namespace carc::server
