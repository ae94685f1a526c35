// A thin RAII layer over libpq: one connection, named prepared statements, results that
// free themselves. Internal to carc_storage; errors are PgError, caught at the store's edge.
#pragma once

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

class PgConn {
 public:
  // Connects (blocking, bounded by connect_timeout in the conninfo); throws PgError.
  explicit PgConn(const std::string& conninfo);
  ~PgConn();
  PgConn(const PgConn&) = delete;
  PgConn& operator=(const PgConn&) = delete;

  bool healthy() const;
  std::string where() const;  // host:port/db
  void reset();               // reconnects; throws PgError
  void prepare(const std::string& name, const std::string& sql);
  void prepare_all();         // the statements prepared so far, again (after reset)
  PgResult exec(const std::string& sql);  // simple protocol, may hold several statements
  PgResult run(const std::string& name, const Params& params);  // throws on failure
  PgResult try_run(const std::string& name, const Params& params);  // the result, ok or not

  // A pipeline: queued statements sent at once and run as ONE implicit transaction (the
  // Sync commits it); results in order. On any failure none of it is stored.
  struct Piped {
    std::vector<PgResult> results;  // one per statement (an aborted one: not ok)
    std::string error;              // the first failure, or the connection's
  };
  Piped pipeline(const std::vector<std::pair<std::string, Params>>& statements);

  pg_conn* handle() const { return c_; }

 private:
  pg_conn* c_ = nullptr;
  std::vector<std::pair<std::string, std::string>> prepared_;
};

}  // namespace carc::server
