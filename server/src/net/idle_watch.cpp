#include "net/idle_watch.hpp"

namespace carc::server {

std::int64_t IdleWatch::now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

void IdleWatch::add(Watched& w, std::chrono::seconds idle_timeout) {
  w.idle_ms_ = std::chrono::duration_cast<std::chrono::milliseconds>(idle_timeout).count();
  w.heard(now_ms());
  std::lock_guard lock(mu_);
  w.prev_ = nullptr;
  w.next_ = head_;
  if (head_) head_->prev_ = &w;
  head_ = &w;
}

void IdleWatch::remove(Watched& w) {
  std::lock_guard lock(mu_);
  if (w.prev_) {
    w.prev_->next_ = w.next_;
  } else if (head_ == &w) {
    head_ = w.next_;
  } else {
    return;  // never added
  }
  if (w.next_) w.next_->prev_ = w.prev_;
  w.prev_ = w.next_ = nullptr;
}

void IdleWatch::tick() {
  const std::int64_t now = now_ms();
  std::lock_guard lock(mu_);
  for (Watched* w = head_; w; w = w->next_) {
    const std::int64_t silent = now - w->heard_ms();
    if (silent >= w->idle_ms_) {
      w->idle_timeout();
    } else if (silent >= w->idle_ms_ / 2 && !w->pinged_.exchange(true, std::memory_order_relaxed)) {
      w->idle_ping();
    }
  }
}

}  // namespace carc::server
