// The real carcassonne-server as a child process, and blocking HTTP / WebSocket clients
// that keep the public state by applying every patch (durability tests, docs/durability.md).
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "../support/listens_on.hpp"

namespace carc::test {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;
using nlohmann::json;

#ifndef CARC_SERVER_BIN
#define CARC_SERVER_BIN "carcassonne-server"
#endif

inline std::uint16_t free_port() {
  asio::io_context io;
  tcp::acceptor a(io, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
  return a.local_endpoint().port();
}

// One run of the server on a data folder; stderr and stdout go to `log`.
class ServerProcess {
 public:
  // `bin`: the shipped server, or its test build (carcassonne-server-test, with the fault
  // injection of crash_store.hpp).
  ServerProcess(std::filesystem::path data_dir, std::filesystem::path log, std::map<std::string, std::string> env = {},
                std::vector<std::string> extra_args = {}, std::string bin = CARC_SERVER_BIN)
      : data_dir_(std::move(data_dir)), log_(std::move(log)), port_(free_port()) {
    pid_ = ::fork();
    if (pid_ == 0) {
      const int fd = ::open(log_.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
      ::dup2(fd, 1);
      ::dup2(fd, 2);
      for (const auto& [k, v] : env) ::setenv(k.c_str(), v.c_str(), 1);
      std::vector<std::string> args = {bin,                 "--port",  std::to_string(port_), "--bind",
                                       "127.0.0.1",         "--data-dir", data_dir_.string(), "--log-level",
                                       "info"};
      for (auto& a : extra_args) args.push_back(a);
      std::vector<char*> argv;
      for (auto& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      ::execv(argv[0], argv.data());
      ::_exit(127);
    }
  }
  ~ServerProcess() {
    if (running()) kill(SIGKILL);
  }
  ServerProcess(const ServerProcess&) = delete;
  ServerProcess& operator=(const ServerProcess&) = delete;

  std::uint16_t port() const { return port_; }
  bool running() {
    if (status_) return false;
    int st = 0;
    if (::waitpid(pid_, &st, WNOHANG) == pid_) status_ = st;
    return !status_;
  }
  // Waits until /healthz answers, or the process exits (false).
  bool wait_ready(std::chrono::seconds limit = std::chrono::seconds(15));
  // Sends `sig` and waits for the exit; returns the wait status.
  int kill(int sig) {
    if (!running()) return *status_;
    ::kill(pid_, sig);
    int st = 0;
    ::waitpid(pid_, &st, 0);
    status_ = st;
    return st;
  }
  // Waits for the process to exit by itself; the wait status, or nullopt after `limit`.
  std::optional<int> wait_exit(std::chrono::milliseconds limit) {
    const auto end = std::chrono::steady_clock::now() + limit;
    while (running()) {
      if (std::chrono::steady_clock::now() > end) return std::nullopt;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return status_;
  }
  std::string log_text() const;

 private:
  std::filesystem::path data_dir_;
  std::filesystem::path log_;
  std::uint16_t port_;
  pid_t pid_ = -1;
  std::optional<int> status_;
};

struct HttpReply {
  int status = 0;
  std::string body;
  json json_body() const { return json::parse(body, nullptr, false); }
};

// One request over a fresh connection, with the player key as "Authorization: Bearer <key>"
// when `key` is not empty.
inline HttpReply keyed_request(std::uint16_t port, http::verb verb, const std::string& target, const std::string& key = "",
                               const std::string& body = "") {
  asio::io_context io;
  beast::tcp_stream stream(io);
  stream.expires_after(std::chrono::seconds(10));
  stream.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port));
  http::request<http::string_body> req{verb, target, 11};
  req.set(http::field::host, "127.0.0.1:" + std::to_string(port));
  req.set(http::field::content_type, "application/json");
  if (!key.empty()) req.set(http::field::authorization, "Bearer " + key);
  req.body() = body;
  req.prepare_payload();
  http::write(stream, req);
  beast::flat_buffer buf;
  http::response<http::string_body> res;
  http::read(stream, buf, res);
  beast::error_code ec;
  stream.socket().shutdown(tcp::socket::shutdown_both, ec);
  return {static_cast<int>(res.result_int()), res.body()};
}

inline HttpReply http_request(std::uint16_t port, http::verb verb, const std::string& target,
                              const std::string& body = "") {
  return keyed_request(port, verb, target, "", body);
}

// Polls the server's log until it holds `text` after its first `from` bytes.
inline bool wait_for_log(ServerProcess& s, const std::string& text, std::chrono::milliseconds limit,
                         std::size_t from = 0) {
  const auto end = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < end) {
    if (s.log_text().find(text, from) != std::string::npos) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return false;
}

inline bool ServerProcess::wait_ready(std::chrono::seconds limit) {
  const auto end = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < end) {
    if (!running()) return false;
    try {
      // Answered by this process, not by another test's server that took the port first.
      if (http_request(port_, http::verb::get, "/healthz").status == 200 && listens_on(pid_, port_)) return true;
    } catch (const std::exception&) {
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return false;
}

inline std::string ServerProcess::log_text() const {
  std::ifstream in(log_);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A WebSocket client of one room that mirrors the public state from welcome + patches.
class WsClient {
 public:
  WsClient(std::uint16_t port, const std::string& room) : ws_(io_) {
    tcp::socket& sock = ws_.next_layer();
    sock.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port));
    timeval tv{10, 0};  // a read that takes longer fails the test rather than hanging it
    ::setsockopt(sock.native_handle(), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    ws_.handshake("127.0.0.1:" + std::to_string(port), "/ws/" + room);
  }

  void send(const json& j) { ws_.write(asio::buffer(j.dump())); }

  // Reads one frame and applies it to the mirrored state; returns it.
  json read() {
    beast::flat_buffer buf;
    ws_.read(buf);
    json f = json::parse(beast::buffers_to_string(buf.data()));
    const std::string type = f.value("type", "");
    if (type == "welcome" || type == "state") {
      state = f["state"];
      version = f["version"].get<std::int64_t>();
      if (type == "welcome") {
        if (!f["seat"].is_null()) seat = f["seat"].get<int>();
        if (!f["token"].is_null()) token = f["token"].get<std::string>();
      }
    } else if (type == "patch") {
      const auto v = f["version"].get<std::int64_t>();
      if (v != version + 1) throw std::runtime_error("patch gap: at " + std::to_string(version) + ", got " + std::to_string(v));
      state = state.patch(f["ops"]);
      version = v;
    }
    return f;
  }
  // Reads until a frame of `type` (or an error frame when `type` is not "error").
  json expect(const std::string& type) {
    for (;;) {
      json f = read();
      const std::string t = f.value("type", "");
      if (t == type) return f;
      if (t == "error") throw std::runtime_error("error frame while waiting for " + type + ": " + f.dump());
    }
  }
  void read_until_version(std::int64_t v) {
    while (version < v) read();
  }
  void close() {
    beast::error_code ec;
    ws_.close(websocket::close_code::normal, ec);
  }

  json state;
  std::int64_t version = 0;
  std::optional<int> seat;
  std::string token;

 private:
  asio::io_context io_;
  websocket::stream<tcp::socket> ws_;
};

// The play of the seat to move: a random legal placement and, half the time, a meeple.
inline json choose_play(const json& state, std::int64_t version, std::mt19937& rng) {
  const json& legal = state["turn"]["legal"];
  const json& pick = legal[std::uniform_int_distribution<std::size_t>(0, legal.size() - 1)(rng)];
  json play{{"type", "play"}, {"version", version}, {"x", pick["x"]}, {"y", pick["y"]},
            {"rotation", pick["rotation"]}, {"meeple", nullptr}};
  const json& meeples = pick["meeples"];
  if (!meeples.empty() && rng() % 2 == 0) {
    play["meeple"] = meeples[std::uniform_int_distribution<std::size_t>(0, meeples.size() - 1)(rng)];
  }
  return play;
}

// The state without what a restart legitimately changes (who is connected, spectators).
inline json durable_part(json state) {
  for (auto& p : state["players"]) p.erase("connected");
  state.erase("spectators");
  return state;
}

}  // namespace carc::test
