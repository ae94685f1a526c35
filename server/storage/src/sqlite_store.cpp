#include "carc/server/sqlite_store.hpp"

#include <fcntl.h>
#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <limits>
#include <system_error>

#include "sqlite.hpp"
#include "sqlite_schema.hpp"
#include "wal_checkpointer.hpp"

// The store's schema and the checks before it opens a database: sqlite_schema.cpp; its
// writes: sqlite_writes.cpp.
namespace carc::server {

namespace fs = std::filesystem;

SqliteStore::SqliteStore(std::unique_ptr<Db> db, fs::path path, Options options)
    : db_(std::move(db)), path_(std::move(path)), options_(std::move(options)) {
  sync_apart_ = options_.sync == Sync::Full && options_.sync_apart && !path_.empty();
  if (sync_apart_) db_->exec(sqlite_schema::sync_pragma(Sync::Normal));  // the commits; sync() syncs the log
  if (!path_.empty() && options_.checkpoint_kib > 0) {
    try {
      const std::int64_t page = std::max<std::int64_t>(512, db_->scalar("PRAGMA page_size"));
      const auto pages = static_cast<int>(std::clamp<std::int64_t>(std::int64_t{options_.checkpoint_kib} * 1024 / page, 1,
                                                                   std::numeric_limits<int>::max() / 8));
      checkpointer_ = std::make_unique<WalCheckpointer>(path_.string(), db_->handle(), pages,
                                                        sqlite_schema::sync_pragma(options_.sync), options_.busy_timeout_ms, options_.warn);
    } catch (const SqlError& e) {
      throw sqlite_schema::open_error(path_, e);
    }
  }
  if (!path_.empty()) {
    try {
      reader_ = std::make_unique<Db>(path_.string(), SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX);
      wait_when_busy(reader_->handle(), options_.busy_timeout_ms);
    } catch (const SqlError& e) {
      throw sqlite_schema::open_error(path_, e);
    }
  }
}

SqliteStore::~SqliteStore() {
  if (log_fd_ >= 0) ::close(log_fd_);
}

// The log's own file: a commit in WAL mode writes there alone, and the checkpoints (on
// their own connection, synchronous FULL) sync it before they copy it into the database.
// SQLite locks the database file and the shared-memory index, never the log, so this
// descriptor's close releases none of its locks; and the log keeps its inode while a
// connection (the writer's, open as long as this store) has the database open.
Status SqliteStore::sync() {
  if (!sync_apart_) return Status::ok();
  if (sync_failed_.load()) return Status::failed("an earlier sync of the log failed");
  const std::string log = path_.string() + "-wal";
  if (log_fd_ < 0) {
    log_fd_ = ::open(log.c_str(), O_RDWR | O_CLOEXEC);
    if (log_fd_ < 0) return Status::failed("cannot open " + log + " to sync it: " + std::strerror(errno));
  }
  if (::fdatasync(log_fd_) != 0) {
    // The kernel may have dropped the pages it could not write: no later sync can vouch for
    // them, so nothing more is stored (a restart reads what the disk really has).
    const int err = errno;
    sync_failed_.store(true);
    return Status::failed("syncing " + log + " failed: " + std::strerror(err));
  }
  return Status::ok();
}

std::uint64_t SqliteStore::checkpoints() const { return checkpointer_ ? checkpointer_->checkpoints() : 0; }
std::uint64_t SqliteStore::checkpoint_restarts() const { return checkpointer_ ? checkpointer_->restarts() : 0; }
std::uint64_t SqliteStore::checkpoint_failures() const { return checkpointer_ ? checkpointer_->failures() : 0; }

StoreHealth SqliteStore::health() const {
  StoreHealth h;
  if (path_.empty()) return h;
  std::error_code ec;
  const auto wal = fs::file_size(fs::path(path_.string() + "-wal"), ec);
  h.wal_bytes = ec ? 0 : static_cast<std::int64_t>(wal);
  h.checkpoints = static_cast<std::int64_t>(checkpoints());
  h.checkpoint_failures = static_cast<std::int64_t>(checkpoint_failures());
  return h;
}

std::unique_ptr<SqliteStore> SqliteStore::open(const fs::path& dir, Options options) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir)) {
    throw StorageError("cannot create the data folder " + sqlite_schema::quoted(dir) + " (" +
                       (ec ? ec.message() : std::string("not a directory")) +
                       "); create it or choose another folder with --data-dir");
  }
  const fs::path file = dir / kFileName;
  const bool existed = fs::exists(file, ec) && fs::file_size(file, ec) > 0;
  if (fs::exists(file, ec) && !fs::is_regular_file(file, ec)) {
    throw StorageError(sqlite_schema::quoted(file) + " is not a regular file; move it away or choose another folder with --data-dir");
  }
  if (existed) sqlite_schema::check_header(file);
  sqlite_schema::probe_writable(dir);

  std::unique_ptr<Db> db;
  try {
    db = std::make_unique<Db>(file.string(), SQLITE_OPEN_READWRITE | (existed ? 0 : SQLITE_OPEN_CREATE) |
                                                 SQLITE_OPEN_NOMUTEX);
    if (sqlite3_db_readonly(db->handle(), "main") == 1) {
      throw StorageError("the database " + sqlite_schema::quoted(file) +
                         " can only be opened read-only; check its permissions or choose another folder with --data-dir");
    }
    wait_when_busy(db->handle(), options.busy_timeout_ms);
    if (existed) {
      // Before anything may write: a damaged file must stay exactly as it was.
      const std::string check = db->scalar_text("PRAGMA quick_check");
      if (check != "ok") {
        throw StorageError("the database " + sqlite_schema::quoted(file) + " is corrupt (quick_check: " + check.substr(0, 200) +
                           "). It was left untouched: restore a backup or move it away");
      }
      if (db->scalar("PRAGMA user_version") > kSchemaVersion) sqlite_schema::migrate(*db, sqlite_schema::quoted(file));  // throws: newer
    }
    if (!existed && options.page_size > 0) db->exec("PRAGMA page_size = " + std::to_string(options.page_size));
    const std::string mode = db->scalar_text("PRAGMA journal_mode = WAL");
    if (mode != "wal") {
      throw StorageError("the database " + sqlite_schema::quoted(file) + " cannot use WAL mode (journal_mode is " + mode + ")");
    }
    db->exec(sqlite_schema::sync_pragma(options.sync));
    db->exec(sqlite_schema::kForeignKeys);
    if (options.cache_kib > 0) db->exec("PRAGMA cache_size = -" + std::to_string(options.cache_kib));
    sqlite_schema::migrate(*db, sqlite_schema::quoted(file));
  } catch (const SqlError& e) {
    throw sqlite_schema::open_error(file, e);
  }
  return std::unique_ptr<SqliteStore>(new SqliteStore(std::move(db), file, std::move(options)));
}

std::unique_ptr<SqliteStore> SqliteStore::in_memory(Options options) {
  auto db = std::make_unique<Db>(":memory:", SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX);
  db->exec(sqlite_schema::kForeignKeys);
  sqlite_schema::migrate(*db, ":memory:");
  return std::unique_ptr<SqliteStore>(new SqliteStore(std::move(db), {}, std::move(options)));
}

std::int64_t SqliteStore::now() const {
  if (options_.clock) return options_.clock();
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

std::uint64_t SqliteStore::commits() const { return db_->commits(); }

std::size_t SqliteStore::cache_bytes() const {
  std::lock_guard lock(mu_);
  int used = 0, highest = 0;
  sqlite3_db_status(db_->handle(), SQLITE_DBSTATUS_CACHE_USED, &used, &highest, 0);
  return static_cast<std::size_t>(used);
}

std::string SqliteStore::describe() const { return path_.empty() ? std::string("SQLite in memory") : "SQLite " + path_.string(); }

// ---- reads -----------------------------------------------------------------------------
std::optional<StoredRoom> SqliteStore::read_room(Db& db, const std::string& id) {
  Stmt r = db.prepare(
      "SELECT id, phase, version, created_ms, updated_ms, COALESCE(quarantined, '') FROM rooms WHERE id = ?1");
  r.bind(1, id);
  if (!r.step()) return std::nullopt;
  StoredRoom room;
  room.id = r.text(0);
  room.phase = r.text(1);
  room.version = r.int64(2);
  room.created_ms = r.int64(3);
  room.updated_ms = r.int64(4);
  room.quarantined = r.text(5);
  Stmt a = db.prepare("SELECT seq, payload, version FROM actions WHERE room = ?1 ORDER BY seq");
  a.bind(1, id);
  while (a.step()) {
    room.actions.push_back({a.int64(0), a.text(1)});
    room.version = std::max(room.version, a.int64(2));  // appends leave the row's version behind
  }
  return room;
}

RoomLoad SqliteStore::load_room(const std::string& id) {
  std::unique_lock lock(reader_ ? read_mu_ : mu_);
  RoomLoad out;
  try {
    out.room = read_room(reader_ ? *reader_ : *db_, id);
  } catch (const std::exception& e) {
    out.error = "load_room " + id + ": " + e.what();
  }
  return out;
}

RoomsLoad SqliteStore::load_rooms() {
  std::lock_guard lock(mu_);
  RoomsLoad out;
  try {
    std::vector<std::string> ids;
    {
      // Finished games are read on demand (load_room), not replayed at every start.
      Stmt s = db_->prepare(
          "SELECT id FROM rooms WHERE quarantined IS NULL AND phase <> 'finished' ORDER BY created_ms, id");
      while (s.step()) ids.push_back(s.text(0));
    }
    for (const std::string& id : ids) {
      if (auto r = read_room(*db_, id)) {
        known_[r->id] = r->updated_ms;
        out.rooms.push_back(std::move(*r));
      }
    }
  } catch (const std::exception& e) {
    out.rooms.clear();
    out.error = std::string("load_rooms: ") + e.what();
  }
  return out;
}

std::vector<std::pair<std::string, std::string>> SqliteStore::quarantined() {
  std::lock_guard lock(mu_);
  std::vector<std::pair<std::string, std::string>> out;
  try {
    Stmt s = db_->prepare("SELECT id, quarantined FROM rooms WHERE quarantined IS NOT NULL ORDER BY id");
    while (s.step()) out.emplace_back(s.text(0), s.text(1));
  } catch (const std::exception&) {
    out.clear();  // only informational (the start-up count)
  }
  return out;
}

}  // namespace carc::server
