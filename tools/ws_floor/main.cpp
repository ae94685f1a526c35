// A rules-free WebSocket server in C++ that speaks what the load generator uses of
// docs/protocol.md, move for move as bench/peer-node.mjs does (the same made-up
// legal lists of 40 placements, the same patches), on one thread over raw epoll. It exists
// to measure the load generator: no server with rules here is fast enough to show how many
// moves a second the generator can drive on one core, so this one does as little as a
// server can (docs/hot-path.md, "Today's figures").
//
//   carc-ws-floor [--port P] [--seconds S]
//
// Listens on 127.0.0.1 only (port 0: a free one, printed as "listening on port P"); stops
// by itself after S seconds (default 60) or on SIGTERM/SIGINT. POST /api/rooms makes a
// room; GET /ws/<room> upgrades; join, start and play work as in the peer. Not a server
// for people: it checks seat, version and that a placement is in the made-up list, and
// nothing else.
#include <arpa/inet.h>
#include <csignal>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <boost/beast/core/detail/base64.hpp>
#include <boost/beast/websocket/detail/hybi13.hpp>
#include <nlohmann/json.hpp>

#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace {

using json = nlohmann::json;

volatile std::sig_atomic_t g_stop = 0;

// RFC 6455 4.2.2: base64(SHA-1(key + the protocol's GUID)), as Beast answers it.
std::string accept_key(std::string_view key) {
  boost::beast::websocket::detail::sec_ws_accept_type accept;
  boost::beast::websocket::detail::make_sec_ws_accept(accept, key);
  return std::string(accept.data(), accept.size());
}

// `bytes` random bytes as unpadded base64url, the form of the peer's room ids.
std::string random_id(std::mt19937_64& rng, int bytes) {
  namespace base64 = boost::beast::detail::base64;
  std::vector<unsigned char> b(static_cast<std::size_t>(bytes));
  for (auto& c : b) c = static_cast<unsigned char>(rng());
  std::string s(base64::encoded_size(b.size()), '\0');
  s.resize(base64::encode(s.data(), b.data(), b.size()));
  for (char& c : s) c = c == '+' ? '-' : c == '/' ? '_' : c;
  while (!s.empty() && s.back() == '=') s.pop_back();
  return s;
}

// A text frame from the server: unmasked, FIN set.
std::string frame(std::string_view payload) {
  std::string out;
  out.reserve(payload.size() + 4);
  out += static_cast<char>(0x81);
  if (payload.size() < 126) {
    out += static_cast<char>(payload.size());
  } else {
    out += static_cast<char>(126);
    out += static_cast<char>((payload.size() >> 8) & 0xFF);
    out += static_cast<char>(payload.size() & 0xFF);
  }
  out.append(payload);
  return out;
}

// The made-up legal list after n board tiles, as the peer makes it: 40 placements.
bool in_legal(std::size_t n, int x, int y, int rotation) {
  for (int i = 0; i < 40; ++i) {
    if (x == static_cast<int>(n) + 1 + (i >> 2) && y == i % 7 && rotation == (i % 4) * 90) return true;
  }
  return false;
}

// The list's JSON text, written once for each board size.
const std::string& legal_text(std::size_t n) {
  static std::vector<std::string> cache;
  if (cache.size() <= n) cache.resize(n + 1);
  std::string& out = cache[n];
  if (!out.empty()) return out;
  static const std::array<const char*, 3> kMeeples{R"(["N"])", R"(["N","SL"])", R"(["N","SL","C"])"};
  out = "[";
  for (int i = 0; i < 40; ++i) {
    if (i > 0) out += ',';
    out += R"({"x":)" + std::to_string(static_cast<int>(n) + 1 + (i >> 2)) + R"(,"y":)" + std::to_string(i % 7) +
           R"(,"rotation":)" + std::to_string((i % 4) * 90) + R"(,"meeples":)" + kMeeples[static_cast<std::size_t>(i % 3)] + "}";
  }
  out += "]";
  return out;
}

struct Conn;

struct Room {
  std::string id;
  std::int64_t version = 0;
  std::vector<Conn*> socks;
  std::string phase = "lobby";
  std::vector<std::string> players;  // each player's JSON text
  std::vector<std::string> board;    // each board entry's JSON text
  int left = 71;
  int turn_number = 0;
  int turn_seat = 0;

  std::string turn_text() const {
    if (phase != "playing") return "null";
    return R"({"number":)" + std::to_string(turn_number) + R"(,"seat":)" + std::to_string(turn_seat) +
           R"(,"tile":"V","legal":)" + legal_text(board.size() - 1) + "}";
  }

  std::string state_text() const {
    std::string out = R"({"room":")" + id + R"(","phase":")" + phase + R"(","players":[)";
    for (std::size_t i = 0; i < players.size(); ++i) out += (i > 0 ? "," : "") + players[i];
    out += R"(],"turn":)" + turn_text() + R"(,"board":[)";
    for (std::size_t i = 0; i < board.size(); ++i) out += (i > 0 ? "," : "") + board[i];
    out += R"(],"bag":{"left":)" + std::to_string(left) + R"(,"tiles":{}},"events":[],"chat":[],"result":)";
    if (phase == "finished") {
      out += R"({"final_scores":[)";
      for (std::size_t i = 0; i < players.size(); ++i) out += i > 0 ? ",0" : "0";
      out += R"(],"winners":[0]})";
    } else {
      out += "null";
    }
    return out + "}";
  }
};

struct Conn {
  int fd = -1;
  bool ws = false;
  bool closing = false;  // close once `out` is written
  std::string in;
  std::string out;
  Room* room = nullptr;
  int seat = -1;
  bool dead = false;  // closed at the end of this round of events
};

class Server {
 public:
  Server(int listen_fd, int epoll_fd) : listen_(listen_fd), ep_(epoll_fd) {}

  void run(std::chrono::seconds limit) {
    const auto end = std::chrono::steady_clock::now() + limit;
    std::array<epoll_event, 256> events{};
    while (g_stop == 0 && std::chrono::steady_clock::now() < end) {
      const int n = ::epoll_wait(ep_, events.data(), static_cast<int>(events.size()), 200);
      for (int i = 0; i < n; ++i) {
        auto* c = static_cast<Conn*>(events[static_cast<std::size_t>(i)].data.ptr);
        if (c == nullptr) {
          accept_all();
          continue;
        }
        if (c->dead) continue;
        if ((events[static_cast<std::size_t>(i)].events & EPOLLOUT) != 0) flush(*c);
        if ((events[static_cast<std::size_t>(i)].events & (EPOLLIN | EPOLLHUP | EPOLLERR)) != 0) readable(*c);
      }
      reap();
    }
    std::printf("moves %llu\n", static_cast<unsigned long long>(moves_));
  }

 private:
  int listen_;
  int ep_;
  std::unordered_map<std::string, std::unique_ptr<Room>> rooms_;
  std::unordered_map<Conn*, std::unique_ptr<Conn>> conns_;
  std::vector<Conn*> dead_;  // to close once this round of events is done
  std::mt19937_64 rng_{std::random_device{}()};
  std::array<char, 65536> buf_{};
  std::uint64_t moves_ = 0;

  void accept_all() {
    for (;;) {
      const int fd = ::accept4(listen_, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
      if (fd < 0) return;
      const int one = 1;
      ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
      auto c = std::make_unique<Conn>();
      c->fd = fd;
      epoll_event ev{};
      ev.events = EPOLLIN;
      ev.data.ptr = c.get();
      ::epoll_ctl(ep_, EPOLL_CTL_ADD, fd, &ev);
      conns_.emplace(c.get(), std::move(c));
    }
  }

  void kill(Conn& c) {
    if (c.dead) return;
    c.dead = true;
    dead_.push_back(&c);
    if (c.room != nullptr) std::erase(c.room->socks, &c);
  }

  void reap() {
    for (Conn* c : dead_) {
      ::close(c->fd);
      conns_.erase(c);
    }
    dead_.clear();
  }

  void send(Conn& c, std::string_view bytes) {
    if (c.dead) return;
    if (!c.out.empty()) {
      c.out.append(bytes);
      return;
    }
    const ssize_t n = ::send(c.fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (n < 0 && errno != EAGAIN) return kill(c);
    const std::size_t sent = n < 0 ? 0 : static_cast<std::size_t>(n);
    if (sent == bytes.size()) {
      if (c.closing) kill(c);
      return;
    }
    c.out.assign(bytes.substr(sent));
    epoll_event ev{};
    ev.events = EPOLLIN | EPOLLOUT;
    ev.data.ptr = &c;
    ::epoll_ctl(ep_, EPOLL_CTL_MOD, c.fd, &ev);
  }

  void flush(Conn& c) {
    const ssize_t n = ::send(c.fd, c.out.data(), c.out.size(), MSG_NOSIGNAL);
    if (n < 0 && errno != EAGAIN) return kill(c);
    if (n > 0) c.out.erase(0, static_cast<std::size_t>(n));
    if (!c.out.empty()) return;
    if (c.closing) return kill(c);
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.ptr = &c;
    ::epoll_ctl(ep_, EPOLL_CTL_MOD, c.fd, &ev);
  }

  void readable(Conn& c) {
    const ssize_t n = ::recv(c.fd, buf_.data(), buf_.size(), 0);
    if (n == 0 || (n < 0 && errno != EAGAIN)) return kill(c);
    if (n < 0) return;
    c.in.append(buf_.data(), static_cast<std::size_t>(n));
    if (!c.ws) return http(c);
    frames(c);
  }

  void http(Conn& c) {
    const auto head_end = c.in.find("\r\n\r\n");
    if (head_end == std::string::npos) {
      if (c.in.size() > 8192) kill(c);
      return;
    }
    const std::string_view head(c.in.data(), head_end);
    const auto header = [&](std::string_view name) -> std::string_view {
      for (std::size_t at = head.find("\r\n"); at != std::string_view::npos; at = head.find("\r\n", at + 2)) {
        const std::string_view line = head.substr(at + 2, head.find("\r\n", at + 2) - (at + 2));
        if (line.size() > name.size() && strncasecmp(line.data(), name.data(), name.size()) == 0 && line[name.size()] == ':') {
          std::string_view v = line.substr(name.size() + 1);
          while (!v.empty() && v.front() == ' ') v.remove_prefix(1);
          return v;
        }
      }
      return {};
    };
    const std::size_t body = static_cast<std::size_t>(std::atol(std::string(header("Content-Length")).c_str()));
    if (c.in.size() < head_end + 4 + body) return;
    c.closing = true;
    if (head.starts_with("POST /api/rooms ")) {
      auto r = std::make_unique<Room>();
      r->id = random_id(rng_, 9);
      r->board.push_back(R"({"x":0,"y":0,"tile":"D","rotation":0,"meeple":null})");
      const std::string answer =
          json{{"room", r->id}, {"invite_url", "http://" + std::string(header("Host")) + "/r/" + r->id}}.dump();
      rooms_.emplace(r->id, std::move(r));
      return send(c, "HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: " +
                         std::to_string(answer.size()) + "\r\n\r\n" + answer);
    }
    if (head.starts_with("GET /healthz ")) return send(c, "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok");
    if (head.starts_with("GET /ws/")) {
      const std::string_view target = head.substr(8, head.find(' ', 8) - 8);
      const auto it = rooms_.find(std::string(target));
      const std::string_view key = header("Sec-WebSocket-Key");
      if (it != rooms_.end() && !key.empty()) {
        c.closing = false;
        c.ws = true;
        c.room = it->second.get();
        c.in.erase(0, head_end + 4);
        send(c, "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: " +
                    accept_key(key) + "\r\n\r\n");
        return frames(c);
      }
    }
    send(c, "HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
  }

  // Whole client frames (masked; no fragments: the generator sends none).
  void frames(Conn& c) {
    std::size_t at = 0;
    while (!c.dead) {
      const std::size_t left = c.in.size() - at;
      if (left < 6) break;
      const auto* p = reinterpret_cast<const unsigned char*>(c.in.data() + at);
      const int opcode = p[0] & 0x0F;
      std::size_t len = p[1] & 0x7F;
      std::size_t head = 2;
      if (len == 126) {
        len = (std::size_t{p[2]} << 8) | p[3];
        head = 4;
      } else if (len == 127 || (p[1] & 0x80) == 0 || len > 4096) {
        return kill(c);
      }
      if (left < head + 4 + len) break;
      const unsigned char* mask = p + head;
      std::string payload(c.in.data() + at + head + 4, len);
      for (std::size_t i = 0; i < len; ++i) payload[i] = static_cast<char>(payload[i] ^ mask[i % 4]);
      at += head + 4 + len;
      if (opcode == 0x8) return kill(c);
      if (opcode == 0x9) {
        std::string pong = frame(payload);
        pong[0] = static_cast<char>(0x8A);
        send(c, pong);
      } else if (opcode == 0x1) {
        message(c, payload);
      }
    }
    if (!c.dead) c.in.erase(0, at);
  }

  // One patch, serialized once, to every client of the room (`ops` is the array's text).
  void broadcast(Room& r, const std::string& ops) {
    ++r.version;
    const std::string out = frame(R"({"type":"patch","version":)" + std::to_string(r.version) + R"(,"ops":)" + ops + "}");
    for (Conn* s : std::vector<Conn*>(r.socks)) send(*s, out);
  }

  void error(Conn& c, const char* code) {
    send(c, frame(json{{"type", "error"}, {"code", code}, {"message", code}}.dump()));
  }

  void welcome(Conn& c, const Room& r, bool seated) {
    const std::string seat = seated ? std::to_string(c.seat) : "null";
    const std::string token = seated ? "\"" + random_id(rng_, 16) + "\"" : "null";
    send(c, frame(R"({"type":"welcome","seat":)" + seat + R"(,"token":)" + token + R"(,"version":)" +
                  std::to_string(r.version) + R"(,"state":)" + r.state_text() + "}"));
  }

  void message(Conn& c, const std::string& text) {
    const json m = json::parse(text, nullptr, false);
    if (m.is_discarded() || !m.is_object()) return error(c, "bad_json");
    Room& r = *c.room;
    const std::string type = m.value("type", "");
    if (type == "join") {
      if (r.phase != "lobby" || r.players.size() >= 5) return welcome(c, r, false);
      c.seat = static_cast<int>(r.players.size());
      const std::string name = m.contains("name") && m["name"].is_string() ? m["name"].get<std::string>().substr(0, 40) : "";
      const std::string p = R"({"seat":)" + std::to_string(c.seat) + R"(,"name":)" + json(name).dump() +
                            R"(,"color":"red","score":0,"meeples":7,"connected":true,"tile":"V","host":)" +
                            (c.seat == 0 ? "true" : "false") + "}";
      r.players.push_back(p);
      broadcast(r, R"([{"op":"add","path":"/players/)" + std::to_string(c.seat) + R"(","value":)" + p + "}]");
      r.socks.push_back(&c);
      return welcome(c, r, true);
    }
    if (type == "start") {
      if (c.seat != 0) return error(c, "not_host");
      r.phase = "playing";
      r.turn_number = 1;
      r.turn_seat = 0;
      return broadcast(r, R"([{"op":"replace","path":"/phase","value":"playing"},{"op":"replace","path":"/turn","value":)" +
                              r.turn_text() + "}]");
    }
    if (type != "play") return error(c, "bad_message");
    if (r.phase != "playing") return error(c, "not_started");
    if (c.seat != r.turn_seat) return error(c, "not_your_turn");
    if (m.value("version", std::int64_t{-1}) != r.version) return error(c, "stale_version");
    const int x = m.value("x", -1000), y = m.value("y", -1000), rotation = m.value("rotation", -1);
    const std::size_t n = r.board.size();
    if (!in_legal(n - 1, x, y, rotation)) return error(c, "illegal_placement");
    const auto meeple = m.find("meeple");
    const std::string tile = R"({"x":)" + std::to_string(x) + R"(,"y":)" + std::to_string(y) + R"(,"tile":"V","rotation":)" +
                             std::to_string(rotation) + R"(,"meeple":)" +
                             (meeple == m.end() || meeple->is_null()
                                  ? std::string("null")
                                  : R"({"seat":)" + std::to_string(c.seat) + R"(,"at":)" + meeple->dump() + "}") +
                             "}";
    r.board.push_back(tile);
    --r.left;
    ++moves_;
    std::string ops = R"([{"op":"add","path":"/board/)" + std::to_string(n) + R"(","value":)" + tile +
                      R"(},{"op":"replace","path":"/bag/left","value":)" + std::to_string(r.left) + "}";
    if (r.left <= 0) {
      r.phase = "finished";
      std::string scores;
      for (std::size_t i = 0; i < r.players.size(); ++i) scores += i > 0 ? ",0" : "0";
      ops += R"(,{"op":"replace","path":"/phase","value":"finished"},{"op":"replace","path":"/turn","value":null},)"
             R"({"op":"replace","path":"/result","value":{"final_scores":[)" + scores + R"(],"winners":[0]}}])";
    } else {
      ++r.turn_number;
      r.turn_seat = (c.seat + 1) % static_cast<int>(r.players.size());
      ops += R"(,{"op":"replace","path":"/turn","value":)" + r.turn_text() + "}]";
    }
    broadcast(r, ops);
  }
};

}  // namespace

int main(int argc, char** argv) {
  int port = 0;
  int seconds = 60;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string_view a = argv[i];
    if (a == "--port") port = std::atoi(argv[i + 1]);
    else if (a == "--seconds") seconds = std::atoi(argv[i + 1]);
    else {
      std::fprintf(stderr, "usage: carc-ws-floor [--port P] [--seconds S]\n");
      return 2;
    }
  }
  std::signal(SIGTERM, [](int) { g_stop = 1; });
  std::signal(SIGINT, [](int) { g_stop = 1; });
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  const int one = 1;
  ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<std::uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 || ::listen(fd, 4096) != 0) {
    std::perror("carc-ws-floor: bind/listen");
    return 1;
  }
  socklen_t len = sizeof addr;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  std::printf("listening on port %d\n", ntohs(addr.sin_port));
  std::fflush(stdout);
  const int ep = ::epoll_create1(EPOLL_CLOEXEC);
  epoll_event ev{};
  ev.events = EPOLLIN;
  ev.data.ptr = nullptr;
  ::epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
  Server(fd, ep).run(std::chrono::seconds(seconds));
  return 0;
}
