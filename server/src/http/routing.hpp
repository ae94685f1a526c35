// Which handler an HTTP request goes to, decided from its method, target and upgrade flag
// alone: a pure function, so it can be tested and fuzzed without sockets.
#pragma once

#include <string>
#include <string_view>

namespace carc::server {

enum class HttpMethod { Get, Head, Post, Other };

// The public port serves everything; the --metrics-bind port only /metrics and /healthz,
// and then the public port no longer serves /metrics.
enum class Listen { Public, PublicNoMetrics, MetricsOnly };

struct Route {
  enum class Kind {
    Healthz,
    Metrics,
    Tiles,
    CreateRoom,
    Replay,            // POST /api/replay: a record replayed, nothing stored
    RoomInfo,          // arg: the room id (unchecked: the registry looks it up)
    RoomRecord,        // arg: the room id
    RoomAnalysis,      // arg: the room id (GET /api/rooms/<id>/analysis)
    RoomRated,         // arg: the room id (GET /api/rooms/<id>/rated, docs/community.md#ratings)
    Upgrade,           // arg: the room id of /ws/<room>
    UpgradeRequired,   // /ws/... without an upgrade: 426
    MethodNotAllowed,  // allow: the Allow header
    ApiNotFound,       // JSON 404
    NotFound,          // plain 404
    Static,            // arg: the path, for StaticFiles::get
    KeysApi,           // turn-based games: /api/keys..., /api/push/... (net/keys_api.hpp)
    SigninApi,         // players: /api/me, /api/signin/..., /api/invites... (net/signin_api.hpp)
    Player,            // arg: the player id of /api/players/<id> (docs/community.md#ratings)
    Leaderboard,       // arg: the query of /api/leaderboard
    CommunityApi,      // open games, quick play, names (net/community_api.hpp, docs/community.md)
    TournamentsApi,    // /api/tournaments... (net/tournaments_api.hpp, docs/tournaments.md)
  };
  Kind kind = Kind::NotFound;
  std::string_view arg;    // points into the target
  std::string_view allow;  // static text
};

HttpMethod method_from(std::string_view method);  // "GET", "HEAD", "POST"; anything else is Other
std::string_view path_of(std::string_view target);  // without the query
Route route_request(HttpMethod method, std::string_view target, bool websocket_upgrade, Listen listen);

// A header value that is safe to echo into a URL or a policy: host names, IPv6 literals
// and ports, at most 255 characters.
bool safe_host(std::string_view h);
// The first entry of a comma-separated header, trimmed.
std::string_view first_value(std::string_view v);

// Pages may run only the server's own scripts and styles, talk only to their own origin
// (its WebSocket too, named from `host` when that is safe_host: some browsers do not
// count ws:// as 'self'), and never be framed.
std::string content_security_policy(std::string_view host);

// A static path is an invite page (/r/<room>): its URL is the secret of a game.
bool is_invite_path(std::string_view path);

}  // namespace carc::server
