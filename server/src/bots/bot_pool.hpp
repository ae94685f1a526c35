// Computer players think here: a small pool of worker threads (--bot-threads), never an
// I/O thread or a room's strand. A room has at most one request in the queue, the queue is
// served in order (fair between rooms), and the time each level may use shrinks while the
// queue is long, so a server full of computer players stays responsive to humans.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "carc/core/bot.hpp"
#include "carc/core/game.hpp"
#include "room/room_logic.hpp"

namespace carc::server {

class Metrics;

// Work the pool does when no computer turn waits (the analyses of finished games). step()
// does a short piece of it (one move) and returns false when it found nothing to do; it must
// stop early once `preempt()` is true (a computer turn waits and no worker is free).
class BackgroundWork {
 public:
  virtual ~BackgroundWork() = default;
  virtual bool step(const std::function<bool()>& preempt) = 0;
};

class BotPool {
 public:
  struct Answer {
    std::uint64_t ticket = 0;
    std::optional<Move> move;  // empty if the computer player failed
  };
  using Done = std::function<void(Answer)>;

  // `think_cap_ms` caps every level's thinking time (--bot-think-ms; 0: each level's own).
  BotPool(int threads, Metrics& metrics, int think_cap_ms = 0);
  ~BotPool();  // stops the workers; requests still queued are dropped
  BotPool(const BotPool&) = delete;
  BotPool& operator=(const BotPool&) = delete;

  // `done` runs on a worker thread.
  void submit(BotRequest request, Done done);
  std::size_t queued() const;

  // Background work, done only while no computer turn is queued (set once, before use).
  // `idle`: under SCHED_IDLE where the system allows it (bot_pool.cpp).
  void set_background(BackgroundWork* work, bool idle) {
    background_ = work;
    background_idle_ = idle;
  }
  // There may be background work to do: a free worker looks.
  void wake_background();

  // With this many requests waiting, mcts levels answer with the greedy player.
  static constexpr std::size_t kGreedyQueueDepth = 8;

  // A level's search as this pool runs it: capped at `cap_ns` (0: no cap), shared with the
  // `queue_depth` requests waiting behind it, greedy past kGreedyQueueDepth.
  static BotSpec paced(BotSpec spec, std::size_t queue_depth, std::int64_t cap_ns);

 private:
  struct Job {
    BotRequest request;
    Done done;
  };
  void work();
  Move think(const BotRequest& r, std::size_t queue_depth);

  Metrics& metrics_;
  const std::int64_t think_cap_ns_;
  mutable std::mutex mu_;
  std::condition_variable wake_;
  std::deque<Job> queue_;
  bool stopping_ = false;
  bool background_signal_ = false;  // under mu_: background work may be waiting
  BackgroundWork* background_ = nullptr;
  bool background_idle_ = true;
  std::atomic<std::size_t> waiting_{0};  // queue_.size(), readable without the lock
  std::atomic<int> idle_{0};             // workers waiting for work
  std::atomic<bool> stop_{false};        // stopping_, readable without the lock
  std::vector<std::thread> threads_;
};

}  // namespace carc::server
