// The idle timeout of every WebSocket connection, kept by one timer of the server
// (docs/hot-path.md#memory). Beast's own keeps a wait pending on a timer of each connection
// (about 300 bytes a connection, and a new wait after every read); here a connection only
// notes when it last heard from its client, and the server's timer looks over all of them
// a few times per idle timeout (Server::Impl::tick_idle): past half of it without a byte
// from the client the connection is asked to ping, past all of it to close. A connection
// acts on its own strand; the watch only posts.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>

namespace carc::server {

class IdleWatch {
 public:
  // A watched connection. Its calls come under the watch's lock, from whichever thread
  // ticks: they post their work, never run it.
  class Watched {
   public:
    virtual ~Watched() = default;
    virtual void idle_ping() = 0;     // half its idle timeout without a byte from the client
    virtual void idle_timeout() = 0;  // all of it (again on every tick until it is gone)

    // From the connection's strand, whenever bytes arrive.
    void heard(std::int64_t now_ms) {
      heard_ms_.store(now_ms, std::memory_order_relaxed);
      pinged_.store(false, std::memory_order_relaxed);
    }
    std::int64_t heard_ms() const { return heard_ms_.load(std::memory_order_relaxed); }

   private:
    friend class IdleWatch;
    Watched* prev_ = nullptr;  // the watch's list, under its lock
    Watched* next_ = nullptr;
    std::int64_t idle_ms_ = 0;
    std::atomic<std::int64_t> heard_ms_{0};
    std::atomic<bool> pinged_{false};  // asked to ping since it last heard
  };

  static std::int64_t now_ms();
  // How often a server with this idle timeout ticks: every 250 ms (a quarter of the timeout
  // when that is shorter), so a connection pings and closes at most that late. Each tick
  // pings every connection that came due since the last: with many quiet connections (4,500
  // rooms of four players at a move per room every 10 s, some 450 pings a second) ticks 5 s
  // apart sent 2,250 at once, and the moves waited behind them (docs/hot-path.md#memory).
  // A tick's walk over 18,000 connections costs well under a millisecond.
  static std::chrono::milliseconds tick_every(std::chrono::seconds idle_timeout) {
    return std::chrono::milliseconds(std::clamp<std::int64_t>(idle_timeout.count() * 1000 / 4, 50, 250));
  }

  // From the connection's strand. `remove` must come before anything its calls use is
  // destroyed (first thing in the connection's destructor); a connection never added may
  // be removed.
  void add(Watched& w, std::chrono::seconds idle_timeout);
  void remove(Watched& w);
  void tick();

 private:
  std::mutex mu_;
  Watched* head_ = nullptr;
};

}  // namespace carc::server
