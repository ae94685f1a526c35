#include "rooms/miss_cache.hpp"

#include <algorithm>

namespace carc::server {

MissCache::MissCache(std::size_t capacity, std::int64_t ttl_ms)
    : capacity_(std::max<std::size_t>(1, capacity)), ttl_ms_(ttl_ms) {}

void MissCache::trim(std::int64_t now_ms) {
  // The queue may hold ids forgotten or remembered again since: an entry only removes the id
  // if it is still the one that put it there (same deadline). Twice the capacity bounds those.
  while (!order_.empty()) {
    const auto& [id, until] = order_.front();
    const bool stale = until <= now_ms || until_.size() >= capacity_ || order_.size() > 2 * capacity_;
    if (!stale) break;
    if (const auto it = until_.find(id); it != until_.end() && it->second == until) until_.erase(it);
    order_.pop_front();
  }
}

void MissCache::remember(const std::string& id, std::int64_t now_ms) {
  if (ttl_ms_ <= 0) return;
  trim(now_ms);
  const std::int64_t until = now_ms + ttl_ms_;
  until_[id] = until;
  order_.emplace_back(id, until);
}

bool MissCache::contains(std::string_view id, std::int64_t now_ms) const {
  const auto it = until_.find(std::string(id));
  return it != until_.end() && it->second > now_ms;
}

}  // namespace carc::server
