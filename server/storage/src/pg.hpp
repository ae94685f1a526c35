// A thin RAII layer over libpq: one connection, named prepared statements, results that
// free themselves. Internal to carc_storage; errors are PgError, caught at the store's edge.
//
// Nothing waits for the server without a deadline: the socket is non-blocking
// and every statement, pipeline or not, must be answered within the connection's timeout,
// or the connection is given up (healthy() turns false and the store reconnects). A
// half-open connection (the server or a relay on the way stopped answering without
// closing) then fails the writes in flight instead of holding the writer thread forever;
// TCP keepalives and tcp_user_timeout close it in the kernel, statement_timeout bounds a
// slow statement on the server's side.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

struct pg_conn;
struct pg_result;

namespace carc::server {

class PgError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class PgResult {
 public:
  explicit PgResult(pg_result* r = nullptr) : r_(r) {}
  ~PgResult();
  PgResult(PgResult&& o) noexcept : r_(o.r_) { o.r_ = nullptr; }
  PgResult& operator=(PgResult&& o) noexcept;
  PgResult(const PgResult&) = delete;
  PgResult& operator=(const PgResult&) = delete;

  pg_result* get() const { return r_; }
  bool ok() const;               // a command or a query that succeeded
  std::string error() const;     // the server's message, one line
  int rows() const;
  int affected() const;          // rows changed by INSERT/UPDATE/DELETE
  bool null(int row, int col) const;
  std::string text(int row, int col) const;
  std::int64_t int64(int row, int col) const;

 private:
  pg_result* r_;
};

using Params = std::vector<std::string>;

struct PgConnOptions {
  int connect_timeout_s = 5;   // libpq's connect_timeout (the whole start-up handshake)
  int io_timeout_ms = 5'000;   // a statement's answer, at most; also statement_timeout and tcp_user_timeout
};

class PgConn {
 public:
  // Connects (blocking, bounded by connect_timeout); throws PgError. `url` is a URL or a
  // conninfo; settings it names win over the options'.
  PgConn(const std::string& url, PgConnOptions options);
  ~PgConn();
  PgConn(const PgConn&) = delete;
  PgConn& operator=(const PgConn&) = delete;

  bool healthy() const;  // connected, and no answer ever timed out
  std::string where() const;  // host:port/db
  void reset();               // reconnects; throws PgError
  void prepare(const std::string& name, const std::string& sql);
  void prepare_all();         // the statements prepared so far, again (after reset)
  PgResult exec(const std::string& sql);  // simple protocol, may hold several statements
  PgResult run(const std::string& name, const Params& params);  // throws on failure
  PgResult try_run(const std::string& name, const Params& params);  // the result, ok or not (throws on a timeout)
  PgResult query(const std::string& sql, const Params& params);     // unprepared, with parameters; ok or not

  // A pipeline: queued statements sent at once and run as ONE implicit transaction (the
  // Sync commits it); results in order. On any failure none of it is stored.
  struct Piped {
    std::vector<PgResult> results;  // one per statement (an aborted one: not ok)
    std::string error;              // the first failure, or the connection's
  };
  Piped pipeline(const std::vector<std::pair<std::string, Params>>& statements);


 private:
  void connected();  // after a (re)connect: non-blocking, no notices
  // Sends what libpq buffered and waits until a result is ready (PQisBusy false), within
  // `deadline`; false (with `why`, and the connection given up) otherwise.
  bool await(std::chrono::steady_clock::time_point deadline, std::string* why);
  PgResult last_result(std::chrono::steady_clock::time_point deadline);  // of a sent query

  pg_conn* c_ = nullptr;
  PgConnOptions options_;
  bool timed_out_ = false;
  std::vector<std::pair<std::string, std::string>> prepared_;
};

}  // namespace carc::server
