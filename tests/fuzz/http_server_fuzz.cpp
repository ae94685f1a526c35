// Whole raw HTTP requests through the real server: one server in this process (SQLite in a
// temporary folder, player keys, notifications, the web client's files), and each input's
// bytes written to a fresh connection as they are (request line, query, headers, body), the
// answer read to its end. What is checked: the process lives, no handler threw (the guards'
// count stays 0: a thrown exception is a 500 to the client and a bug to us), every answer
// is an HTTP/1.1 response or nothing, and the server goes on answering /healthz.
//
// Limits that would make most inputs a 429 are off; the rest is the shipped configuration.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>

#include <spdlog/spdlog.h>

#include "app/config.hpp"
#include "durable/durability.hpp"
#include "fuzz_check.hpp"
#include "base/guard.hpp"
#include "net/server.hpp"
#include "push/setup.hpp"

#ifndef CARC_FUZZ_WEB_ROOT
#error "CARC_FUZZ_WEB_ROOT: the web client's folder"
#endif

namespace {

using namespace carc::server;

struct Running {
  std::unique_ptr<Durability> durability;
  std::unique_ptr<Server> server;
  std::thread thread;
  std::uint16_t port = 0;
};

Running* g_running = nullptr;

void stop_server() {
  if (g_running == nullptr) return;
  g_running->server->stop();
  g_running->thread.join();
  g_running->durability->stop_wakes();
}

Running* start_server() {
  char dir[] = "/tmp/carc-http-fuzz.XXXXXX";
  FUZZ_CHECK(::mkdtemp(dir) != nullptr);
  Config config;
  config.port = 0;
  config.bind = "127.0.0.1";
  config.web_root = CARC_FUZZ_WEB_ROOT;
  config.data_dir = std::filesystem::path(dir) / "data";
  std::filesystem::create_directories(config.data_dir);
  config.threads = 1;
  config.bot_threads = 1;
  config.log_level = "error";
  config.limits.room_rate_per_minute = 0;
  config.limits.ws_rate_per_second = 0;
  config.limits.lookup_rate_per_second = 0;
  config.limits.key_rate_per_minute = 0;
  config.limits.max_connections_per_ip = 0;
  config.limits.max_rooms = 500;
  config.limits.empty_room_ttl_s = 2;
  config.limits.http_timeout_s = 5;
  spdlog::set_level(spdlog::level::err);
  auto* r = new Running;  // lives until the process ends; stopped at exit
  r->durability = Durability::open(config);
  const Config settings = config;
  r->server = std::make_unique<Server>(config, r->durability->make_persistence());
  start_notifications(*r->server, settings);
  r->durability->restore(*r->server);
  r->port = r->server->listen();
  r->thread = std::thread([r] { r->server->run(); });
  std::atexit(stop_server);
  return r;
}

// The bytes on a fresh connection, our side closed after them; the whole answer.
std::string exchange(std::uint16_t port, const std::uint8_t* data, std::size_t size) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  FUZZ_CHECK(fd >= 0);
  // Each exchange from another loopback address (127.0.0.1 to 127.255.255.254): our side
  // closes first, so each connection waits a minute in TIME_WAIT, and from one address
  // hundreds of exchanges a second hold all 28,000 ephemeral ports within that minute
  // (connect failed after 88,084 runs at 473 a second). The server's per-address limits are
  // off here.
  static std::uint32_t exchanges = 0;
  sockaddr_in from{};
  from.sin_family = AF_INET;
  from.sin_addr.s_addr = htonl(0x7f000001u + exchanges++ % 0xFFFFFEu);
  FUZZ_CHECK(::bind(fd, reinterpret_cast<sockaddr*>(&from), sizeof from) == 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  addr.sin_addr.s_addr = htonl(0x7f000001);
  // libFuzzer's timer (SIGALRM, for -timeout) interrupts blocking calls: an interrupted
  // connect goes on in the background, so wait for it; send and recv are tried again.
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    int error = errno;
    if (error == EINTR) {
      pollfd p{fd, POLLOUT, 0};
      while (::poll(&p, 1, 10'000) < 0 && errno == EINTR) {
      }
      socklen_t len = sizeof error;
      ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &len);
    }
    if (error != 0) {
      std::fprintf(stderr, "connect: %s\n", std::strerror(error));
      FUZZ_CHECK(!"the server accepts a connection");
    }
  }
  const timeval tv{10, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
  std::size_t sent = 0;
  while (sent < size) {
    const auto n = ::send(fd, data + sent, size - sent, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // the server refused and closed: its answer is read below
    sent += static_cast<std::size_t>(n);
  }
  ::shutdown(fd, SHUT_WR);
  std::string answer;
  char buf[16384];
  for (;;) {
    const auto n = ::recv(fd, buf, sizeof buf, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      // A reset after a refusal (the server closed with our bytes unread) ends it too; a
      // timeout would be a server that holds a closed request open.
      FUZZ_CHECK(!(n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)));
      break;
    }
    answer.append(buf, static_cast<std::size_t>(n));
  }
  ::close(fd);
  return answer;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  g_running = start_server();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (g_running == nullptr) g_running = start_server();
  if (size > 80 * 1024) return 0;  // past every limit of the server: nothing new to learn
  const std::string answer = exchange(g_running->port, data, size);
  // The answer speaks the request's version: HTTP/1.0 is answered in HTTP/1.0.
  FUZZ_CHECK(answer.empty() || answer.starts_with("HTTP/1.1 ") || answer.starts_with("HTTP/1.0 "));
  FUZZ_CHECK(answer.size() < 12 || answer.compare(8, 4, " 500") != 0);
  FUZZ_CHECK(internal_errors() == 0);
  static unsigned runs = 0;
  if (++runs % 64 == 0) {
    static const std::string health = "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n";
    const auto h = exchange(g_running->port, reinterpret_cast<const std::uint8_t*>(health.data()), health.size());
    FUZZ_CHECK(h.starts_with("HTTP/1.1 200"));
  }
  return 0;
}
