// The messages of a notice (docs/turn-based.md): the webhook's request in its
// format, and the push payload, encrypted for its subscription with a VAPID signature.
#include <nlohmann/json.hpp>

#include "carc/protocol/json.hpp"
#include "push/notifier.hpp"
#include "room/room.hpp"  // unix_ms
#include "push/targets.hpp"

namespace carc::server {

namespace {

using nlohmann::json;

std::string link(const Notice& n, const std::string& base) { return base + "/r/" + n.room; }

std::string text_of(const Notice& n, const std::string& url) {
  switch (n.event) {
    case Notice::Event::YourTurn: return "Your turn in Carcassonne, " + n.name + ": " + url;
    case Notice::Event::GameOver: return "The Carcassonne game is over: " + url;
    case Notice::Event::NewTable:
      return "Round " + std::to_string(n.round) + " of " + n.tournament_name + ": your table is ready, " + n.name + ": " + url;
  }
  return url;
}

const char* title_of(const Notice& n) {
  switch (n.event) {
    case Notice::Event::YourTurn: return "Your turn in Carcassonne";
    case Notice::Event::GameOver: return "Carcassonne: game over";
    case Notice::Event::NewTable: return "Carcassonne tournament: new round";
  }
  return "Carcassonne";
}

json body_of(const Notice& n, const std::string& base) {
  json j{{"id", n.id},
         {"event", notice_event_name(n.event)},
         {"room", n.room},
         {"seat", n.seat ? json(*n.seat) : json(nullptr)},
         {"name", n.seat ? json(n.name) : json(nullptr)},
         {"url", link(n, base)}};
  if (n.event == Notice::Event::NewTable) {
    j["tournament"] = {{"id", n.tournament}, {"name", n.tournament_name}, {"round", n.round}, {"url", base + "/t/" + n.tournament}};
  }
  return j;
}

}  // namespace

push::OutRequest Notifier::webhook_request(const Notice& n, const std::string& base) {
  push::OutRequest r;
  r.url = n.hook->url;
  const std::string url = link(n, base);
  r.headers.emplace_back("X-Carcassonne-Id", n.id);  // duplicates carry the same id
  switch (n.hook->format) {
    case protocol::HookFormat::Json:
      r.headers.emplace_back("Content-Type", "application/json");
      r.body = protocol::json_text(body_of(n, base));
      break;
    case protocol::HookFormat::Discord:
      r.headers.emplace_back("Content-Type", "application/json");
      r.body = protocol::json_text(json{{"content", text_of(n, url)}});
      break;
    case protocol::HookFormat::Ntfy:
      r.headers.emplace_back("Content-Type", "text/plain; charset=utf-8");
      r.headers.emplace_back("Title", title_of(n));
      r.headers.emplace_back("Click", url);
      r.body = text_of(n, url);
      break;
  }
  return r;
}

std::string Notifier::push_payload(const Notice& n, const std::string& base) {
  json j = body_of(n, base);
  j["title"] = title_of(n);
  j["body"] = text_of(n, link(n, base));
  return protocol::json_text(j);
}

std::optional<push::OutRequest> Notifier::push_request(const Notice& n) const {
  const auto url = push::parse_url(n.push->endpoint);
  const auto key = push::b64url_decode(n.push->p256dh);
  const auto auth = push::b64url_decode(n.push->auth);
  if (!url || !key || !auth) return std::nullopt;
  auto body = push::encrypt(*key, *auth, push_payload(n, options_.base_url));
  if (!body) return std::nullopt;
  push::OutRequest r;
  r.url = n.push->endpoint;
  const auto exp = unix_ms() / 1000 + 12 * 3600;
  r.headers.emplace_back("Authorization", vapid_->authorization(url->origin, exp, options_.subject));
  r.headers.emplace_back("Content-Encoding", "aes128gcm");
  r.headers.emplace_back("Content-Type", "application/octet-stream");
  r.headers.emplace_back("TTL", "86400");
  r.headers.emplace_back("Urgency", "high");
  r.body = std::move(*body);
  return r;
}

}  // namespace carc::server
