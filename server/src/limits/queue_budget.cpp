#include "limits/queue_budget.hpp"

#include <algorithm>
#include <vector>

#include <spdlog/spdlog.h>

namespace carc::server {

void QueueBudget::changed(Queue& q, std::size_t before, std::size_t after) {
  if (before == after) return;
  const auto delta = static_cast<std::int64_t>(after) - static_cast<std::int64_t>(before);
  const std::int64_t total = metrics_.queued_bytes.fetch_add(delta, std::memory_order_relaxed) + delta;
  const bool was = before >= kTracked;
  const bool is = after >= kTracked;
  if (was != is) {
    std::lock_guard lock(mu_);
    if (is) {
      tracked_[&q] = Entry{q.weak_queue(), q.budget_address()};
    } else {
      tracked_.erase(&q);
    }
  }
  if (is && (!was || total > static_cast<std::int64_t>(budget_))) enforce(q.budget_address());
}

void QueueBudget::forget(const Queue* q) {
  std::lock_guard lock(mu_);
  tracked_.erase(q);
}

void QueueBudget::enforce(const std::string& address) {
  struct Largest {
    std::shared_ptr<Queue> queue;
    const std::string* address;
    std::size_t bytes;
  };
  std::vector<std::shared_ptr<Queue>> victims;
  {
    std::lock_guard lock(mu_);
    std::vector<Largest> largest;
    largest.reserve(tracked_.size());
    std::size_t of_address = 0;
    for (const auto& [key, e] : tracked_) {
      auto q = e.queue.lock();
      if (!q) continue;
      const std::size_t bytes = q->queued_bytes();
      if (e.address == address) of_address += bytes;
      largest.push_back(Largest{std::move(q), &e.address, bytes});
    }
    std::sort(largest.begin(), largest.end(), [](const Largest& a, const Largest& b) { return a.bytes > b.bytes; });
    // The address's own share first: its biggest queues go until it is within it.
    for (auto& b : largest) {
      if (of_address <= per_address_) break;
      if (*b.address != address || !b.queue) continue;
      of_address -= b.bytes;
      victims.push_back(std::move(b.queue));
    }
    // Then the whole budget, biggest first, down to nine tenths of it: not one drop per frame.
    std::int64_t total = metrics_.queued_bytes.load(std::memory_order_relaxed);
    for (const auto& v : victims) total -= static_cast<std::int64_t>(v->queued_bytes());
    const auto target = static_cast<std::int64_t>(budget_ / 10 * 9);
    if (total > static_cast<std::int64_t>(budget_)) {
      for (auto& b : largest) {
        if (total <= target) break;
        if (!b.queue) continue;
        total -= static_cast<std::int64_t>(b.bytes);
        victims.push_back(std::move(b.queue));
      }
    }
    for (const auto& v : victims) tracked_.erase(v.get());
  }
  for (const auto& v : victims) {
    metrics_.queue_budget_drops.fetch_add(1, std::memory_order_relaxed);
    v->shed();
  }
  if (!victims.empty()) {
    spdlog::info("dropped {} connection(s) that do not read: frames queued for slow clients past the budget", victims.size());
  }
}

}  // namespace carc::server
