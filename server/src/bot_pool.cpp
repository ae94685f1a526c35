#include "bot_pool.hpp"

#include <spdlog/spdlog.h>

#include "carc/core/random_player.hpp"
#include "metrics.hpp"

namespace carc::server {

BotPool::BotPool(int threads, Metrics& metrics) : metrics_(metrics) {
  for (int i = 0; i < std::max(1, threads); ++i) threads_.emplace_back([this] { work(); });
}

BotPool::~BotPool() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (auto& t : threads_) t.join();
}

void BotPool::submit(BotRequest request, Done done) {
  {
    std::lock_guard lock(mu_);
    if (stopping_) return;
    queue_.push_back(Job{std::move(request), std::move(done)});
  }
  wake_.notify_one();
}

std::size_t BotPool::queued() const {
  std::lock_guard lock(mu_);
  return queue_.size();
}

void BotPool::work() {
  for (;;) {
    Job job;
    std::size_t depth = 0;
    {
      std::unique_lock lock(mu_);
      wake_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (stopping_) return;
      job = std::move(queue_.front());
      queue_.pop_front();
      depth = queue_.size();
    }
    Answer a{job.request.ticket, std::nullopt};
    const auto t0 = std::chrono::steady_clock::now();
    try {
      a.move = think(job.request, depth);
    } catch (const std::exception& e) {
      spdlog::error("bot pool: a computer player failed: {}", e.what());
    }
    metrics_.bot_think.observe(std::chrono::steady_clock::now() - t0);
    job.done(std::move(a));
  }
}

Move BotPool::think(const BotRequest& r, std::size_t) {
  RandomPlayer player(r.seed);
  return player.choose(*r.game);
}

}  // namespace carc::server
