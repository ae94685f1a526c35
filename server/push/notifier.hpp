// Sends what rooms ask to tell outside the page (docs/turn-based.md): "your turn" and "game over"
// to a room's webhook (json, discord, ntfy) and to a seat's Web Push subscription. On a
// thread of its own (never a room's strand, never the storage writer), with a timeout per
// request and retries with backoff on 429, 5xx and no answer; a push service's 404 or 410
// ends the subscription. What waits is kept fair (delivery_queue.hpp): each room has its own
// bounded queue and the rooms take turns, and a receiver that fails rests without holding
// up anyone else's notices.
#pragma once

#include <atomic>
#include <chrono>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include "push/delivery_queue.hpp"
#include "push/http_client.hpp"
#include "room/notice.hpp"
#include "push/webpush.hpp"

namespace carc::server {

class PlayerKeys;

class Notifier : public std::enable_shared_from_this<Notifier> {
 public:
  struct Options {
    bool allow_private = false;   // --allow-private-hooks
    std::string extra_ca;         // --extra-ca
    std::string base_url;         // links in the messages
    std::string subject = "mailto:admin@localhost";  // VAPID "sub"
    std::size_t max_queued = 1000;   // deliveries waiting or being sent, all rooms together
    std::size_t max_per_room = 100;  // of one room
    int max_attempts = 5;
    std::chrono::milliseconds spacing{200};  // per destination (origin)
    std::chrono::milliseconds first_retry{1000};
    std::size_t remembered = 10000;  // deliveries this process took on, kept to refuse a second
  };
  // A push service said the subscription is gone: the room forgets it.
  using Gone = std::function<void(const std::string& room, int seat, const std::string& endpoint)>;

  Notifier(Options options, std::unique_ptr<push::Vapid> vapid, Gone gone);
  // Where deliveries are marked (and replayed notices checked): the side database.
  void set_log(std::function<std::shared_ptr<PlayerKeys>()> log) { log_ = std::move(log); }
  ~Notifier();
  Notifier(const Notifier&) = delete;
  Notifier& operator=(const Notifier&) = delete;

  // Thread-safe, never waits for the network: queued (its room past its share gives up its
  // oldest waiting notice; see delivery_queue.hpp), and dropped notices are logged.
  void send(std::vector<Notice> notices);
  const push::Vapid& vapid() const { return *vapid_; }
  std::uint64_t sent() const { return sent_.load(); }
  std::uint64_t failed() const { return failed_.load(); }
  std::uint64_t dropped() const { return dropped_.load(); }

  // The messages of a notice, for tests: the webhook request and the push payload.
  static push::OutRequest webhook_request(const Notice& n, const std::string& base_url);
  static std::string push_payload(const Notice& n, const std::string& base_url);

 private:
  using Delivery = push::DeliveryQueue::Ptr;
  // Whether this process has not taken this delivery on before (then it is remembered).
  bool first_time(const std::string& mark);
  void forget(const std::string& mark);
  void enqueue(Delivery d, bool replayed);
  // Takes `d` on (any thread), then has its origin start what it may.
  void admit(Delivery d);
  // On the io thread: starts what `origin` may start now, or sets its alarm.
  void pump(const std::string& origin);
  void wake_at(const std::string& origin, push::DeliveryQueue::Clock::time_point at);
  void run(Delivery d);
  void finished(Delivery d, const push::OutResponse& r);
  std::optional<push::OutRequest> push_request(const Notice& n) const;

  Options options_;
  std::unique_ptr<push::Vapid> vapid_;
  Gone gone_;
  std::function<std::shared_ptr<PlayerKeys>()> log_;
  boost::asio::io_context io_;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work_;
  push::HttpClient client_;
  std::mutex queue_mu_;  // rooms' strands admit, the io thread starts and finishes
  push::DeliveryQueue queue_;
  // io thread only: one timer per origin that has something to wait for.
  struct Alarm {
    std::unique_ptr<boost::asio::steady_timer> timer;
    std::optional<push::DeliveryQueue::Clock::time_point> at;
  };
  std::unordered_map<std::string, Alarm> alarms_;
  // The marks of the deliveries taken on (queued, in flight, done or given up), oldest
  // first: a room restored again meanwhile derives the same notices, which must not go
  // out twice while the first is still being sent (the log is marked only once it is done).
  std::mutex taken_mu_;
  std::unordered_set<std::string> taken_;
  std::deque<std::string> taken_order_;
  std::atomic<std::uint64_t> sent_{0}, failed_{0}, dropped_{0};
  std::thread thread_;
};

}  // namespace carc::server
