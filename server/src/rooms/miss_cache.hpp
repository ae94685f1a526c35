// Room ids that storage was asked for and did not have, remembered for a while so that
// asking again costs no storage work. Bounded in count and in time; not thread-safe (the
// registry holds it under its mutex).
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

namespace carc::server {

class MissCache {
  std::size_t capacity_;
  std::int64_t ttl_ms_;
  std::unordered_map<std::string, std::int64_t> until_;        // id -> remembered until (steady ms)
  std::deque<std::pair<std::string, std::int64_t>> order_;     // oldest first; one ttl, so also soonest to expire

  // Drops what expired by `now` and, past the capacity, the oldest.
  void trim(std::int64_t now_ms);

 public:
  MissCache(std::size_t capacity, std::int64_t ttl_ms);
  void remember(const std::string& id, std::int64_t now_ms);
  bool contains(std::string_view id, std::int64_t now_ms) const;
  // The room exists now (created or loaded): it is no miss any more.
  void forget(const std::string& id) { until_.erase(id); }
  void set_ttl_ms(std::int64_t ttl_ms) { ttl_ms_ = ttl_ms; }
  std::int64_t ttl_ms() const { return ttl_ms_; }
  std::size_t size() const { return until_.size(); }
};

}  // namespace carc::server
