// One WebSocket connection on /ws/<room>. Limits live here, where input arrives: message
// size (checked as it is read), the per-connection rate limit, timeouts with pings, and
// the outgoing queue cap. Frames are parsed once into typed messages, then posted to the
// room's strand.
#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <boost/asio/compose.hpp>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <spdlog/spdlog.h>

#include "base/guard.hpp"
#include "net/draining_stream.hpp"
#include "net/http_answers.hpp"
#include "net/net.hpp"
#include "limits/queue_budget.hpp"
#include "push/targets.hpp"

namespace carc::server {

namespace {

namespace websocket = beast::websocket;
using Clock = std::chrono::steady_clock;

// The frames waiting for one connection, oldest first: a vector and the index of its
// front. An idle connection holds no allocation for it (a std::deque takes 576 bytes as
// soon as it exists, and a server holds thousands of idle connections).
class FrameQueue {
 public:
  bool empty() const { return head_ == frames_.size(); }
  std::size_t size() const { return frames_.size() - head_; }
  const std::string& front() const { return *frames_[head_]; }
  void push_back(std::shared_ptr<const std::string> frame) {
    if (head_ >= 32 && head_ * 2 >= frames_.size()) {  // a client that never catches up
      frames_.erase(frames_.begin(), frames_.begin() + static_cast<std::ptrdiff_t>(head_));
      head_ = 0;
    }
    frames_.push_back(std::move(frame));
  }
  void pop_front() {
    frames_[head_++].reset();
    if (head_ == frames_.size()) clear();
  }
  void clear() {
    frames_.clear();
    head_ = 0;
  }

 private:
  std::vector<std::shared_ptr<const std::string>> frames_;
  std::size_t head_ = 0;
};

// A close the session means to send once its queue is written: the code and a reason that
// is a string literal (a websocket::close_reason would hold 123 bytes of text in every
// connection, docs/hot-path.md#memory).
struct PendingClose {
  websocket::close_code code;
  std::string_view reason;
};

class WsSession final : public Client,
                        public QueueBudget::Queue,
                        public IdleWatch::Watched,
                        public std::enable_shared_from_this<WsSession> {
  // Without permessage-deflate, which the server never offers: the stream then holds none of
  // its state.
  websocket::stream<DrainingStream, false> ws_;
  beast::flat_buffer buffer_;
  ServerContext& ctx_;
  std::shared_ptr<Room> room_;
  ConnectionLimiter::Slot slot_;

  // The write queue (chat-multi): frames are shared by every socket of the room.
  FrameQueue queue_;
  std::atomic<std::size_t> queued_bytes_{0};  // written here only; read by the server's budget
  bool writing_ = false;
  std::optional<PendingClose> close_pending_;
  bool closed_ = false;   // a close was started or the socket dropped
  bool attached_ = false;
  bool reading_ = false;  // a read, or the wait for one, is pending: its failure ends the session
  bool pinging_ = false;  // a keep-alive ping is being written (a close waits for it)

  double tokens_;
  Clock::time_point refilled_ = Clock::now();
  std::string client_key_;  // the address per-address limits count (as HttpSession::client_key)

  // ---- handlers ----
  void on_accept(beast::error_code ec) {
    if (ec) return ctx_.fail(ec, NetOp::WsAccept, room_->id());
    attached_ = true;
    ctx_.metrics.ws_connections.fetch_add(1, std::memory_order_relaxed);
    ctx_.idle_watch.add(*this, std::chrono::seconds(ctx_.config.limits.idle_timeout_s));
    asio::post(room_->strand(), [room = room_, self = shared_from_this()] { room->attach(self); });
    do_read();
  }

  // Between messages a connection waits for its socket to be readable, with nothing else
  // allocated (Beast holds no byte of the next frame: FrameBounds), and only then starts a
  // read of Beast's: a pending one would hold its state and the piece it reads into for as
  // long as the client is quiet. A message is read in pieces: at most 128 bytes at a time
  // (client messages are a few dozen bytes, a move's under 128; Beast would take 1,536
  // bytes at once), and at most what is left of the frame limit, so that one over it is seen
  // before its end and refused with a clean close (1009): async_close then reads and
  // discards the rest of it until the client's close frame. Beast's own read_message_max
  // (set far higher) would instead close the socket with the client's bytes still unread,
  // which resets the connection, and the client often never sees the 1009.
  static constexpr std::size_t kReadPiece = 128;

  void do_read() {
    if (closed_) {  // dropped or closing: no more reads (a close reads the client's reply itself)
      reading_ = false;
      return teardown();
    }
    reading_ = true;
    if (buffer_.size() == 0) {  // between messages
      if (buffer_.capacity() > 0) buffer_.shrink_to_fit();
      beast::get_lowest_layer(ws_).socket().async_wait(tcp::socket::wait_read,
                                                       beast::bind_front_handler(&WsSession::on_readable, shared_from_this()));
      return;
    }
    read_piece();
  }

  void read_piece() {
    const std::size_t limit = std::min(kReadPiece, ctx_.config.limits.max_frame_bytes + 1 - buffer_.size());
    ws_.async_read_some(buffer_, limit, beast::bind_front_handler(&WsSession::on_read, shared_from_this()));
  }

  void on_readable(beast::error_code ec) {
    if (ec || closed_) {  // the socket failed, or drop() or a close ended the session meanwhile
      reading_ = false;
      ctx_.fail(ec, NetOp::WsRead, room_->id());
      return teardown();
    }
    read_piece();
  }

  void on_read(beast::error_code ec, std::size_t n) {
    if (!guarded("a frame", [&] { read_frame(ec, n); })) close(CloseReason::Internal);
  }

  void read_frame(beast::error_code ec, std::size_t) {
    const auto received = Clock::now();
    reading_ = false;
    if (ec) {
      if (ec == websocket::error::message_too_big) {  // over the hard cap: Beast closed at once
        ctx_.metrics.refused(protocol::ErrorCode::TooLarge);
        spdlog::info("room {}: refused too_large message (closed with 1009)", room_->id());
      } else {
        ctx_.fail(ec, NetOp::WsRead, room_->id());
      }
      return teardown();
    }
    if (buffer_.size() > ctx_.config.limits.max_frame_bytes) {
      ctx_.metrics.refused(protocol::ErrorCode::TooLarge);
      spdlog::info("room {}: refused too_large message (closed with 1009)", room_->id());
      buffer_.clear();
      if (closed_ || close_pending_) return;
      close_pending_ = PendingClose{websocket::close_code::too_big, "message too large"};
      if (!writing_ && !pinging_) start_close();
      return;  // no more reads: the close drains the socket, then ends the session
    }
    if (!ws_.is_message_done()) return read_piece();
    std::string text = beast::buffers_to_string(buffer_.data());
    buffer_.consume(buffer_.size());
    if (!allow_message(received)) {
      refuse(protocol::ErrorCode::RateLimited, "too many messages; slow down");
    } else if (!ws_.got_text()) {
      refuse(protocol::ErrorCode::BadMessage, "messages are JSON text frames");
    } else {
      auto parsed = protocol::parse_client_message(text);
      if (auto* err = std::get_if<protocol::MessageError>(&parsed)) {
        refuse(err->code, err->message);
      } else if (auto why = push::refuse_message(std::get<protocol::ClientMessage>(parsed), ctx_.config.allow_private_hooks)) {
        refuse(protocol::ErrorCode::BadMessage, *why);  // a target outside what the server may call
      } else {
        asio::post(room_->strand(), [room = room_, self = shared_from_this(),
                                     msg = std::move(std::get<protocol::ClientMessage>(parsed)), received] {
          if (!guarded("a message in room " + room->id(), [&] { room->handle(self, msg, received); })) {
            self->close(CloseReason::Internal);
          }
        });
      }
    }
    do_read();
  }

  void set_queued(std::size_t after) {
    const std::size_t before = queued_bytes_.exchange(after, std::memory_order_relaxed);
    ctx_.queue_budget.changed(*this, before, after);
  }

  // Token bucket: `rate` per second sustained, `burst` at once.
  bool allow_message(Clock::time_point now) {
    const auto& l = ctx_.config.limits;
    const double elapsed = std::chrono::duration<double>(now - refilled_).count();
    refilled_ = now;
    tokens_ = std::min(l.rate_burst, tokens_ + elapsed * l.rate_per_second);
    if (tokens_ < 1.0) return false;
    tokens_ -= 1.0;
    return true;
  }

  void refuse(protocol::ErrorCode code, std::string_view message) {
    ctx_.metrics.refused(code);
    if (code != protocol::ErrorCode::RateLimited) {
      spdlog::info("room {}: refused {}: {}", room_->id(), protocol::error_code_name(code), message);
    }
    enqueue(std::make_shared<const std::string>(protocol::error_frame(code, message)));
  }

  void enqueue(std::shared_ptr<const std::string> frame) {
    if (closed_ || close_pending_) return;
    const auto& l = ctx_.config.limits;
    if (queue_.size() >= l.max_queue_frames || queued_bytes_.load(std::memory_order_relaxed) + frame->size() > l.max_queue_bytes) {
      // A client that stops reading is dropped, never buffered without bound.
      ctx_.metrics.slow_clients_dropped.fetch_add(1, std::memory_order_relaxed);
      spdlog::info("room {}: dropped a connection that does not read ({} frames queued)", room_->id(), queue_.size());
      return drop();
    }
    const std::size_t size = frame->size();
    queue_.push_back(std::move(frame));
    set_queued(queued_bytes_.load(std::memory_order_relaxed) + size);
    if (!writing_) do_write();
  }

  void do_write() {
    writing_ = true;
    ws_.text(true);
    ws_.async_write(asio::buffer(queue_.front()), beast::bind_front_handler(&WsSession::on_write, shared_from_this()));
  }

  void on_write(beast::error_code ec, std::size_t) {
    writing_ = false;
    if (ec) ctx_.fail(ec, NetOp::WsWrite, room_->id());
    if (ec || closed_) {
      queue_.clear();
      set_queued(0);
      return drop();
    }
    set_queued(queued_bytes_.load(std::memory_order_relaxed) - queue_.front().size());
    queue_.pop_front();
    if (!queue_.empty()) return do_write();
    if (close_pending_ && !pinging_) start_close();
  }

  void start_close() {
    closed_ = true;
    const websocket::close_reason reason(close_pending_->code, close_pending_->reason);
    ws_.async_close(reason, [self = shared_from_this()](beast::error_code ec) {
      self->ctx_.fail(ec, NetOp::WsClose, self->room_->id());
      self->teardown();  // a pending read, if any, ends too; teardown runs once
    });
  }

  void drop() {
    if (closed_) return;
    closed_ = true;
    if (!writing_) {  // the frame being written must outlive its write
      queue_.clear();
      set_queued(0);
    }
    beast::error_code ec;
    beast::get_lowest_layer(ws_).socket().shutdown(tcp::socket::shutdown_both, ec);
    beast::get_lowest_layer(ws_).close();
    if (!reading_) teardown();  // otherwise the read's failure does it
  }

  void teardown() {
    if (!attached_) return;
    attached_ = false;
    closed_ = true;
    ctx_.metrics.ws_connections.fetch_sub(1, std::memory_order_relaxed);
    asio::post(room_->strand(), [room = room_, self = shared_from_this()] { room->detach(self); });
  }

 public:
  // IdleWatch::Watched: called under the watch's lock, so a session whose destructor is
  // waiting for it is skipped; the work is posted to the session's strand.
  void idle_ping() override {
    auto alive = weak_from_this().lock();
    if (!alive) return;
    asio::post(ws_.get_executor(), [self = std::move(alive)] {
      if (self->closed_ || self->close_pending_ || self->pinging_) return;
      self->pinging_ = true;
      self->ws_.async_ping({}, [self](beast::error_code) {  // a failure ends the read or the wait
        self->pinging_ = false;
        if (self->close_pending_ && !self->closed_ && !self->writing_) self->start_close();
      });
    });
  }
  void idle_timeout() override {
    auto alive = weak_from_this().lock();
    if (!alive) return;
    asio::post(ws_.get_executor(), [self = std::move(alive)] {
      if (self->closed_) return;
      if (IdleWatch::now_ms() - self->heard_ms() < self->ctx_.config.limits.idle_timeout_s * 1000LL) return;
      self->ctx_.fail(beast::error::timeout, NetOp::WsRead, self->room_->id());
      self->drop();
    });
  }

  // QueueBudget::Queue
  std::size_t queued_bytes() const override { return queued_bytes_.load(std::memory_order_relaxed); }
  std::weak_ptr<QueueBudget::Queue> weak_queue() override { return weak_from_this(); }
  const std::string& budget_address() const override { return slot_.address(); }
  void shed() override {
    asio::post(ws_.get_executor(), [self = shared_from_this()] {
      if (self->closed_) return;
      spdlog::info("room {}: dropped a connection that does not read ({} bytes queued; the server's budget is full)",
                   self->room_->id(), self->queued_bytes());
      self->drop();
    });
  }

  ~WsSession() override {
    ctx_.idle_watch.remove(*this);  // first: the watch calls into this session
    ctx_.queue_budget.changed(*this, queued_bytes_.load(std::memory_order_relaxed), 0);
    ctx_.queue_budget.forget(this);
  }

  WsSession(tcp::socket stream, std::shared_ptr<Room> room, ServerContext& ctx, ConnectionLimiter::Slot slot)
      : ws_(std::move(stream)),
        ctx_(ctx),
        room_(std::move(room)),
        slot_(std::move(slot)),
        tokens_(ctx.config.limits.rate_burst) {}

  void run(http::request<http::string_body> req) {
    beast::error_code peer_ec;
    const auto peer = ws_.next_layer().remote_endpoint(peer_ec);
    client_key_ = limit_key(client_address(peer_address(peer), forwarded_for(req), ctx_.config.trusted_proxies));
    const auto& l = ctx_.config.limits;
    websocket::stream_base::timeout t{};
    t.handshake_timeout = std::chrono::seconds(l.handshake_timeout_s);
    // Beast's timer bounds the opening and the closing handshakes; an open connection's
    // silence is watched by the server's one idle timer (net/idle_watch.hpp), which the
    // stream tells of every byte that arrives.
    t.idle_timeout = websocket::stream_base::none();
    t.keep_alive_pings = false;
    ws_.set_option(t);
    ws_.next_layer().watched = this;
    ws_.set_option(websocket::stream_base::decorator(
        [](websocket::response_type& res) {
          res.set(http::field::server, "carcassonne");
          res.set("X-Content-Type-Options", "nosniff");
          res.set("Referrer-Policy", "no-referrer");
        }));
    // The frame limit is checked in on_read; this hard cap only bounds what a close drains.
    ws_.read_message_max(std::max<std::size_t>(16 * l.max_frame_bytes, 64 * 1024));
    ws_.auto_fragment(false);
    ws_.async_accept(req, beast::bind_front_handler(&WsSession::on_accept, shared_from_this()));
  }

  void send(std::shared_ptr<const std::string> frame) override {
    asio::post(ws_.get_executor(), [self = shared_from_this(), frame = std::move(frame)]() mutable {
      self->enqueue(std::move(frame));
    });
  }

  double take_room_token() override { return ctx_.room_buckets.take(client_key_); }
  std::string address_key() const override { return client_key_; }

  void close(CloseReason why) override {
    asio::post(ws_.get_executor(), [self = shared_from_this(), why] {
      if (self->closed_ || self->close_pending_) return;
      switch (why) {
        case CloseReason::GoingAway:
          self->close_pending_ = PendingClose{websocket::close_code::going_away, "server shutting down"};
          break;
        case CloseReason::Replaced:
          self->close_pending_ = PendingClose{websocket::close_code::policy_error, "seat taken by another connection"};
          break;
        case CloseReason::RoomClosed:
          self->close_pending_ = PendingClose{websocket::close_code::going_away, "room closed"};
          break;
        case CloseReason::Internal:
          self->close_pending_ = PendingClose{websocket::close_code::internal_error, "internal error"};
          break;
        case CloseReason::Moved:
          // docs/protocol-details.md: 4302, the room moved to another node; reconnect at once.
          self->close_pending_ = PendingClose{static_cast<websocket::close_code>(4302), "room moved: reconnect"};
          break;
      }
      if (!self->writing_ && !self->pinging_) self->start_close();
    });
  }
};

}  // namespace

void start_ws_session(tcp::socket stream, http::request<http::string_body> req, std::shared_ptr<Room> room,
                      ServerContext& ctx, ConnectionLimiter::Slot slot) {
  auto session = std::make_shared<WsSession>(std::move(stream), std::move(room), ctx, std::move(slot));
  session->run(std::move(req));
}

}  // namespace carc::server
