#include "sqlite.hpp"

#include <sqlite3.h>

#include <chrono>
#include <cstdint>
#include <thread>

namespace carc::server {

namespace {

// SQLite's busy handler (wait_when_busy): `count` is how many times it was called for this
// lock already; each connection is used by one thread at a time, so the wait's start is
// kept per thread.
int busy_wait(void* timeout_ms, int count) {
  using namespace std::chrono;
  thread_local steady_clock::time_point started;
  const auto now = steady_clock::now();
  if (count == 0) started = now;
  if (now - started >= milliseconds(reinterpret_cast<std::intptr_t>(timeout_ms))) return 0;
  std::this_thread::sleep_for(count < 20 ? microseconds(50) : count < 60 ? microseconds(250) : microseconds(1000));
  return 1;
}

}  // namespace

void wait_when_busy(sqlite3* db, int timeout_ms) {
  sqlite3_busy_handler(db, busy_wait, reinterpret_cast<void*>(static_cast<std::intptr_t>(timeout_ms)));
}

void throw_sql(sqlite3* db, int rc, std::string_view context) {
  std::string msg(context);
  msg += ": ";
  msg += db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
  throw SqlError(rc & 0xFF, msg);
}

Stmt::Stmt(sqlite3* db, sqlite3_stmt* s) : db_(db), s_(s) {}

Stmt::~Stmt() {
  sqlite3_reset(s_);
  sqlite3_clear_bindings(s_);
}

Stmt& Stmt::bind(int i, std::int64_t v) {
  const int rc = sqlite3_bind_int64(s_, i, v);
  if (rc != SQLITE_OK) throw_sql(db_, rc, "bind");
  return *this;
}

Stmt& Stmt::bind(int i, std::string_view v) {
  const int rc = sqlite3_bind_text64(s_, i, v.data(), v.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
  if (rc != SQLITE_OK) throw_sql(db_, rc, "bind");
  return *this;
}

bool Stmt::step() {
  const int rc = sqlite3_step(s_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  throw_sql(db_, rc, sqlite3_sql(s_));
}

void Stmt::run() {
  while (step()) {
  }
}

std::int64_t Stmt::int64(int col) const { return sqlite3_column_int64(s_, col); }

std::string Stmt::text(int col) const {
  const auto* p = sqlite3_column_text(s_, col);
  const int n = sqlite3_column_bytes(s_, col);
  return p == nullptr ? std::string() : std::string(reinterpret_cast<const char*>(p), static_cast<std::size_t>(n));
}

Db::Db(const std::string& filename, int flags) {
  const int rc = sqlite3_open_v2(filename.c_str(), &db_, flags, nullptr);
  if (rc != SQLITE_OK) {
    std::string msg = db_ != nullptr ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
    sqlite3_close_v2(db_);
    db_ = nullptr;
    throw SqlError(rc & 0xFF, msg);
  }
  sqlite3_extended_result_codes(db_, 0);
  sqlite3_commit_hook(
      db_,
      [](void* self) {
        static_cast<Db*>(self)->commits_.fetch_add(1, std::memory_order_relaxed);
        return 0;  // let it commit
      },
      this);
}

Db::~Db() {
  for (auto& [sql, s] : cache_) sqlite3_finalize(s);
  sqlite3_close_v2(db_);
}

void Db::exec(const std::string& sql) {
  char* err = nullptr;
  const int rc = sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err);
  if (rc != SQLITE_OK) {
    std::string msg = err != nullptr ? err : sqlite3_errstr(rc);
    sqlite3_free(err);
    throw SqlError(rc & 0xFF, msg);
  }
}

Stmt Db::prepare(const std::string& sql) {
  auto it = cache_.find(sql);
  if (it == cache_.end()) {
    sqlite3_stmt* s = nullptr;
    const int rc = sqlite3_prepare_v3(db_, sql.c_str(), -1, SQLITE_PREPARE_PERSISTENT, &s, nullptr);
    if (rc != SQLITE_OK) throw_sql(db_, rc, sql);
    it = cache_.emplace(sql, s).first;
  }
  return Stmt(db_, it->second);
}

std::int64_t Db::scalar(const std::string& sql) {
  Stmt s = prepare(sql);
  return s.step() ? s.int64(0) : 0;
}

std::string Db::scalar_text(const std::string& sql) {
  Stmt s = prepare(sql);
  return s.step() ? s.text(0) : std::string();
}

int Db::changes() const { return sqlite3_changes(db_); }

}  // namespace carc::server
