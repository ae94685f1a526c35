// A small TCP relay for tests: listens on 127.0.0.1 and a free port, forwards
// every connection to `upstream`, both ways, on a thread of its own. freeze() stops
// forwarding without closing anything (a half-open network: the peers' kernels keep
// acknowledging what fits in the buffers, nobody answers); thaw() lets it flow again.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <thread>
#include <vector>

namespace carc::test {

class TcpRelay {
 public:
  explicit TcpRelay(std::uint16_t upstream_port) : upstream_(upstream_port) {
    listen_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = 0;
    if (::bind(listen_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || ::listen(listen_, 64) != 0) {
      throw std::runtime_error("relay: cannot listen");
    }
    socklen_t len = sizeof a;
    ::getsockname(listen_, reinterpret_cast<sockaddr*>(&a), &len);
    port_ = ntohs(a.sin_port);
    thread_ = std::thread([this] { run(); });
  }
  ~TcpRelay() {
    stop_ = true;
    thread_.join();
    for (const Pair& p : pairs_) {
      ::close(p.a);
      ::close(p.b);
    }
    ::close(listen_);
  }
  TcpRelay(const TcpRelay&) = delete;
  TcpRelay& operator=(const TcpRelay&) = delete;

  std::uint16_t port() const { return port_; }
  // Returns once nothing flows any more (the round under way, if any, is over).
  void freeze() {
    frozen_ = true;
    const auto seen = rounds_.load();
    while (rounds_.load() < seen + 2) std::this_thread::yield();
  }
  void thaw() { frozen_ = false; }

 private:
  struct Pair {
    int a, b;  // client side, server side
  };

  int connect_upstream() const {
    const int s = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = htons(upstream_);
    if (::connect(s, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
      ::close(s);
      return -1;
    }
    return s;
  }

  // Copies what `from` has to `to`; false once either side is closed.
  static bool pump(int from, int to) {
    char buf[16384];
    const ssize_t n = ::recv(from, buf, sizeof buf, MSG_DONTWAIT);
    if (n == 0) return false;
    if (n < 0) return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR;
    for (ssize_t sent = 0; sent < n;) {
      const ssize_t w = ::send(to, buf + sent, static_cast<std::size_t>(n - sent), MSG_NOSIGNAL);
      if (w <= 0) return false;
      sent += w;
    }
    return true;
  }

  void run() {
    while (!stop_) {
      rounds_.fetch_add(1);
      std::vector<pollfd> fds;
      fds.push_back({listen_, POLLIN, 0});
      const bool frozen = frozen_;
      if (!frozen) {
        for (const Pair& p : pairs_) {
          fds.push_back({p.a, POLLIN, 0});
          fds.push_back({p.b, POLLIN, 0});
        }
      }
      if (::poll(fds.data(), fds.size(), 20) <= 0) continue;
      if ((fds[0].revents & POLLIN) != 0) {
        // Accepted even while frozen (the kernel would complete the handshake anyway); the
        // upstream side is connected, and nothing flows until thaw().
        const int c = ::accept4(listen_, nullptr, nullptr, SOCK_CLOEXEC);
        if (c >= 0) {
          const int u = connect_upstream();
          if (u < 0) ::close(c);
          else pairs_.push_back({c, u});
        }
      }
      if (frozen) continue;
      std::vector<Pair> keep;
      for (std::size_t i = 0; i < pairs_.size() && 1 + 2 * i + 1 < fds.size(); ++i) {
        const Pair p = pairs_[i];
        bool ok = true;
        if ((fds[1 + 2 * i].revents & (POLLIN | POLLHUP | POLLERR)) != 0) ok = pump(p.a, p.b);
        if (ok && (fds[2 + 2 * i].revents & (POLLIN | POLLHUP | POLLERR)) != 0) ok = pump(p.b, p.a);
        if (ok) {
          keep.push_back(p);
        } else {
          ::close(p.a);
          ::close(p.b);
        }
      }
      // Pairs accepted in this round (not polled yet) stay too.
      for (std::size_t i = (fds.size() - 1) / 2; i < pairs_.size(); ++i) keep.push_back(pairs_[i]);
      pairs_ = std::move(keep);
    }
  }

  std::uint16_t upstream_;
  std::uint16_t port_ = 0;
  int listen_ = -1;
  std::vector<Pair> pairs_;  // the relay's thread only (and the destructor after it)
  std::atomic<bool> frozen_{false};
  std::atomic<bool> stop_{false};
  std::atomic<std::uint64_t> rounds_{0};
  std::thread thread_;
};

}  // namespace carc::test
