#include "net/keys_api.hpp"

#include <boost/asio/post.hpp>
#include <nlohmann/json.hpp>

#include "carc/protocol/json.hpp"
#include <spdlog/spdlog.h>

#include "push/notifier.hpp"
#include "base/random.hpp"
#include "keys/player_keys.hpp"
#include "keys/qr_svg.hpp"

namespace carc::server {

namespace {

using nlohmann::json;

ApiReply error(http::status s, std::string_view code, std::string_view message) {
  return {s, protocol::json_text(json{{"error", code}, {"message", message}})};
}

ApiReply outcome_error(PlayerKeys::Outcome o) {
  if (o == PlayerKeys::Outcome::UnknownKey) return error(http::status::unauthorized, "unknown_key", "no such player key (it may have been revoked)");
  return error(http::status::service_unavailable, "unavailable", "player keys cannot be used right now; try again");
}


void attach_seat(ServerContext& ctx, std::string key, const json& body, std::function<void(ApiReply)> reply) {
  const auto room = body.find("room");
  const auto token = body.find("token");
  if (!body.is_object() || room == body.end() || !room->is_string() || token == body.end() || !token->is_string()) {
    return reply(error(http::status::bad_request, "bad_request", "send {\"room\": \"<id>\", \"token\": \"<seat token>\"}"));
  }
  auto keys = ctx.turn_based.keys;
  const RatedPlay rated = ctx.config.rated_play;
  std::string id = room->get<std::string>();
  std::string tok = token->get<std::string>();
  ctx.rooms.find(id, [keys, rated, key = std::move(key), id, tok = std::move(tok), reply](std::shared_ptr<Room> r) mutable {
    if (!r) return reply(error(http::status::not_found, "not_found", "no such room"));
    boost::asio::post(r->strand(), [keys, rated, r, key = std::move(key), id, tok = std::move(tok), reply]() mutable {
      const auto seat = r->seat_of_token(tok);
      if (!seat) return reply(error(http::status::forbidden, "bad_token", "that token holds no seat of this room"));
      // The seat's player for the ratings (docs/community.md#ratings): the player the key
      // plays as (its own public id, or the signed-in player it is an alias of), bound on the
      // room's strand (the token finds the seat again) when the host's rated-play mode lets
      // that player play rated; a seat left unbound keeps its game unrated.
      keys->attach(key, PlayerKeys::Seat{id, *seat, tok}, [keys, key, reply, id, seat, r, tok, mode = rated](PlayerKeys::Outcome o) mutable {
        if (o != PlayerKeys::Outcome::Ok) return reply(outcome_error(o));
        keys->player_id(std::move(key), [keys, reply, id, seat, r, tok, mode](PlayerKeys::Outcome o2, std::string player) {
          if (o2 != PlayerKeys::Outcome::Ok) return reply(outcome_error(o2));
          keys->rated_allowed(player, mode, [reply, id, seat, r, tok, player](bool allowed) {
            auto ok = [reply, id, seat, player](bool counts) {
              reply({http::status::ok, protocol::json_text(json{{"room", id}, {"seat", *seat}, {"player", player}, {"rated", counts}})});
            };
            if (!allowed) return ok(false);
            // Answered once the room took the binding: a room that left this node meanwhile
            // (a cluster's handoff) bound nothing, and the browser shows the seat again. A
            // never rated room (an unrated tournament's table) binds nothing either: not rated.
            boost::asio::post(r->strand(), [r, tok, player, reply, ok] {
              if (r->never_rated()) return ok(false);
              if (r->bind_player(tok, player)) return ok(true);
              reply(error(http::status::service_unavailable, "unavailable", "the room moved to another node meanwhile: show the seat again"));
            });
          });
        });
      });
    });
  });
}

}  // namespace

void serve_keys_api(ServerContext& ctx, const http::request<http::string_body>& req, std::string base,
                    std::function<void(ApiReply)> reply) {
  const std::string path(path_of(req.target()));
  const bool post = req.method() == http::verb::post;
  const bool get = req.method() == http::verb::get || req.method() == http::verb::head;
  if (path == "/api/push/key" && get) {
    if (!ctx.turn_based.notifier) return reply(error(http::status::service_unavailable, "unavailable", "Web Push is off"));
    return reply({http::status::ok, protocol::json_text(json{{"public_key", ctx.turn_based.notifier->vapid().public_key()}})});
  }
  if (!path.starts_with("/api/keys")) return reply(error(http::status::not_found, "not_found", "no such API"));
  auto keys = ctx.turn_based.keys;
  if (!keys) return reply(outcome_error(PlayerKeys::Outcome::Unavailable));
  if (path == "/api/keys") {
    if (!post) return reply(error(http::status::method_not_allowed, "method_not_allowed", "POST /api/keys makes a key"));
    return keys->create([reply](PlayerKeys::Outcome o, std::string key) {
      if (o != PlayerKeys::Outcome::Ok) return reply(outcome_error(o));
      reply({http::status::created, protocol::json_text(json{{"key", key}})});
    });
  }
  std::string key = bearer_key(req);
  if (!PlayerKeys::well_formed(key)) {
    return reply(error(http::status::unauthorized, "unknown_key", "send the player key as \"Authorization: Bearer <key>\""));
  }
  if (path == "/api/keys/seats" && post) {
    const json body = json::parse(req.body(), nullptr, false);
    return attach_seat(ctx, std::move(key), body, std::move(reply));
  }
  if (path == "/api/keys/games" && get) {
    return keys->list(std::move(key), [reply](PlayerKeys::Outcome o, std::vector<PlayerKeys::Seat> seats) {
      if (o != PlayerKeys::Outcome::Ok) return reply(outcome_error(o));
      json games = json::array();
      for (const auto& s : seats) games.push_back({{"room", s.room}, {"seat", s.seat}, {"token", s.token}});
      reply({http::status::ok, protocol::json_text(json{{"games", std::move(games)}})});
    });
  }
  if (path == "/api/keys/revoke" && post) {
    return keys->revoke(std::move(key), [reply](PlayerKeys::Outcome o) {
      if (o != PlayerKeys::Outcome::Ok) return reply(outcome_error(o));
      reply({http::status::ok, R"({"revoked":true})"});
    });
  }
  if (path == "/api/keys/transfer" && post) {
    // The key rides in the fragment, which browsers never send to a server.
    const std::string link = base + "/#key=" + key;
    return keys->list(key, [reply, link](PlayerKeys::Outcome o, const std::vector<PlayerKeys::Seat>&) {
      if (o != PlayerKeys::Outcome::Ok) return reply(outcome_error(o));
      const auto svg = qr_svg(link);
      if (!svg) return reply(error(http::status::internal_server_error, "qr_failed", "the QR code could not be drawn"));
      reply({http::status::ok, protocol::json_text(json{{"link", link}, {"svg", *svg}})});
    });
  }
  reply(error(http::status::not_found, "not_found", "no such API"));
}

}  // namespace carc::server
