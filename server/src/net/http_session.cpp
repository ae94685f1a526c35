// HTTP: the API, static files, and the upgrade of /ws/<room> to a WebSocket session.
#include <algorithm>
#include <optional>

#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket/rfc6455.hpp>
#include <spdlog/spdlog.h>

#include "carc/protocol/json.hpp"
#include "community/ratings.hpp"
#include "net/community_api.hpp"
#include "net/keys_api.hpp"
#include "net/signin_api.hpp"
#include "net/tournaments_api.hpp"
#include "base/guard.hpp"
#include "net/http_answers.hpp"
#include "net/net.hpp"
#include "base/random.hpp"

namespace carc::server {

namespace {

class HttpSession : public std::enable_shared_from_this<HttpSession> {
  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  ServerContext& ctx_;
  ConnectionLimiter::Slot slot_;
  const Listen listen_;
  const IpAddress peer_;
  std::string host_;  // the current request's Host, for the CSP's connect-src
  std::optional<http::request_parser<http::string_body>> parser_;
  bool answering_ = false;  // the current request's answer is on its way (or its writing started)

  std::string where() const { return peer_.to_string(); }

  // Bodies: 4 KiB, but a record posted to /api/replay may take 64 KiB (an expansion game's
  // record is about 6 KiB). The header comes first, so the limit follows the target.
  static constexpr std::size_t kBodyLimit = 4 * 1024;
  static constexpr std::size_t kRecordBodyLimit = 64 * 1024;

  void do_read() {
    answering_ = false;
    parser_.emplace();
    parser_->header_limit(8 * 1024);
    // The parser checks a Content-Length against this as the header ends: the larger limit
    // here, the route's own in on_header.
    parser_->body_limit(kRecordBodyLimit);
    stream_.expires_after(std::chrono::seconds(ctx_.config.limits.http_timeout_s));
    http::async_read_header(stream_, buffer_, *parser_,
                            beast::bind_front_handler(&HttpSession::on_header, shared_from_this()));
  }

  void on_header(beast::error_code ec, std::size_t n) {
    if (ec) return on_read(ec, n);
    const auto target = parser_->get().target();
    if (path_of(std::string_view(target.data(), target.size())) != "/api/replay") {
      const auto length = parser_->content_length();
      if (length && *length > kBodyLimit) return on_read(http::error::body_limit, n);
      parser_->body_limit(kBodyLimit);  // a chunked body is counted as it comes
    }
    http::async_read(stream_, buffer_, *parser_, beast::bind_front_handler(&HttpSession::on_read, shared_from_this()));
  }

  void on_read(beast::error_code ec, std::size_t) {
    if (ec == http::error::end_of_stream) return shutdown();
    if (ec == http::error::body_limit) return send(make_response(http::status::payload_too_large, "body too large\n", 11, false));
    if (ec == http::error::header_limit) {
      return send(make_response(http::status::request_header_fields_too_large, "headers too large\n", 11, false));
    }
    // A request the parser refuses (bad method, target, version, header, length or chunk)
    // gets a clear answer before the connection closes; a client that vanished mid-request
    // or timed out gets nothing.
    if (ec && ec.category() == http::make_error_code(http::error::bad_target).category() &&
        ec != http::error::partial_message && ec != http::error::need_more) {
      return send(make_response(http::status::bad_request, "bad request\n", 11, false));
    }
    // A keep-alive connection that stays silent until its timeout ends normally.
    if (ec == beast::error::timeout && buffer_.size() == 0 && !parser_->got_some()) return;
    if (ec) return ctx_.fail(ec, NetOp::HttpRead, where());
    ctx_.metrics.http_requests.fetch_add(1, std::memory_order_relaxed);
    Request req = parser_->release();
    host_ = std::string(req[http::field::host]);
    const auto version = req.version();
    if (!count_forwarded_client(req)) return;
    const bool answered = guarded("an HTTP request", [&] {
      const Route r = route_request(method_from(req.method_string()), req.target(), beast::websocket::is_upgrade(req), listen_);
      route(req, r);  // r.arg points into req
    });
    // What the handler threw is logged; the client hears 500 and this connection ends.
    if (!answered && !answering_) send(make_response(http::status::internal_server_error, "internal error\n", version, false));
  }

  // The address per-address limits count (X-Forwarded-For only from a trusted proxy).
  std::string client_key(const Request& req) const {
    return limit_key(client_address(peer_, forwarded_for(req), ctx_.config.trusted_proxies));
  }

  bool via_trusted_proxy() const { return any_contains(ctx_.config.trusted_proxies, peer_); }
  std::string invite_base_of(const Request& req) const { return invite_base(ctx_.config, req, via_trusted_proxy()); }

  // Behind a trusted proxy the connection was accepted without a per-address count (all
  // clients share the proxy's address): the per-address cap counts the forwarded client,
  // from its first request on. False (and 429 sent, the connection closing) past the cap.
  bool count_forwarded_client(const Request& req) {
    if (!via_trusted_proxy()) return true;
    const std::string key = client_key(req);
    if (key == slot_.address()) return true;
    if (ctx_.limiter.rebind(slot_, key)) return true;
    ctx_.metrics.connections_refused.fetch_add(1, std::memory_order_relaxed);
    auto res = rate_limited(req, 1.0, "connections");
    res.keep_alive(false);
    send(std::move(res));
    return false;
  }

  void upgrade(Request& req, std::string_view room_id) {
    // The address's budget first: a refused upgrade costs no lookup, and none of storage.
    if (const double wait = ctx_.upgrade_buckets.take(client_key(req)); wait > 0) {
      ctx_.metrics.upgrades_rate_limited.fetch_add(1, std::memory_order_relaxed);
      auto res = rate_limited(req, wait, "connections");
      res.keep_alive(false);
      return send_slowly(std::move(res), req, wait);
    }
    std::string id(room_id);
    if (auto room = ctx_.rooms.find_cached(id)) return upgrade_to(req, id, std::move(*room));
    if (!charge_lookup(req, false)) return;
    // The room has to be loaded: wait for it off this thread, carry on back here.
    ctx_.rooms.find(id, [self = shared_from_this(), id, req = std::move(req)](std::shared_ptr<Room> room) mutable {
      asio::dispatch(self->stream_.get_executor(), [self, id = std::move(id), req = std::move(req), room = std::move(room)]() mutable {
        self->upgrade_to(req, id, std::move(room));
      });
    });
  }

  // A lookup that only storage can answer costs a token of the address's lookup budget,
  // taken before any storage work. False (and 429 sent) past it.
  bool charge_lookup(const Request& req, bool keep_alive) {
    const double wait = ctx_.lookup_buckets.take(client_key(req));
    if (wait <= 0) return true;
    ctx_.metrics.lookups_rate_limited.fetch_add(1, std::memory_order_relaxed);
    auto res = rate_limited(req, wait, "lookups of rooms");
    if (!keep_alive) res.keep_alive(false);
    send_slowly(std::move(res), req, wait);
    return false;
  }

  // A refusal over an address's budget is answered after a short pause (at most
  // kRefusalPause, never past the wait it announces): a client that asks again as soon as
  // it is answered, on every connection it has, then costs a few answers a second per
  // connection instead of all the CPU it can take from the rooms.
  static constexpr double kRefusalPause = 0.25;
  void send_slowly(Response res, const Request& req, double wait) {
    auto timer = std::make_shared<asio::steady_timer>(stream_.get_executor());
    timer->expires_after(std::chrono::microseconds(static_cast<long>(std::min(wait, kRefusalPause) * 1e6)));
    timer->async_wait([self = shared_from_this(), timer, res = std::move(res), head = req.method() == http::verb::head](
                          beast::error_code) mutable {
      if (head) {
        const auto length = res.body().size();
        res.body().clear();
        res.content_length(length);
      }
      self->send(std::move(res));
    });
  }

  void upgrade_to(Request& req, const std::string& room_id, std::shared_ptr<Room> room) {
    if (!room) {
      if (auto res = not_here(req, room_id, false)) {
        res->keep_alive(false);
        return send(std::move(*res));
      }
      spdlog::debug("refused WebSocket upgrade to unknown room {}", room_id.substr(0, 64));
      return send(make_response(http::status::not_found, "no such room\n", req.version(), false));
    }
    stream_.expires_never();
    start_ws_session(stream_.release_socket(), std::move(req), std::move(room), ctx_, std::move(slot_));
  }

  // Several nodes: the room is held by another live node (it is being handed over to this
  // one) or the database is unreachable. 503 with Retry-After: the client tries again and
  // reaches the room wherever it then is (docs/cluster.md).
  std::optional<Response> not_here(const Request& req, std::string_view room_id, bool json) {
    const auto miss = ctx_.rooms.miss(room_id);
    if (miss == RoomRegistry::Miss::NotFound) return std::nullopt;
    const bool moving = miss == RoomRegistry::Miss::Elsewhere;
    const bool busy = miss == RoomRegistry::Miss::Busy;
    const char* body = moving ? R"({"error":"moved","message":"the room is moving to this node; try again in a second"})"
                       : busy ? R"({"error":"unavailable","message":"too many lookups right now; try again in a second"})"
                              : R"({"error":"unavailable","message":"storage is unreachable; try again shortly"})";
    const char* text = moving ? "room moving, try again\n" : busy ? "busy, try again\n" : "storage unavailable\n";
    Response res = json ? json_response(req, http::status::service_unavailable, body)
                        : make_response(http::status::service_unavailable, text, req.version(), req.keep_alive());
    res.set(http::field::retry_after, "1");
    return res;
  }

  void route(Request& req, const Route& r) {
    using K = Route::Kind;
    switch (r.kind) {
      case K::Healthz:
        // Several nodes: a node whose lease ran out (its database does not answer) is taken
        // out of the front's rotation, so that its rooms move to the other nodes.
        if (ctx_.metrics.storage_unavailable.load(std::memory_order_relaxed)) {
          return send(make_response(http::status::service_unavailable, "storage unavailable\n", req.version(), req.keep_alive()), req);
        }
        return send(make_response(http::status::ok, "ok\n", req.version(), req.keep_alive()), req);
      case K::Metrics: {
        auto res = make_response(http::status::ok, ctx_.metrics.render(ctx_.rooms.counts()), req.version(), req.keep_alive(),
                          "text/plain; version=0.0.4; charset=utf-8");
        return send(std::move(res), req);
      }
      case K::Tiles: return send(tiles_answer(req, r.arg, ctx_.tiles_json), req);
      case K::CreateRoom: return create_room(req);
      case K::Replay: return replay_record(req);
      case K::RoomInfo:
      case K::RoomRecord: return room_json(req, r.arg, r.kind == K::RoomRecord);
      case K::RoomAnalysis: return room_analysis(req, r.arg);
      case K::RoomRated: return ratings_api(req, r);
      case K::Upgrade: return upgrade(req, r.arg);
      case K::UpgradeRequired:
        return send(make_response(http::status::upgrade_required, "WebSocket only\n", req.version(), false));
      case K::MethodNotAllowed: return send(method_not_allowed(req, r.allow));
      case K::ApiNotFound: return send(json_response(req, http::status::not_found, R"({"error":"not_found"})"), req);
      case K::NotFound: return send(make_response(http::status::not_found, "not found\n", req.version(), req.keep_alive()), req);
      case K::Static: return static_file(req, r.arg);
      case K::KeysApi: return keys_api(req);
      case K::SigninApi: return signin_api(req);
      case K::Player:
      case K::Leaderboard: return ratings_api(req, r);
      case K::TournamentsApi:
        return serve_tournaments_api(ctx_, req, {client_key(req), invite_base_of(req)}, [self = shared_from_this(), req](Response res) {
          asio::post(self->stream_.get_executor(), [self, req, res = std::move(res)]() mutable { self->send(std::move(res), req); });
        });
      case K::CommunityApi:
        return serve_community_api(ctx_, req, {client_key(req), invite_base_of(req)}, [self = shared_from_this(), req](Response res) {
          asio::post(self->stream_.get_executor(), [self, req, res = std::move(res)]() mutable { self->send(std::move(res), req); });
        });
    }
  }

  // A record replayed by the server's engine and nothing stored.
  void replay_record(const Request& req) { send(replay_answer(req)); }

  void create_room(const Request& req) {
    if (const double wait = ctx_.room_buckets.take(client_key(req)); wait > 0) {
      ctx_.metrics.rooms_rate_limited.fetch_add(1, std::memory_order_relaxed);
      return send(rate_limited(req, wait, "new games"));
    }
    // `{"expansions": [...], "options": [...]}` (docs/expansions.md, docs/options.md): the new
    // room's settings.
    auto set = requested_expansions(req);
    auto opts = requested_options(req);
    const std::string* why = std::get_if<std::string>(&set);
    if (why == nullptr) why = std::get_if<std::string>(&opts);
    if (why != nullptr) {
      return send(json_response(req, http::status::bad_request,
                                protocol::json_text(nlohmann::json{{"error", "bad_request"}, {"message", *why}})));
    }
    const ExpansionSet expansions = std::get<ExpansionSet>(set);
    const OptionSet options = std::get<OptionSet>(opts);
    if (!expansions.empty() || !options.empty()) {
      // Made as a rematch is: stored with its settings before it is announced.
      SettingsChanged settings{std::nullopt, protocol::kDefaultAwaySeconds, expansions};
      settings.options = options;
      std::vector<RoomAction> actions{settings};
      ctx_.rooms.create_rematch(std::move(actions), [self = shared_from_this(), req](std::string id) {
        asio::dispatch(self->stream_.get_executor(), [self, req, id = std::move(id)] {
          if (id.empty()) {
            return self->send(json_response(req, http::status::service_unavailable,
                                                  R"({"error":"unavailable","message":"no room can be created right now"})"));
          }
          nlohmann::json body{{"room", id}, {"invite_url", self->invite_base_of(req) + "/r/" + id}};
          self->send(json_response(req, http::status::created, protocol::json_text(body)));
        });
      });
      return;
    }
    // Stored before it is announced: answered from the store's thread, sent from here.
    ctx_.rooms.create([self = shared_from_this(), req](std::shared_ptr<Room> room) {
      asio::dispatch(self->stream_.get_executor(), [self, req, room = std::move(room)] { self->room_created(req, room); });
    });
  }

  void room_created(const Request& req, const std::shared_ptr<Room>& room) {
    if (!room) {
      spdlog::warn("refused POST /api/rooms: room cap reached or storage unavailable");
      return send(json_response(req, http::status::service_unavailable,
                                R"({"error":"unavailable","message":"no room can be created right now"})"));
    }
    nlohmann::json body{{"room", room->id()}, {"invite_url", invite_base_of(req) + "/r/" + room->id()}};
    send(json_response(req, http::status::created, protocol::json_text(body)));
  }

  void room_json(Request& req, std::string_view room_id, bool record) {
    const std::string id(room_id);  // room_id points into req, which moves below
    if (auto room = ctx_.rooms.find_cached(id)) return room_json_of(std::move(req), id, record, std::move(*room));
    if (!charge_lookup(req, true)) return;
    ctx_.rooms.find(id, [self = shared_from_this(), id, record, req = std::move(req)](std::shared_ptr<Room> room) mutable {
      asio::dispatch(self->stream_.get_executor(), [self, id, record, req = std::move(req), room = std::move(room)]() mutable {
        self->room_json_of(std::move(req), id, record, std::move(room));
      });
    });
  }

  // GET /api/rooms/<id>/analysis (docs/analysis.md): from memory, else from storage (a lookup,
  // charged as one).
  void room_analysis(const Request& req, std::string_view room_id) {
    const std::string id(room_id);
    if (auto body = ctx_.analyser.cached(id)) return send(json_response(req, http::status::ok, std::move(*body)), req);
    if (!charge_lookup(req, true)) return;
    auto look = [self = shared_from_this(), req, id]() mutable {
      self->ctx_.analyser.lookup(id, [self, req = std::move(req)](std::optional<std::string> body) mutable {
        asio::post(self->stream_.get_executor(), [self, req = std::move(req), body = std::move(body)]() mutable {
          if (!body) return self->send(json_response(req, http::status::not_found, R"({"error":"not_found"})"), req);
          self->send(json_response(req, http::status::ok, std::move(*body)), req);
        });
      });
    };
    // A room in memory hands its finished game to the analyser on its strand, just after the
    // last patch went out: a client that asks as soon as it sees the end may be quicker. Its
    // strand, once it runs this, has done that.
    if (auto room = ctx_.rooms.find_loaded(id)) return asio::post(room->strand(), std::move(look));
    look();
  }

  void room_json_of(Request req, const std::string& id, bool record, std::shared_ptr<Room> room) {
    if (!room) {
      if (auto res = not_here(req, id, true)) return send(std::move(*res), req);
      return send(json_response(req, http::status::not_found, R"({"error":"not_found"})"), req);
    }
    // The room's state belongs to its strand: ask there, answer here.
    asio::post(room->strand(), [self = shared_from_this(), room, record, req = std::move(req)]() mutable {
      std::string body = record ? room->record_json() : room->info_json();
      asio::post(self->stream_.get_executor(), [self, req = std::move(req), body = std::move(body)]() mutable {
        self->send(json_response(req, http::status::ok, std::move(body)), req);
      });
    });
  }

  void keys_api(const Request& req) {
    // A new key is a row in storage; attaching a seat looks a room up, maybe in storage: both
    // are charged to the address before any storage work.
    const auto path = path_of(req.target());
    if (req.method() == http::verb::post && path == "/api/keys") {
      if (const double wait = ctx_.key_buckets.take(client_key(req)); wait > 0) {
        ctx_.metrics.keys_rate_limited.fetch_add(1, std::memory_order_relaxed);
        return send_slowly(rate_limited(req, wait, "new player keys"), req, wait);
      }
    }
    if (req.method() == http::verb::post && path == "/api/keys/seats" && !charge_lookup(req, true)) return;
    serve_keys_api(ctx_, req, invite_base_of(req), [self = shared_from_this(), req](ApiReply r) {
      asio::post(self->stream_.get_executor(), [self, req, r = std::move(r)]() mutable {
        self->send(json_response(req, r.status, std::move(r.body)), req);
      });
    });
  }

  // Sign-in and rated play (docs/community.md): a sign-in's start keeps state in memory and
  // may fetch the provider's discovery document, so it is charged like a lookup.
  void signin_api(const Request& req) {
    if (path_of(req.target()) == "/api/signin/start" && !charge_lookup(req, true)) return;
    serve_signin_api(ctx_, req, invite_base_of(req), [self = shared_from_this(), req](Response res) {
      asio::post(self->stream_.get_executor(), [self, req, res = std::move(res)]() mutable { self->send(std::move(res), req); });
    });
  }

  // A player's page, the leaderboard and a room's rating changes (docs/community.md#ratings):
  // read on the ratings' worker, charged to the address like a room lookup.
  void ratings_api(const Request& req, const Route& r) {
    auto ratings = ctx_.turn_based.ratings;
    if (!ratings) {
      return send(json_response(req, http::status::service_unavailable, R"({"error":"unavailable","message":"ratings are off"})"), req);
    }
    if (r.kind == Route::Kind::RoomRated && !valid_room_id(r.arg)) {
      return send(json_response(req, http::status::not_found, R"({"error":"not_found"})"), req);
    }
    if (!charge_lookup(req, true)) return;
    auto reply = [self = shared_from_this(), req](community::Ratings::Answer a) {
      asio::post(self->stream_.get_executor(), [self, req, a = std::move(a)]() mutable {
        self->send(json_response(req, static_cast<http::status>(a.status), std::move(a.body)), req);
      });
    };
    if (r.kind == Route::Kind::Player) return ratings->player(std::string(r.arg), std::move(reply));
    if (r.kind == Route::Kind::RoomRated) return ratings->room(std::string(r.arg), std::move(reply));
    ratings->leaderboard(std::string(r.arg), std::move(reply));
  }

  void static_file(const Request& req, std::string_view path) {
    auto file = ctx_.files.get(path, req[http::field::if_none_match]);
    if (file.status == 400) spdlog::info("refused static path {}", std::string(req.target()).substr(0, 200));
    Response res{static_cast<http::status>(file.status), req.version()};
    res.set(http::field::server, "carcassonne");
    res.set(http::field::content_type, file.content_type);
    res.set(http::field::cache_control, file.cache_control);
    if (!file.etag.empty()) res.set(http::field::etag, file.etag);
    res.keep_alive(req.keep_alive());
    res.body() = std::move(file.body);
    res.prepare_payload();
    send(std::move(res), req);
  }

  // HEAD gets the headers of GET without the body.
  void send(Response res, const Request& req) {
    if (req.method() == http::verb::head) {
      const auto length = res.body().size();
      res.body().clear();
      res.content_length(length);
      auto sp = std::make_shared<Response>(std::move(res));
      sp->content_length(length);
      return write(std::move(sp));
    }
    send(std::move(res));
  }

  void send(Response res) { write(std::make_shared<Response>(std::move(res))); }

  void write(std::shared_ptr<Response> res) {
    answering_ = true;
    set_security_headers(*res, host_);
    stream_.expires_after(std::chrono::seconds(ctx_.config.limits.http_timeout_s));
    http::async_write(stream_, *res, [self = shared_from_this(), res](beast::error_code ec, std::size_t) {
      if (ec) return self->ctx_.fail(ec, NetOp::HttpWrite, self->where());
      if (!res->keep_alive() || self->ctx_.stopping) return self->shutdown();
      self->do_read();
    });
  }

  void shutdown() {
    beast::error_code ec;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
  }

 public:
  HttpSession(tcp::socket socket, ServerContext& ctx, ConnectionLimiter::Slot slot, Listen listen, IpAddress peer)
      : stream_(std::move(socket)), ctx_(ctx), slot_(std::move(slot)), listen_(listen), peer_(peer) {
    ctx_.metrics.http_connections.fetch_add(1, std::memory_order_relaxed);
  }
  ~HttpSession() { ctx_.metrics.http_connections.fetch_sub(1, std::memory_order_relaxed); }

  void run() { asio::dispatch(stream_.get_executor(), beast::bind_front_handler(&HttpSession::do_read, shared_from_this())); }
};

}  // namespace

void start_http_session(tcp::socket socket, ServerContext& ctx, ConnectionLimiter::Slot slot, Listen listen) {
  beast::error_code ec;
  const auto remote = socket.remote_endpoint(ec);
  const IpAddress peer = ec ? IpAddress{} : peer_address(remote);
  std::make_shared<HttpSession>(std::move(socket), ctx, std::move(slot), listen, peer)->run();
}

}  // namespace carc::server
