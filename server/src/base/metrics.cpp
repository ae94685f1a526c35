#include "base/metrics.hpp"

#include "base/guard.hpp"

#include <cstdio>

namespace carc::server {

std::string_view net_op_name(NetOp op) {
  switch (op) {
    case NetOp::Accept: return "accept";
    case NetOp::HttpRead: return "http_read";
    case NetOp::HttpWrite: return "http_write";
    case NetOp::WsAccept: return "ws_accept";
    case NetOp::WsRead: return "ws_read";
    case NetOp::WsWrite: return "ws_write";
    case NetOp::WsClose: return "ws_close";
  }
  return "unknown";
}

void Metrics::observe_broadcast(std::chrono::steady_clock::duration d) { broadcast_.observe(d); }

std::string Metrics::render(const RoomCounts& rooms) const {
  std::string out;
  char line[256];
  const auto add = [&](const char* fmt, auto... v) {
    std::snprintf(line, sizeof line, fmt, v...);
    out += line;
  };
  const auto counter = [&](const char* name, const char* help, std::uint64_t v) {
    add("# HELP %s %s\n# TYPE %s counter\n%s %llu\n", name, help, name, name, static_cast<unsigned long long>(v));
  };
  const auto rel = std::memory_order_relaxed;

  add("# HELP carc_rooms Rooms by phase.\n# TYPE carc_rooms gauge\n");
  add("carc_rooms{phase=\"lobby\"} %lld\n", static_cast<long long>(rooms.lobby));
  add("carc_rooms{phase=\"playing\"} %lld\n", static_cast<long long>(rooms.playing));
  add("carc_rooms{phase=\"finished\"} %lld\n", static_cast<long long>(rooms.finished));
  add("# HELP carc_connections Open connections by kind.\n# TYPE carc_connections gauge\n");
  add("carc_connections{kind=\"http\"} %lld\n", static_cast<long long>(http_connections.load(rel)));
  add("carc_connections{kind=\"websocket\"} %lld\n", static_cast<long long>(ws_connections.load(rel)));
  counter("carc_http_requests_total", "HTTP requests handled.", http_requests.load(rel));
  counter("carc_rooms_created_total", "Rooms created.", rooms_created.load(rel));
  counter("carc_rooms_expired_total", "Rooms removed after their time to live.", rooms_expired.load(rel));
  counter("carc_rooms_moved_total", "Rooms that left this node for another (several nodes).", rooms_moved.load(rel));
  counter("carc_rooms_claimed_total", "Rooms this node loaded from the shared database and took (several nodes).",
          rooms_taken_over.load(rel));
  counter("carc_leases_lost_total", "Times this node's lease ran out before it renewed it (several nodes).", leases_lost.load(rel));
  counter("carc_games_started_total", "Games started.", games_started.load(rel));
  counter("carc_games_finished_total", "Games finished.", games_finished.load(rel));
  counter("carc_moves_total", "Turns played.", moves.load(rel));
  counter("carc_patches_total", "State patches broadcast (one per change).", patches.load(rel));
  counter("carc_patch_bytes_total", "Bytes of serialized patch frames (counted once per change).", patch_bytes.load(rel));
  counter("carc_frames_sent_total", "WebSocket frames queued to clients.", frames_sent.load(rel));
  counter("carc_slow_clients_dropped_total", "Connections dropped because their outgoing queue was full.",
          slow_clients_dropped.load(rel));
  counter("carc_connections_refused_total", "Connections refused over a connection cap.", connections_refused.load(rel));
  counter("carc_internal_errors_total",
          "Exceptions that escaped a request, frame or task (logged; that piece of work ended, the server went on).",
          internal_errors());
  add("# HELP carc_rate_limited_total Requests refused with 429 over a client address's budget.\n"
      "# TYPE carc_rate_limited_total counter\n");
  add("carc_rate_limited_total{what=\"room\"} %llu\n", static_cast<unsigned long long>(rooms_rate_limited.load(rel)));
  add("carc_rate_limited_total{what=\"upgrade\"} %llu\n", static_cast<unsigned long long>(upgrades_rate_limited.load(rel)));
  add("carc_rate_limited_total{what=\"lookup\"} %llu\n", static_cast<unsigned long long>(lookups_rate_limited.load(rel)));
  add("carc_rate_limited_total{what=\"key\"} %llu\n", static_cast<unsigned long long>(keys_rate_limited.load(rel)));
  counter("carc_queue_budget_drops_total",
          "Connections dropped because the frames queued for slow clients passed the server's budget (biggest first).",
          queue_budget_drops.load(rel));
  add("# HELP carc_queued_bytes Bytes of frames waiting in connections' outgoing queues.\n"
      "# TYPE carc_queued_bytes gauge\ncarc_queued_bytes %lld\n", static_cast<long long>(queued_bytes.load(rel)));
  counter("carc_room_lookups_storage_total", "Rooms not in memory looked for in storage.", storage_lookups.load(rel));
  counter("carc_room_lookups_remembered_total", "Lookups answered as missing from the remembered misses, without storage.",
          lookups_remembered.load(rel));
  counter("carc_room_lookups_busy_total", "Lookups refused with 503 while too many storage lookups were on their way.",
          lookups_busy.load(rel));
  add("# HELP carc_network_errors_total Network errors other than normal closes, by operation.\n"
      "# TYPE carc_network_errors_total counter\n");
  for (std::size_t i = 0; i < kNetOpCount; ++i) {
    const auto name = net_op_name(static_cast<NetOp>(i));
    add("carc_network_errors_total{op=\"%.*s\"} %llu\n", static_cast<int>(name.size()), name.data(),
        static_cast<unsigned long long>(network_errors_[i].load(rel)));
  }

  add("# HELP carc_refused_requests_total Refused client requests by error code.\n"
      "# TYPE carc_refused_requests_total counter\n");
  for (int i = 0; i < protocol::kErrorCodeCount; ++i) {
    const auto name = protocol::error_code_name(static_cast<protocol::ErrorCode>(i));
    if (name.empty()) continue;  // a slot no expansion uses
    add("carc_refused_requests_total{code=\"%.*s\"} %llu\n", static_cast<int>(name.size()), name.data(),
        static_cast<unsigned long long>(refused_[static_cast<std::size_t>(i)].load(rel)));
  }

  broadcast_.render(out, "carc_broadcast_latency_seconds", "From a request's arrival to its patch queued on every socket.");

  counter("carc_bot_moves_total", "Moves chosen by computer players (their own and for absent humans).", bot_moves.load(rel));
  counter("carc_auto_moves_total", "Moves a computer player made for an absent or out-of-time human.", auto_moves.load(rel));
  counter("carc_bot_playouts_total", "Games the mcts computer players played out to decide their moves.", bot_playouts.load(rel));
  counter("carc_bot_stale_total", "Computer players' answers dropped because their turn had passed.", bot_stale.load(rel));
  bot_think.render(out, "carc_bot_think_seconds", "How long a computer player thought about a move (on the bot pool).");

  add("# HELP carc_room_memory_bytes Memory of the rooms' own state by part (engine, event history, view caches, other).\n"
      "# TYPE carc_room_memory_bytes gauge\n");
  add("carc_room_memory_bytes{part=\"engine\"} %lld\n", static_cast<long long>(rooms.engine_bytes));
  add("carc_room_memory_bytes{part=\"history\"} %lld\n", static_cast<long long>(rooms.history_bytes));
  add("carc_room_memory_bytes{part=\"view\"} %lld\n", static_cast<long long>(rooms.view_bytes));
  add("carc_room_memory_bytes{part=\"other\"} %lld\n", static_cast<long long>(rooms.other_bytes));
  if (storage_render_) storage_render_(out);
  return out;
}

}  // namespace carc::server
