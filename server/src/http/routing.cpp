#include "http/routing.hpp"

namespace carc::server {

HttpMethod method_from(std::string_view m) {
  if (m == "GET") return HttpMethod::Get;
  if (m == "HEAD") return HttpMethod::Head;
  if (m == "POST") return HttpMethod::Post;
  return HttpMethod::Other;
}

bool safe_host(std::string_view h) {
  if (h.empty() || h.size() > 255) return false;
  for (char c : h) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                    c == '-' || c == ':' || c == '[' || c == ']' || c == '_';
    if (!ok) return false;
  }
  return true;
}

std::string_view first_value(std::string_view v) {
  const auto comma = v.find(',');
  if (comma != std::string_view::npos) v = v.substr(0, comma);
  while (!v.empty() && v.front() == ' ') v.remove_prefix(1);
  while (!v.empty() && v.back() == ' ') v.remove_suffix(1);
  return v;
}

std::string content_security_policy(std::string_view host) {
  std::string connect = "'self'";
  if (safe_host(host)) connect += " ws://" + std::string(host) + " wss://" + std::string(host);
  return "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src " + connect +
         "; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
}

std::string_view path_of(std::string_view target) {
  const auto q = target.find('?');
  return q == std::string_view::npos ? target : target.substr(0, q);
}

bool is_invite_path(std::string_view path) { return path.starts_with("/r/"); }

Route route_request(HttpMethod method, std::string_view target, bool websocket_upgrade, Listen listen) {
  using K = Route::Kind;
  const std::string_view path = path_of(target);
  const bool get = method == HttpMethod::Get || method == HttpMethod::Head;

  if (listen == Listen::MetricsOnly) {
    if (path == "/healthz" || path == "/metrics") {
      if (!get) return {K::MethodNotAllowed, {}, "GET, HEAD"};
      return {path == "/healthz" ? K::Healthz : K::Metrics, {}, {}};
    }
    return {K::NotFound, {}, {}};
  }
  if (websocket_upgrade) {
    if (path.starts_with("/ws/")) return {K::Upgrade, path.substr(4), {}};
    return {K::NotFound, {}, {}};
  }
  if (path == "/healthz" && get) return {K::Healthz, {}, {}};
  if (path == "/metrics" && get) return {listen == Listen::Public ? K::Metrics : K::NotFound, {}, {}};
  if (path == "/api/tiles" && get) {
    const auto query = target.find('?');
    return {K::Tiles, query == std::string_view::npos ? std::string_view() : target.substr(query + 1), {}};
  }
  if (path == "/api/replay") {
    if (method != HttpMethod::Post) return {K::MethodNotAllowed, {}, "POST"};
    return {K::Replay, {}, {}};
  }
  if (path == "/api/rooms") {
    if (method != HttpMethod::Post) return {K::MethodNotAllowed, {}, "POST"};
    return {K::CreateRoom, {}, {}};
  }
  if (path.starts_with("/api/rooms/")) {
    std::string_view rest = path.substr(11);
    const bool record = rest.ends_with("/record");
    if (record) rest.remove_suffix(7);
    const bool analysis = !record && rest.ends_with("/analysis");
    if (analysis) rest.remove_suffix(9);
    const bool rated = !record && !analysis && rest.ends_with("/rated");
    if (rated) rest.remove_suffix(6);
    if (!get) return {K::MethodNotAllowed, {}, "GET, HEAD"};
    return {record ? K::RoomRecord : analysis ? K::RoomAnalysis : rated ? K::RoomRated : K::RoomInfo, rest, {}};
  }
  if (path == "/api/keys" || path.starts_with("/api/keys/") || path.starts_with("/api/push/")) return {K::KeysApi, {}, {}};
  // The community's API (docs/community.md); the handler checks the methods.
  if (path == "/api/open-games" || path == "/api/quick-play" || path == "/api/me/name" ||
      (path.starts_with("/api/players/") && path.ends_with("/names"))) {
    return {K::CommunityApi, {}, {}};
  }
  if (path == "/api/tournaments" || path.starts_with("/api/tournaments/")) return {K::TournamentsApi, {}, {}};
  if (path == "/api/me" || path.starts_with("/api/signin/") || path == "/api/invites" || path.starts_with("/api/invites/")) {
    return {K::SigninApi, {}, {}};
  }
  // Ratings (docs/community.md#ratings): a player's page and the leaderboard (arg: its query).
  if (path.starts_with("/api/players/")) {
    if (!get) return {K::MethodNotAllowed, {}, "GET, HEAD"};
    return {K::Player, path.substr(13), {}};
  }
  if (path == "/api/leaderboard") {
    if (!get) return {K::MethodNotAllowed, {}, "GET, HEAD"};
    const auto query = target.find('?');
    return {K::Leaderboard, query == std::string_view::npos ? std::string_view() : target.substr(query + 1), {}};
  }
  if (path.starts_with("/ws/")) return {K::UpgradeRequired, {}, {}};
  if (path.starts_with("/api/")) return {K::ApiNotFound, {}, {}};
  if (!get) return {K::MethodNotAllowed, {}, "GET, HEAD"};
  return {K::Static, path, {}};
}

}  // namespace carc::server
