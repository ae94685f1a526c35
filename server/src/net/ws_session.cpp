// One WebSocket connection on /ws/<room>. Limits live here, where input arrives: message
// size (checked before it is read), the per-connection rate limit, timeouts with pings, and
// the outgoing queue cap. Messages are parsed once into typed messages, then posted to the
// room's strand.
#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <spdlog/spdlog.h>

#include "base/guard.hpp"
#include "net/frame_queue.hpp"
#include "net/idle_watch.hpp"
#include "net/ws_frames.hpp"
#include "net/http_answers.hpp"
#include "net/net.hpp"
#include "limits/queue_budget.hpp"
#include "push/targets.hpp"

namespace carc::server {

namespace {

namespace websocket = beast::websocket;
using Clock = std::chrono::steady_clock;

// A close the session means to send once its queue is written: the code and a reason that
// is a string literal. `now`: a broken or refused client, whose queue is not sent.
struct PendingClose {
  std::uint16_t code;
  std::string_view reason;
  bool now = false;
};

// The most a closing connection reads and discards while it waits for its client's end
// (their close reply, frames already on their way).
constexpr std::size_t kMaxDrain = 256 * 1024;

// After the opening handshake (Beast's, on a stream over the socket that is then dropped) the
// session frames its WebSocket itself (net/ws_frames.hpp): Beast's stream holds 2.5 KB a
// connection for as long as it lives, 1,536 bytes of it a read buffer it fixes
// (docs/hot-path.md#memory). Between two messages a connection holds its socket, this object
// (with 128 bytes to read into) and a pending read: nothing else. A message leaves no buffer.
class WsSession final : public Client,
                        public QueueBudget::Queue,
                        public IdleWatch::Watched,
                        public std::enable_shared_from_this<WsSession> {
  enum class Out : std::uint8_t { None, Data, Control, Close };

  tcp::socket socket_;
  // Only for the opening handshake: gone once it is done.
  std::unique_ptr<websocket::stream<tcp::socket&, false>> handshake_;
  ServerContext& ctx_;
  std::shared_ptr<Room> room_;
  ConnectionLimiter::Slot slot_;

  // Reading: the client's frames (net/ws_frames.hpp), read ahead into a small array.
  static constexpr std::size_t kReadAhead = 128;
  static_assert(kReadAhead <= 255, "ahead_at_ and ahead_end_ are bytes");
  ws::FrameReader reader_;
  std::array<char, kReadAhead> ahead_;
  std::uint8_t ahead_at_ = 0, ahead_end_ = 0;  // the bytes of ahead_ not handed to the reader yet
  bool reading_ = false;   // a read, or a turn for bytes read ahead, is pending: its failure ends the session
  bool draining_ = false;  // closing: what the client still sends is read and discarded
  std::size_t drained_ = 0;
  std::unique_ptr<std::array<char, 4096>> drain_buf_;

  // Writing (chat-multi): one write at a time; the frames are shared by every socket of the
  // room. Control frames (a pong, a keep-alive ping) go before the next queued frame.
  FrameQueue queue_;
  std::atomic<std::size_t> queued_bytes_{0};  // written here only; read by the server's budget
  std::atomic<bool> shedding_{false};         // the budget chose to drop it (set from any thread)
  std::shared_ptr<const std::string> out_frame_;  // the queued frame being written
  std::string out_control_;                       // the control frame's payload being written
  std::array<std::uint8_t, 10> out_head_{};
  Out writing_ = Out::None;
  std::string pong_;  // the answer to the client's last ping, while it waits
  bool pong_due_ = false;
  bool ping_due_ = false;
  std::optional<PendingClose> close_pending_;
  bool closed_ = false;  // the close frame was started or the socket dropped: nothing more out
  bool attached_ = false;
  std::unique_ptr<asio::steady_timer> close_timer_;  // bounds the closing handshake

  double tokens_;
  Clock::time_point refilled_ = Clock::now();
  // The rate_limited answer still in the queue, if any: a flood gets one answer waiting at a
  // time, so a client that sends without reading cannot fill the queue with them.
  const std::string* limited_queued_ = nullptr;
  std::string client_key_;  // the address per-address limits count (as HttpSession::client_key)

  // ---- the opening handshake ----
  void on_accept(beast::error_code ec) {
    // The stream has done its work; it goes once its handler has returned.
    asio::post(socket_.get_executor(), [self = shared_from_this()] { self->handshake_.reset(); });
    if (ec) {
      beast::error_code ignored;
      socket_.close(ignored);
      return ctx_.fail(ec, NetOp::WsAccept, room_->id());
    }
    attached_ = true;
    ctx_.metrics.ws_connections.fetch_add(1, std::memory_order_relaxed);
    ctx_.idle_watch.add(*this, std::chrono::seconds(ctx_.config.limits.idle_timeout_s));
    asio::post(room_->strand(), [room = room_, self = shared_from_this()] { room->attach(self); });
    next_frame();
  }

  // ---- reading ----
  // A read asks for up to kReadAhead bytes into ahead_, so a short message (a move is under
  // 100 bytes) comes in one read, and a quiet connection's wait for its next message costs
  // no call of its own (Asio's reactor reads once the socket is readable). A payload longer
  // than the array is read straight into the message. Messages that came in one read are
  // handled one a turn of the event loop, as if each had been read alone, so the answers to a
  // client that sends many at once go out between them.
  void next_frame() {
    if (draining_) return drain();
    reading_ = true;
    if (ahead_at_ < ahead_end_) {
      return asio::post(socket_.get_executor(), [self = shared_from_this()] { self->resume_ahead(); });
    }
    if (reader_.wanted_size() >= kReadAhead) {
      const auto w = reader_.wanted();
      const std::array<asio::mutable_buffer, 2> buffers{asio::buffer(w[0].data, w[0].size), asio::buffer(w[1].data, w[1].size)};
      return socket_.async_read_some(buffers, beast::bind_front_handler(&WsSession::on_exact, shared_from_this()));
    }
    socket_.async_read_some(asio::buffer(ahead_), beast::bind_front_handler(&WsSession::on_ahead, shared_from_this()));
  }

  // Whether a read's bytes are to be used: not after a failure (which ends the session) nor
  // while closing (then they are drained).
  bool read_ok(beast::error_code ec) {
    reading_ = false;
    if (ec) {
      ctx_.fail(ec, NetOp::WsRead, room_->id());
      teardown();
      return false;
    }
    heard(IdleWatch::now_ms());
    if (draining_) {
      drain();
      return false;
    }
    return true;
  }

  void on_exact(beast::error_code ec, std::size_t n) {
    if (!read_ok(ec)) return;
    if (!guarded("a frame", [&] {
          if (on_event(reader_.advance(n))) next_frame();
        })) {
      close_now(ws::close_code::internal_error, "internal error");
    }
  }

  void on_ahead(beast::error_code ec, std::size_t n) {
    if (!read_ok(ec)) return;
    ahead_at_ = 0;
    ahead_end_ = static_cast<std::uint8_t>(n);
    take_ahead();
  }

  void resume_ahead() {
    reading_ = false;
    if (draining_) return drain();
    take_ahead();
  }

  // Hands the bytes read ahead to the reader, up to the first thing they complete.
  void take_ahead() {
    if (!guarded("a frame", [&] {
          std::size_t used = 0;
          const ws::FrameReader::Event e =
              reader_.feed(std::string_view(ahead_.data() + ahead_at_, ahead_end_ - ahead_at_), used);
          // Short of an event the reader took every byte; what follows an event waits.
          ahead_at_ = e.kind == ws::FrameReader::Event::Kind::More ? ahead_end_ : static_cast<std::uint8_t>(ahead_at_ + used);
          if (on_event(e)) next_frame();
        })) {
      close_now(ws::close_code::internal_error, "internal error");
    }
  }

  // What the reader made of the bytes; false when it ends the reading (a broken frame).
  bool on_event(const ws::FrameReader::Event& e) {
    using Kind = ws::FrameReader::Event::Kind;
    switch (e.kind) {
      case Kind::More:
        break;
      case Kind::Message:
        on_message(reader_.take_message(), e.opcode == ws::Opcode::Text);
        break;
      case Kind::Control:
        on_control(e.opcode, reader_.take_control());
        break;
      case Kind::Error:
        if (e.error == ws::close_code::too_big) refuse_too_big();
        else close_now(e.error, "protocol error");
        return false;
    }
    return true;
  }

  void on_control(ws::Opcode opcode, std::string payload) {
    switch (opcode) {
      case ws::Opcode::Close: {  // the client closes: answer with its code, then end
        const ws::CloseFrame f = ws::parse_close(payload);
        return close_now(f.error != 0 ? f.error : f.code, f.error != 0 ? "protocol error" : "");
      }
      case ws::Opcode::Ping:
        if (closed_ || close_pending_) return;
        pong_ = std::move(payload);
        pong_due_ = true;
        if (writing_ == Out::None) do_write();
        return;
      default:
        return;  // a pong: hearing from the client was all it was for
    }
  }

  void on_message(std::string text, bool is_text) {
    if (closed_ || close_pending_) return;  // closing: the room has nothing more to hear
    if (!allow_message(Clock::now())) return refuse_flood();
    if (!is_text) return refuse(protocol::ErrorCode::BadMessage, "messages are JSON text frames");
    if (!ws::valid_utf8(text)) {
      ctx_.metrics.refused(protocol::ErrorCode::BadMessage);
      spdlog::info("room {}: refused a text message that is not UTF-8 (closed with 1007)", room_->id());
      return close_now(ws::close_code::bad_payload, "text is not UTF-8");
    }
    auto parsed = protocol::parse_client_message(text);
    if (auto* err = std::get_if<protocol::MessageError>(&parsed)) return refuse(err->code, err->message);
    if (auto why = push::refuse_message(std::get<protocol::ClientMessage>(parsed), ctx_.config.allow_private_hooks)) {
      return refuse(protocol::ErrorCode::BadMessage, *why);  // a target outside what the server may call
    }
    const auto received = Clock::now();
    asio::post(room_->strand(), [room = room_, self = shared_from_this(),
                                 msg = std::move(std::get<protocol::ClientMessage>(parsed)), received] {
      if (!guarded("a message in room " + room->id(), [&] { room->handle(self, msg, received); })) {
        self->close(CloseReason::Internal);
      }
    });
  }

  void refuse_too_big() {
    ctx_.metrics.refused(protocol::ErrorCode::TooLarge);
    spdlog::info("room {}: refused too_large message (closed with 1009)", room_->id());
    close_now(ws::close_code::too_big, "message too large");
  }

  // Closing: whatever the client still sends is read and thrown away until its end of
  // stream (its close reply comes first), so that the socket is not closed on unread bytes,
  // which the kernel would answer with a reset and the client would lose the close frame.
  void drain() {
    draining_ = true;
    if (reading_) return;
    if (!drain_buf_) drain_buf_ = std::make_unique<std::array<char, 4096>>();
    reading_ = true;
    socket_.async_read_some(asio::buffer(*drain_buf_), [self = shared_from_this()](beast::error_code ec, std::size_t n) {
      self->reading_ = false;
      self->drained_ += n;
      if (ec || self->drained_ > kMaxDrain) {
        if (ec != asio::error::eof) self->ctx_.fail(ec, NetOp::WsClose, self->room_->id());
        beast::error_code ignored;
        self->socket_.close(ignored);
        return self->teardown();
      }
      self->drain();
    });
  }

  // ---- writing ----
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

  // A message over the connection's budget: refused, and answered unless an answer to the
  // flood is still waiting to go out.
  void refuse_flood() {
    ctx_.metrics.refused(protocol::ErrorCode::RateLimited);
    if (limited_queued_) return;
    auto frame = std::make_shared<const std::string>(
        protocol::error_frame(protocol::ErrorCode::RateLimited, "too many messages; slow down"));
    limited_queued_ = frame.get();  // cleared as it goes out (do_write)
    enqueue(std::move(frame));
  }

  void enqueue(std::shared_ptr<const std::string> frame) {
    if (closed_ || close_pending_ || shedding_.load(std::memory_order_relaxed)) return;
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
    if (writing_ == Out::None) do_write();
  }

  void write_frame(Out what, ws::Opcode opcode, asio::const_buffer payload) {
    writing_ = what;
    const std::size_t n = ws::server_header(out_head_, opcode, payload.size());
    const std::array<asio::const_buffer, 2> buffers{asio::buffer(out_head_.data(), n), payload};
    asio::async_write(socket_, buffers, beast::bind_front_handler(&WsSession::on_write, shared_from_this()));
  }

  // The next frame out: a pong, a keep-alive ping, the queue's front, or the close.
  void do_write() {
    if (closed_) return;
    if (pong_due_) {
      pong_due_ = false;
      out_control_.swap(pong_);
      return write_frame(Out::Control, ws::Opcode::Pong, asio::buffer(out_control_));
    }
    if (ping_due_) {
      ping_due_ = false;
      out_control_.clear();
      return write_frame(Out::Control, ws::Opcode::Ping, asio::const_buffer());
    }
    if (!queue_.empty() && !(close_pending_ && close_pending_->now)) {
      out_frame_ = queue_.take_front();
      if (out_frame_.get() == limited_queued_) limited_queued_ = nullptr;
      return write_frame(Out::Data, ws::Opcode::Text, asio::buffer(*out_frame_));
    }
    if (close_pending_) start_close();
  }

  void on_write(beast::error_code ec, std::size_t) {
    const Out wrote = writing_;
    writing_ = Out::None;
    if (wrote == Out::Data) {
      set_queued(queued_bytes_.load(std::memory_order_relaxed) - out_frame_->size());
      out_frame_.reset();
    }
    std::string().swap(out_control_);
    if (ec) {
      ctx_.fail(ec, wrote == Out::Close ? NetOp::WsClose : NetOp::WsWrite, room_->id());
      return drop();
    }
    if (wrote == Out::Close) {  // the close is out: the client answers and ends its side
      beast::error_code ignored;
      socket_.shutdown(tcp::socket::shutdown_send, ignored);
      return;
    }
    do_write();
  }

  // A close now, the queue left unsent: a broken or refused client, or its own close.
  void close_now(std::uint16_t code, std::string_view reason) {
    if (!closed_ && !(close_pending_ && close_pending_->now)) close_pending_ = PendingClose{code, reason, true};
    drain();
    if (writing_ == Out::None) do_write();
  }

  void start_close() {
    closed_ = true;
    queue_.clear();
    limited_queued_ = nullptr;
    set_queued(0);
    out_control_ = ws::close_payload(close_pending_->code, close_pending_->reason);
    close_timer_ = std::make_unique<asio::steady_timer>(socket_.get_executor(),
                                                        std::chrono::seconds(ctx_.config.limits.handshake_timeout_s));
    close_timer_->async_wait([self = shared_from_this()](beast::error_code ec) {
      if (ec) return;
      beast::error_code ignored;
      self->socket_.close(ignored);  // the pending read fails and ends the session
    });
    write_frame(Out::Close, ws::Opcode::Close, asio::buffer(out_control_));
    drain();
  }

  void drop() {
    if (!closed_) {
      closed_ = true;
      queue_.clear();
      limited_queued_ = nullptr;
      set_queued(out_frame_ ? out_frame_->size() : 0);
    }
    beast::error_code ec;
    socket_.shutdown(tcp::socket::shutdown_both, ec);
    socket_.close(ec);
    if (!reading_) teardown();  // otherwise the read's failure does it
  }

  void teardown() {
    if (close_timer_) close_timer_->cancel();
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
    asio::post(socket_.get_executor(), [self = std::move(alive)] {
      if (self->closed_ || self->close_pending_) return;
      self->ping_due_ = true;
      if (self->writing_ == Out::None) self->do_write();
    });
  }
  void idle_timeout() override {
    auto alive = weak_from_this().lock();
    if (!alive) return;
    asio::post(socket_.get_executor(), [self = std::move(alive)] {
      if (!self->attached_) return;
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
    shedding_.store(true, std::memory_order_relaxed);  // from now on its queue takes nothing
    asio::post(socket_.get_executor(), [self = shared_from_this()] {
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

  WsSession(tcp::socket socket, std::shared_ptr<Room> room, ServerContext& ctx, ConnectionLimiter::Slot slot)
      : socket_(std::move(socket)),
        ctx_(ctx),
        room_(std::move(room)),
        slot_(std::move(slot)),
        reader_(ctx.config.limits.max_frame_bytes),
        tokens_(ctx.config.limits.rate_burst) {}

  void run(http::request<http::string_body> req) {
    beast::error_code peer_ec;
    const auto peer = socket_.remote_endpoint(peer_ec);
    client_key_ = limit_key(client_address(peer_address(peer), forwarded_for(req), ctx_.config.trusted_proxies));
    handshake_ = std::make_unique<websocket::stream<tcp::socket&, false>>(socket_);
    websocket::stream_base::timeout t{};
    t.handshake_timeout = std::chrono::seconds(ctx_.config.limits.handshake_timeout_s);
    t.idle_timeout = websocket::stream_base::none();
    t.keep_alive_pings = false;
    handshake_->set_option(t);
    handshake_->set_option(websocket::stream_base::decorator(
        [](websocket::response_type& res) {
          res.set(http::field::server, "carcassonne");
          res.set("X-Content-Type-Options", "nosniff");
          res.set("Referrer-Policy", "no-referrer");
        }));
    handshake_->async_accept(req, beast::bind_front_handler(&WsSession::on_accept, shared_from_this()));
  }

  void send(std::shared_ptr<const std::string> frame) override {
    asio::post(socket_.get_executor(), [self = shared_from_this(), frame = std::move(frame)]() mutable {
      self->enqueue(std::move(frame));
    });
  }

  double take_room_token() override { return ctx_.room_buckets.take(client_key_); }
  std::string address_key() const override { return client_key_; }

  void close(CloseReason why) override {
    asio::post(socket_.get_executor(), [self = shared_from_this(), why] {
      if (self->closed_ || self->close_pending_) return;
      switch (why) {
        case CloseReason::GoingAway:
          self->close_pending_ = PendingClose{ws::close_code::going_away, "server shutting down"};
          break;
        case CloseReason::Replaced:
          self->close_pending_ = PendingClose{ws::close_code::policy_error, "seat taken by another connection"};
          break;
        case CloseReason::RoomClosed:
          self->close_pending_ = PendingClose{ws::close_code::going_away, "room closed"};
          break;
        case CloseReason::Internal:
          self->close_pending_ = PendingClose{ws::close_code::internal_error, "internal error"};
          break;
        case CloseReason::Moved:
          // docs/protocol-details.md: 4302, the room moved to another node; reconnect at once.
          self->close_pending_ = PendingClose{4302, "room moved: reconnect"};
          break;
      }
      if (self->writing_ == Out::None) self->do_write();
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
