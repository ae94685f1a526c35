#include "bots/bot_pool.hpp"

#include <pthread.h>
#include <sched.h>

#include <spdlog/spdlog.h>

#include <chrono>
#include <stdexcept>

#include "carc/core/bot.hpp"
#include "carc/core/player_view.hpp"
#include "base/guard.hpp"
#include "base/metrics.hpp"

namespace carc::server {

BotPool::BotPool(int threads, Metrics& metrics, int think_cap_ms)
    : metrics_(metrics), think_cap_ns_(static_cast<std::int64_t>(std::max(0, think_cap_ms)) * 1'000'000) {
  for (int i = 0; i < std::max(1, threads); ++i) threads_.emplace_back([this] { work(); });
}

BotPool::~BotPool() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
    stop_.store(true, std::memory_order_relaxed);  // background work stops at once too
  }
  wake_.notify_all();
  for (auto& t : threads_) t.join();
}

void BotPool::submit(BotRequest request, Done done) {
  {
    std::lock_guard lock(mu_);
    if (stopping_) return;
    queue_.push_back(Job{std::move(request), std::move(done)});
    waiting_.store(queue_.size(), std::memory_order_relaxed);
  }
  wake_.notify_one();
}

void BotPool::wake_background() {
  {
    std::lock_guard lock(mu_);
    if (stopping_ || background_ == nullptr) return;
    background_signal_ = true;
  }
  wake_.notify_one();
}

std::size_t BotPool::queued() const {
  std::lock_guard lock(mu_);
  return queue_.size();
}

namespace {

// Background work runs under SCHED_IDLE: the kernel gives it only CPU that nothing else of
// the machine wants, so an analysis never slows the I/O threads either (they may share a
// core with it). Only where the thread can switch back to SCHED_OTHER afterwards (tried
// once per worker); elsewhere background work runs at the normal priority.
bool set_policy(int policy) {
  sched_param p{};
  return ::pthread_setschedparam(::pthread_self(), policy, &p) == 0;
}

bool idle_policy_works() {
  if (!set_policy(SCHED_IDLE)) return false;
  if (set_policy(SCHED_OTHER)) return true;
  spdlog::warn("bot pool: a worker cannot leave SCHED_IDLE; it stays there");  // cannot happen on Linux
  return false;
}

}  // namespace

void BotPool::work() {
  ::pthread_setname_np(::pthread_self(), "carc-bot");
  const bool idle_policy = idle_policy_works();
  // A live turn waits with no free worker to take it: background work gives way.
  const std::function<bool()> preempt = [this] {
    return stop_.load(std::memory_order_relaxed) ||
           (waiting_.load(std::memory_order_relaxed) > 0 && idle_.load(std::memory_order_relaxed) == 0);
  };
  for (;;) {
    Job job;
    std::size_t depth = 0;
    {
      std::unique_lock lock(mu_);
      idle_.fetch_add(1, std::memory_order_relaxed);
      wake_.wait(lock, [&] { return stopping_ || !queue_.empty() || background_signal_; });
      idle_.fetch_sub(1, std::memory_order_relaxed);
      if (stopping_) return;
      if (queue_.empty()) {  // background work, behind every computer turn
        background_signal_ = false;
        lock.unlock();
        bool more = false;
        const bool idle = background_idle_ && idle_policy && set_policy(SCHED_IDLE);
        try {
          more = background_->step(preempt);
        } catch (const std::exception& e) {
          spdlog::error("bot pool: background work failed: {}", e.what());
        }
        if (idle) set_policy(SCHED_OTHER);
        if (more) wake_background();
        continue;
      }
      job = std::move(queue_.front());
      queue_.pop_front();
      depth = queue_.size();
      waiting_.store(queue_.size(), std::memory_order_relaxed);
    }
    Answer a{job.request.ticket, std::nullopt};
    const auto t0 = std::chrono::steady_clock::now();
    try {
      a.move = think(job.request, depth);
    } catch (const std::exception& e) {
      spdlog::error("bot pool: a computer player failed: {}", e.what());
    }
    metrics_.bot_think.observe(std::chrono::steady_clock::now() - t0);
    guarded("the bot pool's answer", [&] { job.done(std::move(a)); });
  }
}

// The level's budget on the wall clock (what the players wait for), at most the host's cap.
// While other rooms' requests queue up behind this one, the search gets a share of its time,
// and with a long queue the level falls back to the one-ply greedy player: a server full of
// computer players plays a little weaker, never late.
BotSpec BotPool::paced(BotSpec spec, std::size_t queue_depth, std::int64_t cap_ns) {
  if (spec.kind != BotKind::Mcts) return spec;
  if (cap_ns > 0 && (spec.think_ns == 0 || spec.think_ns > cap_ns)) spec.think_ns = cap_ns;
  if (queue_depth >= kGreedyQueueDepth) {
    spec.kind = BotKind::Greedy;
  } else if (queue_depth > 0) {
    spec.think_ns /= static_cast<std::int64_t>(1 + queue_depth);
  }
  return spec;
}

Move BotPool::think(const BotRequest& r, std::size_t queue_depth) {
  const PlayerView view(*r.game);
  auto spec = bot_level(protocol::bot_level_name(r.level), [] {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
  });
  if (!spec) throw std::logic_error("no such computer level");
  const BotSpec paced_spec = paced(*spec, queue_depth, think_cap_ns_);
  const BotChoice choice = choose(view, paced_spec, r.seed);
  metrics_.bot_playouts.fetch_add(static_cast<std::uint64_t>(choice.playouts), std::memory_order_relaxed);
  return choice.move;
}

}  // namespace carc::server
