#include "net/signin_api.hpp"

#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include "base/random.hpp"
#include "carc/protocol/json.hpp"
#include "community/oidc.hpp"
#include "community/oidc_text.hpp"
#include "keys/player_keys.hpp"

namespace carc::server {

namespace {

using nlohmann::json;

constexpr std::string_view kCookie = "carc_signin";


Response outcome_error(const Request& req, PlayerKeys::Outcome o) {
  if (o == PlayerKeys::Outcome::UnknownKey) return error_answer(req, http::status::unauthorized, "unknown_key", "no such player key (it may have been revoked)");
  return error_answer(req, http::status::service_unavailable, "unavailable", "players cannot be looked up right now; try again");
}


// The browser goes back to the start page; a refusal names its code there.
Response back_home(const Request& req, const std::string& base, std::string_view error_code) {
  Response res = make_response(http::status::see_other, "", req.version(), req.keep_alive());
  std::string to = base + "/?signin=" + (error_code.empty() ? std::string("ok") : "error&signin_error=" + std::string(error_code));
  res.set(http::field::location, to);
  res.set(http::field::cache_control, "no-store");
  // The browser's tie to the sign-in is used: gone.
  res.set(http::field::set_cookie, std::string(kCookie) + "=; Path=/api/signin; Max-Age=0; HttpOnly; SameSite=Lax");
  return res;
}

void me(ServerContext& ctx, const Request& req, std::function<void(Response)> reply) {
  json provider = ctx.turn_based.oidc ? json{{"issuer", ctx.turn_based.oidc->issuer()}} : json(nullptr);
  const RatedPlay rated = ctx.config.rated_play;
  json out{{"signin", provider}, {"player_id", nullptr}, {"signed_in", false}, {"name", nullptr},
           {"rated_play", std::string(to_string(rated))}, {"rated_allowed", rated == RatedPlay::Open}};
  std::string key = bearer_key(req);
  auto keys = ctx.turn_based.keys;
  if (key.empty() || !keys) return reply(json_response(req, http::status::ok, protocol::json_text(out)));
  keys->whoami(std::move(key), [req, reply, keys, rated, out = std::move(out)](PlayerKeys::Outcome o, std::string id,
                                                                             std::optional<BoundSubject> who) mutable {
    if (o != PlayerKeys::Outcome::Ok) return reply(outcome_error(req, o));
    out["player_id"] = id;
    out["signed_in"] = who.has_value();
    if (who && !who->name.empty()) out["name"] = who->name;
    keys->rated_allowed(id, rated, [req, reply, out = std::move(out)](bool allowed) mutable {
      out["rated_allowed"] = allowed;
      reply(json_response(req, http::status::ok, protocol::json_text(out)));
    });
  });
}

void start(ServerContext& ctx, const Request& req, const std::string& base, std::function<void(Response)> reply) {
  auto oidc = ctx.turn_based.oidc;
  auto keys = ctx.turn_based.keys;
  if (!oidc || !keys) return reply(error_answer(req, http::status::not_found, "signin_off", "this server has no sign-in provider"));
  std::string key = bearer_key(req);
  if (!PlayerKeys::well_formed(key)) {
    return reply(error_answer(req, http::status::unauthorized, "unknown_key", "send the player key as \"Authorization: Bearer <key>\""));
  }
  const bool secure = base.starts_with("https://");
  keys->key_hash(std::move(key), [req, reply, oidc, base, secure](PlayerKeys::Outcome o, std::string hash) {
    if (o != PlayerKeys::Outcome::Ok) return reply(outcome_error(req, o));
    oidc->begin(std::move(hash), base + "/api/signin/callback", [req, reply, secure](OidcClient::Started s) {
      if (!s.error.empty()) return reply(error_answer(req, http::status::bad_gateway, s.error, s.message));
      Response res = json_response(req, http::status::ok, protocol::json_text(json{{"url", s.url}}));
      res.set(http::field::cache_control, "no-store");
      res.set(http::field::set_cookie, std::string(kCookie) + "=" + s.browser + "; Path=/api/signin; Max-Age=600; HttpOnly; SameSite=Lax" +
                                           (secure ? "; Secure" : ""));
      reply(std::move(res));
    });
  });
}

void callback(ServerContext& ctx, const Request& req, const std::string& base, std::function<void(Response)> reply) {
  auto oidc = ctx.turn_based.oidc;
  auto keys = ctx.turn_based.keys;
  if (!oidc || !keys) return reply(error_answer(req, http::status::not_found, "signin_off", "this server has no sign-in provider"));
  const std::string_view target(req.target().data(), req.target().size());
  OidcClient::Callback cb{query_param(target, "state"), query_param(target, "code"), query_param(target, "iss"),
                          query_param(target, "error"), cookie_value(req[http::field::cookie], kCookie)};
  oidc->finish(std::move(cb), [req, reply, keys, base](OidcClient::Finished f) {
    if (!f.error.empty()) return reply(back_home(req, base, f.error));
    BoundSubject who{f.claims.issuer, f.claims.subject, f.claims.name};
    keys->bind(f.key_hash, std::move(who), [req, reply, base](PlayerKeys::Outcome o, const std::string& id) {
      if (o != PlayerKeys::Outcome::Ok) return reply(back_home(req, base, o == PlayerKeys::Outcome::UnknownKey ? "unknown_key" : "unavailable"));
      spdlog::info("sign-in: player {} signed in", id);
      reply(back_home(req, base, {}));
    });
  });
}

void make_invite(ServerContext& ctx, const Request& req, std::function<void(Response)> reply) {
  const std::string& token = ctx.config.admin_token;
  if (token.empty()) return reply(error_answer(req, http::status::not_found, "invites_off", "this server has no admin token (--admin-token-file)"));
  if (!constant_time_equal(bearer_key(req), token)) {
    return reply(error_answer(req, http::status::unauthorized, "not_admin", "send the admin token as \"Authorization: Bearer <token>\""));
  }
  auto keys = ctx.turn_based.keys;
  if (!keys) return reply(outcome_error(req, PlayerKeys::Outcome::Unavailable));
  keys->make_invite([req, reply](PlayerKeys::Outcome o, std::string code) {
    if (o != PlayerKeys::Outcome::Ok) return reply(outcome_error(req, o));
    reply(json_response(req, http::status::created, protocol::json_text(json{{"code", code}})));
  });
}

void redeem(ServerContext& ctx, const Request& req, std::function<void(Response)> reply) {
  auto keys = ctx.turn_based.keys;
  if (!keys) return reply(outcome_error(req, PlayerKeys::Outcome::Unavailable));
  std::string key = bearer_key(req);
  if (!PlayerKeys::well_formed(key)) {
    return reply(error_answer(req, http::status::unauthorized, "unknown_key", "send the player key as \"Authorization: Bearer <key>\""));
  }
  const json body = json::parse(req.body(), nullptr, false);
  if (!body.is_object() || !body.contains("code") || !body["code"].is_string()) {
    return reply(error_answer(req, http::status::bad_request, "bad_request", "send {\"code\": \"<invite code>\"}"));
  }
  keys->redeem_invite(std::move(key), body["code"].get<std::string>(), [req, reply](PlayerKeys::Outcome o, bool redeemed) {
    if (o != PlayerKeys::Outcome::Ok) return reply(outcome_error(req, o));
    if (!redeemed) return reply(error_answer(req, http::status::not_found, "unknown_invite", "no such invite code, or it was used by another player"));
    reply(json_response(req, http::status::ok, R"({"redeemed":true})"));
  });
}

}  // namespace

void serve_signin_api(ServerContext& ctx, const Request& req, std::string base, std::function<void(Response)> reply) {
  const std::string_view path = path_of(std::string_view(req.target().data(), req.target().size()));
  const bool post = req.method() == http::verb::post;
  const bool get = req.method() == http::verb::get || req.method() == http::verb::head;
  if (path == "/api/me" && get) return me(ctx, req, std::move(reply));
  if (path == "/api/signin/start" && post) return start(ctx, req, base, std::move(reply));
  if (path == "/api/signin/callback" && get) return callback(ctx, req, base, std::move(reply));
  if (path == "/api/invites" && post) return make_invite(ctx, req, std::move(reply));
  if (path == "/api/invites/redeem" && post) return redeem(ctx, req, std::move(reply));
  reply(error_answer(req, http::status::not_found, "not_found", "no such API"));
}

}  // namespace carc::server
