#include "rooms/wake_scheduler.hpp"

#include <pthread.h>

#include <algorithm>
#include <vector>

#include <spdlog/spdlog.h>

#include "base/guard.hpp"
#include "rooms/registry.hpp"
#include "room/room.hpp"

namespace carc::server {

namespace {
constexpr std::int64_t kMinSleepMs = 200;       // never spin on a room that stays due
constexpr std::int64_t kRetryMs = 10'000;       // a room that could not be loaded is tried again then
constexpr int kBatch = 100;                     // rooms woken per pass
}  // namespace

WakeScheduler::WakeScheduler(std::unique_ptr<WakeStore> store, RoomRegistry& rooms, std::chrono::milliseconds poll)
    : store_(std::move(store)), rooms_(rooms), poll_(poll) {}

void WakeScheduler::start() {
  if (thread_.joinable()) return;
  thread_ = std::thread([this] {
    ::pthread_setname_np(::pthread_self(), "carc-wakes");
    loop();
  });
}

WakeScheduler::~WakeScheduler() { stop(); }

void WakeScheduler::stop() {
  {
    std::lock_guard lock(mu_);
    if (stopping_) return;
    stopping_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
  flush();
}

void WakeScheduler::set(const std::string& room, std::optional<std::int64_t> due_ms) {
  {
    std::lock_guard lock(mu_);
    pending_[room] = due_ms;
  }
  cv_.notify_all();
}

void WakeScheduler::flush() {
  std::unordered_map<std::string, std::optional<std::int64_t>> sets;
  {
    std::lock_guard lock(mu_);
    sets.swap(pending_);
  }
  for (const auto& [room, due] : sets) {
    if (const Status s = store_->set(room, due); !s) spdlog::warn("wake-ups: {}", s.error());
  }
}

void WakeScheduler::wake_due(std::int64_t now) {
  auto due = store_->due(now, kBatch);
  if (auto* why = std::get_if<std::string>(&due)) {
    spdlog::warn("wake-ups: {}", *why);
    return;
  }
  std::erase_if(retry_after_, [now](const auto& r) { return r.second <= now; });
  for (const DueWake& w : std::get<std::vector<DueWake>>(due)) {
    if (rooms_.find_loaded(w.room) || retry_after_.contains(w.room)) continue;  // its own timer acts
    spdlog::info("room {}: due at {} ({} ms ago) and out of memory: loading it", w.room, w.due_ms, now - w.due_ms);
    retry_after_[w.room] = now + kRetryMs;  // until it is in memory, not again
    rooms_.find(w.room, [id = w.room](std::shared_ptr<Room> room) {
      if (!room) spdlog::warn("room {}: due, but it could not be loaded here", id);
    });
  }
}

void WakeScheduler::loop() {
  std::unique_lock lock(mu_);
  while (!stopping_) {
    lock.unlock();
    std::int64_t sleep = poll_.count();
    guarded("the wake-up scheduler", [&] {
      flush();
      const std::int64_t now = unix_ms();
      wake_due(now);
      if (const auto next = store_->next()) sleep = std::clamp(*next - now, kMinSleepMs, sleep);
    });
    lock.lock();
    cv_.wait_for(lock, std::chrono::milliseconds(sleep), [this] { return stopping_ || !pending_.empty(); });
  }
}

}  // namespace carc::server
