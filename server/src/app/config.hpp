// Server configuration: flags, each with an environment equivalent (flags win).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <variant>

#include "limits/address.hpp"
#include "bots/analysis_options.hpp"
#include "community/rated_play.hpp"
#include <vector>

namespace carc::server {

struct Limits {
  std::size_t max_rooms = 10000;
  std::size_t max_connections = 10000;
  std::size_t max_connections_per_ip = 256;  // 0: off; behind a --trusted-proxy the forwarded client counts
  double rate_per_second = 30;             // per-connection token bucket
  double rate_burst = 60;
  std::size_t max_frame_bytes = 4096;      // docs/protocol.md: larger client frames are refused
  std::size_t max_queue_frames = 256;      // per-connection outgoing queue; beyond: disconnected
  std::size_t max_queue_bytes = 1 << 20;
  int handshake_timeout_s = 10;
  int idle_timeout_s = 60;                 // pings after half of it, closed after all of it
  int http_timeout_s = 30;
  int room_ttl_s = 86400;                  // a room with no connection for this long leaves memory
  int empty_room_ttl_s = 600;              // a room nobody ever sat in, likewise
  int finished_room_ttl_s = 0;             // a finished game, likewise; 0: once its last connection closes
                                           // (it stays stored, and comes back when opened)
  // Per client address (token buckets; see address.hpp for what "address" means).
  double room_rate_per_minute = 6;         // rooms created, sustained; 0: off
  double room_burst = 20;                  // rooms created at once
  double ws_rate_per_second = 20;          // WebSocket upgrades, sustained; 0: off
  double ws_burst = 100;                   // WebSocket upgrades at once
  double lookup_rate_per_second = 20;      // lookups of rooms not in memory (storage work), sustained; 0: off
  double lookup_burst = 60;                // such lookups at once
  double key_rate_per_minute = 30;         // player keys made (POST /api/keys), sustained; 0: off
  double key_burst = 200;                  // player keys made at once
  // Outgoing frames waiting for slow readers, all connections together: past it the biggest
  // queues are dropped first; one address's connections may hold an eighth of it.
  std::size_t max_queued_bytes = 64 << 20;
  // Chat a room stores (and replays to whoever comes): past either bound, chat is refused.
  std::size_t max_chat_lines = 2000;
  std::size_t max_chat_bytes = 256 << 10;
  // Notification settings one room may store in its life (a webhook set, a push subscription
  // made or removed): past it, such a change is refused.
  std::size_t max_notify_changes = 200;
};

struct Config {
  std::uint16_t port = 8080;
  std::string bind = "0.0.0.0";
  std::filesystem::path web_root;
  std::filesystem::path data_dir = "data";
  bool db_sync_normal = false;    // --db-sync normal: no fsync per move (a power cut may lose the last moves)
  int db_commit_delay_us = 1500;  // under load, how long a commit waits for more moves to share it
  int keep_finished_hours = 168;  // finished games stay readable (/record) this long
  std::string base_url;  // e.g. https://carc.example.org (invite links); empty: from the request
  int threads = 2;
  int bot_threads = 1;  // the computer players' worker pool
  int bot_think_ms = 0;  // caps each computer level's thinking time (0: the level's own)
  AnalysisOptions analysis;  // analyses of finished games (docs/analysis.md)
  std::string log_level = "info";
  Limits limits;
  std::vector<Cidr> trusted_proxies;  // --trusted-proxy: whose X-Forwarded-For is believed
  std::string metrics_bind;           // --metrics-bind ADDR:PORT: /metrics there, not on the public port
  std::uint16_t metrics_port = 0;
  std::string probe_url;  // --probe: GET this URL and exit 0 on 200
  // Several nodes (docs/cluster.md): a PostgreSQL database instead of SQLite in data_dir.
  std::string db_url;      // --db postgresql://... (DATABASE_URL); empty: SQLite
  std::string node_id;     // --node-id; default: hostname-<random>
  int lease_ms = 10'000;   // --lease-ms: a node silent this long loses its rooms
  // Notifications outside the page (docs/turn-based.md).
  bool allow_private_hooks = false;  // --allow-private-hooks: private addresses and plain http allowed
  std::string extra_ca;              // --extra-ca FILE: a CA outgoing HTTPS trusts too
  std::string vapid_key;             // --vapid-key FILE: the VAPID private key (default DATA_DIR/vapid.pem)
  std::string vapid_subject = "mailto:admin@localhost";  // --vapid-subject: the push services' contact
  // Sign-in and rated play (docs/community.md): the host's OpenID provider, all three or none.
  std::string oidc_issuer;         // --oidc-issuer URL
  std::string oidc_client_id;      // --oidc-client-id
  std::string oidc_client_secret;  // --oidc-client-secret, or read from --oidc-client-secret-file
  RatedPlay rated_play = RatedPlay::Open;  // --rated-play open|signed-in|invite
  bool tournament_organisers_signed_in = false;  // --tournament-organisers anyone|signed-in (docs/tournaments.md)
  std::string admin_token;         // read from --admin-token-file: guards POST /api/invites
};

struct ConfigExit {
  int code;             // 0 for --help, 2 for a usage error
  std::string message;  // what to print (usage text or the error)
};

// Reads flags from argv and environment variables (getenv); relative paths are made absolute
// against the working directory.
std::variant<Config, ConfigExit> parse_config(int argc, const char* const* argv);

std::string usage_text();

}  // namespace carc::server
