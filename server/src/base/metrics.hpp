// Process-wide counters for GET /metrics (Prometheus text format). Lock-free: updated from
// any strand with relaxed atomics.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>
#include <cstdio>
#include <functional>
#include <string_view>

#include "carc/protocol/messages.hpp"

namespace carc::server {

// A Prometheus histogram over fixed bucket bounds (seconds), lock-free.
template <std::size_t N>
class Histogram {
 public:
  explicit constexpr Histogram(std::array<double, N> bounds) : bounds_(bounds) {}
  void observe(std::chrono::steady_clock::duration d);
  void render(std::string& out, const char* name, const char* help) const;

 private:
  std::array<double, N> bounds_;
  std::array<std::atomic<std::uint64_t>, N + 1> buckets_{};
  std::atomic<std::uint64_t> count_{0};
  std::atomic<std::uint64_t> sum_ns_{0};
};
// Where a network error happened (the label of carc_network_errors_total).
enum class NetOp : std::uint8_t { Accept, HttpRead, HttpWrite, WsAccept, WsRead, WsWrite, WsClose };
inline constexpr std::size_t kNetOpCount = 7;
std::string_view net_op_name(NetOp op);

class Metrics {
 public:
  static constexpr std::array<double, 12> kLatencyBuckets = {0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005,
                                                            0.01,   0.025,   0.05,   0.1,   0.25,   1.0};
  static constexpr std::array<double, 10> kThinkBuckets = {0.001, 0.005, 0.025, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0};

  std::atomic<std::int64_t> http_connections{0};
  std::atomic<std::int64_t> ws_connections{0};
  std::atomic<std::uint64_t> http_requests{0};
  std::atomic<std::uint64_t> rooms_created{0};
  std::atomic<std::uint64_t> rooms_expired{0};
  std::atomic<std::uint64_t> rooms_moved{0};      // several nodes: rooms that left this node
  std::atomic<std::uint64_t> rooms_taken_over{0}; // several nodes: rooms claimed from storage
  std::atomic<std::uint64_t> leases_lost{0};
  // Several nodes: this node's lease ran out without a renewal (its database does not
  // answer); /healthz answers 503 until it renews.
  std::atomic<bool> storage_unavailable{false};
  std::atomic<std::uint64_t> games_started{0};
  std::atomic<std::uint64_t> games_finished{0};
  std::atomic<std::uint64_t> moves{0};
  std::atomic<std::uint64_t> patches{0};
  std::atomic<std::uint64_t> patch_bytes{0};
  std::atomic<std::uint64_t> frames_sent{0};
  std::atomic<std::uint64_t> slow_clients_dropped{0};
  std::atomic<std::uint64_t> connections_refused{0};  // over a connection cap
  std::atomic<std::uint64_t> bot_moves{0};     // moves chosen by computer players (their own and for absent humans)
  std::atomic<std::uint64_t> auto_moves{0};    // moves made for an absent or out-of-time human
  std::atomic<std::uint64_t> bot_playouts{0};  // games the mcts computer players played out to decide
  std::atomic<std::uint64_t> bot_stale{0};     // computer players' answers for a turn that had passed
  Histogram<kThinkBuckets.size()> bot_think{kThinkBuckets};  // how long a computer player thought
  std::atomic<std::uint64_t> rooms_rate_limited{0};    // POST /api/rooms over the address's budget
  std::atomic<std::uint64_t> upgrades_rate_limited{0}; // WebSocket upgrades over the address's budget
  std::atomic<std::uint64_t> lookups_rate_limited{0};  // lookups of rooms not in memory over the address's budget
  std::atomic<std::uint64_t> keys_rate_limited{0};     // new player keys over the address's budget
  std::atomic<std::uint64_t> queue_budget_drops{0};    // connections dropped to keep queued frames within the budget
  std::atomic<std::int64_t> queued_bytes{0};           // frames waiting in connections' queues, in bytes
  std::atomic<std::uint64_t> storage_lookups{0};       // rooms looked for in storage (not in memory)
  std::atomic<std::uint64_t> lookups_remembered{0};    // answered "no such room" from the remembered misses
  std::atomic<std::uint64_t> lookups_busy{0};          // refused: too many storage lookups on their way

  void network_error(NetOp op) { network_errors_[static_cast<std::size_t>(op)].fetch_add(1, std::memory_order_relaxed); }
  std::uint64_t network_errors(NetOp op) const {
    return network_errors_[static_cast<std::size_t>(op)].load(std::memory_order_relaxed);
  }

  void refused(protocol::ErrorCode c) {
    refused_[static_cast<std::size_t>(c)].fetch_add(1, std::memory_order_relaxed);
  }
  // Time from a request's arrival until its change was queued to every client of the room.
  void observe_broadcast(std::chrono::steady_clock::duration d);

  struct RoomCounts {
    std::int64_t lobby = 0, playing = 0, finished = 0;
    // Memory of the rooms' own state, summed (bytes): engines, event histories, view caches, the rest.
    std::int64_t engine_bytes = 0, history_bytes = 0, view_bytes = 0, other_bytes = 0;
  };
  std::string render(const RoomCounts& rooms) const;
  // Lines of the storage (its writer, its log) appended to every render; set once, before
  // the server serves (Durability::restore).
  void set_storage_render(std::function<void(std::string&)> f) { storage_render_ = std::move(f); }

 private:
  std::function<void(std::string&)> storage_render_;
  std::array<std::atomic<std::uint64_t>, protocol::kErrorCodeCount> refused_{};
  Histogram<kLatencyBuckets.size()> broadcast_{kLatencyBuckets};
  std::array<std::atomic<std::uint64_t>, kNetOpCount> network_errors_{};
};

template <std::size_t N>
void Histogram<N>::observe(std::chrono::steady_clock::duration d) {
  const double s = std::chrono::duration<double>(d).count();
  std::size_t i = 0;
  while (i < N && s > bounds_[i]) ++i;
  buckets_[i].fetch_add(1, std::memory_order_relaxed);
  count_.fetch_add(1, std::memory_order_relaxed);
  sum_ns_.fetch_add(static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(d).count()),
                    std::memory_order_relaxed);
}

template <std::size_t N>
void Histogram<N>::render(std::string& out, const char* name, const char* help) const {
  char line[256];
  std::snprintf(line, sizeof line, "# HELP %s %s\n# TYPE %s histogram\n", name, help, name);
  out += line;
  std::uint64_t cumulative = 0;
  for (std::size_t i = 0; i <= N; ++i) {
    cumulative += buckets_[i].load(std::memory_order_relaxed);
    if (i < N) std::snprintf(line, sizeof line, "%s_bucket{le=\"%g\"} %llu\n", name, bounds_[i], static_cast<unsigned long long>(cumulative));
    else std::snprintf(line, sizeof line, "%s_bucket{le=\"+Inf\"} %llu\n", name, static_cast<unsigned long long>(cumulative));
    out += line;
  }
  std::snprintf(line, sizeof line, "%s_sum %.9f\n%s_count %llu\n", name,
                static_cast<double>(sum_ns_.load(std::memory_order_relaxed)) / 1e9, name,
                static_cast<unsigned long long>(count_.load(std::memory_order_relaxed)));
  out += line;
}

}  // namespace carc::server
