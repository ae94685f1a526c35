// Per-key token buckets (room creation and WebSocket upgrades per client address).
// Thread-safe; memory stays bounded however many addresses show up.
#pragma once

#include <chrono>
#include <cstddef>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

namespace carc::server {

class TokenBuckets {
 public:
  using Clock = std::chrono::steady_clock;

 private:
  struct Bucket {
    double tokens;
    Clock::time_point at;
  };
  double per_second_;
  double burst_;
  std::size_t max_keys_;
  std::mutex mu_;
  std::unordered_map<std::string, Bucket> buckets_;
  Clock::time_point pruned_{};

  // Forgets the buckets that are full again by `now` (they hold nothing a new one would not).
  void prune(Clock::time_point now);

 public:
  // `per_second` <= 0 turns the limit off. `max_keys`: addresses tracked at most; past it
  // (after forgetting full buckets) a new address is let through untracked, so a flood of
  // addresses costs no memory and never blocks anyone else.
  TokenBuckets(double per_second, double burst, std::size_t max_keys = 100'000);

  // 0 if `key` may go on (and a token is taken), else the seconds until it may.
  double take(std::string_view key, Clock::time_point now = Clock::now());
  bool enabled() const { return per_second_ > 0; }
  std::size_t tracked();
};

// The whole seconds a Retry-After announces for a wait of `seconds`: at least 1, at most a
// day, computed before any cast to an integer (NaN and huge waits included).
long retry_after_seconds(double seconds);

}  // namespace carc::server
