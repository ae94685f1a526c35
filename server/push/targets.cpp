#include "push/targets.hpp"

#include "push/special_addresses.hpp"
#include "push/webpush.hpp"

namespace carc::server::push {

std::optional<Url> parse_url(std::string_view url) {
  if (protocol::check_url(url, 4096)) return std::nullopt;
  Url u;
  u.https = url.starts_with("https://");
  std::string_view rest = url.substr(u.https ? 8 : 7);
  const auto slash = rest.find_first_of("/?#");
  std::string_view hostport = rest.substr(0, slash);
  std::string_view target = slash == std::string_view::npos ? std::string_view("/") : rest.substr(slash);
  if (const auto hash = target.find('#'); hash != std::string_view::npos) target = target.substr(0, hash);
  u.target = target.empty() || target.front() != '/' ? "/" + std::string(target) : std::string(target);
  if (hostport.starts_with('[')) {
    const auto close = hostport.find(']');
    if (close == std::string_view::npos) return std::nullopt;
    u.host = std::string(hostport.substr(1, close - 1));
    std::string_view after = hostport.substr(close + 1);
    if (!after.empty() && after.front() != ':') return std::nullopt;
    u.port = after.empty() ? "" : std::string(after.substr(1));
  } else {
    const auto colon = hostport.rfind(':');
    u.host = std::string(hostport.substr(0, colon));
    u.port = colon == std::string_view::npos ? "" : std::string(hostport.substr(colon + 1));
  }
  if (u.host.empty()) return std::nullopt;
  for (char c : u.port) {
    if (c < '0' || c > '9') return std::nullopt;
  }
  u.origin = std::string(u.https ? "https://" : "http://") + std::string(hostport);
  if (u.port.empty()) u.port = u.https ? "443" : "80";
  return u;
}

std::optional<std::string> refuse_target(std::string_view url, bool allow_private) {
  const auto u = parse_url(url);
  if (!u) return std::string("is not a URL the server can call");
  if (allow_private) return std::nullopt;
  if (!u->https) return std::string("must use https");
  std::string host = u->host;
  for (auto& c : host) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::string_view name = host;
  if (name.ends_with('.')) name.remove_suffix(1);  // "localhost." is localhost too
  if (name == "localhost" || name.ends_with(".localhost")) return std::string("may not name this server's own network");
  return refuse_host(host, u->origin.find('[') != std::string::npos);
}

std::optional<std::string> refuse_message(const protocol::ClientMessage& msg, bool allow_private) {
  if (const auto* s = std::get_if<protocol::SettingsMsg>(&msg); s != nullptr && s->webhook && *s->webhook) {
    if (auto why = refuse_target((*s->webhook)->url, allow_private)) return "settings: the webhook URL " + *why;
  }
  if (const auto* p = std::get_if<protocol::PushSubscribeMsg>(&msg)) {
    if (auto why = refuse_target(p->endpoint, allow_private)) return "push_subscribe: the endpoint " + *why;
    const auto point = b64url_decode(p->p256dh);
    if (!point || !valid_p256_point(*point)) return std::string("push_subscribe: \"keys.p256dh\" is not a P-256 public key");
  }
  return std::nullopt;
}

}  // namespace carc::server::push
