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
#include <netinet/in.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <fstream>
#include <iterator>
#include <memory>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "host.hpp"
#include "loop.hpp"
#include "scan.hpp"
#include "wsclient.hpp"

using json = nlohmann::json;
using carc::load::Clock;
using carc::load::CpuTicks;
using carc::load::Loop;
using carc::load::steal_percent;
using carc::load::WsConn;

namespace {

struct Options {
  int port = 0;
  int rooms = 10;
  int players = 4;
  int interval_ms = 0;  // 0: flat out
  int duration_s = 30;
  int server_pid = 0;
  std::string spawn;  // server binary to start on a free port
  std::vector<std::string> server_args;
  int connect_batch = 200;
  bool replace = true;  // a finished room is replaced by a new one
  bool standby = true;  // flat out: a pool of R rooms is set up ahead to replace finished games
  int timeline_s = 0;   // > 0: the latency of each window of this many seconds, to stderr
};

void usage() {
  std::puts(
      "usage: carcassonne-load [--spawn SERVER_BIN [--server-arg ARG]... | --port N [--server-pid PID]]\n"
      "                        [--rooms R] [--players P] [--interval-ms MS] [--duration S] [--no-replace]\n"
      "                        [--no-standby] [--timeline S]\n"
      "  --interval-ms 0 plays flat out; otherwise each room plays one move every MS milliseconds.\n"
      "  A finished room is replaced by a new one (R rooms play all along) unless --no-replace.\n"
      "  Flat out, R more rooms are set up ahead and each replaces a finished game at once, so R\n"
      "  rooms are in play all along; --no-standby sets a replacement up only at a game's end.\n"
      "  Connects to 127.0.0.1 only. --server-pid (or --spawn) enables the CPU and memory figures.\n"
      "  --timeline S prints to stderr, for each S seconds of play, the moves, their latency and how\n"
      "  many of them are over the whole run's p99: where in the run the tail comes from.");
}

long rss_kb(int pid) {
  if (pid <= 0) return -1;
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::atol(line.c_str() + 6);
  }
  return -1;
}

// utime + stime of a process (all its threads), in seconds.
double cpu_s(int pid) {
  if (pid <= 0) return -1;
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto close = all.rfind(')');
  if (close == std::string::npos) return -1;
  std::istringstream fields(all.substr(close + 2));
  std::string f;
  double ticks = 0;
  for (int i = 3; i <= 15 && fields >> f; ++i) {
    if (i == 14 || i == 15) ticks += std::atof(f.c_str());
  }
  return ticks / static_cast<double>(::sysconf(_SC_CLK_TCK));
}

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[static_cast<std::size_t>(p * static_cast<double>(v.size() - 1))];
}

// A reading of /proc/stat taken during play, at `at_s` seconds of play.
struct HostSample {
  double at_s;
  CpuTicks ticks;
};

// --timeline: each window's moves, p50, p99 and max, and how many of its moves are over the
// whole run's p99 (`tail`): a tail made in a few seconds shows up as one window holding it.
// Each window also shows the share of CPU time the hypervisor stole in it, over all CPUs,
// from the readings in `host` nearest to its ends.
void print_timeline(const std::vector<double>& ms, const std::vector<float>& at, int window_s, double p99,
                    const std::vector<HostSample>& host) {
  std::vector<std::vector<double>> windows;
  for (std::size_t i = 0; i < ms.size() && i < at.size(); ++i) {
    const auto w = static_cast<std::size_t>(std::max(0.0f, at[i]) / static_cast<float>(window_s));
    if (w >= windows.size()) windows.resize(w + 1);
    windows[w].push_back(ms[i]);
  }
  // The index of the reading nearest to a moment of play.
  const auto nearest = [&](double t) {
    std::size_t best = 0;
    for (std::size_t i = 1; i < host.size(); ++i) {
      if (std::abs(host[i].at_s - t) < std::abs(host[best].at_s - t)) best = i;
    }
    return best;
  };
  std::fprintf(stderr, "timeline (%d s windows): from_s moves p50_ms p99_ms max_ms over_run_p99 host_steal_pct\n",
               window_s);
  for (std::size_t w = 0; w < windows.size(); ++w) {
    const auto& v = windows[w];
    const auto tail = std::count_if(v.begin(), v.end(), [&](double x) { return x > p99; });
    // Between the readings nearest to the window's ends, moved apart to span at least 0.9 s
    // (readings come once a second, and once more at the end of play): the last window (moves
    // answered after the end) gets the last second's figure instead of none.
    const double from = static_cast<double>(w) * window_s;
    std::size_t a = nearest(from);
    const std::size_t b = std::max(nearest(from + window_s), std::min(a + 1, host.size() - 1));
    while (a > 0 && host[b].at_s - host[a].at_s < 0.9) --a;
    const std::vector<double> steal = b > a ? steal_percent(host[a].ticks, host[b].ticks) : std::vector<double>{};
    std::fprintf(stderr, "  %6zu %6zu %8.2f %8.2f %8.2f %6ld %8.1f\n", w * static_cast<std::size_t>(window_s), v.size(),
                 percentile(v, 0.5), percentile(v, 0.99), v.empty() ? 0.0 : *std::max_element(v.begin(), v.end()),
                 static_cast<long>(tail), steal.empty() ? -1.0 : steal[0]);
  }
}

// Sums of carc_room_memory_bytes{part=...} from /metrics (absent on servers without it).
struct MemorySplit {
  double engine = -1, history = -1, view = -1, other = -1;
  static MemorySplit parse(const std::string& metrics) {
    MemorySplit m;
    const auto get = [&](const char* part) -> double {
      const std::string key = std::string("carc_room_memory_bytes{part=\"") + part + "\"} ";
      const auto at = metrics.find(key);
      return at == std::string::npos ? -1 : std::atof(metrics.c_str() + at + key.size());
    };
    m.engine = get("engine");
    m.history = get("history");
    m.view = get("view");
    m.other = get("other");
    return m;
  }
};

class Bench;

struct Room {
  int index = 0;  // in Bench::rooms_
  std::string id;
  std::vector<std::unique_ptr<WsConn>> conns;
  std::vector<int> seat;      // by connection
  std::vector<std::int64_t> version;  // by connection
  std::vector<WsConn*> by_seat;
  int welcomed = 0;
  bool started = false;   // its first turn has come
  bool standby = false;   // set up ahead, waiting to replace a finished game (flat out)
  bool finished = false;
  carc::load::Turn turn;
  bool has_turn = false;
  std::int64_t brain_version = 0;
  std::int64_t pending = 0;  // the version the move in flight will produce
  Clock::time_point sent_at;
  Clock::time_point created_at;
  int received = 0;
  std::mt19937_64 rng;
};

class Bench final : public WsConn::Handler {
 public:
  Bench(Loop& loop, Options opt) : loop_(loop), opt_(std::move(opt)) {}

  void start() {
    for (int r = 0; r < opt_.rooms; ++r) create_room();
    for (int r = 0; r < standby_pool(); ++r) create_room(true);
  }

  // Flat out, a pool of rooms (as many as play) is set up ahead, seated and started, and
  // each finished game is replaced by the oldest of them: R rooms stay in play however long
  // a server takes to set a room up. (A server slow at that would otherwise have fewer
  // games in play at once, and so show a lower latency for each move.)
  int standby_pool() const { return opt_.interval_ms == 0 && opt_.replace && opt_.standby ? opt_.rooms : 0; }

  bool all_started() const { return started_rooms_ >= opt_.rooms; }
  void begin_play() {
    playing_ = true;
    moves_ = 0;
    play_start_ = Clock::now();
    latency_.clear();
    latency_at_.clear();
    setup_ms_.clear();
    patches_ = 0;
    patch_bytes_ = 0;
  }
  void end_play() { playing_ = false; }
  void stop() {
    stopping_ = true;
    for (auto& r : rooms_) {
      if (!r) continue;
      for (auto& c : r->conns) {
        if (c) c->close();
      }
    }
  }

  // ---- figures ----
  std::uint64_t moves_ = 0, patches_ = 0, patch_bytes_ = 0, errors_ = 0, disconnects_ = 0, games_ = 0;
  std::vector<double> latency_;
  std::vector<float> latency_at_;  // when each latency_ sample ended, in seconds of play
  Clock::time_point play_start_{};
  std::vector<double> setup_ms_;  // a room's creation to its first turn, for rooms set up while playing
  int started_rooms_ = 0;
  int in_play_ = 0;  // rooms started and not finished

 private:
  Loop& loop_;
  Options opt_;
  std::vector<std::unique_ptr<Room>> rooms_;
  std::random_device rd_;
  bool playing_ = false;
  bool stopping_ = false;
  int connecting_ = 0;
  std::vector<std::pair<int, int>> to_connect_;  // (room, player)
  std::deque<int> ready_;  // standby rooms started and waiting, oldest first
  int waiting_ = 0;        // finished games no standby room was ready to replace
  std::string play_;       // the move being written

  Room& room_of(const WsConn& c) { return *rooms_[static_cast<std::size_t>(c.tag / 8)]; }
  static int player_of(const WsConn& c) { return c.tag % 8; }

  int create_room(bool standby = false) {
    const int index = static_cast<int>(rooms_.size());
    auto room = std::make_unique<Room>();
    room->index = index;
    room->standby = standby;
    room->rng.seed((static_cast<std::uint64_t>(rd_()) << 32) | rd_());
    room->created_at = Clock::now();
    room->seat.assign(static_cast<std::size_t>(opt_.players), -1);
    room->version.assign(static_cast<std::size_t>(opt_.players), 0);
    room->by_seat.assign(static_cast<std::size_t>(opt_.players), nullptr);
    room->conns.resize(static_cast<std::size_t>(opt_.players));
    rooms_.push_back(std::move(room));
    carc::load::http_request(loop_, opt_.port, "POST", "/api/rooms", [this, index](int status, std::string body) {
      if (stopping_) return;
      if (status != 201) {
        if (errors_++ < 5) std::fprintf(stderr, "POST /api/rooms: %d %s\n", status, body.c_str());
        return;
      }
      rooms_[static_cast<std::size_t>(index)]->id = json::parse(body).at("room").get<std::string>();
      for (int p = 0; p < opt_.players; ++p) to_connect_.emplace_back(index, p);
      pump();
    });
    return index;
  }

  // Connects in batches: thousands of simultaneous SYNs overflow the listen queue.
  void pump() {
    while (connecting_ < opt_.connect_batch && !to_connect_.empty()) {
      const auto [index, p] = to_connect_.back();
      to_connect_.pop_back();
      Room& r = *rooms_[static_cast<std::size_t>(index)];
      auto& c = r.conns[static_cast<std::size_t>(p)];
      c = std::make_unique<WsConn>(loop_, *this, (static_cast<std::uint64_t>(rd_()) << 32) | rd_());
      c->tag = index * 8 + p;
      ++connecting_;
      c->connect(opt_.port, "/ws/" + r.id);
    }
  }

  void on_open(WsConn& c) override {
    --connecting_;
    pump();
    c.send_text(R"({"type":"join","name":"p)" + std::to_string(player_of(c)) + "\"}");
  }

  void on_closed(WsConn& c, std::string_view why) override {
    Room& r = room_of(c);
    if (!c.was_open()) {  // it never connected: let the next one try
      --connecting_;
      pump();
    }
    if (!stopping_ && !r.finished) {
      if (disconnects_++ < 5) std::fprintf(stderr, "room %s: connection closed: %.*s\n", r.id.c_str(),
                                           static_cast<int>(why.size()), why.data());
    }
  }

  void on_text(WsConn& c, std::string_view text) override {
    Room& r = room_of(c);
    const int p = player_of(c);
    if (text.starts_with(R"({"type":"patch")")) {
      const std::int64_t v = carc::load::frame_version(text);
      r.version[static_cast<std::size_t>(p)] = v;
      if (p == 0) brain(r, text, v);
      if (r.pending != 0 && v >= r.pending && ++r.received == opt_.players) {
        if (playing_) {
          const auto now = Clock::now();
          latency_.push_back(std::chrono::duration<double, std::milli>(now - r.sent_at).count());
          latency_at_.push_back(std::chrono::duration<float>(now - play_start_).count());
        }
        r.pending = 0;
        if (r.finished) return close_room(r);
        if (opt_.interval_ms == 0) move(r);
      }
      return;
    }
    const json msg = json::parse(text);
    const std::string type = msg.value("type", "");
    if (type == "welcome") {
      const int seat = msg["seat"].is_null() ? -1 : msg["seat"].get<int>();
      r.seat[static_cast<std::size_t>(p)] = seat;
      r.version[static_cast<std::size_t>(p)] = msg["version"].get<std::int64_t>();
      if (seat >= 0 && seat < opt_.players) r.by_seat[static_cast<std::size_t>(seat)] = &c;
      if (p == 0) r.brain_version = msg["version"].get<std::int64_t>();
      if (++r.welcomed == opt_.players) {
        // Everybody is seated; the host (seat 0) starts.
        if (r.by_seat[0] != nullptr) r.by_seat[0]->send_text(R"({"type":"start"})");
      }
    } else if (type == "error") {
      if (errors_++ < 5) std::fprintf(stderr, "room %s: error %.*s\n", r.id.c_str(), static_cast<int>(text.size()), text.data());
      if (r.pending != 0) r.pending = 0;  // a refused move: try another
    }
  }

  // The room's first client reads each patch's turn and the end of the game.
  void brain(Room& r, std::string_view text, std::int64_t v) {
    r.brain_version = v;
    if (playing_) {
      ++patches_;
      patch_bytes_ += text.size();
    }
    const auto change = carc::load::scan_turn(text, r.turn);
    switch (change) {
      case carc::load::TurnChange::New: r.has_turn = true; break;
      case carc::load::TurnChange::Ended: r.has_turn = false; break;
      case carc::load::TurnChange::None: break;
    }
    if (!r.started && r.has_turn) {
      r.started = true;
      if (playing_) setup_ms_.push_back(std::chrono::duration<double, std::milli>(Clock::now() - r.created_at).count());
      if (!r.standby) play(r);
      else standby_ready(r);
    }
    // The game ends in a patch without a new turn: only those are searched for the phase.
    if (!r.finished && change != carc::load::TurnChange::New && carc::load::sets_phase(text, "finished")) finish(r);
  }

  // A started room begins to play.
  void play(Room& r) {
    r.standby = false;
    ++started_rooms_;
    ++in_play_;
    if (opt_.interval_ms > 0) {
      // Spread the rooms over the interval, then one move per interval.
      loop_.at(Clock::now() + std::chrono::milliseconds(r.rng() % static_cast<unsigned>(opt_.interval_ms)),
               [this, index = r.index] { tick(index); });
      return;
    }
    move(r);
  }

  // A standby room has its first turn: it replaces a finished game at once if one is
  // waiting for it, else it waits for the next game's end.
  void standby_ready(Room& r) {
    if (waiting_ > 0) {
      --waiting_;
      play(r);
    } else {
      ready_.push_back(r.index);
    }
  }

  void finish(Room& r) {
    r.finished = true;
    r.has_turn = false;
    if (r.started) --in_play_;
    ++games_;  // its timer, if any, finds it finished
    if (opt_.replace && !stopping_) {
      if (standby_pool() == 0) {
        create_room();
      } else {
        create_room(true);  // refills the pool
        while (!ready_.empty() && !rooms_[static_cast<std::size_t>(ready_.front())]) ready_.pop_front();
        if (ready_.empty()) {
          ++waiting_;  // the next standby room to be ready plays at once
        } else {
          Room& next = *rooms_[static_cast<std::size_t>(ready_.front())];
          ready_.pop_front();
          play(next);
        }
      }
    }
    if (r.pending == 0) close_room(r);  // else once every client has the last patch
  }

  // Closes a finished room's connections and forgets it (at the end of the loop's turn:
  // the handler that called this still holds the room, and events of this turn may name
  // its connections).
  void close_room(Room& r) {
    for (auto& c : r.conns) {
      if (c) c->close();
    }
    loop_.later([this, index = static_cast<std::size_t>(r.index)] { rooms_[index].reset(); });
  }

  // A paced room's move; the next one an interval later.
  void tick(int index) {
    Room* r = rooms_[static_cast<std::size_t>(index)].get();
    if (r == nullptr || r->finished || stopping_) return;
    move(*r);
    loop_.at(Clock::now() + std::chrono::milliseconds(opt_.interval_ms), [this, index] { tick(index); });
  }

  void move(Room& r) {
    if (r.finished || r.pending != 0 || !r.has_turn || r.turn.legal.empty() || stopping_) return;
    if (r.turn.seat < 0 || r.turn.seat >= opt_.players) return;
    WsConn* c = r.by_seat[static_cast<std::size_t>(r.turn.seat)];
    if (c == nullptr) return;
    const carc::load::Legal& pick = r.turn.legal[r.rng() % r.turn.legal.size()];
    std::string& play = play_;  // reused: a move allocates nothing
    play.clear();
    const auto num = [&](std::int64_t v) {
      std::array<char, 24> digits;
      play.append(digits.data(), std::to_chars(digits.data(), digits.data() + digits.size(), v).ptr);
    };
    play += R"({"type":"play","version":)";
    num(r.brain_version);
    play += R"(,"x":)";
    num(pick.x);
    play += R"(,"y":)";
    num(pick.y);
    play += R"(,"rotation":)";
    num(pick.rotation);
    play += R"(,"meeple":)";
    if (pick.meeple_count > 0 && r.rng() % 3 == 0) {
      play += '"';
      play += pick.meeples[r.rng() % static_cast<unsigned>(pick.meeple_count)].data();
      play += '"';
    } else {
      play += "null";
    }
    play += '}';
    r.pending = r.brain_version + 1;
    r.received = 0;
    r.sent_at = Clock::now();
    if (playing_) ++moves_;
    c->send_text(play);
  }
};

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
  if (rss0 > 0) {
    per_room_kb = static_cast<double>(rss_peak - rss0) / opt.rooms;
    std::printf("server RSS: start %ld KB, seated+started %ld KB, peak %ld KB\n", rss0, rss_seated, rss_peak);
    std::printf("server memory per room (everything, at the peak): %.1f KB\n", per_room_kb);
    if (split.engine >= 0) {
      const double n = opt.rooms;
      const double rooms_kb = (split.engine + split.history + split.view + split.other) / 1024.0 / n;
      per_conn_kb = (per_room_kb - rooms_kb) / opt.players;
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
