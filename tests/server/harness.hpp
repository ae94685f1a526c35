// Test harness: the server binary in a child process, HTTP requests, and WebSocket peers
// that keep their own copy of the state by applying every patch.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <deque>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace carc::test {

using json = nlohmann::json;
using namespace std::chrono_literals;

// carcassonne-server on 127.0.0.1 and a free port, with a fresh data folder.
class ServerProcess {
 public:
  explicit ServerProcess(std::vector<std::string> extra_args = {});
  ~ServerProcess();
  ServerProcess(const ServerProcess&) = delete;
  ServerProcess& operator=(const ServerProcess&) = delete;
  int port() const { return port_; }
  pid_t pid() const { return pid_; }
  std::filesystem::path data_dir() const { return dir_ / "data"; }  // the server's --data-dir
  // SIGTERM, then the exit status (waits up to 10 s).
  int terminate();
  // SIGKILL (a crash), then the same server again on the same port and data folder.
  void crash_and_restart();

 private:
  bool launch();  // true once it answers /healthz
  int port_ = 0;
  pid_t pid_ = -1;
  std::filesystem::path dir_;
  std::vector<std::string> extra_args_;
};

struct HttpResult {
  int status = 0;
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string header(std::string_view name) const;
};
// One request over a fresh connection; `raw_target` is sent as is.
HttpResult http(int port, std::string_view method, std::string_view raw_target, std::string_view body = {},
                std::vector<std::pair<std::string, std::string>> headers = {});

// The value of one line of /metrics ("name 12" or "name{labels} 12"); fails the test when
// the line is missing.
long metric(int port, std::string_view name, std::string_view target = "/metrics");
std::string create_room(int port);

// A WebSocket client. All peers share one io_context; reads run in the background and
// queue frames until the test takes them.
class Peer {
 public:
  Peer(int port, const std::string& room);
  ~Peer();
  Peer(const Peer&) = delete;
  Peer& operator=(const Peer&) = delete;

  void send(const json& j);
  void send_raw(const std::string& text);
  // The next frame within `timeout`, or nullopt. Frames that are patches/welcome/state are
  // applied to state() as they are taken.
  std::optional<json> next(std::chrono::milliseconds timeout = 5000ms);
  // Takes frames until one of type `type` (errors and others are kept in `seen`).
  json expect(std::string_view type, std::chrono::milliseconds timeout = 5000ms);
  // The next error's code (skipping patches).
  std::string expect_error(std::chrono::milliseconds timeout = 5000ms);
  // Takes frames until version() >= v.
  void catch_up(std::int64_t v, std::chrono::milliseconds timeout = 5000ms);
  // Drains whatever arrives within `quiet`.
  void drain(std::chrono::milliseconds quiet = 50ms);

  bool closed() const;
  int close_code() const;
  void close();

  const json& state() const { return state_; }
  std::int64_t version() const { return version_; }
  std::optional<int> seat() const { return seat_; }
  const std::string& token() const { return token_; }
  const std::vector<std::string>& frames() const { return frames_; }  // every frame received
  std::vector<json> errors;

  // Sends join by name and waits for the welcome.
  json join(const std::string& name);
  json join_token(const std::string& token);
  json watch();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  json state_;
  std::int64_t version_ = 0;
  std::optional<int> seat_;
  std::string token_;
  std::vector<std::string> frames_;
  void absorb(const json& msg);
};

}  // namespace carc::test
