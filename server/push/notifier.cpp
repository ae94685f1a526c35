#include "notifier.hpp"

#include <pthread.h>

#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <nlohmann/json.hpp>

#include "carc/protocol/json.hpp"
#include <spdlog/spdlog.h>

#include "guard.hpp"
#include "player_keys.hpp"
#include "room.hpp"
#include "targets.hpp"

namespace carc::server {

namespace {

using nlohmann::json;

std::string link(const Notice& n, const std::string& base) { return base + "/r/" + n.room; }

std::string text_of(const Notice& n, const std::string& url) {
  if (n.event == Notice::Event::YourTurn) return "Your turn in Carcassonne, " + n.name + ": " + url;
  return "The Carcassonne game is over: " + url;
}

json body_of(const Notice& n, const std::string& base) {
  return json{{"id", n.id},
              {"event", notice_event_name(n.event)},
              {"room", n.room},
              {"seat", n.seat ? json(*n.seat) : json(nullptr)},
              {"name", n.seat ? json(n.name) : json(nullptr)},
              {"url", link(n, base)}};
}

}  // namespace

push::OutRequest Notifier::webhook_request(const Notice& n, const std::string& base) {
  push::OutRequest r;
  r.url = n.hook->url;
  const std::string url = link(n, base);
  r.headers.emplace_back("X-Carcassonne-Id", n.id);  // duplicates carry the same id
  switch (n.hook->format) {
    case protocol::HookFormat::Json:
      r.headers.emplace_back("Content-Type", "application/json");
      r.body = protocol::json_text(body_of(n, base));
      break;
    case protocol::HookFormat::Discord:
      r.headers.emplace_back("Content-Type", "application/json");
      r.body = protocol::json_text(json{{"content", text_of(n, url)}});
      break;
    case protocol::HookFormat::Ntfy:
      r.headers.emplace_back("Content-Type", "text/plain; charset=utf-8");
      r.headers.emplace_back("Title", n.event == Notice::Event::YourTurn ? "Your turn in Carcassonne" : "Carcassonne: game over");
      r.headers.emplace_back("Click", url);
      r.body = text_of(n, url);
      break;
  }
  return r;
}

std::string Notifier::push_payload(const Notice& n, const std::string& base) {
  json j = body_of(n, base);
  j["title"] = n.event == Notice::Event::YourTurn ? "Your turn in Carcassonne" : "Carcassonne: game over";
  j["body"] = text_of(n, link(n, base));
  return protocol::json_text(j);
}

Notifier::Notifier(Options options, std::unique_ptr<push::Vapid> vapid, Gone gone)
    : options_(std::move(options)), vapid_(std::move(vapid)), gone_(std::move(gone)), work_(io_.get_executor()),
      client_(io_, options_.allow_private, options_.extra_ca) {
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

std::optional<push::OutRequest> Notifier::push_request(const Notice& n) const {
  const auto url = push::parse_url(n.push->endpoint);
  const auto key = push::b64url_decode(n.push->p256dh);
  const auto auth = push::b64url_decode(n.push->auth);
  if (!url || !key || !auth) return std::nullopt;
  auto body = push::encrypt(*key, *auth, push_payload(n, options_.base_url));
  if (!body) return std::nullopt;
  push::OutRequest r;
  r.url = n.push->endpoint;
  const auto exp = unix_ms() / 1000 + 12 * 3600;
  r.headers.emplace_back("Authorization", vapid_->authorization(url->origin, exp, options_.subject));
  r.headers.emplace_back("Content-Encoding", "aes128gcm");
  r.headers.emplace_back("Content-Type", "application/octet-stream");
  r.headers.emplace_back("TTL", "86400");
  r.headers.emplace_back("Urgency", "high");
  r.body = std::move(*body);
  return r;
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

void Notifier::enqueue(std::shared_ptr<Job> job, bool replayed, const std::string& room) {
  if (queued_.fetch_add(1) >= options_.max_queued) {
    queued_.fetch_sub(1);
    spdlog::warn("room {}: notification queue full; {} dropped", room, job->mark);
    return;  // not taken on: a later restore of the room may send it
  }
  // At most once per process: a room restored while its notice is still queued or being
  // retried (out of memory and loaded again, woken for a deadline) derives it again.
  if (!first_time(job->mark)) {
    queued_.fetch_sub(1);
    spdlog::info("room {}: notification {} already taken on; not sent again", room, job->mark);
    return;
  }
  auto go = [this, job] { boost::asio::post(io_, [this, job] { schedule(job, std::chrono::milliseconds(0)); }); };
  auto log = log_ ? log_() : nullptr;
  if (!replayed || !log) return go();
  // Derived again after a restore: delivered already?
  // On the keys' worker, which may outlive this notifier at shutdown.
  log->was_sent(job->mark, [weak = weak_from_this(), job](bool sent) {
    auto self = weak.lock();
    if (!self) return;
    if (sent) {
      self->queued_.fetch_sub(1);
      return;
    }
    boost::asio::post(self->io_, [s = self.get(), job] { s->schedule(job, std::chrono::milliseconds(0)); });
  });
}

void Notifier::send(std::vector<Notice> notices) {
  for (Notice& n : notices) {
    if (n.hook) {
      auto job = std::make_shared<Job>();
      job->request = webhook_request(n, options_.base_url);
      job->destination = push::parse_url(job->request.url).value_or(push::Url{}).origin;
      job->mark = n.id + "#hook";
      enqueue(job, n.replayed, n.room);
    }
    if (n.push) {
      auto job = std::make_shared<Job>();
      job->push = n;
      job->push->hook.reset();
      job->destination = push::parse_url(n.push->endpoint).value_or(push::Url{}).origin;
      job->mark = n.id + "#push";
      enqueue(job, n.replayed, n.room);
    }
  }
}

void Notifier::schedule(std::shared_ptr<Job> job, std::chrono::milliseconds delay) {
  // Per destination: one request every `spacing`, so one room's burst never floods a receiver.
  const auto now = std::chrono::steady_clock::now();
  auto& slot = next_slot_[job->destination];
  const auto at = std::max({slot, now + delay});
  slot = at + options_.spacing;
  auto timer = std::make_shared<boost::asio::steady_timer>(io_, at);
  timer->async_wait([this, job, timer](boost::system::error_code ec) {
    if (!ec) run(job);
  });
}

void Notifier::run(std::shared_ptr<Job> job) {
  ++job->attempts;
  if (job->push) {
    auto req = push_request(*job->push);  // encrypted again for each attempt: a fresh salt and key
    if (!req) {
      spdlog::warn("room {}: push {} has unusable keys; dropped", job->push->room, job->push->id);
      queued_.fetch_sub(1);
      return;
    }
    job->request = std::move(*req);
  }
  client_.post(job->request, [this, job](push::OutResponse r) { finished(job, r); });
}

void Notifier::finished(std::shared_ptr<Job> job, const push::OutResponse& r) {
  const std::string what = job->push ? "push " + job->push->id : "webhook";
  if (r.status >= 200 && r.status < 300) {
    sent_.fetch_add(1);
    queued_.fetch_sub(1);
    if (auto log = log_ ? log_() : nullptr) log->mark_sent(job->mark);
    spdlog::info("notification sent: {} to {} ({})", what, job->destination, r.status);
    return;
  }
  if (job->push && (r.status == 404 || r.status == 410)) {
    spdlog::info("room {}: the push service says seat {}'s subscription is gone ({}); it is removed", job->push->room,
                 job->push->seat.value_or(-1), r.status);
    queued_.fetch_sub(1);
    if (gone_ && job->push->seat) gone_(job->push->room, *job->push->seat, job->push->push->endpoint);
    return;
  }
  const bool retry = r.status == 0 || r.status == 429 || r.status >= 500;
  if (retry && job->attempts < options_.max_attempts) {
    auto delay = options_.first_retry * (1 << (job->attempts - 1));
    if (r.retry_after_s >= 0) delay = std::max(delay, std::chrono::milliseconds(std::min(r.retry_after_s, 60) * 1000));
    spdlog::info("notification {} to {}: {}; again in {} ms", what, job->destination,
                 r.status ? std::to_string(r.status) : r.error, delay.count());
    return schedule(job, std::chrono::duration_cast<std::chrono::milliseconds>(delay));
  }
  failed_.fetch_add(1);
  queued_.fetch_sub(1);
  spdlog::warn("notification {} to {} failed: {}", what, job->destination, r.status ? std::to_string(r.status) : r.error);
}

}  // namespace carc::server
