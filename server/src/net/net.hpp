// Internal to the network layer (the only files that include Beast): what HTTP and
// WebSocket sessions share, and how they are started.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>

#include "bots/analyser.hpp"
#include "bots/bot_pool.hpp"
#include "app/config.hpp"
#include "app/turn_based_services.hpp"
#include "base/metrics.hpp"
#include "community/open_games.hpp"
#include "community/services.hpp"
#include "limits/address.hpp"
#include "durable/persistence.hpp"
#include "limits/queue_budget.hpp"
#include "net/idle_watch.hpp"
#include "limits/rate_limit.hpp"
#include "rooms/registry.hpp"
#include "http/routing.hpp"
#include "http/static_files.hpp"

namespace carc::server {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

// Counts open connections against the global cap and the optional per-address cap.
class ConnectionLimiter {
  std::size_t max_total_;
  std::size_t max_per_address_;
  std::atomic<std::size_t> total_{0};
  std::mutex mu_;
  std::unordered_map<std::string, std::size_t> per_address_;

 public:
  class Slot {
    ConnectionLimiter* owner_ = nullptr;
    std::string address_;

   public:
    Slot() = default;
    Slot(ConnectionLimiter* owner, std::string address) : owner_(owner), address_(std::move(address)) {}
    Slot(Slot&& o) noexcept : owner_(std::exchange(o.owner_, nullptr)), address_(std::move(o.address_)) {}
    Slot& operator=(Slot&& o) noexcept {
      if (this != &o) {
        release();
        owner_ = std::exchange(o.owner_, nullptr);
        address_ = std::move(o.address_);
      }
      return *this;
    }
    Slot(const Slot&) = delete;
    Slot& operator=(const Slot&) = delete;
    ~Slot() { release(); }
    void release();
    const std::string& address() const { return address_; }
    friend class ConnectionLimiter;
  };

  ConnectionLimiter(std::size_t max_total, std::size_t max_per_address)
      : max_total_(max_total), max_per_address_(max_per_address) {}
  // An empty optional when a cap is reached. An empty address counts toward the total only
  // (a trusted proxy's connection, counted by its client once a request names it).
  std::optional<Slot> acquire(const std::string& address);
  // Counts the slot against `address` instead of the one it had; false (and the slot as it
  // was) when that address is at its cap.
  bool rebind(Slot& slot, const std::string& address);
  void release(const std::string& address);
};

struct ServerContext {
  Config config;
  Metrics metrics;
  std::unique_ptr<Persistence> persistence;
  OpenGames open_games;  // the lobbies listed as open (docs/community.md); outlives the rooms
  RoomRegistry rooms;
  Analyser analyser;  // before bots: the pool's workers stop before the work they run goes
  BotPool bots;  // after rooms: its workers stop before the rooms they answer go
  StaticFiles files;
  std::string tiles_json;
  ConnectionLimiter limiter;
  IdleWatch idle_watch;          // every WebSocket's silence, one timer (net/idle_watch.hpp)
  QueueBudget queue_budget;      // frames queued for slow readers, all connections together
  TokenBuckets room_buckets;     // POST /api/rooms per client address
  TokenBuckets upgrade_buckets;  // WebSocket upgrades per client address
  TokenBuckets lookup_buckets;   // lookups of rooms not in memory (storage work) per client address
  TokenBuckets key_buckets;      // POST /api/keys (a new player key) per client address
  std::atomic<bool> stopping{false};
  TurnBasedServices turn_based;  // player keys, notifications
  CommunityServices community;   // names, the open games shared by several nodes (stops before open_games)

  ServerContext(asio::io_context& io, Config cfg, std::unique_ptr<Persistence> p);

  // Every network error ends here (chat-multi's fail()): normal closes are skipped, the rest
  // is logged and counted in /metrics. `where` says whose connection (a room id, an address).
  void fail(beast::error_code ec, NetOp what, std::string_view where = {});
};

// The TCP peer as an IpAddress (IPv4-mapped IPv6 peers count as IPv4).
IpAddress peer_address(const tcp::endpoint& ep);
// What the per-address connection cap counts a peer as: its limit_key (IPv6 by /64).
std::string connection_key(const tcp::endpoint& ep);

void start_http_session(tcp::socket socket, ServerContext& ctx, ConnectionLimiter::Slot slot, Listen listen);
void start_ws_session(tcp::socket stream, http::request<http::string_body> req, std::shared_ptr<Room> room,
                      ServerContext& ctx, ConnectionLimiter::Slot slot);

}  // namespace carc::server
