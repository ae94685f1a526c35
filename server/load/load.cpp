// carcassonne-load: R rooms x P players over real WebSockets, playing random legal games
// at a pace (--interval-ms, one move per room per interval) or flat out (0). Prints moves
// per second, move-to-every-client latency (from sending a play until every client of the
// room holds the patch), server memory per room and per connection, and bytes per patch.
//
// Only talks to 127.0.0.1 and always stops after --duration seconds.
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <fstream>
#include <iterator>
#include <sstream>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <nlohmann/json.hpp>

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;
using json = nlohmann::json;
using Clock = std::chrono::steady_clock;

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
};

void usage() {
  std::puts(
      "usage: carcassonne-load [--spawn SERVER_BIN [--server-arg ARG]... | --port N [--server-pid PID]]\n"
      "                        [--rooms R] [--players P] [--interval-ms MS] [--duration S]\n"
      "  --interval-ms 0 plays flat out; otherwise each room plays one move every MS milliseconds.\n"
      "  Connects to 127.0.0.1 only. --server-pid (or --spawn) enables the memory figures.");
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

std::string http_request(int port, http::verb verb, const std::string& target) {
  asio::io_context io;
  beast::tcp_stream stream(io);
  stream.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), static_cast<unsigned short>(port)));
  http::request<http::string_body> req{verb, target, 11};
  req.set(http::field::host, "127.0.0.1");
  if (verb == http::verb::post) req.body() = "{}";
  req.prepare_payload();
  http::write(stream, req);
  beast::flat_buffer buffer;
  http::response<http::string_body> res;
  http::read(stream, buffer, res);
  return res.body();
}

// utime + stime of a process, in seconds.
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
  const auto i = static_cast<std::size_t>(p * static_cast<double>(v.size() - 1));
  return v[i];
}

struct Stats {
  std::uint64_t moves = 0;
  std::uint64_t patches = 0;
  std::uint64_t patch_bytes = 0;
  std::uint64_t errors = 0;
  std::uint64_t disconnects = 0;
  std::vector<double> latency_ms;
  int joined_rooms = 0;
  int started_rooms = 0;
  int finished_rooms = 0;
  int open_connections = 0;
};

class Room;

class Conn : public std::enable_shared_from_this<Conn> {
 public:
  websocket::stream<beast::tcp_stream> ws;
  beast::flat_buffer buffer;
  Room* room;
  int index;  // join order within the room
  int seat = -1;
  std::int64_t version = 0;
  std::deque<std::string> out;
  bool writing = false;

  Conn(asio::io_context& io, Room* r, int i) : ws(io), room(r), index(i) {}
  void start(int port, const std::string& room_id, std::function<void()> opened);
  void send(std::string text);
  void read();

 private:
  void write();
};

class Room {
 public:
  std::string id;
  std::vector<std::shared_ptr<Conn>> conns;
  std::vector<Conn*> by_seat;
  json state;
  std::int64_t version = 0;
  int welcomed = 0;
  bool started = false;
  bool finished = false;
  // The move in flight: its version, when it was sent, who has it.
  std::int64_t pending = 0;
  Clock::time_point sent_at;
  int received = 0;
  bool waiting_for_slot = false;
  std::unique_ptr<asio::steady_timer> timer;
  std::mt19937_64 rng;
  Stats& stats;
  const Options& opt;

  Room(std::string room_id, Stats& s, const Options& o, std::uint64_t seed) : id(std::move(room_id)), rng(seed), stats(s), opt(o) {}

  void on_frame(Conn& c, const std::string& text) {
    // Everybody but the room's first connection reads only the type and version.
    const bool brain = c.index == 0;
    if (text.find("\"type\":\"patch\"") != std::string::npos) {
      const auto at = text.rfind("\"version\":");
      const std::int64_t v = std::atoll(text.c_str() + at + 10);
      c.version = v;
      if (pending != 0 && v >= pending && ++received == opt.players) {
        stats.latency_ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - sent_at).count());
        pending = 0;
        if (!brain && opt.interval_ms == 0) move();
      }
      if (brain) {
        ++stats.patches;
        stats.patch_bytes += text.size();
        const json msg = json::parse(text);
        state.patch_inplace(msg.at("ops"));
        version = v;
        after_change();
      }
      return;
    }
    const json msg = json::parse(text);
    const std::string type = msg.value("type", "");
    if (type == "welcome") {
      c.seat = msg["seat"].is_null() ? -1 : msg["seat"].get<int>();
      c.version = msg["version"].get<std::int64_t>();
      if (c.seat >= 0) by_seat[static_cast<std::size_t>(c.seat)] = &c;
      if (brain) {
        state = msg["state"];
        version = c.version;
      }
      if (++welcomed == opt.players) {
        ++stats.joined_rooms;
        // Everybody is seated once the brain catches up; the host starts.
        by_seat[0]->send(R"({"type":"start"})");
      }
    } else if (type == "error") {
      if (stats.errors++ < 5) std::fprintf(stderr, "room %s: error %s\n", id.c_str(), text.c_str());
    }
  }

  void after_change() {
    if (!started && state["phase"] == "playing") {
      started = true;
      ++stats.started_rooms;
      if (opt.interval_ms > 0) {
        // Spread the rooms over the interval, then one move per interval.
        timer->expires_after(std::chrono::milliseconds(rng() % static_cast<unsigned>(opt.interval_ms)));
        timer->async_wait([this](beast::error_code ec) { if (!ec) tick(); });
      }
    }
    if (!finished && state["phase"] == "finished") {
      finished = true;
      ++stats.finished_rooms;
      if (timer) timer->cancel();
      return;
    }
    if (started && opt.interval_ms == 0) move();
  }

  void tick() {
    move();
    timer->expires_after(std::chrono::milliseconds(opt.interval_ms));
    timer->async_wait([this](beast::error_code ec) { if (!ec && !finished) tick(); });
  }

  void move() {
    if (finished || pending != 0 || state["turn"].is_null()) return;
    const json& turn = state["turn"];
    const int seat = turn["seat"].get<int>();
    Conn* c = by_seat[static_cast<std::size_t>(seat)];
    if (c == nullptr) return;
    const json& legal = turn["legal"];
    const json& pick = legal[rng() % legal.size()];
    json meeple = nullptr;
    if (!pick["meeples"].empty() && rng() % 3 == 0) meeple = pick["meeples"][rng() % pick["meeples"].size()];
    json play{{"type", "play"}, {"version", version}, {"x", pick["x"]}, {"y", pick["y"]},
              {"rotation", pick["rotation"]}, {"meeple", meeple}};
    pending = version + 1;
    received = 0;
    sent_at = Clock::now();
    ++stats.moves;
    c->send(play.dump());
  }
};

void Conn::start(int port, const std::string& room_id, std::function<void()> opened) {
  auto self = shared_from_this();
  beast::get_lowest_layer(ws).async_connect(
      tcp::endpoint(asio::ip::make_address("127.0.0.1"), static_cast<unsigned short>(port)),
      [self, port, room_id, opened](beast::error_code ec) {
        if (ec) {
          std::fprintf(stderr, "connect: %s\n", ec.message().c_str());
          opened();
          return;
        }
        beast::get_lowest_layer(self->ws).socket().set_option(tcp::no_delay(true));
        self->ws.async_handshake("127.0.0.1:" + std::to_string(port), "/ws/" + room_id,
                                 [self, opened](beast::error_code ec2) {
                                   opened();
                                   if (ec2) {
                                     std::fprintf(stderr, "handshake: %s\n", ec2.message().c_str());
                                     return;
                                   }
                                   ++self->room->stats.open_connections;
                                   self->ws.text(true);
                                   self->read();
                                   self->send(json{{"type", "join"}, {"name", "p" + std::to_string(self->index)}}.dump());
                                 });
      });
}

void Conn::read() {
  ws.async_read(buffer, [self = shared_from_this()](beast::error_code ec, std::size_t) {
    if (ec) {
      if (!self->room->finished || ec != websocket::error::closed) ++self->room->stats.disconnects;
      --self->room->stats.open_connections;
      return;
    }
    const std::string text = beast::buffers_to_string(self->buffer.data());
    self->buffer.consume(self->buffer.size());
    self->room->on_frame(*self, text);
    self->read();
  });
}

void Conn::send(std::string text) {
  out.push_back(std::move(text));
  if (!writing) write();
}

void Conn::write() {
  writing = true;
  ws.async_write(asio::buffer(out.front()), [self = shared_from_this()](beast::error_code ec, std::size_t) {
    self->writing = false;
    if (ec) return;
    self->out.pop_front();
    if (!self->out.empty()) self->write();
  });
}

int free_port() {
  asio::io_context io;
  tcp::acceptor a(io, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
  return a.local_endpoint().port();
}

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
    else if (a == "--help" || a == "-h") return usage(), 0;
    else return std::fprintf(stderr, "unknown option %s\n", a.c_str()), usage(), 2;
  }
  if (opt.players < 2 || opt.players > 5 || opt.rooms < 1 || (opt.port == 0 && opt.spawn.empty())) {
    usage();
    return 2;
  }

  // Thousands of sockets: raise the descriptor limit to the hard limit (the spawned
  // server inherits it).
  rlimit lim{};
  if (::getrlimit(RLIMIT_NOFILE, &lim) == 0) {
    lim.rlim_cur = lim.rlim_max;
    ::setrlimit(RLIMIT_NOFILE, &lim);
  }

  pid_t child = -1;
  if (!opt.spawn.empty()) {
    opt.port = free_port();
    std::vector<std::string> args = {opt.spawn, "--port", std::to_string(opt.port), "--bind", "127.0.0.1",
                                     "--log-level", "warn", "--max-connections", "100000", "--max-rooms", "100000"};
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
    for (int i = 0; i < 100; ++i) {
      try {
        http_request(opt.port, http::verb::get, "/healthz");
        break;
      } catch (const std::exception&) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
      }
    }
  }

  Stats stats;
  const long rss0 = rss_kb(opt.server_pid);
  std::vector<std::unique_ptr<Room>> rooms;
  std::random_device rd;
  for (int r = 0; r < opt.rooms; ++r) {
    const json created = json::parse(http_request(opt.port, http::verb::post, "/api/rooms"));
    rooms.push_back(std::make_unique<Room>(created.at("room").get<std::string>(), stats, opt,
                                           (static_cast<std::uint64_t>(rd()) << 32) | rd()));
  }
  const long rss1 = rss_kb(opt.server_pid);

  asio::io_context io;
  for (auto& room : rooms) {
    room->timer = std::make_unique<asio::steady_timer>(io);
    room->by_seat.assign(static_cast<std::size_t>(opt.players), nullptr);
    for (int p = 0; p < opt.players; ++p) room->conns.push_back(std::make_shared<Conn>(io, room.get(), p));
  }
  // Connect in batches, the host of each room first so that seat 0 is the brain's... any
  // order works: seats come from the welcomes.
  std::vector<std::pair<Room*, int>> todo;
  for (int p = 0; p < opt.players; ++p) {
    for (auto& room : rooms) todo.emplace_back(room.get(), p);
  }
  std::size_t next = 0;
  int in_flight = 0;
  std::function<void()> pump = [&] {
    while (in_flight < opt.connect_batch && next < todo.size()) {
      auto [room, p] = todo[next++];
      ++in_flight;
      room->conns[static_cast<std::size_t>(p)]->start(opt.port, room->id, [&] {
        --in_flight;
        asio::post(io, pump);
      });
    }
  };
  const auto t_setup = Clock::now();
  asio::post(io, pump);

  // Phase 1: everybody joins and every game starts.
  const auto deadline = Clock::now() + std::chrono::seconds(opt.duration_s);
  while (stats.started_rooms < opt.rooms && Clock::now() < deadline) io.run_for(std::chrono::milliseconds(50));
  const double setup_s = std::chrono::duration<double>(Clock::now() - t_setup).count();
  const long rss2 = rss_kb(opt.server_pid);
  const std::uint64_t moves_at_start = stats.moves;
  const auto t_play = Clock::now();
  const double cpu_play0 = cpu_s(opt.server_pid);
  const double self_cpu0 = cpu_s(static_cast<int>(::getpid()));

  // Phase 2: play until every game is over or the time is up.
  long rss_peak = rss2;
  while (stats.finished_rooms < opt.rooms && Clock::now() < deadline) {
    io.run_for(std::chrono::milliseconds(200));
    rss_peak = std::max(rss_peak, rss_kb(opt.server_pid));
  }
  const double play_s = std::chrono::duration<double>(Clock::now() - t_play).count();
  const double cpu_play = cpu_s(opt.server_pid) - cpu_play0;
  const double self_cpu = cpu_s(static_cast<int>(::getpid())) - self_cpu0;
  const long rss3 = rss_kb(opt.server_pid);

  const std::uint64_t moves = stats.moves - moves_at_start;
  const int conns = opt.rooms * opt.players;
  std::printf("rooms %d x players %d (%d connections), %s\n", opt.rooms, opt.players, conns,
              opt.interval_ms == 0 ? "flat out" : ("one move per room every " + std::to_string(opt.interval_ms) + " ms").c_str());
  std::printf("setup (connect, join, start): %.2f s; rooms started %d, finished %d\n", setup_s, stats.started_rooms,
              stats.finished_rooms);
  std::printf("moves: %llu in %.2f s = %.1f moves/s\n", static_cast<unsigned long long>(moves), play_s,
              static_cast<double>(moves) / play_s);
  if (opt.server_pid > 0 && moves > 0) {
    std::printf("server CPU while playing: %.2f s (%.0f%% of one core), %.3f ms per move; load generator CPU %.2f s\n",
                cpu_play, 100.0 * cpu_play / play_s, 1000.0 * cpu_play / static_cast<double>(moves), self_cpu);
  }
  std::printf("move-to-every-client latency: p50 %.2f ms, p99 %.2f ms, max %.2f ms (%zu samples)\n",
              percentile(stats.latency_ms, 0.5), percentile(stats.latency_ms, 0.99),
              stats.latency_ms.empty() ? 0.0 : *std::max_element(stats.latency_ms.begin(), stats.latency_ms.end()),
              stats.latency_ms.size());
  std::printf("bytes per patch: %.0f (%llu patches)\n",
              stats.patches ? static_cast<double>(stats.patch_bytes) / static_cast<double>(stats.patches) : 0.0,
              static_cast<unsigned long long>(stats.patches));
  std::printf("errors: %llu, unexpected disconnects: %llu, open connections at the end: %d\n",
              static_cast<unsigned long long>(stats.errors), static_cast<unsigned long long>(stats.disconnects),
              stats.open_connections);
  if (rss0 > 0) {
    std::printf("server RSS: start %ld KB, %d empty rooms %ld KB, all seated+started %ld KB, end %ld KB, peak %ld KB\n",
                rss0, opt.rooms, rss1, rss2, rss3, rss_peak);
    std::printf("server memory per room (everything, at the peak): %.1f KB; per connection (seated, lobby->start): %.1f KB\n",
                static_cast<double>(rss_peak - rss0) / opt.rooms, static_cast<double>(rss2 - rss1) / conns);
  }

  for (auto& room : rooms) {
    room->finished = true;
    for (auto& c : room->conns) {
      beast::error_code ec;
      beast::get_lowest_layer(c->ws).socket().close(ec);
    }
  }
  io.run_for(std::chrono::milliseconds(200));
  if (child > 0) {
    ::kill(child, SIGTERM);
    ::waitpid(child, nullptr, 0);
  }
  // Skip tearing down thousands of sockets and handlers one by one.
  std::fflush(stdout);
  std::_Exit(stats.errors == 0 ? 0 : 1);
}
