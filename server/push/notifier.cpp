#include "push/notifier.hpp"

#include <pthread.h>

#include <boost/asio/post.hpp>
#include <spdlog/spdlog.h>

#include "base/guard.hpp"
#include "keys/player_keys.hpp"
#include "push/targets.hpp"

namespace carc::server {

namespace {

push::DeliveryQueue::Limits limits_of(const Notifier::Options& o) {
  push::DeliveryQueue::Limits l;
  l.total = o.max_queued;
  l.per_room = o.max_per_room;
  l.spacing = o.spacing;
  l.first_rest = o.first_retry;
  return l;
}

}  // namespace

Notifier::Notifier(Options options, std::unique_ptr<push::Vapid> vapid, Gone gone)
    : options_(std::move(options)), vapid_(std::move(vapid)), gone_(std::move(gone)), work_(io_.get_executor()),
      client_(io_, options_.allow_private, options_.extra_ca), queue_(limits_of(options_)) {
  thread_ = std::thread([this] {
    ::pthread_setname_np(::pthread_self(), "carc-notify");
    run_guarded(io_, "the notifier");
  });
}

Notifier::~Notifier() {
  work_.reset();
  io_.stop();  // what is still queued is dropped: the outbox is not kept (docs/turn-based.md)
  if (thread_.joinable()) thread_.join();
}

bool Notifier::first_time(const std::string& mark) {
  std::lock_guard lock(taken_mu_);
  if (!taken_.insert(mark).second) return false;
  taken_order_.push_back(mark);
  if (taken_order_.size() > options_.remembered) {
    taken_.erase(taken_order_.front());
    taken_order_.pop_front();
  }
  return true;
}

void Notifier::forget(const std::string& mark) {
  std::lock_guard lock(taken_mu_);
  taken_.erase(mark);  // its entry in taken_order_ goes in its turn
}

void Notifier::send(std::vector<Notice> notices) {
  for (Notice& n : notices) {
    if (n.hook) {
      auto d = std::make_shared<push::Delivery>();
      d->request = webhook_request(n, options_.base_url);
      d->room = n.room;
      d->target = d->request.url;
      d->origin = push::parse_url(d->target).value_or(push::Url{}).origin;
      d->mark = n.id + "#hook";
      enqueue(std::move(d), n.replayed);
    }
    if (n.push) {
      auto d = std::make_shared<push::Delivery>();
      d->push = n;
      d->push->hook.reset();
      d->room = n.room;
      d->target = n.push->endpoint;
      d->origin = push::parse_url(d->target).value_or(push::Url{}).origin;
      d->mark = n.id + "#push";
      enqueue(std::move(d), n.replayed);
    }
  }
}

void Notifier::enqueue(Delivery d, bool replayed) {
  // At most once per process: a room restored while its notice is still queued or being
  // retried (out of memory and loaded again, woken for a deadline) derives it again.
  if (!first_time(d->mark)) {
    spdlog::info("room {}: notification {} already taken on; not sent again", d->room, d->mark);
    return;
  }
  auto log = log_ ? log_() : nullptr;
  if (!replayed || !log) return admit(std::move(d));
  // Derived again after a restore: delivered already?
  // On the keys' worker, which may outlive this notifier at shutdown.
  log->was_sent(d->mark, [weak = weak_from_this(), d](bool sent) {
    if (auto self = weak.lock(); self && !sent) self->admit(d);
  });
}

void Notifier::admit(Delivery d) {
  const std::string origin = d->origin;
  std::vector<Delivery> gone;
  {
    std::lock_guard lock(queue_mu_);
    gone = queue_.admit(std::move(d));
  }
  for (const Delivery& g : gone) {
    dropped_.fetch_add(1);
    forget(g->mark);  // not sent: a later restore of the room may derive it again
    spdlog::warn("room {}: its notifications are over their share of the queue; {} dropped", g->room, g->mark);
  }
  boost::asio::post(io_, [this, origin] { pump(origin); });
}

void Notifier::pump(const std::string& origin) {
  for (;;) {
    push::DeliveryQueue::Next next;
    {
      std::lock_guard lock(queue_mu_);
      next = queue_.next(origin, push::DeliveryQueue::Clock::now());
    }
    if (next.start) {
      run(std::move(next.start));
      continue;
    }
    if (next.wake) return wake_at(origin, *next.wake);
    alarms_.erase(origin);  // waits for nothing, or for a request to end (which pumps again)
    return;
  }
}

void Notifier::wake_at(const std::string& origin, push::DeliveryQueue::Clock::time_point at) {
  Alarm& alarm = alarms_[origin];
  if (alarm.at && *alarm.at <= at) return;  // already set for earlier
  if (!alarm.timer) alarm.timer = std::make_unique<boost::asio::steady_timer>(io_);
  alarm.at = at;
  alarm.timer->expires_at(at);  // cancels the earlier wait
  alarm.timer->async_wait([this, origin](boost::system::error_code ec) {
    if (ec) return;  // replaced or removed
    if (auto it = alarms_.find(origin); it != alarms_.end()) it->second.at.reset();
    pump(origin);
  });
}

void Notifier::run(Delivery d) {
  ++d->attempts;
  if (d->push) {
    auto req = push_request(*d->push);  // encrypted again for each attempt: a fresh salt and key
    if (!req) {
      spdlog::warn("room {}: push {} has unusable keys; dropped", d->room, d->push->id);
      std::lock_guard lock(queue_mu_);
      queue_.done(d);
      return;
    }
    d->request = std::move(*req);
  }
  client_.post(d->request, [this, d](push::OutResponse r) { finished(d, r); });
}

void Notifier::finished(Delivery d, const push::OutResponse& r) {
  const std::string what = d->push ? "push " + d->push->id : "webhook";
  const std::string origin = d->origin;
  const std::string outcome = r.status ? std::to_string(r.status) : r.error;
  const bool retryable = r.status == 0 || r.status == 429 || r.status >= 500;
  const bool delivered = r.status >= 200 && r.status < 300;
  const bool gone = d->push && (r.status == 404 || r.status == 410);
  bool again = false;
  std::int64_t rest_ms = 0;
  {
    std::lock_guard lock(queue_mu_);
    if (retryable) {
      // The target rests (the others of its origin go on), then the delivery is tried again.
      const auto asked = std::chrono::seconds(std::max(r.retry_after_s, 0));
      const auto rest = queue_.failed(d, push::DeliveryQueue::Clock::now(), asked);
      rest_ms = std::chrono::duration_cast<std::chrono::milliseconds>(rest).count();
      again = d->attempts < options_.max_attempts;
    } else {
      queue_.answered(d);
    }
    if (again) queue_.again(d);
    else queue_.done(d);
  }
  if (delivered) {
    sent_.fetch_add(1);
    if (auto log = log_ ? log_() : nullptr) log->mark_sent(d->mark);
    spdlog::info("notification sent: {} to {} ({})", what, origin, r.status);
  } else if (gone) {
    spdlog::info("room {}: the push service says seat {}'s subscription is gone ({}); it is removed", d->room,
                 d->push->seat.value_or(-1), r.status);
    if (gone_ && d->push->seat) gone_(d->room, *d->push->seat, d->push->push->endpoint);
  } else if (again) {
    spdlog::info("notification {} to {}: {}; again in {} ms", what, origin, outcome, rest_ms);
  } else {
    failed_.fetch_add(1);
    spdlog::warn("notification {} to {} failed: {}", what, origin, outcome);
  }
  pump(origin);
}

}  // namespace carc::server
