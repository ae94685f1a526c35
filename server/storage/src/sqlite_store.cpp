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
#include "wal_checkpointer.hpp"

namespace carc::server {
namespace {

namespace fs = std::filesystem;

// Forward migrations: step i brings a database from user_version i to i + 1. Never edit a
// step that has shipped; append a new one and bump SqliteStore::kSchemaVersion.
constexpr std::array<const char*, SqliteStore::kSchemaVersion> kMigrations = {
    // 0 -> 1: rooms, seats, actions
    "CREATE TABLE rooms("
    "  id TEXT PRIMARY KEY,"
    "  phase TEXT NOT NULL,"
    "  seed INTEGER NOT NULL,"  // the uint64 seed, bit for bit
    "  settings TEXT NOT NULL,"
    "  version INTEGER NOT NULL,"
    "  created_ms INTEGER NOT NULL,"
    "  updated_ms INTEGER NOT NULL);"
    "CREATE TABLE seats("
    "  room TEXT NOT NULL REFERENCES rooms(id) ON DELETE CASCADE,"
    "  seat INTEGER NOT NULL,"
    "  name TEXT NOT NULL,"
    "  token_hash TEXT NOT NULL,"
    "  PRIMARY KEY(room, seat)) WITHOUT ROWID;"
    "CREATE TABLE actions("
    "  room TEXT NOT NULL REFERENCES rooms(id) ON DELETE CASCADE,"
    "  seq INTEGER NOT NULL,"
    "  payload TEXT NOT NULL,"
    "  PRIMARY KEY(room, seq)) WITHOUT ROWID;",
    // 1 -> 2: quarantine (a log that no longer replays is kept aside with its reason)
    "ALTER TABLE rooms ADD COLUMN quarantined TEXT;"
    "CREATE INDEX rooms_by_phase ON rooms(phase, updated_ms);",
    // 2 -> 3: the action log is the one record of a room's seats (seats are freed and move
    // up since the lobby has computer players, which a table by seat number cannot follow); rooms.seed and
    // rooms.settings stay, unused (the seed is in the log's start action).
    "DROP TABLE seats;",
    // 3 -> 4: each action keeps the room's version it made, so that an append writes the
    // log alone (one page) instead of the room's row and its phase index too; a room's
    // version is the higher of its row's and its last action's.
    "ALTER TABLE actions ADD COLUMN version INTEGER NOT NULL DEFAULT 0;",
    // 4 -> 5 (analyses; renumber freely when merging another step before it): the
    // analysis of a finished game, one row a room, deleted with its room by the purges.
    "CREATE TABLE analyses("
    "  room TEXT PRIMARY KEY,"
    "  status TEXT NOT NULL,"
    "  record TEXT NOT NULL,"
    "  moves TEXT NOT NULL,"
    "  updated_ms INTEGER NOT NULL) WITHOUT ROWID;",
    // 5 -> 6 (turn-based games): turn-based rooms' wake-ups, player keys with their sealed seats,
    // and the notices sent. Servers before this step made these tables outside the
    // migrations, hence "IF NOT EXISTS".
    "CREATE TABLE IF NOT EXISTS wakes(room TEXT PRIMARY KEY, due_ms INTEGER NOT NULL) WITHOUT ROWID;"
    "CREATE INDEX IF NOT EXISTS wakes_by_due ON wakes(due_ms);"
    "CREATE TABLE IF NOT EXISTS player_keys(hash TEXT PRIMARY KEY, created_ms INTEGER NOT NULL) WITHOUT ROWID;"
    "CREATE TABLE IF NOT EXISTS key_seats(key_hash TEXT NOT NULL, room TEXT NOT NULL, seat INTEGER NOT NULL,"
    "  sealed TEXT NOT NULL, added_ms INTEGER NOT NULL, PRIMARY KEY(key_hash, room)) WITHOUT ROWID;"
    "CREATE TABLE IF NOT EXISTS notices_sent(id TEXT PRIMARY KEY, sent_ms INTEGER NOT NULL) WITHOUT ROWID;",
};

// How stale a room's updated_ms may get while it plays: an append refreshes it only once it
// is older than this (a phase change always does), so most appends leave the row and the
// rooms_by_phase index alone. Purges count in days.
constexpr std::int64_t kTouchMs = 60'000;

// The store keeps actions.room -> rooms.id itself, with no lookup per append: an append is
// refused when its room is gone (known_ or one read of rooms), and the deletes of rooms
// (remove, purges) delete their actions first. SQLite's own check would look the room up
// again for every insert, and its cascade is not needed.
constexpr const char* kForeignKeys = "PRAGMA foreign_keys = OFF";

constexpr std::string_view kSqliteMagic{"SQLite format 3\0", 16};

std::string quoted(const fs::path& p) { return "'" + p.string() + "'"; }

// Writes and syncs a small file to find out early (and say clearly) whether the folder
// takes writes: a read-only file system, missing permissions or a full disk.
void probe_writable(const fs::path& dir) {
  const fs::path probe = dir / (".carc-write-probe-" + std::to_string(::getpid()));
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  int err = fd < 0 ? errno : 0;
  if (fd >= 0) {
    std::array<char, 4096> block{};
    if (::write(fd, block.data(), block.size()) != static_cast<ssize_t>(block.size())) err = errno == 0 ? ENOSPC : errno;
    if (err == 0 && ::fsync(fd) != 0) err = errno;
    ::close(fd);
    ::unlink(probe.c_str());
  }
  if (err == 0) return;
  std::string advice;
  if (err == ENOSPC || err == EDQUOT) {
    advice = "the disk is full: free some space there or choose another folder with --data-dir";
  } else if (err == EROFS) {
    advice = "it is on a read-only file system: mount it writable or choose another folder with --data-dir";
  } else {
    advice = "check its permissions or choose another folder with --data-dir";
  }
  throw StorageError("data folder " + quoted(dir) + " is not writable (" + std::strerror(err) + "); " + advice);
}

// Reads the header without SQLite, so a foreign file is refused before anything opens it.
void check_header(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    throw StorageError("cannot read the database " + quoted(file) + " (" + std::strerror(errno) +
                       "); check its permissions");
  }
  std::array<char, 16> head{};
  in.read(head.data(), head.size());
  if (in.gcount() != static_cast<std::streamsize>(head.size()) ||
      std::string_view(head.data(), head.size()) != kSqliteMagic) {
    throw StorageError("the database " + quoted(file) +
                       " is not a SQLite database (corrupt or foreign file). It was left untouched: "
                       "move it away to start with an empty database, or restore a backup");
  }
}

StorageError open_error(const fs::path& file, const SqlError& e) {
  std::string advice;
  switch (e.code()) {
    case SQLITE_FULL:
      advice = "the disk is full: free some space or choose another folder with --data-dir";
      break;
    case SQLITE_READONLY:
    case SQLITE_CANTOPEN:
    case SQLITE_PERM:
    case SQLITE_AUTH:
      advice = "the file or its folder cannot be written: check permissions, or choose another folder with --data-dir";
      break;
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
      advice = "the database is corrupt. It was left untouched: restore a backup or move it away";
      break;
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      advice = "another process holds the database: is another server running on this data folder?";
      break;
    default:
      advice = "check the disk and the file";
  }
  return StorageError("cannot open the database " + quoted(file) + ": " + e.what() + "; " + advice);
}

void migrate(Db& db, const std::string& where) {
  const std::int64_t have = db.scalar("PRAGMA user_version");
  if (have > SqliteStore::kSchemaVersion) {
    throw StorageError("the database " + where + " has schema version " + std::to_string(have) +
                       ", newer than this server understands (" + std::to_string(SqliteStore::kSchemaVersion) +
                       "). It was left untouched: run a newer server, or choose another folder with --data-dir");
  }
  for (std::int64_t v = have; v < SqliteStore::kSchemaVersion; ++v) {
    transaction(db, [&] {
      db.exec(kMigrations[static_cast<std::size_t>(v)]);
      db.exec("PRAGMA user_version = " + std::to_string(v + 1));
    });
  }
}

const char* sync_pragma(SqliteStore::Sync s) {
  return s == SqliteStore::Sync::Full ? "PRAGMA synchronous = FULL" : "PRAGMA synchronous = NORMAL";
}

}  // namespace

// ---------------------------------------------------------------------------------------
SqliteStore::SqliteStore(std::unique_ptr<Db> db, fs::path path, Options options)
    : db_(std::move(db)), path_(std::move(path)), options_(std::move(options)) {
  sync_apart_ = options_.sync == Sync::Full && options_.sync_apart && !path_.empty();
  if (sync_apart_) db_->exec(sync_pragma(Sync::Normal));  // the commits; sync() syncs the log
  if (!path_.empty() && options_.checkpoint_kib > 0) {
    try {
      const std::int64_t page = std::max<std::int64_t>(512, db_->scalar("PRAGMA page_size"));
      const auto pages = static_cast<int>(std::clamp<std::int64_t>(std::int64_t{options_.checkpoint_kib} * 1024 / page, 1,
                                                                   std::numeric_limits<int>::max() / 8));
      checkpointer_ = std::make_unique<WalCheckpointer>(path_.string(), db_->handle(), pages,
                                                        sync_pragma(options_.sync), options_.busy_timeout_ms, options_.warn);
    } catch (const SqlError& e) {
      throw open_error(path_, e);
    }
  }
  if (!path_.empty()) {
    try {
      reader_ = std::make_unique<Db>(path_.string(), SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX);
      wait_when_busy(reader_->handle(), options_.busy_timeout_ms);
    } catch (const SqlError& e) {
      throw open_error(path_, e);
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
    throw StorageError("cannot create the data folder " + quoted(dir) + " (" +
                       (ec ? ec.message() : std::string("not a directory")) +
                       "); create it or choose another folder with --data-dir");
  }
  const fs::path file = dir / kFileName;
  const bool existed = fs::exists(file, ec) && fs::file_size(file, ec) > 0;
  if (fs::exists(file, ec) && !fs::is_regular_file(file, ec)) {
    throw StorageError(quoted(file) + " is not a regular file; move it away or choose another folder with --data-dir");
  }
  if (existed) check_header(file);
  probe_writable(dir);

  std::unique_ptr<Db> db;
  try {
    db = std::make_unique<Db>(file.string(), SQLITE_OPEN_READWRITE | (existed ? 0 : SQLITE_OPEN_CREATE) |
                                                 SQLITE_OPEN_NOMUTEX);
    if (sqlite3_db_readonly(db->handle(), "main") == 1) {
      throw StorageError("the database " + quoted(file) +
                         " can only be opened read-only; check its permissions or choose another folder with --data-dir");
    }
    wait_when_busy(db->handle(), options.busy_timeout_ms);
    if (existed) {
      // Before anything may write: a damaged file must stay exactly as it was.
      const std::string check = db->scalar_text("PRAGMA quick_check");
      if (check != "ok") {
        throw StorageError("the database " + quoted(file) + " is corrupt (quick_check: " + check.substr(0, 200) +
                           "). It was left untouched: restore a backup or move it away");
      }
      if (db->scalar("PRAGMA user_version") > kSchemaVersion) migrate(*db, quoted(file));  // throws: newer
    }
    if (!existed && options.page_size > 0) db->exec("PRAGMA page_size = " + std::to_string(options.page_size));
    const std::string mode = db->scalar_text("PRAGMA journal_mode = WAL");
    if (mode != "wal") {
      throw StorageError("the database " + quoted(file) + " cannot use WAL mode (journal_mode is " + mode + ")");
    }
    db->exec(sync_pragma(options.sync));
    db->exec(kForeignKeys);
    if (options.cache_kib > 0) db->exec("PRAGMA cache_size = -" + std::to_string(options.cache_kib));
    migrate(*db, quoted(file));
  } catch (const SqlError& e) {
    throw open_error(file, e);
  }
  return std::unique_ptr<SqliteStore>(new SqliteStore(std::move(db), file, std::move(options)));
}

std::unique_ptr<SqliteStore> SqliteStore::in_memory(Options options) {
  auto db = std::make_unique<Db>(":memory:", SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX);
  db->exec(kForeignKeys);
  migrate(*db, ":memory:");
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

// ---- writes ----------------------------------------------------------------------------
namespace {

struct WriteSql {
  Db& db;
  std::int64_t now;
  // Rooms known to exist, with the updated_ms last written (a lower bound of the row's):
  // an append of a known room reads nothing before its insert.
  std::unordered_map<std::string, std::int64_t>& known;

  std::string operator()(const CreateRoom& c) {
    db.prepare(
          "INSERT INTO rooms(id, phase, seed, settings, version, created_ms, updated_ms) "
          "VALUES(?1, 'lobby', 0, '{}', 1, ?2, ?3) ON CONFLICT(id) DO NOTHING")
        .bind(1, c.room)
        .bind(2, c.created_ms != 0 ? c.created_ms : now)
        .bind(3, now)
        .run();
    if (db.changes() == 0) return "create " + c.room + ": the room exists";
    known[c.room] = now;
    return "";
  }
  std::string operator()(const AppendAction& a) {
    // The room first: an action of a room that is gone is refused without touching the log.
    if (!a.phase.empty()) {
      db.prepare("UPDATE rooms SET version = MAX(version, ?2), phase = ?3, updated_ms = ?4 WHERE id = ?1")
          .bind(1, a.room)
          .bind(2, a.version)
          .bind(3, a.phase)
          .bind(4, now)
          .run();
      if (db.changes() == 0) {
        known.erase(a.room);
        return refused(a);
      }
      known[a.room] = now;
    } else {
      auto it = known.find(a.room);
      if (it == known.end()) {
        Stmt room = db.prepare("SELECT updated_ms FROM rooms WHERE id = ?1");
        room.bind(1, a.room);
        if (!room.step()) return refused(a);
        it = known.emplace(a.room, room.int64(0)).first;
      }
      if (now - it->second >= kTouchMs) {
        db.prepare("UPDATE rooms SET updated_ms = ?2 WHERE id = ?1").bind(1, a.room).bind(2, now).run();
        it->second = now;
      }
    }
    // A seq already taken is a constraint error: the whole transaction fails.
    db.prepare("INSERT INTO actions(room, seq, payload, version) VALUES(?1, ?2, ?3, ?4)")
        .bind(1, a.room)
        .bind(2, a.seq)
        .bind(3, a.payload)
        .bind(4, a.version)
        .run();
    return "";
  }
  static std::string refused(const AppendAction& a) {
    return "append " + a.room + " #" + std::to_string(a.seq) + ": no such room";
  }
  std::string operator()(const SetPhase& p) {
    db.prepare("UPDATE rooms SET phase = ?2, updated_ms = ?3 WHERE id = ?1").bind(1, p.room).bind(2, p.phase).bind(3, now).run();
    if (db.changes() == 0) {
      known.erase(p.room);
      return "set_phase " + p.room + ": no such room";
    }
    known[p.room] = now;
    return "";
  }
  std::string operator()(const RemoveRoom& r) {
    known.erase(r.room);
    db.prepare("DELETE FROM rooms WHERE id = ?1 AND phase <> 'finished' AND quarantined IS NULL").bind(1, r.room).run();
    if (db.changes() > 0) db.prepare("DELETE FROM actions WHERE room = ?1").bind(1, r.room).run();
    return "";
  }
};

std::string what(const Write& w) {
  struct {
    std::string operator()(const CreateRoom& c) { return "create " + c.room; }
    std::string operator()(const AppendAction& a) { return "append " + a.room + " #" + std::to_string(a.seq); }
    std::string operator()(const SetPhase& p) { return "set_phase " + p.room; }
    std::string operator()(const RemoveRoom& r) { return "remove " + r.room; }
  } name;
  return std::visit(name, w);
}

}  // namespace

std::string SqliteStore::write_locked(const Write& w, std::int64_t t) { return std::visit(WriteSql{*db_, t, known_}, w); }

BatchResult SqliteStore::commit(const Batch& batch) {
  BatchResult result;
  if (batch.empty()) return result;
  if (sync_failed_.load()) {
    result.error = "an earlier sync of the log failed; nothing more is stored until the server restarts";
    return result;
  }
  std::lock_guard lock(mu_);
  // Version bumps alone need no fsync; with writes, the one commit is as durable as
  // Options::sync says (syncing apart: after the next sync()).
  const bool relax = batch.writes.empty() && options_.sync == Sync::Full && !path_.empty() && !sync_apart_;
  std::string where;
  try {
    if (relax) db_->exec(sync_pragma(Sync::Normal));
    const std::int64_t t = now();
    transaction(*db_, [&] {
      result.refused.clear();
      for (const Write& w : batch.writes) {
        where = what(w);
        result.refused.push_back(write_locked(w, t));
      }
      for (const VersionBump& b : batch.versions) {
        where = "version of " + b.room;
        db_->prepare("UPDATE rooms SET version = ?2, updated_ms = ?3 WHERE id = ?1 AND version < ?2")
            .bind(1, b.room)
            .bind(2, b.version)
            .bind(3, t)
            .run();
      }
      where = "commit";
    });
    if (relax) db_->exec(sync_pragma(Sync::Full));
  } catch (const std::exception& e) {
    try {
      if (relax) db_->exec(sync_pragma(Sync::Full));
    } catch (...) {
    }
    known_.clear();  // what the rolled-back transaction taught it is void
    result.refused.clear();
    result.error = "commit of " + std::to_string(batch.writes.size()) + " write(s), at " + where + ": " + e.what();
  }
  return result;
}

Status SqliteStore::quarantine(const std::string& room, const std::string& reason) {
  std::lock_guard lock(mu_);
  try {
    db_->prepare("UPDATE rooms SET quarantined = ?2 WHERE id = ?1").bind(1, room).bind(2, reason).run();
    if (db_->changes() == 0) return Status::failed("quarantine " + room + ": no such room");
    return Status::ok();
  } catch (const std::exception& e) {
    return Status::failed("quarantine " + room + ": " + e.what());
  }
}

std::variant<int, std::string> SqliteStore::purge(const char* what, const char* sql, std::int64_t ms) {
  std::lock_guard lock(mu_);
  try {
    known_.clear();
    int removed = 0;
    transaction(*db_, [&] {
      // The log first (the cascade of the rooms it belongs to), then the rooms.
      db_->prepare(std::string("DELETE FROM actions WHERE room IN (SELECT id FROM rooms WHERE ") + sql + ")")
          .bind(1, ms)
          .run();
      db_->prepare(std::string("DELETE FROM analyses WHERE room IN (SELECT id FROM rooms WHERE ") + sql + ")")
          .bind(1, ms)
          .run();
      db_->prepare(std::string("DELETE FROM rooms WHERE ") + sql).bind(1, ms).run();
      removed = db_->changes();
    });
    return removed;
  } catch (const std::exception& e) {
    return std::string(what) + ": " + e.what();
  }
}

std::variant<int, std::string> SqliteStore::purge_finished_before(std::int64_t ms) {
  return purge("purge_finished_before", "phase = 'finished' AND quarantined IS NULL AND updated_ms < ?1", ms);
}

std::variant<int, std::string> SqliteStore::purge_idle_before(std::int64_t ms) {
  return purge("purge_idle_before", "phase <> 'finished' AND quarantined IS NULL AND updated_ms < ?1", ms);
}

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
