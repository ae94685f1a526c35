#include "app/config.hpp"

#include <cctype>
#include <charconv>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <optional>
#include <string_view>
#include <system_error>
#include <utility>
#include <unistd.h>

#ifndef CARC_INSTALL_WEB_ROOT
#define CARC_INSTALL_WEB_ROOT "/usr/local/share/carcassonne/web-client"
#endif

namespace carc::server {

namespace fs = std::filesystem;

namespace {

struct Option {
  std::string_view flag;
  std::string_view env;
  std::string_view help;
  std::function<bool(Config&, std::string_view)> set;
};

template <typename T>
std::function<bool(Config&, std::string_view)> number(T Config::*field, T lo, T hi) {
  return [=](Config& c, std::string_view v) {
    T out{};
    const auto r = std::from_chars(v.data(), v.data() + v.size(), out);
    if (r.ec != std::errc() || r.ptr != v.data() + v.size() || !(out >= lo && out <= hi)) return false;
    c.*field = out;
    return true;
  };
}

template <typename T>
std::function<bool(Config&, std::string_view)> analysis(T AnalysisOptions::*field, T lo, T hi) {
  return [=](Config& c, std::string_view v) {
    T out{};
    const auto r = std::from_chars(v.data(), v.data() + v.size(), out);
    if (r.ec != std::errc() || r.ptr != v.data() + v.size() || !(out >= lo && out <= hi)) return false;
    c.analysis.*field = out;
    return true;
  };
}

template <typename T>
std::function<bool(Config&, std::string_view)> limit(T Limits::*field, T lo, T hi) {
  return [=](Config& c, std::string_view v) {
    T out{};
    const auto r = std::from_chars(v.data(), v.data() + v.size(), out);
    // Written so that NaN (which from_chars reads) fails too.
    if (r.ec != std::errc() || r.ptr != v.data() + v.size() || !(out >= lo && out <= hi)) return false;
    c.limits.*field = out;
    return true;
  };
}

// A per-address rate: 0 turns it off; else within [lo, hi], so that the wait a refusal
// announces (one token at this rate) stays short enough to mean something.
std::function<bool(Config&, std::string_view)> rate(double Limits::*field, double lo, double hi) {
  return [=](Config& c, std::string_view v) {
    double out = 0;
    const auto r = std::from_chars(v.data(), v.data() + v.size(), out);
    if (r.ec != std::errc() || r.ptr != v.data() + v.size() || !(out == 0 || (out >= lo && out <= hi))) return false;
    c.limits.*field = out;
    return true;
  };
}

// The first line of a secret's file (a client secret, the admin token), without its end.
bool read_secret(std::string_view file, std::string* out) {
  std::ifstream in{std::string(file)};
  std::string line;
  if (!in || !std::getline(in, line)) return false;
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
  *out = std::move(line);
  return !out->empty();
}

std::vector<Option> options() {
  using L = Limits;
  return {
      {"--port", "PORT", "TCP port for HTTP and WebSocket (default 8080; 0 picks a free one)",
       number<std::uint16_t>(&Config::port, 0, 65535)},
      {"--bind", "HOST", "address to listen on (default 0.0.0.0)",
       [](Config& c, std::string_view v) { c.bind = std::string(v); return !v.empty(); }},
      {"--web-root", "WEB_ROOT", "folder of the web client (default ./web-client, else the installed copy)",
       [](Config& c, std::string_view v) { c.web_root = std::string(v); return !v.empty(); }},
      {"--data-dir", "DATA_DIR", "folder for the game database (default ./data)",
       [](Config& c, std::string_view v) { c.data_dir = std::string(v); return !v.empty(); }},
      {"--db-sync", "DB_SYNC", "full (default: every move on disk before it is shown) or normal (faster; a power cut may lose the last moves, a crash does not)",
       [](Config& c, std::string_view v) { c.db_sync_normal = v == "normal"; return v == "full" || v == "normal"; }},
      {"--db-commit-delay-us", "DB_COMMIT_DELAY_US", "under load, how long a commit waits for more moves to share its transaction and fsync (default 1500; 0: never)",
       number<int>(&Config::db_commit_delay_us, 0, 100000)},
      {"--keep-finished-hours", "KEEP_FINISHED_HOURS", "how long finished games stay readable at /api/rooms/<id>/record (default 168)",
       number<int>(&Config::keep_finished_hours, 1, 24 * 3650)},
      {"--base-url", "BASE_URL", "public URL for invite links, e.g. https://carc.example.org",
       [](Config& c, std::string_view v) {
         c.base_url = std::string(v);
         while (!c.base_url.empty() && c.base_url.back() == '/') c.base_url.pop_back();
         return c.base_url.starts_with("http://") || c.base_url.starts_with("https://") || c.base_url.empty();
       }},
      {"--threads", "THREADS", "I/O threads (default 2)", number<int>(&Config::threads, 1, 256)},
      {"--bot-threads", "BOT_THREADS", "threads computer players think on (default 1)",
       number<int>(&Config::bot_threads, 1, 64)},
      {"--bot-think-ms", "BOT_THINK_MS", "caps how long a computer player thinks a move, in ms (default 0: medium 300, hard 1500)",
       number<int>(&Config::bot_think_ms, 0, 60000)},
      {"--analyses", "ANALYSES", "finished games analysed at once on the computer players' pool, behind their turns (default 1; 0: none)",
       analysis<int>(&AnalysisOptions::concurrent, 0, 16)},
      {"--analysis-ms", "ANALYSIS_MS", "think time of the analysis for each move, in ms (default 1000)",
       analysis<std::int64_t>(&AnalysisOptions::ms_per_move, 10, 60'000)},
      {"--analysis-priority", "ANALYSIS_PRIORITY",
       "idle: analyses get only CPU nothing else wants (default); normal: the computer players' priority",
       [](Config& c, std::string_view v) {
         if (v != "idle" && v != "normal") return false;
         c.analysis.idle_priority = v == "idle";
         return true;
       }},
      {"--log-level", "LOG_LEVEL", "trace, debug, info, warn, error, critical, off (default info)",
       [](Config& c, std::string_view v) {
         static constexpr std::string_view kLevels[] = {"trace", "debug", "info", "warn", "error", "critical", "off"};
         for (auto l : kLevels) {
           if (v == l) {
             c.log_level = std::string(v);
             return true;
           }
         }
         return false;
       }},
      {"--max-rooms", "MAX_ROOMS", "rooms at most (default 10000)", limit<std::size_t>(&L::max_rooms, 1, 10'000'000)},
      {"--max-connections", "MAX_CONNECTIONS", "open connections at most (default 10000)",
       limit<std::size_t>(&L::max_connections, 1, 10'000'000)},
      {"--max-connections-per-ip", "MAX_CONNECTIONS_PER_IP", "connections per client address, IPv6 by /64; behind a --trusted-proxy, per forwarded client (default 256; 0: off)",
       limit<std::size_t>(&L::max_connections_per_ip, 0, 10'000'000)},
      {"--rate", "RATE_LIMIT", "messages per second per connection, sustained (default 30)",
       limit<double>(&L::rate_per_second, 0.1, 1e9)},
      {"--burst", "RATE_BURST", "messages per connection in a burst (default 60)", limit<double>(&L::rate_burst, 1, 1e9)},
      {"--max-queue", "MAX_QUEUE", "frames waiting for a slow client before it is dropped (default 256)",
       limit<std::size_t>(&L::max_queue_frames, 1, 1'000'000)},
      {"--max-queue-bytes", "MAX_QUEUE_BYTES", "bytes waiting for a slow client before it is dropped (default 1 MiB)",
       limit<std::size_t>(&L::max_queue_bytes, 1024, std::size_t{1} << 40)},
      {"--handshake-timeout", "HANDSHAKE_TIMEOUT", "seconds for a WebSocket handshake (default 10)",
       limit<int>(&L::handshake_timeout_s, 1, 3600)},
      {"--idle-timeout", "IDLE_TIMEOUT", "seconds of silence before a WebSocket is closed; pings at half (default 60)",
       limit<int>(&L::idle_timeout_s, 2, 86400)},
      {"--http-timeout", "HTTP_TIMEOUT", "seconds for an HTTP request (default 30)", limit<int>(&L::http_timeout_s, 1, 3600)},
      {"--room-ttl", "ROOM_TTL", "seconds a room without connections stays in memory (default 86400)",
       limit<int>(&L::room_ttl_s, 1, 365 * 86400)},
      {"--empty-room-ttl", "EMPTY_ROOM_TTL", "seconds a room where nobody ever sat is kept (default 600)",
       limit<int>(&L::empty_room_ttl_s, 1, 365 * 86400)},
      {"--finished-room-ttl", "FINISHED_ROOM_TTL",
       "seconds a finished game without connections stays in memory; it stays stored and comes back when asked for "
       "(default 0: it leaves as its last connection closes)",
       limit<int>(&L::finished_room_ttl_s, 0, 365 * 86400)},
      {"--room-rate", "ROOM_RATE", "rooms one client address may create per minute, sustained, 0.01..1000000 (default 6; 0: no limit)",
       rate(&L::room_rate_per_minute, 0.01, 1e6)},
      {"--room-burst", "ROOM_BURST", "rooms one client address may create at once (default 20)",
       limit<double>(&L::room_burst, 1, 1e9)},
      {"--ws-rate", "WS_RATE", "WebSocket upgrades per second per client address, sustained, 0.01..1000000 (default 20; 0: no limit)",
       rate(&L::ws_rate_per_second, 0.01, 1e6)},
      {"--ws-burst", "WS_BURST", "WebSocket upgrades per client address at once (default 100)",
       limit<double>(&L::ws_burst, 1, 1e9)},
      {"--lookup-rate", "LOOKUP_RATE",
       "lookups of rooms not in memory (they ask storage) per second per client address, sustained, 0.01..1000000 (default 20; 0: no limit)",
       rate(&L::lookup_rate_per_second, 0.01, 1e6)},
      {"--lookup-burst", "LOOKUP_BURST", "such lookups per client address at once (default 60)",
       limit<double>(&L::lookup_burst, 1, 1e9)},
      {"--key-rate", "KEY_RATE", "player keys one client address may make per minute, sustained, 0.01..1000000 (default 30; 0: no limit)",
       rate(&L::key_rate_per_minute, 0.01, 1e6)},
      {"--key-burst", "KEY_BURST", "player keys one client address may make at once (default 200)",
       limit<double>(&L::key_burst, 1, 1e9)},
      {"--max-queued-bytes", "MAX_QUEUED_BYTES",
       "bytes waiting for slow clients, all connections together; past it the biggest queues are dropped (default 64 MiB)",
       limit<std::size_t>(&L::max_queued_bytes, 64 * 1024, std::size_t{1} << 40)},
      {"--max-chat-lines", "MAX_CHAT_LINES", "chat lines one room stores; past it, chat is refused (default 2000)",
       limit<std::size_t>(&L::max_chat_lines, 1, 1'000'000)},
      {"--max-notify-changes", "MAX_NOTIFY_CHANGES",
       "changes of notification settings (webhook, push subscriptions) one room stores; past it they are refused (default 200)",
       limit<std::size_t>(&L::max_notify_changes, 1, 1'000'000)},
      {"--max-chat-bytes", "MAX_CHAT_BYTES", "bytes of chat text one room stores; past it, chat is refused (default 256 KiB)",
       limit<std::size_t>(&L::max_chat_bytes, 1024, std::size_t{1} << 30)},
      {"--trusted-proxy", "TRUSTED_PROXY",
       "address or CIDR range of a reverse proxy whose X-Forwarded-For names the client (repeatable, or comma-separated; default none)",
       [](Config& c, std::string_view v) {
         while (!v.empty()) {
           const auto comma = v.find(',');
           auto range = Cidr::parse(v.substr(0, comma));
           if (!range) return false;
           c.trusted_proxies.push_back(*range);
           v = comma == std::string_view::npos ? std::string_view() : v.substr(comma + 1);
         }
         return !c.trusted_proxies.empty();
       }},
      {"--metrics-bind", "METRICS_BIND", "ADDR:PORT: serve /metrics (and /healthz) there only, e.g. 127.0.0.1:9100 (default: /metrics on the public port)",
       [](Config& c, std::string_view v) {
         const auto colon = v.rfind(':');
         if (colon == std::string_view::npos || colon == 0) return false;
         std::string_view host = v.substr(0, colon);
         if (host.starts_with('[') && host.ends_with(']')) host = host.substr(1, host.size() - 2);
         if (!IpAddress::parse(host)) return false;
         const std::string_view port = v.substr(colon + 1);
         const auto r = std::from_chars(port.data(), port.data() + port.size(), c.metrics_port);
         if (port.empty() || r.ec != std::errc() || r.ptr != port.data() + port.size()) return false;
         c.metrics_bind = std::string(host);
         return true;
       }},
      {"--db", "DATABASE_URL", "postgresql://USER[:PASS]@HOST[:PORT]/DB: store games in PostgreSQL, shared by several nodes (default: SQLite in --data-dir)",
       [](Config& c, std::string_view v) {
         c.db_url = std::string(v);
         return v.starts_with("postgresql://") || v.starts_with("postgres://");
       }},
      {"--node-id", "NODE_ID", "this node's name in the cluster, unique per running node (default: hostname-RANDOM)",
       [](Config& c, std::string_view v) {
         if (v.empty() || v.size() > 100) return false;
         for (char ch : v) {
           if (!(std::isalnum(static_cast<unsigned char>(ch)) || ch == '-' || ch == '_' || ch == '.')) return false;
         }
         c.node_id = std::string(v);
         return true;
       }},
      {"--lease-ms", "LEASE_MS", "with --db: a node that could not renew its lease for this long loses its rooms to other nodes (default 10000)",
       number<int>(&Config::lease_ms, 500, 600'000)},
      {"--allow-private-hooks", "ALLOW_PRIVATE_HOOKS",
       "webhooks and push endpoints may name loopback, private and link-local addresses and use plain http (tests, home networks); takes no value",
       [](Config& c, std::string_view v) { c.allow_private_hooks = v == "1" || v == "true"; return v == "1" || v == "true" || v == "0" || v == "false"; }},
      {"--extra-ca", "EXTRA_CA", "a PEM file of CA certificates that outgoing HTTPS (webhooks, Web Push) trusts besides the system's",
       [](Config& c, std::string_view v) { c.extra_ca = std::string(v); return !v.empty(); }},
      {"--vapid-key", "VAPID_KEY", "the Web Push (VAPID) private key, PEM; made there once if missing (default DATA_DIR/vapid.pem)",
       [](Config& c, std::string_view v) { c.vapid_key = std::string(v); return !v.empty(); }},
      {"--vapid-subject", "VAPID_SUBJECT", "the contact push services see, mailto: or https: (default mailto:admin@localhost)",
       [](Config& c, std::string_view v) { c.vapid_subject = std::string(v); return v.starts_with("mailto:") || v.starts_with("https://"); }},
      {"--oidc-issuer", "OIDC_ISSUER", "sign-in: the issuer URL of the host's OpenID Connect provider (its /.well-known/openid-configuration); with a client id and secret",
       [](Config& c, std::string_view v) { c.oidc_issuer = std::string(v); return v.starts_with("https://") || v.starts_with("http://"); }},
      {"--oidc-client-id", "OIDC_CLIENT_ID", "sign-in: this server's client id at the provider",
       [](Config& c, std::string_view v) { c.oidc_client_id = std::string(v); return !v.empty() && v.size() <= 255; }},
      {"--oidc-client-secret", "OIDC_CLIENT_SECRET", "sign-in: this server's client secret (--oidc-client-secret-file keeps it out of the process list)",
       [](Config& c, std::string_view v) { c.oidc_client_secret = std::string(v); return !v.empty(); }},
      {"--oidc-client-secret-file", "OIDC_CLIENT_SECRET_FILE", "sign-in: a file holding the client secret (its first line)",
       [](Config& c, std::string_view v) { return read_secret(v, &c.oidc_client_secret); }},
      {"--rated-play", "RATED_PLAY", "whose games count for ratings: open (default), signed-in (players signed in with --oidc-issuer) or invite (those and players who redeemed an invite code)",
       [](Config& c, std::string_view v) {
         const auto r = rated_play_from(v);
         if (r) c.rated_play = *r;
         return r.has_value();
       }},
      {"--tournament-organisers", "TOURNAMENT_ORGANISERS", "who may create tournaments: anyone (default) or signed-in (players signed in with --oidc-issuer)",
       [](Config& c, std::string_view v) {
         c.tournament_organisers_signed_in = v == "signed-in";
         return v == "anyone" || v == "signed-in";
       }},
      {"--admin-token-file", "ADMIN_TOKEN_FILE", "a file holding the admin token (its first line, 16+ characters): POST /api/invites with it makes invite codes",
       [](Config& c, std::string_view v) { return read_secret(v, &c.admin_token) && c.admin_token.size() >= 16; }},
      {"--probe", "", "GET this URL, exit 0 if it answers 200 (container health check)",
       [](Config& c, std::string_view v) { c.probe_url = std::string(v); return !v.empty(); }},
  };
}

fs::path absolute_from_cwd(const fs::path& p) {
  if (p.empty() || p.is_absolute()) return p;
  std::error_code ec;
  auto abs = fs::absolute(p, ec);
  return ec ? p : abs.lexically_normal();
}

fs::path executable_dir() {
  std::error_code ec;
  auto exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path() : exe.parent_path();
}

fs::path default_web_root() {
  std::error_code ec;
  if (fs::is_directory("web-client", ec)) return absolute_from_cwd("web-client");
  const fs::path exe = executable_dir();
  for (const fs::path& candidate : {exe / "web-client", exe / ".." / "share" / "carcassonne" / "web-client",
                                    fs::path(CARC_INSTALL_WEB_ROOT)}) {
    if (!candidate.empty() && fs::is_directory(candidate, ec)) return candidate.lexically_normal();
  }
  return absolute_from_cwd("web-client");
}

}  // namespace

std::string usage_text() {
  std::string out =
      "carcassonne-server: serves the web client and hosts Carcassonne games.\n\n"
      "usage: carcassonne-server [options]\n\noptions (environment variable in brackets):\n";
  for (const auto& o : options()) {
    std::string left = "  " + std::string(o.flag) + " VALUE";
    if (!o.env.empty()) left += " [" + std::string(o.env) + "]";
    if (left.size() < 40) left.resize(40, ' ');
    out += left + " " + std::string(o.help) + "\n";
  }
  out += "  --help                                 this text\n";
  return out;
}

std::variant<Config, ConfigExit> parse_config(int argc, const char* const* argv) {
  Config c;
  const auto opts = options();
  for (const auto& o : opts) {
    if (o.env.empty()) continue;
    const char* v = std::getenv(std::string(o.env).c_str());
    if (v == nullptr || *v == '\0') continue;
    if (!o.set(c, v)) return ConfigExit{2, "invalid value for " + std::string(o.env) + ": " + v};
  }
  bool proxies_from_flags = false;  // the first --trusted-proxy replaces TRUSTED_PROXY's list
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (arg == "--help" || arg == "-h") return ConfigExit{0, usage_text()};
    std::string_view value;
    bool inline_value = false;
    if (const auto eq = arg.find('='); arg.starts_with("--") && eq != std::string_view::npos) {
      value = arg.substr(eq + 1);
      arg = arg.substr(0, eq);
      inline_value = true;
    }
    const Option* found = nullptr;
    for (const auto& o : opts) {
      if (o.flag == arg) found = &o;
    }
    if (found == nullptr) return ConfigExit{2, "unknown option: " + std::string(arg) + "\n\n" + usage_text()};
    if (found->flag == "--allow-private-hooks" && !inline_value) {  // a switch: no value
      c.allow_private_hooks = true;
      continue;
    }
    if (!inline_value) {
      if (i + 1 >= argc) return ConfigExit{2, "missing value for " + std::string(arg)};
      value = argv[++i];
    }
    if (found->flag == "--trusted-proxy" && !std::exchange(proxies_from_flags, true)) c.trusted_proxies.clear();
    if (!found->set(c, value)) return ConfigExit{2, "invalid value for " + std::string(arg) + ": " + std::string(value)};
  }
  c.web_root = c.web_root.empty() ? default_web_root() : absolute_from_cwd(c.web_root);
  c.data_dir = absolute_from_cwd(c.data_dir);
  if (!c.extra_ca.empty()) c.extra_ca = absolute_from_cwd(c.extra_ca).string();
  if (!c.vapid_key.empty()) c.vapid_key = absolute_from_cwd(c.vapid_key).string();
  const int oidc_parts = !c.oidc_issuer.empty() + !c.oidc_client_id.empty() + !c.oidc_client_secret.empty();
  if (oidc_parts != 0 && oidc_parts != 3) {
    return ConfigExit{2, "sign-in needs all of --oidc-issuer, --oidc-client-id and --oidc-client-secret (or --oidc-client-secret-file)"};
  }
  if (c.rated_play == RatedPlay::SignedIn && oidc_parts == 0) return ConfigExit{2, "--rated-play signed-in needs sign-in (--oidc-issuer ...)"};
  if (c.rated_play == RatedPlay::Invite && c.admin_token.empty()) {
    return ConfigExit{2, "--rated-play invite needs --admin-token-file (invite codes are made with it)"};
  }
  return c;
}

}  // namespace carc::server
