// The load generator's event loop: one thread, one epoll set, a timer heap whose next
// deadline is the epoll wait's timeout (a timer costs no syscall of its own), and an end
// to each turn where what the turn queued leaves. A turn is one wait, a read of each ready
// socket, the timers that are due, then one send per socket that has something to say,
// however many frames it queued; a socket costs one epoll_ctl in its life.
// Sockets are watched edge-triggered (EPOLLIN|EPOLLOUT|EPOLLRDHUP|EPOLLET): nothing is
// re-armed per message, and a socket only wakes the loop again when something new arrives
// on it or a full send buffer drains. A read that does not fill its buffer has drained the
// socket, unless the peer has closed (EPOLLRDHUP): then its end is still to be read, and no
// new edge will announce it.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <vector>

namespace carc::load {

using Clock = std::chrono::steady_clock;

// A socket (or anything else) the loop calls back.
class Io {
 public:
  virtual ~Io() = default;
  // The socket's readiness, as epoll_wait reported it.
  virtual void on_ready(std::uint32_t events) = 0;
  // At the end of the turn in which flush_later(*this) was called.
  virtual void on_flush() {}
};

class Loop {
  struct Timer {
    Clock::time_point when;
    std::function<void()> fn;
  };
  static constexpr std::size_t kScratch = 256 * 1024;

  int epoll_ = -1;
  std::unique_ptr<char[]> scratch_;
  std::vector<Timer> timers_;  // a min-heap on `when`
  std::vector<Io*> flush_;
  std::vector<std::function<void()>> later_;
  std::vector<std::unique_ptr<Io>> retired_;

  static bool later_first(const Timer& a, const Timer& b) { return a.when > b.when; }
  Clock::duration timeout(Clock::time_point now, Clock::time_point deadline) const;
  void fire_timers(Clock::time_point now);
  void end_turn();

 public:
  Loop();
  ~Loop();
  Loop(const Loop&) = delete;
  Loop& operator=(const Loop&) = delete;

  // Watches `fd` until it is closed (closing it is what unregisters it). False on failure.
  bool watch(int fd, Io& io);
  // `io.on_flush()` runs once at the end of this turn, after every ready socket was read.
  void flush_later(Io& io);
  // `fn` runs at the end of this turn, after the flushes: the place to free what an event
  // of this turn may still point to, or to report a failure without re-entering the caller.
  void later(std::function<void()> fn);
  // `io` is freed at the end of this turn.
  void retire(std::unique_ptr<Io> io);
  // `fn` runs once `when` has come (never earlier).
  void at(Clock::time_point when, std::function<void()> fn);

  // Runs turns until `deadline`.
  void run_until(Clock::time_point deadline);
  void run_for(Clock::duration d) { run_until(Clock::now() + d); }

  // One buffer for every read of the loop: a socket reads into it, parses what is whole,
  // and copies out only the rest, so idle sockets hold no read buffer.
  std::span<char> scratch() { return {scratch_.get(), kScratch}; }
};

}  // namespace carc::load
