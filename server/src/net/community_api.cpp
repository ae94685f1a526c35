#include "net/community_api.hpp"

#include <cstdio>
#include <string_view>

#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include "carc/protocol/json.hpp"
#include "carc/protocol/record.hpp"
#include "app/turn_based_services.hpp"
#include "community/open_games.hpp"
#include "community/player_names.hpp"
#include "community/ratings.hpp"
#include "keys/player_id.hpp"
#include "keys/player_keys.hpp"
#include "room/room.hpp"

namespace carc::server {

namespace {

using nlohmann::json;

// A strong ETag of the body: the start page polls with If-None-Match and gets 304 while
// the list stays the same.
std::string etag_of(std::string_view body) {
  std::uint64_t h = 1469598103934665603ULL;  // FNV-1a
  for (unsigned char c : body) h = (h ^ c) * 1099511628211ULL;
  char buf[24];
  std::snprintf(buf, sizeof buf, "\"%016llx\"", static_cast<unsigned long long>(h));
  return buf;
}

void open_games(ServerContext& ctx, const Request& req, const std::function<void(Response)>& reply) {
  std::string body = OpenGames::json(ctx.open_games.list());
  const std::string etag = etag_of(body);
  const auto asked = req[http::field::if_none_match];
  const bool same = std::string_view(asked.data(), asked.size()) == etag;
  Response res = same ? make_response(http::status::not_modified, "", req.version(), req.keep_alive(), "application/json")
                      : json_response(req, http::status::ok, std::move(body));
  res.set(http::field::etag, etag);
  res.set(http::field::cache_control, "no-cache");
  if (same) res.body().clear();
  reply(std::move(res));
}

// {"expansions": [...], "pace": "live" | "turn_based"}, both optional.
std::variant<OpenGames::Wish, std::string> parse_wish(const std::string& text) {
  OpenGames::Wish wish;
  if (text.empty()) return wish;
  const json body = json::parse(text, nullptr, false);
  if (!body.is_object()) return std::string("the body must be a JSON object");
  for (const auto& [key, value] : body.items()) {
    if (key != "expansions" && key != "pace") return "unknown key \"" + key.substr(0, 32) + "\"";
  }
  const json* ids = nullptr;
  if (const auto it = body.find("expansions"); it != body.end()) ids = &*it;
  auto set = protocol::parse_room_expansions(ids);
  if (const auto* why = std::get_if<std::string>(&set)) return *why;
  wish.expansions = std::get<ExpansionSet>(set);
  if (const auto it = body.find("pace"); it != body.end()) {
    const std::string pace = it->is_string() ? it->get<std::string>() : std::string();
    if (pace == protocol::pace_name(protocol::Pace::Live)) wish.pace = protocol::Pace::Live;
    else if (pace == protocol::pace_name(protocol::Pace::TurnBased)) wish.pace = protocol::Pace::TurnBased;
    else return std::string("pace: \"live\" or \"turn_based\"");
  }
  return wish;
}

void quick_play_as(ServerContext& ctx, const Request& req, const CommunityCaller& caller,
                   const std::function<void(Response)>& reply, const OpenGames::Wish& wish) {
  if (auto game = OpenGames::best(ctx.open_games.list(), wish)) {
    json body{{"room", game->room}, {"invite_url", caller.base + "/r/" + game->room}, {"created", false}};
    return reply(json_response(req, http::status::ok, protocol::json_text(body)));
  }
  // None fits: a new lobby, which the asking player opens as its host once seated.
  const auto& games = ctx.open_games;
  if (games.opened_by(caller.address) >= games.per_address()) {
    return reply(error_answer(req, http::status::too_many_requests, "limit_reached",
                       "your address has " + std::to_string(games.per_address()) +
                           " open games already: start or close one first"));
  }
  if (const double wait = ctx.room_buckets.take(caller.address); wait > 0) {
    ctx.metrics.rooms_rate_limited.fetch_add(1, std::memory_order_relaxed);
    return reply(rate_limited(req, wait, "new games"));
  }
  std::vector<RoomAction> actions{SettingsChanged{std::nullopt, protocol::kDefaultAwaySeconds, wish.expansions, wish.pace}};
  ctx.rooms.create_rematch(std::move(actions), [req, base = caller.base, reply](std::string id) {
    if (id.empty()) {
      return reply(error_answer(req, http::status::service_unavailable, "unavailable", "no room can be created right now"));
    }
    json body{{"room", id}, {"invite_url", base + "/r/" + id}, {"created", true}};
    reply(json_response(req, http::status::created, protocol::json_text(body)));
  });
}

// The asker's rating, when its key comes along and it has one, joins the wish (docs/community.md):
// quick play then prefers the open game whose host is rated closest.
void quick_play(ServerContext& ctx, const Request& req, const CommunityCaller& caller,
                const std::function<void(Response)>& reply) {
  auto parsed = parse_wish(req.body());
  if (const auto* why = std::get_if<std::string>(&parsed)) return reply(error_answer(req, http::status::bad_request, "bad_request", *why));
  const auto wish = std::get<OpenGames::Wish>(parsed);
  std::string key = bearer_key(req);
  auto keys = ctx.turn_based.keys;
  auto ratings = ctx.turn_based.ratings;
  if (!PlayerKeys::well_formed(key) || !keys || !ratings) return quick_play_as(ctx, req, caller, reply, wish);
  // Reading the key and the rating asks storage: it spends the address's lookup budget, and
  // past it the asker plays as a newcomer rather than being refused.
  if (ctx.lookup_buckets.take(caller.address) > 0) return quick_play_as(ctx, req, caller, reply, wish);
  keys->player_id(std::move(key), [&ctx, req, caller, reply, wish, ratings](PlayerKeys::Outcome o, std::string id) {
    if (o != PlayerKeys::Outcome::Ok) return quick_play_as(ctx, req, caller, reply, wish);  // played as a newcomer
    const std::string pace = wish.pace == protocol::Pace::TurnBased ? "turn-based" : "live";
    ratings->current(std::move(id), pace, [&ctx, req, caller, reply, wish](std::optional<double> rating) {
      OpenGames::Wish rated = wish;
      rated.rating = rating;
      quick_play_as(ctx, req, caller, reply, rated);
    });
  });
}

// ---- names (docs/community.md, "Names") ----

json names_json(const std::vector<NameEntry>& names) {
  json list = json::array();
  for (const auto& n : names) list.push_back({{"name", n.name}, {"since", n.since_ms}});
  return list;
}

// {"player", "name": current or null, "names": history, "next_change": ms (0: now)}
std::string profile_json(const std::string& player, const PlayerNames::Answer& a) {
  return protocol::json_text(json{{"player", player},
                                  {"name", a.names.empty() ? json(nullptr) : json(a.names.front().name)},
                                  {"names", names_json(a.names)},
                                  {"next_change", a.next_change_ms}});
}

Response unavailable(const Request& req) {
  return error_answer(req, http::status::service_unavailable, "unavailable", "names cannot be used right now; try again");
}

// The key's public id, then `then(id)`; the refusals answered here.
void with_player(ServerContext& ctx, const Request& req, const std::function<void(Response)>& reply,
                 std::function<void(std::string)> then) {
  std::string key = bearer_key(req);
  if (!PlayerKeys::well_formed(key)) {
    return reply(error_answer(req, http::status::unauthorized, "unknown_key", "send the player key as \"Authorization: Bearer <key>\""));
  }
  auto keys = ctx.turn_based.keys;
  if (!keys || !ctx.community.names) return reply(unavailable(req));
  keys->player_id(std::move(key), [req, reply, then = std::move(then)](PlayerKeys::Outcome o, std::string id) {
    if (o == PlayerKeys::Outcome::UnknownKey) {
      return reply(error_answer(req, http::status::unauthorized, "unknown_key", "no such player key (it may have been revoked)"));
    }
    if (o != PlayerKeys::Outcome::Ok) return reply(unavailable(req));
    then(std::move(id));
  });
}

void set_name(ServerContext& ctx, const Request& req, const std::function<void(Response)>& reply) {
  // Checked before any storage work: a bad body changes nothing and costs no lookup.
  const json body = json::parse(req.body(), nullptr, false);
  const auto raw = body.is_object() ? body.find("name") : body.end();
  if (!body.is_object() || raw == body.end() || !raw->is_string() || body.size() != 1) {
    return reply(error_answer(req, http::status::bad_request, "bad_request", "send {\"name\": \"<your name>\"}"));
  }
  auto name = protocol::clean_name(raw->get<std::string>());
  if (!name) {
    return reply(error_answer(req, http::status::bad_request, "bad_name",
                       "a name has 1 to 24 characters, valid UTF-8 and no control characters"));
  }
  auto names = ctx.community.names;
  with_player(ctx, req, reply, [names, req, reply, name = std::move(*name)](std::string id) mutable {
    names->set(id, std::move(name), unix_ms(), [id, req, reply](PlayerNames::Answer a) {
      using O = PlayerNames::Outcome;
      if (a.outcome == O::Unavailable) return reply(unavailable(req));
      if (a.outcome == O::TooSoon) {
        return reply(json_response(req, http::status::too_many_requests,
                                   protocol::json_text(json{{"error", "too_soon"},
                                                            {"message", "a name may change once a day"},
                                                            {"next_change", a.next_change_ms}})));
      }
      reply(json_response(req, http::status::ok, profile_json(id, a)));
    });
  });
}

void my_name(ServerContext& ctx, const Request& req, const std::function<void(Response)>& reply) {
  auto names = ctx.community.names;
  with_player(ctx, req, reply, [names, req, reply](std::string id) {
    names->history(id, [id, req, reply](PlayerNames::Answer a) {
      if (a.outcome != PlayerNames::Outcome::Ok) return reply(unavailable(req));
      reply(json_response(req, http::status::ok, profile_json(id, a)));
    });
  });
}

void player_names(ServerContext& ctx, const Request& req, std::string_view id, const std::function<void(Response)>& reply) {
  if (!player_id_well_formed(id)) {
    return reply(error_answer(req, http::status::bad_request, "bad_request", "a player id has 16 base64url characters"));
  }
  auto names = ctx.community.names;
  if (!names) return reply(unavailable(req));
  names->history(std::string(id), [id = std::string(id), req, reply](PlayerNames::Answer a) {
    if (a.outcome != PlayerNames::Outcome::Ok) return reply(unavailable(req));
    reply(json_response(req, http::status::ok,
                        protocol::json_text(json{{"player", id},
                                                 {"name", a.names.empty() ? json(nullptr) : json(a.names.front().name)},
                                                 {"names", names_json(a.names)}})));
  });
}

}  // namespace

void serve_community_api(ServerContext& ctx, const Request& req, CommunityCaller caller,
                         std::function<void(Response)> reply) {
  const std::string_view path = path_of(std::string_view(req.target().data(), req.target().size()));
  const bool get = req.method() == http::verb::get || req.method() == http::verb::head;
  const bool post = req.method() == http::verb::post;
  if (path == "/api/open-games") {
    if (!get) return reply(method_not_allowed(req, "GET, HEAD"));
    return open_games(ctx, req, reply);
  }
  if (path == "/api/quick-play") {
    if (!post) return reply(method_not_allowed(req, "POST"));
    return quick_play(ctx, req, caller, reply);
  }
  // Names read or change stored rows: they spend the address's lookup budget first.
  if (const double wait = ctx.lookup_buckets.take(caller.address); wait > 0) {
    ctx.metrics.lookups_rate_limited.fetch_add(1, std::memory_order_relaxed);
    return reply(rate_limited(req, wait, "lookups"));
  }
  if (path == "/api/me/name") {
    if (req.method() == http::verb::put) return set_name(ctx, req, reply);
    if (get) return my_name(ctx, req, reply);
    return reply(method_not_allowed(req, "GET, HEAD, PUT"));
  }
  if (path.starts_with("/api/players/") && path.ends_with("/names")) {
    if (!get) return reply(method_not_allowed(req, "GET, HEAD"));
    return player_names(ctx, req, path.substr(13, path.size() - 13 - 6), reply);
  }
  reply(error_answer(req, http::status::not_found, "not_found", "no such API"));
}

}  // namespace carc::server
