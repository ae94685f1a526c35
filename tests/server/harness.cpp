#include "harness.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <iostream>
#include <stdexcept>
#include <thread>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <doctest/doctest.h>

#include "../support/listens_on.hpp"

namespace carc::test {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace bhttp = beast::http;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;

namespace {

// The wall clock as the server's log writes it (local time, to the millisecond), so that a
// failure's times can be laid beside the log's lines.
std::string clock_text(std::chrono::system_clock::time_point t) {
  const std::time_t secs = std::chrono::system_clock::to_time_t(t);
  std::tm tm{};
  ::localtime_r(&secs, &tm);
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count() % 1000;
  char out[32];
  std::snprintf(out, sizeof out, "%02d:%02d:%02d.%03d", tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<int>(ms));
  return out;
}

asio::io_context& io() {
  static asio::io_context ctx;
  return ctx;
}

// Whether the running test case has failed so far: a server's log is printed only then.
bool g_test_failed = false;

struct FailureListener : doctest::IReporter {
  explicit FailureListener(const doctest::ContextOptions&) {}
  void report_query(const doctest::QueryData&) override {}
  void test_run_start() override {}
  void test_run_end(const doctest::TestRunStats&) override {}
  void test_case_start(const doctest::TestCaseData&) override { g_test_failed = false; }
  void test_case_reenter(const doctest::TestCaseData&) override {}
  void test_case_end(const doctest::CurrentTestCaseStats&) override {}
  void test_case_exception(const doctest::TestCaseException&) override { g_test_failed = true; }
  void subcase_start(const doctest::SubcaseSignature&) override {}
  void subcase_end() override {}
  void log_assert(const doctest::AssertData& ad) override { g_test_failed = g_test_failed || ad.m_failed; }
  void log_message(const doctest::MessageData& md) override {
    g_test_failed = g_test_failed || (md.m_severity & doctest::assertType::is_warn) == 0;  // FAIL, FAIL_CHECK
  }
  void test_case_skipped(const doctest::TestCaseData&) override {}
};
REGISTER_LISTENER("server_log_on_failure", 1, FailureListener);

// The last `lines` lines of a file.
std::string tail(const std::filesystem::path& file, std::size_t lines) {
  std::ifstream in(file);
  std::deque<std::string> last;
  for (std::string line; std::getline(in, line);) {
    last.push_back(std::move(line));
    if (last.size() > lines) last.pop_front();
  }
  std::string out;
  for (const auto& l : last) out += l + "\n";
  return out;
}

int free_port() {
  asio::io_context ctx;
  tcp::acceptor a(ctx, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
  return a.local_endpoint().port();
}

}  // namespace

// ---------------------------------------------------------------------------------------

ServerProcess::ServerProcess(std::vector<std::string> extra_args) : extra_args_(std::move(extra_args)) {
  char tmpl[] = "/tmp/carc-server-test-XXXXXX";
  dir_ = ::mkdtemp(tmpl);
  for (int attempt = 0; attempt < 5; ++attempt) {
    port_ = free_port();
    if (launch()) return;
  }
  throw std::runtime_error("the server did not start");
}

bool ServerProcess::launch() {
  std::vector<std::string> args = {CARC_SERVER_BIN, "--port",     std::to_string(port_), "--bind",
                                   "127.0.0.1",     "--data-dir", (dir_ / "data").string(), "--log-level",
                                   // The log goes to a file, printed when the test fails.
                                   std::getenv("CARC_TEST_LOG_LEVEL") != nullptr ? std::getenv("CARC_TEST_LOG_LEVEL") : "info"};
  args.insert(args.end(), extra_args_.begin(), extra_args_.end());
  const std::string log = (dir_ / "server.log").string();
  pid_ = ::fork();
  if (pid_ == 0) {
    const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd >= 0) {
      ::dup2(fd, 1);
      ::dup2(fd, 2);
    }
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    ::execv(argv[0], argv.data());
    std::_Exit(127);
  }
  for (int i = 0; i < 200; ++i) {
    int status = 0;
    if (::waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      return false;
    }
    try {
      if (http(port_, "GET", "/healthz").status == 200 && listens_on(pid_, port_)) return true;
    } catch (const std::exception&) {
    }
    std::this_thread::sleep_for(50ms);
  }
  ::kill(pid_, SIGKILL);
  ::waitpid(pid_, nullptr, 0);
  pid_ = -1;
  return false;
}

void ServerProcess::crash_and_restart() {
  if (pid_ > 0) {
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
    pid_ = -1;
  }
  for (int attempt = 0; attempt < 20; ++attempt) {
    if (launch()) return;
    std::this_thread::sleep_for(100ms);
  }
  throw std::runtime_error("the server did not start again");
}

int ServerProcess::terminate() {
  if (pid_ <= 0) return -1;
  ::kill(pid_, SIGTERM);
  int status = 0;
  for (int i = 0; i < 200; ++i) {
    if (::waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    }
    std::this_thread::sleep_for(50ms);
  }
  ::kill(pid_, SIGKILL);
  ::waitpid(pid_, &status, 0);
  pid_ = -1;
  return -2;
}

ServerProcess::~ServerProcess() {
  const bool running = pid_ > 0;
  const int status = terminate();
  // A server that crashed, or does not stop cleanly on SIGTERM, fails the test.
  CHECK_MESSAGE((!running || status == 0), "the server exited with status " << status << " (128+n: signal n)");
  if (g_test_failed) {
    std::cerr << "---- the last lines of the server's log (" << (dir_ / "server.log").string() << ") ----\n"
              << tail(dir_ / "server.log", 60) << "---- end of the server's log ----\n";
  }
  std::error_code ec;
  std::filesystem::remove_all(dir_, ec);
}

// ---------------------------------------------------------------------------------------

std::string HttpResult::header(std::string_view name) const {
  for (const auto& [k, v] : headers) {
    if (beast::iequals(k, name)) return v;
  }
  return {};
}

HttpResult http(int port, std::string_view method, std::string_view raw_target, std::string_view body,
                std::vector<std::pair<std::string, std::string>> headers) {
  asio::io_context ctx;
  beast::tcp_stream stream(ctx);
  stream.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), static_cast<unsigned short>(port)));
  // Written by hand so that any target, even a malformed one, goes out as is.
  std::string req = std::string(method) + " " + std::string(raw_target) + " HTTP/1.1\r\n";
  bool has_host = false;
  for (const auto& [k, v] : headers) {
    req += k + ": " + v + "\r\n";
    if (beast::iequals(k, "host")) has_host = true;
  }
  if (!has_host) req += "Host: 127.0.0.1:" + std::to_string(port) + "\r\n";
  req += "Connection: close\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n";
  req += body;
  asio::write(stream, asio::buffer(req));
  beast::flat_buffer buffer;
  bhttp::response_parser<bhttp::string_body> parser;
  parser.body_limit(16 << 20);
  if (method == "HEAD") parser.skip(true);
  bhttp::read(stream, buffer, parser);
  HttpResult r;
  r.status = static_cast<int>(parser.get().result_int());
  r.body = parser.get().body();
  for (const auto& f : parser.get()) r.headers.emplace_back(std::string(f.name_string()), std::string(f.value()));
  return r;
}

std::string create_room(int port) {
  const auto r = http(port, "POST", "/api/rooms", "{}");
  REQUIRE(r.status == 201);
  return json::parse(r.body).at("room").get<std::string>();
}

// ---------------------------------------------------------------------------------------

struct Peer::Impl {
  websocket::stream<beast::tcp_stream> ws{io()};
  beast::flat_buffer buffer;
  std::deque<std::string> inbox;
  bool closed = false;
  int close_code = 0;
  std::string close_why;  // how the read ended, for failure messages
  std::chrono::system_clock::time_point last_sent{};  // for failure messages
  std::string send_error;                             // the last write's error, if it failed
  bool reading = false;

  std::string status() const {
    const std::string sent = send_error.empty() ? "" : "; the last send failed: " + send_error;
    return (closed ? " (the connection is closed: " + close_why : " (the connection is open") + sent + ")";
  }

  void start_read() {
    reading = true;
    ws.async_read(buffer, [this](beast::error_code ec, std::size_t) {
      reading = false;
      if (ec) {
        closed = true;
        close_code = ws.reason().code;
        close_why = ec.message() + ", close code " + std::to_string(close_code) + " '" +
                    std::string(ws.reason().reason.data(), ws.reason().reason.size()) + "'";
        return;
      }
      inbox.push_back(beast::buffers_to_string(buffer.data()));
      buffer.consume(buffer.size());
      start_read();
    });
  }
};

Peer::Peer(int port, const std::string& room) : impl_(std::make_unique<Impl>()) {
  beast::get_lowest_layer(impl_->ws).connect(
      tcp::endpoint(asio::ip::make_address("127.0.0.1"), static_cast<unsigned short>(port)));
  impl_->ws.handshake("127.0.0.1:" + std::to_string(port), "/ws/" + room);
  impl_->ws.text(true);
  impl_->start_read();
}

Peer::~Peer() {
  if (!impl_->closed) {
    beast::error_code ec;
    beast::get_lowest_layer(impl_->ws).socket().close(ec);
  }
  // Let the aborted read complete before the stream goes away.
  while (impl_->reading) {
    io().restart();
    if (io().run_one_for(1s) == 0) break;
  }
}

void Peer::send(const json& j) { send_raw(j.dump()); }

void Peer::send_raw(const std::string& text) {
  beast::error_code ec;
  impl_->ws.write(asio::buffer(text), ec);
  impl_->last_sent = std::chrono::system_clock::now();
  impl_->send_error = ec ? ec.message() : std::string();
}

void Peer::absorb(const json& msg) {
  const std::string type = msg.value("type", "");
  if (type == "welcome") {
    state_ = msg.at("state");
    version_ = msg.at("version").get<std::int64_t>();
    seat_ = msg.at("seat").is_null() ? std::nullopt : std::optional<int>(msg.at("seat").get<int>());
    if (msg.at("token").is_string()) token_ = msg.at("token").get<std::string>();
  } else if (type == "patch") {
    const auto v = msg.at("version").get<std::int64_t>();
    REQUIRE_MESSAGE(v == version_ + 1, "a gap in patch versions: had " << version_ << ", got " << v);
    state_ = state_.patch(msg.at("ops"));
    version_ = v;
  } else if (type == "state") {
    state_ = msg.at("state");
    version_ = msg.at("version").get<std::int64_t>();
  } else if (type == "error") {
    errors.push_back(msg);
  }
}

std::optional<json> Peer::next(std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (impl_->inbox.empty() && !impl_->closed) {
    const auto now = std::chrono::steady_clock::now();
    io().restart();
    if (now >= deadline) {
      // What has already arrived counts, however late this thread looks (a test process
      // stopped past its deadline, or run_one_for having run another peer's handler).
      io().poll();
      break;
    }
    io().run_one_for(deadline - now);
  }
  if (impl_->inbox.empty()) return std::nullopt;
  std::string text = std::move(impl_->inbox.front());
  impl_->inbox.pop_front();
  frames_.push_back(text);
  json msg = json::parse(text);
  absorb(msg);
  return msg;
}

json Peer::expect(std::string_view type, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  const auto began = std::chrono::system_clock::now();
  std::string seen;  // what came instead, for the failure message: a clue to why
  while (true) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    auto msg = next(std::max(left, 1ms));
    // The times place the wait beside the server's log (printed below on failure): a refusal
    // logged inside the wait was sent and not read here; one logged after it, a late server.
    REQUIRE_MESSAGE(msg.has_value(), "no '" << type << "' frame in time" << impl_->status() << "; at version " << version_
                                             << ", frames meanwhile: [" << seen << "]; last sent at "
                                             << clock_text(impl_->last_sent) << ", waited from " << clock_text(began)
                                             << " to " << clock_text(std::chrono::system_clock::now()));
    if (seen.size() < 2000) {
      seen += (seen.empty() ? "" : ", ") + msg->value("type", std::string("?"));
      if (msg->contains("version")) seen += " v" + msg->at("version").dump();
      if (msg->contains("code")) seen += " " + msg->at("code").dump();
    }
    if (msg->value("type", "") == type) return *msg;
    if (msg->value("type", "") == "error" && type != "error") {
      FAIL_CHECK("unexpected error while waiting for '" << type << "': " << msg->dump());
    }
  }
}

std::string Peer::expect_error(std::chrono::milliseconds timeout) {
  return expect("error", timeout).at("code").get<std::string>();
}

void Peer::catch_up(std::int64_t v, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (version_ < v) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    auto msg = next(std::max(left, 1ms));
    REQUIRE_MESSAGE(msg.has_value(), "did not reach version " << v << " (at " << version_ << ")" << impl_->status());
  }
}

void Peer::drain(std::chrono::milliseconds quiet) {
  while (next(quiet)) {
  }
}

bool Peer::closed() const { return impl_->closed && impl_->inbox.empty(); }
int Peer::close_code() const { return impl_->close_code; }

void Peer::close() {
  impl_->ws.async_close(websocket::close_code::normal, [](beast::error_code) {});
  while (impl_->reading) {
    io().restart();
    if (io().run_one_for(1s) == 0) break;
  }
}

json Peer::join(const std::string& name) {
  send({{"type", "join"}, {"name", name}});
  return expect("welcome");
}

json Peer::join_token(const std::string& token) {
  send({{"type", "join"}, {"token", token}});
  return expect("welcome");
}

json Peer::watch() {
  send({{"type", "watch"}});
  return expect("welcome");
}

long metric(int port, std::string_view name, std::string_view target) {
  const std::string body = http(port, "GET", target).body;
  const std::string key = std::string(name) + " ";
  const auto at = body.find("\n" + key);
  REQUIRE_MESSAGE(at != std::string::npos, name);
  return std::stol(body.substr(at + 1 + key.size()));
}

}  // namespace carc::test
