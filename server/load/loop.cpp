#include "loop.hpp"

#include <sys/epoll.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <ctime>

namespace carc::load {
namespace {

// Waits for events at most `timeout`: to the nanosecond with epoll_pwait2 (Linux 5.11), so
// that paced rooms keep their interval, else to the millisecond, rounded up.
int wait(int epoll, std::span<epoll_event> events, Clock::duration timeout) {
  static bool precise = true;
  if (precise) {
    const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(timeout).count();
    const timespec ts{static_cast<time_t>(ns / 1'000'000'000), static_cast<long>(ns % 1'000'000'000)};
    const int n = ::epoll_pwait2(epoll, events.data(), static_cast<int>(events.size()), &ts, nullptr);
    if (n >= 0 || errno != ENOSYS) return n;
    precise = false;
  }
  const auto ms = std::chrono::ceil<std::chrono::milliseconds>(timeout).count();
  return ::epoll_wait(epoll, events.data(), static_cast<int>(events.size()), static_cast<int>(ms));
}

}  // namespace

Loop::Loop() : epoll_(::epoll_create1(EPOLL_CLOEXEC)), scratch_(std::make_unique_for_overwrite<char[]>(kScratch)) {
  if (epoll_ < 0) {
    std::perror("epoll_create1");
    std::exit(1);
  }
}

Loop::~Loop() { ::close(epoll_); }

bool Loop::watch(int fd, Io& io) {
  epoll_event ev{};
  ev.events = EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLET;
  ev.data.ptr = &io;
  return ::epoll_ctl(epoll_, EPOLL_CTL_ADD, fd, &ev) == 0;
}

void Loop::flush_later(Io& io) { flush_.push_back(&io); }

void Loop::later(std::function<void()> fn) { later_.push_back(std::move(fn)); }

void Loop::retire(std::unique_ptr<Io> io) { retired_.push_back(std::move(io)); }

void Loop::at(Clock::time_point when, std::function<void()> fn) {
  timers_.push_back(Timer{when, std::move(fn)});
  std::push_heap(timers_.begin(), timers_.end(), later_first);
}

Clock::duration Loop::timeout(Clock::time_point now, Clock::time_point deadline) const {
  if (!flush_.empty() || !later_.empty() || !retired_.empty()) return Clock::duration::zero();
  Clock::time_point next = deadline;
  if (!timers_.empty()) next = std::min(next, timers_.front().when);
  if (next <= now) return Clock::duration::zero();
  return std::min<Clock::duration>(next - now, std::chrono::seconds(60));
}

void Loop::fire_timers(Clock::time_point now) {
  while (!timers_.empty() && timers_.front().when <= now) {
    std::pop_heap(timers_.begin(), timers_.end(), later_first);
    const std::function<void()> fn = std::move(timers_.back().fn);
    timers_.pop_back();
    fn();
  }
}

void Loop::end_turn() {
  // A flush or a deferred call may queue more of either.
  do {
    for (std::size_t i = 0; i < flush_.size(); ++i) flush_[i]->on_flush();
    flush_.clear();
    while (!later_.empty()) {
      const std::vector<std::function<void()>> calls = std::move(later_);
      later_.clear();
      for (const auto& fn : calls) fn();
    }
  } while (!flush_.empty());
  retired_.clear();
}

void Loop::run_until(Clock::time_point deadline) {
  std::array<epoll_event, 512> events;
  for (;;) {
    const auto now = Clock::now();
    fire_timers(now);
    end_turn();
    if (now >= deadline) return;
    const int n = wait(epoll_, events, timeout(now, deadline));
    if (n < 0 && errno != EINTR) {
      std::perror("epoll_wait");
      std::exit(1);
    }
    for (int i = 0; i < n; ++i) {
      const epoll_event& ev = events[static_cast<std::size_t>(i)];
      static_cast<Io*>(ev.data.ptr)->on_ready(ev.events);
    }
  }
}

}  // namespace carc::load
