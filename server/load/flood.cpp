// carcassonne-flood: one client address asking for rooms that do not exist, as fast as it
// can, over N keep-alive HTTP connections (the flood of docs/benchmarks.md). Each connection sends
// GET /api/rooms/<random id> (every other one .../record), waits for the answer, and sends
// the next; a connection the server closes is opened again. Counts the answers by status.
//
//   carcassonne-flood --port P [--source 127.0.0.2] [--conns 16] [--duration S] [--upgrades]
//
// --source: the loopback address the connections come from (the server, or HAProxy's
// X-Forwarded-For, sees it as the client). --upgrades asks for /ws/<id> upgrades instead.
// Only talks to 127.0.0.1 and stops after --duration seconds (or at SIGINT/SIGTERM, with
// its report). The last line is JSON.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <csignal>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <algorithm>
#include <random>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

volatile std::sig_atomic_t g_stop = 0;  // SIGINT/SIGTERM: stop early and report

struct Options {
  int port = 0;
  std::string source = "127.0.0.2";
  int conns = 16;
  int duration_s = 30;
  bool upgrades = false;
};

struct Conn {
  int fd = -1;
  std::string out;      // what is left to send
  std::string in;       // the answer so far
  bool waiting = false;  // a request is in flight
};

int open_conn(const Options& o) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd < 0) return -1;
  const int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  sockaddr_in from{};
  from.sin_family = AF_INET;
  if (::inet_pton(AF_INET, o.source.c_str(), &from.sin_addr) != 1 ||
      ::bind(fd, reinterpret_cast<const sockaddr*>(&from), sizeof from) != 0) {
    ::close(fd);
    return -1;
  }
  sockaddr_in to{};
  to.sin_family = AF_INET;
  to.sin_port = htons(static_cast<std::uint16_t>(o.port));
  to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&to), sizeof to) != 0 && errno != EINPROGRESS) {
    ::close(fd);
    return -1;
  }
  return fd;
}

// The status of a complete answer in `in` and its length, or 0 while it is incomplete.
int complete(const std::string& in, std::size_t& length, bool& close) {
  const auto end = in.find("\r\n\r\n");
  if (end == std::string::npos || in.size() < 12) return 0;
  std::size_t body = 0;
  std::string head = in.substr(0, end);
  for (auto& ch : head) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  if (const auto cl = head.find("\r\ncontent-length:"); cl != std::string::npos) body = std::strtoul(head.c_str() + cl + 17, nullptr, 10);
  if (in.size() < end + 4 + body) return 0;
  length = end + 4 + body;
  close = head.find("\r\nconnection: close") != std::string::npos;
  return std::atoi(in.c_str() + 9);
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "missing value for %s\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--port") o.port = std::stoi(value());
    else if (a == "--source") o.source = value();
    else if (a == "--conns") o.conns = std::stoi(value());
    else if (a == "--duration") o.duration_s = std::stoi(value());
    else if (a == "--upgrades") o.upgrades = true;
    else {
      std::fprintf(stderr, "usage: carcassonne-flood --port P [--source 127.0.0.2] [--conns 16] [--duration S] [--upgrades]\n");
      return 2;
    }
  }
  if (o.port <= 0 || o.conns < 1 || o.duration_s < 1) return std::fprintf(stderr, "--port is required\n"), 2;

  std::mt19937_64 rng(std::random_device{}());
  static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  std::uint64_t sent = 0;
  const auto request = [&]() {
    std::string id(16, 'x');
    for (auto& c : id) c = kAlphabet[rng() % (sizeof kAlphabet - 1)];
    ++sent;
    if (o.upgrades) {
      return "GET /ws/" + id + " HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
             "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n";
    }
    return "GET /api/rooms/" + id + (sent % 2 ? "/record" : "") + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
  };

  std::vector<Conn> conns(static_cast<std::size_t>(o.conns));
  std::map<int, std::uint64_t> statuses;  // 0: the connection failed or closed mid-answer
  std::uint64_t reconnects = 0;
  std::vector<double> waits_ms;
  std::vector<Clock::time_point> sent_at(conns.size());
  const auto reopen = [&](Conn& c) {
    if (c.fd >= 0) ::close(c.fd);
    c = Conn{};
    c.fd = open_conn(o);
    if (c.fd < 0) {
      std::fprintf(stderr, "cannot connect from %s: %s\n", o.source.c_str(), std::strerror(errno));
      std::exit(1);
    }
    ++reconnects;
  };
  for (auto& c : conns) reopen(c);
  reconnects = 0;

  std::signal(SIGINT, [](int) { g_stop = 1; });
  std::signal(SIGTERM, [](int) { g_stop = 1; });
  const auto start = Clock::now();
  const auto end = start + std::chrono::seconds(o.duration_s);
  std::vector<pollfd> fds(conns.size());
  char buf[16384];
  while (Clock::now() < end && g_stop == 0) {
    for (std::size_t i = 0; i < conns.size(); ++i) {
      auto& c = conns[i];
      if (!c.waiting && c.out.empty()) {
        c.out = request();
        c.waiting = true;
        sent_at[i] = Clock::now();
      }
      fds[i] = pollfd{c.fd, static_cast<short>(POLLIN | (c.out.empty() ? 0 : POLLOUT)), 0};
    }
    if (::poll(fds.data(), fds.size(), 100) < 0 && errno != EINTR) break;
    for (std::size_t i = 0; i < conns.size(); ++i) {
      auto& c = conns[i];
      if ((fds[i].revents & POLLOUT) && !c.out.empty()) {
        const auto n = ::send(c.fd, c.out.data(), c.out.size(), MSG_NOSIGNAL);
        if (n > 0) c.out.erase(0, static_cast<std::size_t>(n));
        else if (n < 0 && errno != EAGAIN) {
          ++statuses[0];
          reopen(c);
          continue;
        }
      }
      if (fds[i].revents & (POLLIN | POLLHUP | POLLERR)) {
        const auto n = ::recv(c.fd, buf, sizeof buf, 0);
        if (n > 0) c.in.append(buf, static_cast<std::size_t>(n));
        std::size_t length = 0;
        bool close = false;
        if (const int status = complete(c.in, length, close); status != 0) {
          ++statuses[status];
          waits_ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - sent_at[i]).count());
          c.in.erase(0, length);
          c.waiting = false;
          if (close || o.upgrades) reopen(c);
        } else if (n == 0 || (n < 0 && errno != EAGAIN)) {
          if (c.waiting && !c.in.empty()) ++statuses[0];
          reopen(c);
        }
      }
    }
  }
  const double secs = std::chrono::duration<double>(Clock::now() - start).count();
  std::uint64_t answered = 0, server_errors = 0;
  for (auto [s, n] : statuses) {
    if (s != 0) answered += n;
    if (s >= 500) server_errors += n;
  }
  std::sort(waits_ms.begin(), waits_ms.end());
  const double p99 = waits_ms.empty() ? 0 : waits_ms[static_cast<std::size_t>(0.99 * static_cast<double>(waits_ms.size() - 1))];
  std::printf("flood from %s over %d connections: %llu answers in %.1f s = %.0f/s (answer p99 %.2f ms), %llu reconnects\n",
              o.source.c_str(), o.conns, static_cast<unsigned long long>(answered), secs, static_cast<double>(answered) / secs, p99,
              static_cast<unsigned long long>(reconnects));
  std::string json = "{\"answers\":" + std::to_string(answered) + ",\"per_s\":" + std::to_string(static_cast<double>(answered) / secs) +
                     ",\"server_errors\":" + std::to_string(server_errors) + ",\"status\":{";
  bool first = true;
  for (auto [s, n] : statuses) {
    std::printf("  %s: %llu\n", s == 0 ? "broken" : std::to_string(s).c_str(), static_cast<unsigned long long>(n));
    json += std::string(first ? "" : ",") + "\"" + std::to_string(s) + "\":" + std::to_string(n);
    first = false;
  }
  std::printf("%s}}\n", json.c_str());
  return server_errors == 0 ? 0 : 1;
}
