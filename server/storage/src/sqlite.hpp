// A thin RAII layer over the SQLite C API: one connection, cached prepared statements.
// Internal to carc_storage; errors are exceptions (SqlError) caught at the Storage edge.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

struct sqlite3;
struct sqlite3_stmt;

namespace carc::server {

class SqlError : public std::runtime_error {
 public:
  SqlError(int code, const std::string& what) : std::runtime_error(what), code_(code) {}
  int code() const { return code_; }  // primary result code (SQLITE_FULL, ...)

 private:
  int code_;
};

// A prepared statement in use: bind, step, read columns; reset on destruction.
class Stmt {
 public:
  Stmt(sqlite3* db, sqlite3_stmt* s);
  ~Stmt();
  Stmt(const Stmt&) = delete;
  Stmt& operator=(const Stmt&) = delete;

  Stmt& bind(int i, std::int64_t v);
  Stmt& bind(int i, std::string_view v);
  bool step();  // true while a row is available
  void run();   // step to completion
  std::int64_t int64(int col) const;
  std::string text(int col) const;

 private:
  sqlite3* db_;
  sqlite3_stmt* s_;
};

class Db {
 public:
  // flags: SQLITE_OPEN_* ; throws SqlError.
  Db(const std::string& filename, int flags);
  ~Db();
  Db(const Db&) = delete;
  Db& operator=(const Db&) = delete;

  void exec(const std::string& sql);
  Stmt prepare(const std::string& sql);  // cached by text
  std::int64_t scalar(const std::string& sql);
  std::string scalar_text(const std::string& sql);
  int changes() const;
  std::uint64_t commits() const { return commits_.load(std::memory_order_relaxed); }
  sqlite3* handle() const { return db_; }

 private:
  sqlite3* db_ = nullptr;
  std::map<std::string, sqlite3_stmt*, std::less<>> cache_;
  std::atomic<std::uint64_t> commits_{0};  // counted by SQLite's commit hook
};

[[noreturn]] void throw_sql(sqlite3* db, int rc, std::string_view context);

// Waits up to `timeout_ms` for a lock another connection holds, checking again after 50 us
// at first, then 250 us, then each millisecond. SQLite's own sqlite3_busy_timeout sleeps
// 1, 2, 5, 10 ms and more between checks: a room writer that met a rating's short
// transaction waited milliseconds for a lock freed in microseconds (docs/hot-path.md).
void wait_when_busy(sqlite3* db, int timeout_ms);

// Runs a transaction; rolls back if `body` throws (and rethrows).
template <class F>
void transaction(Db& db, F&& body) {
  db.exec("BEGIN IMMEDIATE");
  try {
    body();
    db.exec("COMMIT");
  } catch (...) {
    try {
      db.exec("ROLLBACK");
    } catch (...) {  // SQLite may already have rolled back (e.g. SQLITE_FULL)
    }
    throw;
  }
}

}  // namespace carc::server
