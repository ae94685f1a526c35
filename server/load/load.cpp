// carcassonne-load: R rooms x P players over real WebSockets, playing random legal games
// at a pace (--interval-ms, one move per room per interval) or flat out (0). A room whose
// game ends is replaced by a new one, so R rooms play until --duration ends (flat out, by
// one of a pool of rooms set up ahead, so that a server slow at setting rooms up still
// has R games in play). Prints moves per second, move-to-every-client latency (from
// sending a play until every client of the room holds the patch), server CPU and memory
// (per room, per connection, and the server's own split of its rooms' memory from
// /metrics), bytes per patch, the rooms in play and a new room's setup time, the
// generator's own CPU per move, and the share of CPU time the hypervisor stole from this
// machine while it played (host.hpp). The last line is the same figures as one JSON
// object, for scripts.
//
// Built to never be the limit: one thread, one epoll loop (loop.hpp) and a minimal
// WebSocket client on non-blocking sockets (wsclient.hpp), so that a move costs about one
// recv per client and one send; each frame scanned once (scan.hpp): every client reads the
// version; one client per room reads the new turn. Only talks to 127.0.0.1 and always
// stops after --duration seconds.
//
// This file: the options, the server it spawns, the run and the report. The rooms and
// players are in bench.hpp; reading the server's process and the report's helpers
// (percentiles, the --timeline windows, the server's memory split) in figures.hpp.
#include <netinet/in.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "bench.hpp"
#include "figures.hpp"
#include "host.hpp"
#include "loop.hpp"
#include "wsclient.hpp"

using carc::load::Bench;
using carc::load::Clock;
using carc::load::cpu_s;
using carc::load::CpuTicks;
using carc::load::HostSample;
using carc::load::Loop;
using carc::load::MemorySplit;
using carc::load::Options;
using carc::load::percentile;
using carc::load::print_timeline;
using carc::load::rss_kb;
using carc::load::steal_percent;

namespace {

void usage() {
  std::puts(
      "usage: carcassonne-load [--spawn SERVER_BIN [--server-arg ARG]... | --port N [--server-pid PID]]\n"
      "                        [--rooms R] [--players P] [--interval-ms MS] [--duration S] [--no-replace]\n"
      "                        [--no-standby] [--timeline S] [--address-per-room] [--expansions LIST]\n"
      "  --interval-ms 0 plays flat out; otherwise each room plays one move every MS milliseconds.\n"
      "  A finished room is replaced by a new one (R rooms play all along) unless --no-replace.\n"
      "  Flat out, R more rooms are set up ahead and each replaces a finished game at once, so R\n"
      "  rooms are in play all along; --no-standby sets a replacement up only at a game's end.\n"
      "  Connects to 127.0.0.1 only. --server-pid (or --spawn) enables the CPU and memory figures.\n"
      "  --timeline S prints to stderr, for each S seconds of play, the moves, their latency and how\n"
      "  many of them are over the whole run's p99: where in the run the tail comes from.\n"
      "  --address-per-room: each room's players connect from their own loopback address (127.1.x.y),\n"
      "  so that per-address limits see many clients, as in production.\n"
      "  --expansions ID,ID,...: every room plays with these expansions (our server only).");
}

// A port of 127.0.0.1 that nobody listens on (for --spawn).
int free_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  int port = 0;
  if (::bind(fd, reinterpret_cast<const sockaddr*>(&a), sizeof a) == 0 &&
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0) {
    port = ntohs(a.sin_port);
  }
  ::close(fd);
  return port;
}

using carc::load::http_get;

}  // namespace

int main(int argc, char** argv) {
  Options opt;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "missing value for %s\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--port") opt.port = std::stoi(value());
    else if (a == "--rooms") opt.rooms = std::stoi(value());
    else if (a == "--players") opt.players = std::stoi(value());
    else if (a == "--interval-ms") opt.interval_ms = std::stoi(value());
    else if (a == "--duration") opt.duration_s = std::stoi(value());
    else if (a == "--server-pid") opt.server_pid = std::stoi(value());
    else if (a == "--spawn") opt.spawn = value();
    else if (a == "--server-arg") opt.server_args.push_back(value());
    else if (a == "--no-replace") opt.replace = false;
    else if (a == "--no-standby") opt.standby = false;
    else if (a == "--timeline") opt.timeline_s = std::stoi(value());
    else if (a == "--address-per-room") opt.address_per_room = true;
    else if (a == "--expansions") {
      // a,b,... -> {"expansions":["a","b",...]} (the server checks the ids).
      std::string list = value(), body = R"({"expansions":[)";
      for (std::size_t at = 0; at <= list.size();) {
        const std::size_t comma = std::min(list.find(',', at), list.size());
        body += (body.back() == '[' ? "\"" : ",\"") + list.substr(at, comma - at) + '"';
        at = comma + 1;
      }
      opt.room_body = body + "]}";
    }
    else if (a == "--help" || a == "-h") return usage(), 0;
    else return std::fprintf(stderr, "unknown option %s\n", a.c_str()), usage(), 2;
  }
  if (opt.players < 2 || opt.players > 5 || opt.rooms < 1 || (opt.port == 0 && opt.spawn.empty())) {
    usage();
    return 2;
  }
  ::signal(SIGPIPE, SIG_IGN);

  // Thousands of sockets: raise the descriptor limit to the hard limit (a spawned server
  // inherits it).
  rlimit lim{};
  if (::getrlimit(RLIMIT_NOFILE, &lim) == 0) {
    lim.rlim_cur = lim.rlim_max;
    ::setrlimit(RLIMIT_NOFILE, &lim);
  }

  pid_t child = -1;
  if (!opt.spawn.empty()) {
    opt.port = free_port();
    // No per-address limits: every client of a benchmark comes from 127.0.0.1.
    std::vector<std::string> args = {opt.spawn,         "--port",     std::to_string(opt.port), "--bind", "127.0.0.1",
                                     "--log-level",     "warn",       "--max-connections",      "100000", "--max-rooms",
                                     "100000",          "--room-rate", "0",                      "--ws-rate", "0"};
    if (std::find(opt.server_args.begin(), opt.server_args.end(), "--data-dir") == opt.server_args.end()) {
      char tmpl[] = "/tmp/carc-load-XXXXXX";
      if (::mkdtemp(tmpl) != nullptr) args.insert(args.end(), {"--data-dir", tmpl});
    }
    args.insert(args.end(), opt.server_args.begin(), opt.server_args.end());
    child = ::fork();
    if (child == 0) {
      std::vector<char*> av;
      for (auto& s : args) av.push_back(s.data());
      av.push_back(nullptr);
      ::execv(av[0], av.data());
      std::_Exit(127);
    }
    opt.server_pid = child;
    for (int i = 0; i < 100 && http_get(opt.port, "/healthz").empty(); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }

  const long rss0 = rss_kb(opt.server_pid);
  Loop loop;
  Bench bench(loop, opt);
  const auto t_setup = Clock::now();
  bench.start();

  // Phase 1: every room seated and started.
  const auto deadline = Clock::now() + std::chrono::seconds(opt.duration_s);
  while (!bench.all_started() && Clock::now() < deadline) loop.run_for(std::chrono::milliseconds(20));
  const double setup_s = std::chrono::duration<double>(Clock::now() - t_setup).count();
  const long rss_seated = rss_kb(opt.server_pid);

  // Phase 2: play until the time is up.
  bench.begin_play();
  const auto t_play = Clock::now();
  const double server_cpu0 = cpu_s(opt.server_pid);
  const double self_cpu0 = cpu_s(static_cast<int>(::getpid()));
  std::vector<HostSample> host{{0.0, CpuTicks::read()}};
  auto next_host = Clock::now() + std::chrono::seconds(1);
  long rss_peak = rss_seated;
  std::string metrics_at_peak;
  int rooms_at_peak = bench.rooms_held();
  int conns_at_peak = bench.connections_open();
  auto next_sample = Clock::now();
  double in_play_sum = 0;
  long in_play_samples = 0;
  while (Clock::now() < deadline) {
    loop.run_for(std::chrono::milliseconds(50));
    in_play_sum += bench.in_play_;
    ++in_play_samples;
    if (Clock::now() >= next_host) {
      next_host += std::chrono::seconds(1);
      host.push_back({std::chrono::duration<double>(Clock::now() - t_play).count(), CpuTicks::read()});
    }
    if (Clock::now() >= next_sample) {
      next_sample = Clock::now() + std::chrono::seconds(2);
      const long rss = rss_kb(opt.server_pid);
      if (rss >= rss_peak) {
        rss_peak = rss;
        // The server's own split of its rooms' memory, at the peak (a short blocking GET:
        // rare enough not to disturb the run).
        metrics_at_peak = http_get(opt.port, "/metrics");
        rooms_at_peak = bench.rooms_held();
        conns_at_peak = bench.connections_open();
      }
    }
  }
  bench.end_play();
  const double play_s = std::chrono::duration<double>(Clock::now() - t_play).count();
  host.push_back({play_s, CpuTicks::read()});
  const std::vector<double> steal = steal_percent(host.front().ticks, host.back().ticks);
  const double server_cpu = cpu_s(opt.server_pid) - server_cpu0;
  const double self_cpu = cpu_s(static_cast<int>(::getpid())) - self_cpu0;

  const auto moves = static_cast<double>(bench.moves_);
  const int conns = opt.rooms * opt.players;
  const double moves_per_s = moves / play_s;
  const double p50 = percentile(bench.latency_, 0.5);
  const double p99 = percentile(bench.latency_, 0.99);
  const double max_ms = bench.latency_.empty() ? 0.0 : *std::max_element(bench.latency_.begin(), bench.latency_.end());
  std::printf("rooms %d x players %d (%d connections), %s; finished rooms %s\n", opt.rooms, opt.players, conns,
              opt.interval_ms == 0 ? "flat out" : ("one move per room every " + std::to_string(opt.interval_ms) + " ms").c_str(),
              opt.replace ? "replaced by new ones" : "not replaced");
  std::printf("setup (connect, join, start): %.2f s; games finished while playing: %llu\n", setup_s,
              static_cast<unsigned long long>(bench.games_));
  std::printf("moves: %.0f in %.2f s = %.1f moves/s\n", moves, play_s, moves_per_s);
  const double in_play = in_play_samples > 0 ? in_play_sum / static_cast<double>(in_play_samples) : 0.0;
  std::printf("rooms in play (started, not finished): %.1f of %d on average; a replacement room's setup (create,"
              " connect, join, start): p50 %.1f ms, p99 %.1f ms (%zu rooms)\n",
              in_play, opt.rooms, percentile(bench.setup_ms_, 0.5), percentile(bench.setup_ms_, 0.99),
              bench.setup_ms_.size());
  if (opt.server_pid > 0 && moves > 0) {
    std::printf("server CPU while playing: %.2f s (%.0f%% of one core), %.1f us per move\n", server_cpu,
                100.0 * server_cpu / play_s, 1e6 * server_cpu / moves);
  }
  if (moves > 0) {
    std::printf("load generator CPU: %.2f s (%.0f%% of one core), %.1f us per move\n", self_cpu,
                100.0 * self_cpu / play_s, 1e6 * self_cpu / moves);
  }
  std::printf("move-to-every-client latency: p50 %.2f ms, p99 %.2f ms, max %.2f ms (%zu samples)\n", p50, p99, max_ms,
              bench.latency_.size());
  if (!steal.empty() && steal[0] >= 0) {
    // A latency tail made while the hypervisor ran someone else is the host's, not the server's.
    std::printf("host CPU stolen by the hypervisor while playing: %.1f%% of all CPUs' time", steal[0]);
    for (std::size_t i = 1; i < steal.size(); ++i) std::printf("%scpu%zu %.1f%%", i == 1 ? " (" : ", ", i - 1, steal[i]);
    std::printf("%s\n", steal.size() > 1 ? ")" : "");
  }
  if (opt.timeline_s > 0) print_timeline(bench.latency_, bench.latency_at_, opt.timeline_s, p99, host);
  std::printf("bytes per patch: %.0f (%llu patches)\n",
              bench.patches_ ? static_cast<double>(bench.patch_bytes_) / static_cast<double>(bench.patches_) : 0.0,
              static_cast<unsigned long long>(bench.patches_));
  std::printf("errors: %llu, unexpected disconnects: %llu\n", static_cast<unsigned long long>(bench.errors_),
              static_cast<unsigned long long>(bench.disconnects_));
  double per_room_kb = -1;
  double per_conn_kb = -1;
  const MemorySplit split = MemorySplit::parse(metrics_at_peak);
  if (rss0 > 0 && rooms_at_peak > 0 && conns_at_peak > 0) {
    // Divided by the rooms and connections held at the peak: flat out, as many rooms again
    // are set up ahead (--no-standby: none), and they hold memory too.
    per_room_kb = static_cast<double>(rss_peak - rss0) / rooms_at_peak;
    std::printf("server RSS: start %ld KB, seated+started %ld KB, peak %ld KB (%d rooms, %d connections held)\n", rss0,
                rss_seated, rss_peak, rooms_at_peak, conns_at_peak);
    std::printf("server memory per room (everything, at the peak): %.1f KB\n", per_room_kb);
    if (split.engine >= 0) {
      const double n = rooms_at_peak;
      const double rooms_kb = (split.engine + split.history + split.view + split.other) / 1024.0 / n;
      per_conn_kb = (per_room_kb - rooms_kb) * n / conns_at_peak;
      std::printf("  per room: engine state %.1f KB, event history %.1f KB, view caches %.1f KB, room other %.1f KB;"
                  " per connection (the rest: sockets, sessions, allocator) %.1f KB\n",
                  split.engine / 1024.0 / n, split.history / 1024.0 / n, split.view / 1024.0 / n,
                  split.other / 1024.0 / n, per_conn_kb);
    } else {
      std::printf("  (the server reports no memory split)\n");
    }
  }
  std::printf(
      "{\"moves_per_s\":%.1f,\"server_us_per_move\":%.1f,\"load_us_per_move\":%.1f,\"p50_ms\":%.2f,\"p99_ms\":%.2f,"
      "\"max_ms\":%.2f,\"kb_per_room\":%.1f,\"rooms_in_play\":%.1f,\"setup_p50_ms\":%.1f,\"steal_pct\":%.1f,"
      "\"errors\":%llu}\n",
      moves_per_s, moves > 0 ? 1e6 * server_cpu / moves : -1.0, moves > 0 ? 1e6 * self_cpu / moves : -1.0, p50, p99,
      max_ms, per_room_kb, in_play, percentile(bench.setup_ms_, 0.5), steal.empty() ? -1.0 : steal[0],
      static_cast<unsigned long long>(bench.errors_));
  std::fflush(stdout);

  bench.stop();
  loop.run_for(std::chrono::milliseconds(200));
  if (child > 0) {
    ::kill(child, SIGTERM);
    ::waitpid(child, nullptr, 0);
  }
  // Skip tearing down thousands of sockets and handlers one by one.
  std::_Exit(bench.errors_ == 0 ? 0 : 1);
}
