#include "net/server.hpp"

#include <malloc.h>
#include <pthread.h>
#include <sys/socket.h>
#include <sys/time.h>

#include <csignal>
#include <stdexcept>
#include <thread>

#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket/error.hpp>
#include <spdlog/spdlog.h>

#include "carc/protocol/json.hpp"
#include "base/guard.hpp"
#include "net/net.hpp"

namespace carc::server {

// ---------------------------------------------------------------------------------------
// Connection caps

void ConnectionLimiter::Slot::release() {
  if (owner_ != nullptr) owner_->release(address_);
  owner_ = nullptr;
}

std::optional<ConnectionLimiter::Slot> ConnectionLimiter::acquire(const std::string& address) {
  if (total_.fetch_add(1) >= max_total_) {
    total_.fetch_sub(1);
    return std::nullopt;
  }
  if (max_per_address_ > 0 && !address.empty()) {
    std::lock_guard lock(mu_);
    auto& n = per_address_[address];
    if (n >= max_per_address_) {
      total_.fetch_sub(1);
      return std::nullopt;
    }
    ++n;
  }
  return Slot(this, address);
}

bool ConnectionLimiter::rebind(Slot& slot, const std::string& address) {
  if (slot.owner_ != this || slot.address_ == address) return true;
  if (max_per_address_ > 0) {
    std::lock_guard lock(mu_);
    if (!address.empty()) {
      auto& n = per_address_[address];
      if (n >= max_per_address_) return false;
      ++n;
    }
    if (!slot.address_.empty()) {
      const auto it = per_address_.find(slot.address_);
      if (it != per_address_.end() && --it->second == 0) per_address_.erase(it);
    }
  }
  slot.address_ = address;
  return true;
}

void ConnectionLimiter::release(const std::string& address) {
  total_.fetch_sub(1);
  if (max_per_address_ > 0 && !address.empty()) {
    std::lock_guard lock(mu_);
    const auto it = per_address_.find(address);
    if (it != per_address_.end() && --it->second == 0) per_address_.erase(it);
  }
}

ServerContext::ServerContext(asio::io_context& io, Config cfg, std::unique_ptr<Persistence> p)
    : config(std::move(cfg)),
      persistence(p ? std::move(p) : std::make_unique<NullPersistence>()),
      rooms(io,
            RoomServices{*persistence, metrics, nullptr, {}, {}, {}, {}, {},
                         StoreBounds{config.limits.max_chat_lines, config.limits.max_chat_bytes,
                                     config.limits.max_notify_changes}},
            config.limits),
      analyser(config.analysis),
      bots(config.bot_threads, metrics, config.bot_think_ms),
      files(config.web_root),
      tiles_json(protocol::json_text(protocol::tiles_json())),
      limiter(config.limits.max_connections, config.limits.max_connections_per_ip),
      queue_budget(config.limits.max_queued_bytes, metrics),
      room_buckets(config.limits.room_rate_per_minute / 60.0, config.limits.room_burst),
      upgrade_buckets(config.limits.ws_rate_per_second, config.limits.ws_burst),
      lookup_buckets(config.limits.lookup_rate_per_second, config.limits.lookup_burst),
      key_buckets(config.limits.key_rate_per_minute / 60.0, config.limits.key_burst) {
  rooms.set_bots(&bots);
  rooms.set_open_games(
      [this](const std::string& room, const std::optional<OpenListing>& listing, bool open) { open_games.changed(room, listing, open); },
      [this](const std::string& room, const Client& host) { return open_games.admit(room, host.address_key()); });
  analyser.set_pool(&bots);
  bots.set_background(&analyser, config.analysis.idle_priority);
  rooms.set_game_over(
      [this](const std::string& room, const std::function<std::string()>& record) { analyser.enqueue(room, record); });
  // One wake of the storage writer per round of the event loop, not one per move: the
  // rooms that moved in the same round share its transaction (store_writer.hpp).
  persistence->defer_wakes([&io](std::function<void()> wake) { asio::post(io, std::move(wake)); });
}

void ServerContext::fail(beast::error_code ec, NetOp what, std::string_view where) {
  // What ends a connection in the normal course: our own cancel or close, the peer's close
  // frame, a peer that closes between two HTTP requests.
  if (!ec || ec == asio::error::operation_aborted || ec == beast::websocket::error::closed ||
      ec == http::error::end_of_stream) {
    return;
  }
  metrics.network_error(what);
  spdlog::info("{}{}{}: {}", net_op_name(what), where.empty() ? "" : " ", where, ec.message());
}

IpAddress peer_address(const tcp::endpoint& ep) {
  IpAddress a;
  const auto addr = ep.address();
  if (addr.is_v4()) {
    const auto b = addr.to_v4().to_bytes();
    a.bytes[10] = a.bytes[11] = 0xff;
    std::copy(b.begin(), b.end(), a.bytes.begin() + 12);
    a.v4 = true;
  } else {
    const auto v6 = addr.to_v6();
    const auto b = v6.to_bytes();
    std::copy(b.begin(), b.end(), a.bytes.begin());
    a.v4 = v6.is_v4_mapped();
  }
  return a;
}

std::string connection_key(const tcp::endpoint& ep) { return limit_key(peer_address(ep)); }

// ---------------------------------------------------------------------------------------
// Accepting

namespace accepting {

class Listener : public std::enable_shared_from_this<Listener> {
  asio::io_context& io_;
  tcp::acceptor acceptor_;
  ServerContext& ctx_;
  Listen listen_;
  asio::steady_timer pause_;
  std::chrono::milliseconds backoff_{0};  // while accept fails for want of descriptors

  void do_accept() {
    acceptor_.async_accept(asio::make_strand(io_), beast::bind_front_handler(&Listener::on_accept, shared_from_this()));
  }

  void on_accept(beast::error_code ec, tcp::socket socket) {
    if (ec == asio::error::operation_aborted || !acceptor_.is_open()) return;
    if (ec == asio::error::no_descriptors || ec == asio::error::no_buffer_space) return pause_accepting(ec);
    if (!ec && backoff_.count() > 0) {
      spdlog::warn("accepting connections again after running out of file descriptors");
      backoff_ = std::chrono::milliseconds(0);
    }
    if (!ec) {
      beast::error_code ignored;
      const auto remote = socket.remote_endpoint(ignored);
      // A trusted proxy's connections are counted by the client each request names.
      const bool proxy = !ignored && any_contains(ctx_.config.trusted_proxies, peer_address(remote));
      auto slot = ctx_.limiter.acquire(ignored || proxy ? std::string() : connection_key(remote));
      if (!slot) {
        ctx_.metrics.connections_refused.fetch_add(1, std::memory_order_relaxed);
        spdlog::warn("refused a connection from {}: connection cap reached", remote.address().to_string());
        socket.close(ignored);
      } else {
        // Small frames go out at once: without this, Nagle's algorithm holds a patch back
        // until the client's delayed ACK (tens of milliseconds).
        socket.set_option(tcp::no_delay(true), ignored);
        start_http_session(std::move(socket), ctx_, std::move(*slot), listen_);
      }
    } else {
      ctx_.fail(ec, NetOp::Accept);
    }
    do_accept();
  }

 public:
  Listener(asio::io_context& io, ServerContext& ctx, Listen listen)
      : io_(io), acceptor_(io), ctx_(ctx), listen_(listen), pause_(io) {}

  std::uint16_t open(const std::string& address, std::uint16_t port) {
    beast::error_code ec;
    const auto addr = asio::ip::make_address(address, ec);
    if (ec) throw std::runtime_error("invalid bind address '" + address + "': " + ec.message());
    const tcp::endpoint ep{addr, port};
    acceptor_.open(ep.protocol(), ec);
    if (!ec) acceptor_.set_option(asio::socket_base::reuse_address(true), ec);
    if (!ec) acceptor_.bind(ep, ec);
    if (!ec) acceptor_.listen(asio::socket_base::max_listen_connections, ec);
    if (ec) throw std::runtime_error("cannot listen on " + address + ":" + std::to_string(port) + ": " + ec.message());
    return acceptor_.local_endpoint().port();
  }

  // Out of file descriptors: the pending connection stays in the backlog and accept would
  // fail again at once. Wait (10 ms, doubling to 1 s) for connections to close, logging once
  // per episode; every failed attempt is counted in /metrics.
  void pause_accepting(beast::error_code ec) {
    ctx_.metrics.network_error(NetOp::Accept);
    if (backoff_.count() == 0) {
      spdlog::error("accept: {} (raise ulimit -n); retrying with a pause until connections close", ec.message());
      backoff_ = std::chrono::milliseconds(10);
    } else {
      backoff_ = std::min(backoff_ * 2, std::chrono::milliseconds(1000));
    }
    pause_.expires_after(backoff_);
    pause_.async_wait([self = shared_from_this()](beast::error_code wait_ec) {
      if (!wait_ec && self->acceptor_.is_open()) self->do_accept();
    });
  }

  void start() { do_accept(); }
  void close() {
    beast::error_code ec;
    pause_.cancel();
    acceptor_.close(ec);
  }
};

}  // namespace accepting
using accepting::Listener;

// ---------------------------------------------------------------------------------------
// The server

struct Server::Impl {
  asio::io_context io;
  ServerContext ctx;
  std::shared_ptr<Listener> listener;
  std::shared_ptr<Listener> metrics_listener;  // --metrics-bind
  asio::signal_set signals;
  asio::steady_timer sweeper;
  asio::steady_timer idle_ticker;  // the WebSockets' idle timeouts and keep-alive pings (net/idle_watch.hpp)
  asio::steady_timer stop_timer;

  Impl(Config cfg, std::unique_ptr<Persistence> p)
      : io(cfg.threads),
        ctx(io, std::move(cfg), std::move(p)),
        listener(std::make_shared<Listener>(io, ctx, ctx.config.metrics_bind.empty() ? Listen::Public : Listen::PublicNoMetrics)),
        metrics_listener(ctx.config.metrics_bind.empty() ? nullptr : std::make_shared<Listener>(io, ctx, Listen::MetricsOnly)),
        signals(io, SIGINT, SIGTERM),
        sweeper(io),
        idle_ticker(io),
        stop_timer(io) {}

  void sweep() {
    // Every half of the shortest time to live (a finished game's 0 means "at its last
    // close", which the registry handles then; the sweep still catches one that was busy).
    const Limits& l = ctx.config.limits;
    const int finished = l.finished_room_ttl_s > 0 ? l.finished_room_ttl_s / 2 : 30;
    sweeper.expires_after(std::chrono::seconds(std::max(1, std::min({30, l.room_ttl_s / 2, l.empty_room_ttl_s / 2, finished}))));
    sweeper.async_wait([this](beast::error_code ec) {
      if (ec || ctx.stopping) return;
      ctx.rooms.expire(steady_ms());
      // Hand the pages that rooms, sessions and requests freed back to the system: after a
      // burst of connections (a restart, a tournament) the heap is full of holes that
      // would otherwise stay in the server's resident memory.
      ::malloc_trim(0);
      sweep();
    });
  }

  void tick_idle() {
    idle_ticker.expires_after(IdleWatch::tick_every(std::chrono::seconds(ctx.config.limits.idle_timeout_s)));
    idle_ticker.async_wait([this](beast::error_code ec) {
      if (ec || ctx.stopping) return;
      ctx.idle_watch.tick();
      tick_idle();
    });
  }

  void shutdown() {
    if (ctx.stopping.exchange(true)) return;
    spdlog::info("shutting down: closing connections");
    listener->close();
    if (metrics_listener) metrics_listener->close();
    sweeper.cancel();
    idle_ticker.cancel();
    signals.cancel();
    ctx.rooms.for_each([](const std::shared_ptr<Room>& room) {
      asio::post(room->strand(), [room] { room->close_all(CloseReason::GoingAway); });
    });
    // Give close frames a moment to leave, then stop whatever is still open (keep-alive
    // HTTP connections, clients that do not answer the close).
    stop_timer.expires_after(std::chrono::milliseconds(500));
    stop_timer.async_wait([this](beast::error_code) { io.stop(); });
  }
};

Server::Server(Config config, std::unique_ptr<Persistence> persistence)
    : impl_(std::make_unique<Impl>(std::move(config), std::move(persistence))) {}

Server::~Server() = default;

std::uint16_t Server::listen() {
  auto& c = impl_->ctx.config;
  c.port = impl_->listener->open(c.bind, c.port);
  if (impl_->metrics_listener) c.metrics_port = impl_->metrics_listener->open(c.metrics_bind, c.metrics_port);
  return c.port;
}

void Server::run() {
  auto& impl = *impl_;
  impl.signals.async_wait([&impl](beast::error_code ec, int sig) {
    if (ec) return;
    spdlog::info("received signal {}", sig);
    impl.shutdown();
  });
  impl.listener->start();
  if (impl.metrics_listener) impl.metrics_listener->start();
  impl.sweep();
  impl.tick_idle();
  const auto& c = impl.ctx.config;
  spdlog::info("listening on http://{}:{} (web root {}, {} threads)", c.bind, c.port, c.web_root.string(), c.threads);
  if (impl.metrics_listener) spdlog::info("metrics on http://{}:{}/metrics", c.metrics_bind, c.metrics_port);
  std::vector<std::thread> threads;
  for (int i = 1; i < c.threads; ++i) {
    threads.emplace_back([&impl] {
      ::pthread_setname_np(::pthread_self(), "carc-io");  // the first I/O thread keeps the process's name
      run_guarded(impl.io, "an I/O thread");
    });
  }
  run_guarded(impl.io, "an I/O thread");
  for (auto& t : threads) t.join();
  // No strand runs any more. A connection that was still attached holds its room and the
  // room holds it: break those cycles so that both are freed (and LeakSanitizer is quiet).
  impl.ctx.rooms.for_each([](const std::shared_ptr<Room>& room) { room->forget_clients(); });
  // Whatever is still on its way to storage is written before the process exits.
  impl.ctx.persistence->drain();
  spdlog::info("stopped");
}

void Server::stop() {
  asio::post(impl_->io, [this] { impl_->shutdown(); });
}

RoomRegistry& Server::rooms() { return impl_->ctx.rooms; }
Metrics& Server::metrics() { return impl_->ctx.metrics; }
TurnBasedServices& Server::turn_based() { return impl_->ctx.turn_based; }
OpenGames& Server::open_games() { return impl_->ctx.open_games; }
CommunityServices& Server::community() { return impl_->ctx.community; }
Analyser& Server::analyser() { return impl_->ctx.analyser; }

// ---------------------------------------------------------------------------------------
// --probe

int probe(const std::string& url) {
  std::string_view rest = url;
  if (!rest.starts_with("http://")) return 1;
  rest.remove_prefix(7);
  const auto slash = rest.find('/');
  const std::string_view hostport = rest.substr(0, slash);
  const std::string target = slash == std::string_view::npos ? "/" : std::string(rest.substr(slash));
  std::string host(hostport);
  std::string port = "80";
  if (const auto colon = hostport.rfind(':'); colon != std::string_view::npos && hostport.find(']') == std::string_view::npos) {
    host = std::string(hostport.substr(0, colon));
    port = std::string(hostport.substr(colon + 1));
  }
  try {
    asio::io_context io;
    tcp::resolver resolver(io);
    beast::tcp_stream stream(io);
    stream.expires_after(std::chrono::seconds(5));
    stream.connect(resolver.resolve(host, port));
    // Synchronous reads ignore the stream's expiry: bound them at the socket.
    const timeval tv{5, 0};
    ::setsockopt(stream.socket().native_handle(), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    ::setsockopt(stream.socket().native_handle(), SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    http::request<http::empty_body> req{http::verb::get, target, 11};
    req.set(http::field::host, hostport);
    req.set(http::field::connection, "close");
    http::write(stream, req);
    beast::flat_buffer buffer;
    http::response_parser<http::string_body> parser;
    parser.body_limit(1 << 20);
    http::read(stream, buffer, parser);
    return parser.get().result() == http::status::ok ? 0 : 1;
  } catch (const std::exception&) {
    return 1;
  }
}

}  // namespace carc::server
