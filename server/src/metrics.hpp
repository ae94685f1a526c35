// Process-wide counters for GET /metrics (Prometheus text format). Lock-free: updated from
// any strand with relaxed atomics.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

#include "carc/protocol/messages.hpp"

namespace carc::server {

// Where a network error happened (the label of carc_network_errors_total).
enum class NetOp : std::uint8_t { Accept, HttpRead, HttpWrite, WsAccept, WsRead, WsWrite, WsClose };
inline constexpr std::size_t kNetOpCount = 7;
std::string_view net_op_name(NetOp op);

class Metrics {
 public:
  static constexpr std::array<double, 12> kLatencyBuckets = {0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005,
                                                            0.01,   0.025,   0.05,   0.1,   0.25,   1.0};

  std::atomic<std::int64_t> http_connections{0};
  std::atomic<std::int64_t> ws_connections{0};
  std::atomic<std::uint64_t> http_requests{0};
  std::atomic<std::uint64_t> rooms_created{0};
  std::atomic<std::uint64_t> rooms_expired{0};
  std::atomic<std::uint64_t> games_started{0};
  std::atomic<std::uint64_t> games_finished{0};
  std::atomic<std::uint64_t> moves{0};
  std::atomic<std::uint64_t> patches{0};
  std::atomic<std::uint64_t> patch_bytes{0};
  std::atomic<std::uint64_t> frames_sent{0};
  std::atomic<std::uint64_t> slow_clients_dropped{0};
  std::atomic<std::uint64_t> connections_refused{0};  // over a connection cap
  std::atomic<std::uint64_t> rooms_rate_limited{0};    // POST /api/rooms over the address's budget
  std::atomic<std::uint64_t> upgrades_rate_limited{0}; // WebSocket upgrades over the address's budget

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
  };
  std::string render(const RoomCounts& rooms) const;

 private:
  std::array<std::atomic<std::uint64_t>, protocol::kErrorCodeCount> refused_{};
  std::array<std::atomic<std::uint64_t>, kNetOpCount> network_errors_{};
  std::array<std::atomic<std::uint64_t>, kLatencyBuckets.size() + 1> latency_{};
  std::atomic<std::uint64_t> latency_count_{0};
  std::atomic<std::uint64_t> latency_sum_ns_{0};
};

}  // namespace carc::server
