#include "sqlite_schema.hpp"

#include <fcntl.h>
#include <sqlite3.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <string_view>

#include "sqlite.hpp"

namespace carc::server::sqlite_schema {
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

constexpr std::string_view kSqliteMagic{"SQLite format 3\0", 16};

}  // namespace

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

}  // namespace carc::server::sqlite_schema
