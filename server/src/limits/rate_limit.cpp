#include "limits/rate_limit.hpp"

#include <algorithm>
#include <cmath>

namespace carc::server {

TokenBuckets::TokenBuckets(double per_second, double burst, std::size_t max_keys)
    : per_second_(per_second), burst_(std::max(1.0, burst)), max_keys_(std::max<std::size_t>(1, max_keys)) {}

void TokenBuckets::prune(Clock::time_point now) {
  std::erase_if(buckets_, [&](const auto& kv) {
    const double elapsed = std::chrono::duration<double>(now - kv.second.at).count();
    return kv.second.tokens + elapsed * per_second_ >= burst_;
  });
  pruned_ = now;
}

double TokenBuckets::take(std::string_view key, Clock::time_point now) {
  if (per_second_ <= 0) return 0;
  std::lock_guard lock(mu_);
  auto it = buckets_.find(std::string(key));
  if (it == buckets_.end()) {
    // Pruning is O(n): at most once a second, however many new addresses arrive.
    if (buckets_.size() >= max_keys_ && now - pruned_ >= std::chrono::seconds(1)) prune(now);
    if (buckets_.size() >= max_keys_) return 0;
    buckets_.emplace(std::string(key), Bucket{burst_ - 1, now});
    return 0;
  }
  Bucket& b = it->second;
  const double elapsed = std::max(0.0, std::chrono::duration<double>(now - b.at).count());
  b.tokens = std::min(burst_, b.tokens + elapsed * per_second_);
  b.at = std::max(b.at, now);
  if (b.tokens >= 1.0) {
    b.tokens -= 1.0;
    return 0;
  }
  return (1.0 - b.tokens) / per_second_;
}

long retry_after_seconds(double seconds) {
  if (std::isnan(seconds)) return 1;
  return static_cast<long>(std::clamp(std::ceil(seconds), 1.0, 86400.0));
}

std::size_t TokenBuckets::tracked() {
  std::lock_guard lock(mu_);
  return buckets_.size();
}

}  // namespace carc::server
