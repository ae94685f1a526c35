#include "net/tournaments_api.hpp"

#include <string_view>

#include <nlohmann/json.hpp>

#include "app/turn_based_services.hpp"
#include "carc/protocol/json.hpp"
#include "carc/protocol/messages.hpp"
#include "carc/protocol/record.hpp"
#include "community/services.hpp"
#include "keys/player_id.hpp"
#include "keys/player_keys.hpp"
#include "push/targets.hpp"
#include "room/room.hpp"
#include "tournaments/model.hpp"
#include "tournaments/service.hpp"

namespace carc::server {

namespace {

using nlohmann::json;
namespace t9s = tournaments;
using Reply = std::function<void(Response)>;


std::function<void(TournamentService::Answer)> relay(const Request& req, Reply reply) {
  return [req, reply](TournamentService::Answer a) {
    reply(json_response(req, static_cast<http::status>(a.status), std::move(a.body)));
  };
}


// The asker's public id and whether it is signed in, then `then`; the refusals answered here.
void with_player(ServerContext& ctx, const Request& req, const Reply& reply, std::function<void(std::string, bool)> then) {
  std::string key = bearer_key(req);
  if (!PlayerKeys::well_formed(key)) {
    return reply(error_answer(req, http::status::unauthorized, "unknown_key", "send the player key as \"Authorization: Bearer <key>\""));
  }
  auto keys = ctx.turn_based.keys;
  if (!keys || !ctx.community.tournaments) {
    return reply(error_answer(req, http::status::service_unavailable, "unavailable", "tournaments cannot be used right now"));
  }
  keys->whoami(std::move(key), [req, reply, then = std::move(then)](PlayerKeys::Outcome o, std::string id,
                                                                    std::optional<BoundSubject> who) {
    if (o == PlayerKeys::Outcome::UnknownKey) {
      return reply(error_answer(req, http::status::unauthorized, "unknown_key", "no such player key (it may have been revoked)"));
    }
    if (o != PlayerKeys::Outcome::Ok) {
      return reply(error_answer(req, http::status::service_unavailable, "unavailable", "tournaments cannot be used right now"));
    }
    then(std::move(id), who.has_value());
  });
}

// A body that is exactly {"<field>": "<string>"}; nullopt when it is not.
std::optional<std::string> only_field(const Request& req, const char* field) {
  const json body = json::parse(req.body(), nullptr, false);
  if (!body.is_object() || body.size() != 1 || !body.contains(field) || !body[field].is_string()) return std::nullopt;
  return body[field].get<std::string>();
}

void create(ServerContext& ctx, const Request& req, const TournamentCaller& caller, const Reply& reply) {
  // Checked before any storage work: a bad body changes nothing.
  const json body = json::parse(req.body(), nullptr, false);
  auto parsed = t9s::parse_settings(body, unix_ms(), [](std::string_view id) {
    const json ids = json::array({id});
    return std::holds_alternative<ExpansionSet>(protocol::parse_room_expansions(&ids));
  });
  if (const auto* bad = std::get_if<t9s::SettingsError>(&parsed)) {
    return reply(error_answer(req, http::status::bad_request, bad->code, bad->message));
  }
  auto settings = std::get<t9s::Settings>(std::move(parsed));
  auto service = ctx.community.tournaments;
  const bool signed_in_only = ctx.config.tournament_organisers_signed_in;
  with_player(ctx, req, reply, [service, settings, signed_in_only, req, reply, base = caller.base](std::string id, bool signed_in) {
    if (signed_in_only && !signed_in) {
      return reply(error_answer(req, http::status::forbidden, "signin_required", "on this server only signed-in players organise tournaments"));
    }
    service->create(id, settings, base, relay(req, reply));
  });
}

// Where the asker's notices go (docs/tournaments.md#notifications): {"webhook": {url, format}
// | null, "push": <a PushSubscription's JSON> | null}, each key optional (absent: kept). Checked
// as a room checks the same settings (the address rules of docs/turn-based.md) before any
// storage work: a refused body changes nothing.
void set_targets(ServerContext& ctx, const Request& req, std::string id, const Reply& reply) {
  const json body = json::parse(req.body(), nullptr, false);
  const auto shape = [&] {
    return reply(error_answer(req, http::status::bad_request, "bad_request",
                       "send {\"webhook\": {\"url\", \"format\"} | null, \"push\": <a push subscription> | null}"));
  };
  if (!body.is_object() || body.empty()) return shape();
  for (const auto& [k, v] : body.items()) {
    if (k != "webhook" && k != "push") return shape();
  }
  const bool allow_private = ctx.config.allow_private_hooks;
  // The room's own parsers and address rules, so a tournament refuses what a room refuses.
  using Checked = std::variant<protocol::ClientMessage, std::string>;
  const auto check = [&](const json& message) -> Checked {
    auto parsed = protocol::parse_client_message(protocol::json_text(message));
    if (auto* bad = std::get_if<protocol::MessageError>(&parsed)) return Checked(std::in_place_index<1>, bad->message);
    const auto& msg = std::get<protocol::ClientMessage>(parsed);
    if (auto why = push::refuse_message(msg, allow_private)) return Checked(std::in_place_index<1>, *why);
    return Checked(std::in_place_index<0>, msg);
  };
  TournamentService::HookChange hook;
  TournamentService::PushChange push;
  if (auto w = body.find("webhook"); w != body.end()) {
    auto got = check(json{{"type", "settings"}, {"webhook", *w}});
    if (auto* why = std::get_if<std::string>(&got)) return reply(error_answer(req, http::status::bad_request, "bad_target", *why));
    hook = *std::get<protocol::SettingsMsg>(std::get<protocol::ClientMessage>(got)).webhook;
  }
  if (auto p = body.find("push"); p != body.end()) {
    if (p->is_null()) {
      push = std::optional<PushTarget>();
    } else {
      auto got = check(json{{"type", "push_subscribe"}, {"subscription", *p}});
      if (auto* why = std::get_if<std::string>(&got)) return reply(error_answer(req, http::status::bad_request, "bad_target", *why));
      const auto& sub = std::get<protocol::PushSubscribeMsg>(std::get<protocol::ClientMessage>(got));
      push = std::optional<PushTarget>(PushTarget{sub.endpoint, sub.p256dh, sub.auth});
    }
  }
  auto service = ctx.community.tournaments;
  with_player(ctx, req, reply, [service, id = std::move(id), hook, push, req, reply](std::string player, bool) {
    service->set_targets(id, player, hook, push, relay(req, reply));
  });
}

void act(ServerContext& ctx, const Request& req, std::string id, std::string_view action, const Reply& reply) {
  auto service = ctx.community.tournaments;
  if (action == "register") {
    auto raw = only_field(req, "name");
    if (!raw) return reply(error_answer(req, http::status::bad_request, "bad_request", "send {\"name\": \"<your name>\"}"));
    auto name = protocol::clean_name(*raw);
    if (!name) {
      return reply(error_answer(req, http::status::bad_request, "bad_name", "a name has 1 to 24 characters, valid UTF-8 and no control characters"));
    }
    return with_player(ctx, req, reply, [service, id, name = *name, req, reply](std::string player, bool signed_in) {
      service->enter(id, player, name, signed_in, relay(req, reply));
    });
  }
  if (action == "bots") {
    auto level = only_field(req, "level");
    if (!level || !protocol::bot_level_from_name(*level)) {
      return reply(error_answer(req, http::status::bad_request, "bad_request", "send {\"level\": \"easy\" | \"medium\" | \"hard\"}"));
    }
    return with_player(ctx, req, reply, [service, id, level = *level, req, reply](std::string asker, bool) {
      service->add_bot(id, asker, level, relay(req, reply));
    });
  }
  if (action == "remove" || action == "drop") {
    auto player = only_field(req, "player");
    if (!player || (!player_id_well_formed(*player) && t9s::bot_level(*player).empty())) {
      return reply(error_answer(req, http::status::bad_request, "bad_request", "send {\"player\": \"<public player id or computer entrant>\"}"));
    }
    const bool remove = action == "remove";
    return with_player(ctx, req, reply, [service, id, remove, player = *player, req, reply](std::string asker, bool) {
      if (remove) return service->remove(id, asker, player, relay(req, reply));
      service->drop(id, asker, player, relay(req, reply));
    });
  }
  if (action == "start") {
    return with_player(ctx, req, reply, [service, id, req, reply](std::string asker, bool) {
      service->start(id, asker, relay(req, reply));
    });
  }
  reply(error_answer(req, http::status::not_found, "not_found", "no such API"));
}

}  // namespace

void serve_tournaments_api(ServerContext& ctx, const Request& req, TournamentCaller caller, Reply reply) {
  const std::string_view path = path_of(std::string_view(req.target().data(), req.target().size()));
  const bool get = req.method() == http::verb::get || req.method() == http::verb::head;
  const bool post = req.method() == http::verb::post;
  // Every request reads or writes stored rows: the address's lookup budget first.
  if (const double wait = ctx.lookup_buckets.take(caller.address); wait > 0) {
    ctx.metrics.lookups_rate_limited.fetch_add(1, std::memory_order_relaxed);
    return reply(rate_limited(req, wait, "lookups"));
  }
  auto service = ctx.community.tournaments;
  if (!service) return reply(error_answer(req, http::status::service_unavailable, "unavailable", "tournaments cannot be used right now"));
  if (path == "/api/tournaments") {
    if (get) return service->list(relay(req, reply));
    if (post) return create(ctx, req, caller, reply);
    return reply(method_not_allowed(req, "GET, HEAD, POST"));
  }
  std::string_view rest = path.substr(std::string_view("/api/tournaments/").size());
  const auto slash = rest.find('/');
  const std::string id(rest.substr(0, slash));
  const std::string_view action = slash == std::string_view::npos ? std::string_view() : rest.substr(slash + 1);
  if (id.empty() || id.size() > 64 || !valid_room_id(id)) {
    return reply(error_answer(req, http::status::not_found, "not_found", "no such tournament"));
  }
  if (action.empty()) {
    if (!get) return reply(method_not_allowed(req, "GET, HEAD"));
    return service->get(id, relay(req, reply));
  }
  if (action == "seats") {
    if (!get) return reply(method_not_allowed(req, "GET, HEAD"));
    return with_player(ctx, req, reply, [service, id, req, reply](std::string player, bool) {
      service->seats(id, player, relay(req, reply));
    });
  }
  if (action == "notify") {
    if (get) {
      return with_player(ctx, req, reply, [service, id, req, reply](std::string player, bool) {
        service->targets(id, player, relay(req, reply));
      });
    }
    if (!post) return reply(method_not_allowed(req, "GET, HEAD, POST"));
    return set_targets(ctx, req, id, reply);
  }
  if (!post) return reply(method_not_allowed(req, "POST"));
  act(ctx, req, id, action, reply);
}

}  // namespace carc::server
