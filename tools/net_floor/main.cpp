// What the kernel alone charges a server for one move of the flat-out benchmark, with no
// rules, no JSON, no WebSocket framing and no storage: the floor under any server that
// speaks our protocol over TCP on this machine (docs/hot-path.md, "Where a move's CPU goes").
//
// A "server" process pinned to one core reads one small message (the move) from a room's
// first socket and writes one patch of --patch-bytes to each of the room's --players
// sockets; a "client" process pinned to the other core answers each room with its next
// move once all of the room's sockets got their patch. R rooms play flat out over
// loopback TCP, as `carcassonne-load --rooms R --interval-ms 0` drives a real server. It
// prints the server side's moves per second and CPU per move (utime + stime), for:
//
//   epoll     one recv and one send per socket, as a server on epoll (Asio's reactor,
//             Node's libuv) makes them;
//   io_uring  the same operations batched into one io_uring_enter per loop (receives and
//             sends queued as submissions, sends without completions, deferred task
//             running): only built where liburing is installed.
//
//   carc-net-floor [--mode epoll|io_uring|both] [--rooms R] [--players P]
//                  [--patch-bytes N] [--seconds S] [--server-cpu C] [--client-cpu C]
//
// Defaults: both, 100 rooms x 4 players, 2,300 bytes a patch (our average), 10 s, the
// server on CPU 0 and the client on CPU 1. Loopback only; it stops by itself. The last
// line repeats the figures as one JSON object (bench/compare.sh --floor reads it).
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sched.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#if CARC_HAVE_LIBURING
#include <liburing.h>
#endif

#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace {

struct Options {
  std::string mode = "both";
  int rooms = 100;
  int players = 4;
  int patch_bytes = 2300;
  int seconds = 10;
  int server_cpu = 0;
  int client_cpu = 1;
};

constexpr int kMoveBytes = 100;

using Clock = std::chrono::steady_clock;

double cpu_seconds() {
  rusage r{};
  ::getrusage(RUSAGE_SELF, &r);
  return static_cast<double>(r.ru_utime.tv_sec + r.ru_stime.tv_sec) +
         static_cast<double>(r.ru_utime.tv_usec + r.ru_stime.tv_usec) * 1e-6;
}

void pin(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  if (::sched_setaffinity(0, sizeof set, &set) != 0) std::perror("sched_setaffinity");
}

void die(const char* what) {
  std::perror(what);
  std::exit(1);
}

// rooms x players connected pairs over 127.0.0.1: server[i] talks to client[i].
void connect_pairs(int n, std::vector<int>& server, std::vector<int>& client) {
  const int listener = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  if (listener < 0 || ::bind(listener, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
      ::listen(listener, 1024) != 0 || ::getsockname(listener, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
    die("listen");
  }
  const int one = 1;
  for (int i = 0; i < n; ++i) {
    const int c = ::socket(AF_INET, SOCK_STREAM, 0);
    if (c < 0 || ::connect(c, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) die("connect");
    const int s = ::accept(listener, nullptr, nullptr);
    if (s < 0) die("accept");
    ::setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    ::setsockopt(s, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    client.push_back(c);
    server.push_back(s);
  }
  ::close(listener);
}

// The client side: plain epoll, answers a room once each of its sockets holds a patch.
[[noreturn]] void run_client(const Options& o, const std::vector<int>& fds, double seconds) {
  const int ep = ::epoll_create1(0);
  for (std::size_t i = 0; i < fds.size(); ++i) {
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.u64 = i;
    ::epoll_ctl(ep, EPOLL_CTL_ADD, fds[i], &ev);
  }
  std::vector<long> got(fds.size(), 0);  // bytes of patches received, per socket
  std::vector<int> complete(static_cast<std::size_t>(o.rooms), 0);
  std::vector<char> buf(1 << 16);
  const std::string move(kMoveBytes, 'm');
  for (int r = 0; r < o.rooms; ++r) {
    if (::write(fds[static_cast<std::size_t>(r * o.players)], move.data(), move.size()) < 0) die("write");
  }
  const auto end = Clock::now() + std::chrono::duration<double>(seconds);
  std::vector<epoll_event> events(512);
  while (Clock::now() < end) {
    const int n = ::epoll_wait(ep, events.data(), static_cast<int>(events.size()), 100);
    for (int k = 0; k < n; ++k) {
      const std::size_t i = events[static_cast<std::size_t>(k)].data.u64;
      const ssize_t m = ::read(fds[i], buf.data(), buf.size());
      if (m <= 0) continue;
      got[i] += m;
      while (got[i] >= o.patch_bytes) {
        got[i] -= o.patch_bytes;
        const std::size_t room = i / static_cast<std::size_t>(o.players);
        if (++complete[room] == o.players) {
          complete[room] = 0;
          if (::write(fds[room * static_cast<std::size_t>(o.players)], move.data(), move.size()) < 0) std::_Exit(0);
        }
      }
    }
  }
  std::_Exit(0);
}

struct Result {
  double moves_per_s = 0, us_per_move = 0;
};

// The server side on epoll: one read, then one send per socket of the room.
Result serve_epoll(const Options& o, const std::vector<int>& fds, double seconds) {
  const int ep = ::epoll_create1(0);
  for (int r = 0; r < o.rooms; ++r) {
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.u64 = static_cast<std::uint64_t>(r);
    ::epoll_ctl(ep, EPOLL_CTL_ADD, fds[static_cast<std::size_t>(r * o.players)], &ev);
  }
  const std::string patch(static_cast<std::size_t>(o.patch_bytes), 'p');
  std::vector<char> buf(4096);
  std::vector<epoll_event> events(512);
  long moves = 0;
  const auto start = Clock::now();
  const double cpu0 = cpu_seconds();
  while (Clock::now() - start < std::chrono::duration<double>(seconds)) {
    const int n = ::epoll_wait(ep, events.data(), static_cast<int>(events.size()), 100);
    for (int k = 0; k < n; ++k) {
      const auto r = static_cast<int>(events[static_cast<std::size_t>(k)].data.u64);
      const ssize_t m = ::read(fds[static_cast<std::size_t>(r * o.players)], buf.data(), buf.size());
      if (m <= 0) continue;
      moves += m / kMoveBytes;
      for (int p = 0; p < o.players; ++p) {
        if (::send(fds[static_cast<std::size_t>(r * o.players + p)], patch.data(), patch.size(), MSG_NOSIGNAL) < 0) {
          die("send");
        }
      }
    }
  }
  const double wall = std::chrono::duration<double>(Clock::now() - start).count();
  return {static_cast<double>(moves) / wall, 1e6 * (cpu_seconds() - cpu0) / static_cast<double>(moves)};
}

#if CARC_HAVE_LIBURING
// The server side on io_uring: a receive armed on each room's first socket; each move
// queues its sends (no completion asked for when they succeed) and re-arms the receive;
// one io_uring_enter a loop submits everything and waits for the next completions.
Result serve_uring(const Options& o, const std::vector<int>& fds, double seconds) {
  io_uring ring{};
  io_uring_params params{};
  params.flags = IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN;
  if (const int e = io_uring_queue_init_params(8192, &ring, &params); e < 0) {
    std::fprintf(stderr, "io_uring_queue_init: %s\n", std::strerror(-e));
    std::exit(1);
  }
  const std::string patch(static_cast<std::size_t>(o.patch_bytes), 'p');
  std::vector<std::array<char, 512>> bufs(static_cast<std::size_t>(o.rooms));
  const auto sqe = [&ring] {
    io_uring_sqe* s = io_uring_get_sqe(&ring);
    if (s == nullptr) {
      io_uring_submit(&ring);
      s = io_uring_get_sqe(&ring);
    }
    return s;
  };
  const auto arm = [&](int r) {
    io_uring_sqe* s = sqe();
    io_uring_prep_recv(s, fds[static_cast<std::size_t>(r * o.players)], bufs[static_cast<std::size_t>(r)].data(),
                       bufs[static_cast<std::size_t>(r)].size(), 0);
    io_uring_sqe_set_data64(s, static_cast<std::uint64_t>(r) + 1);
  };
  for (int r = 0; r < o.rooms; ++r) arm(r);
  long moves = 0;
  const auto start = Clock::now();
  const double cpu0 = cpu_seconds();
  while (Clock::now() - start < std::chrono::duration<double>(seconds)) {
    __kernel_timespec timeout{0, 100'000'000};
    io_uring_cqe* first = nullptr;
    io_uring_submit_and_wait_timeout(&ring, &first, 1, &timeout, nullptr);
    unsigned head = 0, seen = 0;
    io_uring_cqe* cqe = nullptr;
    io_uring_for_each_cqe(&ring, head, cqe) {
      ++seen;
      const std::uint64_t tag = io_uring_cqe_get_data64(cqe);
      if (tag == 0 || tag == LIBURING_UDATA_TIMEOUT) {  // a failed send, or the wait's timeout
        if (tag == 0 && cqe->res < 0) {
          std::fprintf(stderr, "send: %s\n", std::strerror(-cqe->res));
          std::exit(1);
        }
        continue;
      }
      const auto r = static_cast<int>(tag - 1);
      if (cqe->res <= 0) continue;
      moves += cqe->res / kMoveBytes;
      for (int p = 0; p < o.players; ++p) {
        io_uring_sqe* s = sqe();
        io_uring_prep_send(s, fds[static_cast<std::size_t>(r * o.players + p)], patch.data(), patch.size(),
                           MSG_NOSIGNAL);
        io_uring_sqe_set_data64(s, 0);
        s->flags |= IOSQE_CQE_SKIP_SUCCESS;
      }
      arm(r);
    }
    io_uring_cq_advance(&ring, seen);
  }
  const double wall = std::chrono::duration<double>(Clock::now() - start).count();
  io_uring_queue_exit(&ring);
  return {static_cast<double>(moves) / wall, 1e6 * (cpu_seconds() - cpu0) / static_cast<double>(moves)};
}
#endif

Result run(const Options& o, std::string_view mode) {
  std::vector<int> server, client;
  connect_pairs(o.rooms * o.players, server, client);
  const pid_t child = ::fork();
  if (child < 0) die("fork");
  if (child == 0) {
    for (int fd : server) ::close(fd);
    pin(o.client_cpu);
    run_client(o, client, o.seconds + 1.0);  // outlives the measurement
  }
  for (int fd : client) ::close(fd);
  pin(o.server_cpu);
  Result res;
#if CARC_HAVE_LIBURING
  res = mode == "io_uring" ? serve_uring(o, server, o.seconds) : serve_epoll(o, server, o.seconds);
#else
  res = serve_epoll(o, server, o.seconds);
#endif
  ::waitpid(child, nullptr, 0);
  for (int fd : server) ::close(fd);
  return res;
}

int usage() {
  std::fprintf(stderr,
               "usage: carc-net-floor [--mode epoll|io_uring|both] [--rooms R] [--players P] [--patch-bytes N]\n"
               "                      [--seconds S] [--server-cpu C] [--client-cpu C]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "--help" || a == "-h") return usage(), 0;
    if (i + 1 >= argc) return usage();
    const char* v = argv[++i];
    if (a == "--mode") o.mode = v;
    else if (a == "--rooms") o.rooms = std::atoi(v);
    else if (a == "--players") o.players = std::atoi(v);
    else if (a == "--patch-bytes") o.patch_bytes = std::atoi(v);
    else if (a == "--seconds") o.seconds = std::atoi(v);
    else if (a == "--server-cpu") o.server_cpu = std::atoi(v);
    else if (a == "--client-cpu") o.client_cpu = std::atoi(v);
    else return usage();
  }
  if (o.rooms < 1 || o.rooms > 5000 || o.players < 1 || o.players > 5 || o.patch_bytes < 1 ||
      o.patch_bytes > 60000 || o.seconds < 1) {
    return usage();
  }
  std::vector<std::string> modes;
  if (o.mode == "both" || o.mode == "epoll") modes.emplace_back("epoll");
  if (o.mode == "both" || o.mode == "io_uring") {
#if CARC_HAVE_LIBURING
    modes.emplace_back("io_uring");
#else
    if (o.mode == "io_uring") {
      std::fprintf(stderr, "built without liburing: no io_uring mode\n");
      return 1;
    }
#endif
  }
  if (modes.empty()) return usage();
  std::printf("%d rooms x %d players flat out, %d-byte moves, %d-byte patches, %d s; server on CPU %d, client on %d\n",
              o.rooms, o.players, kMoveBytes, o.patch_bytes, o.seconds, o.server_cpu, o.client_cpu);
  std::string line = "{";
  for (const auto& mode : modes) {
    const Result r = run(o, mode);
    std::printf("%-8s  %8.0f moves/s  %6.1f us of server CPU per move\n", mode.c_str(), r.moves_per_s, r.us_per_move);
    std::fflush(stdout);
    char item[160];
    std::snprintf(item, sizeof item, "%s\"%s\":{\"moves_per_s\":%.1f,\"server_us_per_move\":%.1f}", line.size() > 1 ? "," : "",
                  mode.c_str(), r.moves_per_s, r.us_per_move);
    line += item;
  }
  std::printf("%s}\n", line.c_str());  // the same as one JSON object, for scripts
  return 0;
}
