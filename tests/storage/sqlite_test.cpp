// What only the SQLite store has: its file, WAL mode, schema versions and forward
// migrations, and how it refuses files it must not touch (left byte-identical).
#include <doctest/doctest.h>
#include <sqlite3.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "carc/server/sqlite_store.hpp"
#include "helpers.hpp"

using carc::server::SqliteStore;
using carc::server::Status;
using carc::server::StorageError;
using carc::server::StoredAction;
using carc::test::append;
using carc::test::bump;
using carc::test::create;
using carc::test::load;
using carc::test::slurp;
using carc::test::spit;
using carc::test::TempDir;

namespace {

// Runs `sql` on a database file directly (to build old or odd databases by hand).
void raw_sql(const std::filesystem::path& file, const std::string& sql) {
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open(file.c_str(), &db) == SQLITE_OK);
  char* err = nullptr;
  const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err);
  INFO((err != nullptr ? err : ""));
  sqlite3_free(err);
  sqlite3_close(db);
  REQUIRE(rc == SQLITE_OK);
}

std::int64_t raw_int(const std::filesystem::path& file, const std::string& sql) {
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open(file.c_str(), &db) == SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  REQUIRE(sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr) == SQLITE_OK);
  REQUIRE(sqlite3_step(st) == SQLITE_ROW);
  const std::int64_t v = sqlite3_column_int64(st, 0);
  sqlite3_finalize(st);
  sqlite3_close(db);
  return v;
}

std::string open_error(const std::filesystem::path& dir) {
  try {
    SqliteStore::open(dir);
  } catch (const StorageError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("sqlite: a file database survives reopening, in WAL mode at the latest schema") {
  TempDir tmp;
  const auto dir = tmp.path() / "nested" / "data";  // created if missing
  {
    auto s = SqliteStore::open(dir);
    REQUIRE(create(*s, "persisted-room"));
    REQUIRE(append(*s, "persisted-room", 0, "start", 4, "playing"));
    REQUIRE(bump(*s, "persisted-room", 5));
  }
  CHECK(std::filesystem::exists(dir / "carcassonne.db"));
  {
    SqliteStore::Options o;
    o.sync = SqliteStore::Sync::Normal;
    auto s = SqliteStore::open(dir, o);
    auto back = load(*s, "persisted-room");
    REQUIRE(back);
    CHECK(back->version == 5);
    CHECK(back->phase == "playing");
    CHECK(back->actions == std::vector<StoredAction>{{0, "start"}});
    CHECK(s->describe() == "SQLite " + (dir / "carcassonne.db").string());
  }
  CHECK(raw_int(dir / "carcassonne.db", "PRAGMA user_version") == SqliteStore::kSchemaVersion);
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open((dir / "carcassonne.db").c_str(), &db) == SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &st, nullptr);
  REQUIRE(sqlite3_step(st) == SQLITE_ROW);
  CHECK(std::string(reinterpret_cast<const char*>(sqlite3_column_text(st, 0))) == "wal");
  sqlite3_finalize(st);
  sqlite3_close(db);
}

TEST_CASE("sqlite: a version-1 database is migrated forward with its rooms") {
  TempDir tmp;
  const auto file = tmp.path() / "carcassonne.db";
  // Schema version 1 as it shipped: no quarantine column, a seats table.
  raw_sql(file,
          "CREATE TABLE rooms(id TEXT PRIMARY KEY, phase TEXT NOT NULL, seed INTEGER NOT NULL,"
          " settings TEXT NOT NULL, version INTEGER NOT NULL, created_ms INTEGER NOT NULL,"
          " updated_ms INTEGER NOT NULL);"
          "CREATE TABLE seats(room TEXT NOT NULL REFERENCES rooms(id) ON DELETE CASCADE,"
          " seat INTEGER NOT NULL, name TEXT NOT NULL, token_hash TEXT NOT NULL,"
          " PRIMARY KEY(room, seat)) WITHOUT ROWID;"
          "CREATE TABLE actions(room TEXT NOT NULL REFERENCES rooms(id) ON DELETE CASCADE,"
          " seq INTEGER NOT NULL, payload TEXT NOT NULL, PRIMARY KEY(room, seq)) WITHOUT ROWID;"
          "INSERT INTO rooms VALUES('old-room', 'playing', -2, '{}', 12, 100, 200);"
          "INSERT INTO seats VALUES('old-room', 0, 'Ann', 'h0'), ('old-room', 1, 'Ben', 'h1');"
          "INSERT INTO actions VALUES('old-room', 1, 'p1'), ('old-room', 0, 'p0');"
          "PRAGMA user_version = 1;");
  auto s = SqliteStore::open(tmp.path());
  auto r = load(*s, "old-room");
  REQUIRE(r);
  CHECK(r->version == 12);
  CHECK(r->created_ms == 100);
  CHECK(r->actions == std::vector<StoredAction>{{0, "p0"}, {1, "p1"}});
  CHECK(s->quarantine("old-room", "v2 feature works"));  // the column added by step 2
  CHECK(s->quarantined().size() == 1);
  REQUIRE(append(*s, "old-room", 2, "p2", 13));  // the log goes on after the migration
  CHECK(load(*s, "old-room")->version == 13);     // step 4: the action keeps its version
  s.reset();
  CHECK(raw_int(file, "PRAGMA user_version") == 6);
  CHECK(raw_int(file, "SELECT count(*) FROM sqlite_master WHERE name = 'analyses'") == 1);  // step 5
  CHECK(raw_int(file, "SELECT count(*) FROM sqlite_master WHERE name IN ('wakes', 'player_keys', 'key_seats', 'notices_sent')") == 4);  // step 6
  CHECK(raw_int(file, "SELECT version FROM actions WHERE room = 'old-room' AND seq = 0") == 0);  // older actions
  CHECK(raw_int(file, "SELECT count(*) FROM sqlite_master WHERE name = 'seats'") == 0);  // step 3
  CHECK(raw_int(file, "SELECT seed FROM rooms WHERE id = 'old-room'") == -2);  // kept as it was
}

TEST_CASE("sqlite: a version-5 database whose key and wake tables were made outside the migrations keeps their rows") {
  TempDir tmp;
  const auto file = tmp.path() / "carcassonne.db";
  {
    auto s = SqliteStore::open(tmp.path());  // the latest schema, then back to 5 with the rows a server of then made
  }
  raw_sql(file,
          "INSERT INTO player_keys VALUES('k1', 10);"
          "INSERT INTO key_seats VALUES('k1', 'room-a', 1, 'sealed', 11);"
          "INSERT INTO notices_sent VALUES('n1', 12);"
          "INSERT INTO wakes VALUES('room-a', 13);"
          "PRAGMA user_version = 5;");
  {
    auto s = SqliteStore::open(tmp.path());
  }
  CHECK(raw_int(file, "PRAGMA user_version") == SqliteStore::kSchemaVersion);
  CHECK(raw_int(file, "SELECT created_ms FROM player_keys WHERE hash = 'k1'") == 10);
  CHECK(raw_int(file, "SELECT seat FROM key_seats WHERE key_hash = 'k1' AND room = 'room-a'") == 1);
  CHECK(raw_int(file, "SELECT sent_ms FROM notices_sent WHERE id = 'n1'") == 12);
  CHECK(raw_int(file, "SELECT due_ms FROM wakes WHERE room = 'room-a'") == 13);
}

TEST_CASE("sqlite: an append writes the log alone; the version comes back from it, updated_ms within a minute") {
  TempDir tmp;
  const auto file = tmp.path() / "carcassonne.db";
  std::atomic<std::int64_t> t{1'000};
  SqliteStore::Options o;
  o.clock = [&t] { return t.load(); };
  auto s = SqliteStore::open(tmp.path(), o);
  REQUIRE(create(*s, "r", 1'000));
  REQUIRE(append(*s, "r", 0, "start", 5, "playing"));  // a phase change writes the row
  t = 2'000;
  REQUIRE(append(*s, "r", 1, "m1", 6));
  REQUIRE(append(*s, "r", 2, "m2", 7));
  auto r = load(*s, "r");
  REQUIRE(r);
  CHECK(r->version == 7);  // from the last action
  CHECK(r->phase == "playing");
  CHECK(r->updated_ms == 1'000);  // less than a minute old: left alone
  CHECK(r->actions.size() == 3);
  t = 61'000;
  REQUIRE(append(*s, "r", 3, "m3", 8));
  r = load(*s, "r");
  CHECK(r->version == 8);
  CHECK(r->updated_ms == 61'000);  // a minute old: refreshed
  REQUIRE(bump(*s, "r", 9));  // a version bump still writes the row
  CHECK(load(*s, "r")->version == 9);
  t = 62'000;
  REQUIRE(append(*s, "r", 4, "end", 10, "finished"));
  r = load(*s, "r");
  CHECK(r->phase == "finished");
  CHECK(r->updated_ms == 62'000);
  CHECK(r->version == 10);
  // A room that is gone refuses the append and writes nothing.
  const Status gone = append(*s, "ghost", 0, "x", 2);
  CHECK_FALSE(gone);
  CHECK(gone.error().find("no such room") != std::string::npos);
  s.reset();
  CHECK(raw_int(file, "SELECT version FROM rooms WHERE id = 'r'") == 10);
  CHECK(raw_int(file, "SELECT count(*) FROM actions WHERE room = 'ghost'") == 0);
}

TEST_CASE("sqlite: a newer schema is refused and left untouched") {
  TempDir tmp;
  const auto file = tmp.path() / "carcassonne.db";
  raw_sql(file, "CREATE TABLE future(x); PRAGMA user_version = 99;");
  const std::string before = slurp(file);
  const std::string msg = open_error(tmp.path());
  CHECK(msg.find("newer") != std::string::npos);
  CHECK(msg.find("99") != std::string::npos);
  CHECK(slurp(file) == before);
}

TEST_CASE("sqlite: a garbage file is refused with a clear message and left byte-identical") {
  TempDir tmp;
  const auto file = tmp.path() / "carcassonne.db";
  std::string garbage;
  for (int i = 0; i < 10000; ++i) garbage.push_back(static_cast<char>((i * 7919) % 251));
  spit(file, garbage);
  const std::string msg = open_error(tmp.path());
  CHECK(msg.find("not a SQLite database") != std::string::npos);
  CHECK(msg.find("untouched") != std::string::npos);
  CHECK(slurp(file) == garbage);
  CHECK_FALSE(std::filesystem::exists(tmp.path() / "carcassonne.db-wal"));
}

TEST_CASE("sqlite: a SQLite file with damaged pages is refused and left byte-identical") {
  TempDir tmp;
  const auto file = tmp.path() / "carcassonne.db";
  {
    auto s = SqliteStore::open(tmp.path());
    for (int i = 0; i < 40; ++i) {
      REQUIRE(create(*s, "room-" + std::to_string(i)));
      REQUIRE(append(*s, "room-" + std::to_string(i), 0, std::string(500, 'x'), 1, "playing"));
    }
  }  // closing checkpoints the WAL into the main file
  std::string bytes = slurp(file);
  REQUIRE(bytes.size() > 4 * 4096);
  for (std::size_t i = 4096 + 8; i < bytes.size(); i += 3) bytes[i] = static_cast<char>(0xA5);  // keep page 1
  spit(file, bytes);
  const std::string msg = open_error(tmp.path());
  INFO(msg);
  CHECK(msg.find("corrupt") != std::string::npos);
  CHECK(slurp(file) == bytes);
}

TEST_CASE("sqlite: an unusable data folder path is reported") {
  TempDir tmp;
  spit(tmp.path() / "file", "x");
  CHECK(open_error(tmp.path() / "file").find("cannot create the data folder") != std::string::npos);
  std::filesystem::create_directory(tmp.path() / "d");
  std::filesystem::create_directory(tmp.path() / "d" / "carcassonne.db");
  CHECK(open_error(tmp.path() / "d").find("not a regular file") != std::string::npos);
}


// Below four times the threshold commits never checkpoint (SQLite's automatic checkpoint
// is off on the writer); the checkpoint thread copies the log into the database file once
// it passes its threshold, and the log stays bounded even under commits back to back.
TEST_CASE("sqlite: the log is checkpointed by its own thread and stays bounded") {
  // About a move a millisecond, as a busy server commits them.
  const auto write_many = [](SqliteStore& s) {
    REQUIRE(create(s, "busy-room"));
    const std::string payload(300, 'p');
    for (int seq = 0; seq < 1500; ++seq) {
      REQUIRE(append(s, "busy-room", seq, payload, seq + 2));
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  };
  const auto db_bytes = [](const std::filesystem::path& dir) { return std::filesystem::file_size(dir / "carcassonne.db"); };

  TempDir tmp;
  const auto quiet = tmp.path() / "quiet";
  const auto busy = tmp.path() / "busy";
  SqliteStore::Options never;
  never.sync = SqliteStore::Sync::Normal;
  never.checkpoint_kib = 1 << 30;
  SqliteStore::Options often = never;
  often.checkpoint_kib = 16;

  auto q = SqliteStore::open(quiet, never);
  const auto quiet_before = db_bytes(quiet);
  write_many(*q);
  // About 450 KB went into the log, and none of it into the database file.
  CHECK(std::filesystem::file_size(quiet / "carcassonne.db-wal") > 400'000);
  MESSAGE("log sizes: " << std::filesystem::file_size(quiet / "carcassonne.db-wal") << " bytes without checkpoints");
  CHECK(db_bytes(quiet) == quiet_before);
  CHECK(q->checkpoints() == 0);

  auto b = SqliteStore::open(busy, often);
  write_many(*b);
  for (int i = 0; i < 500 && (b->checkpoints() == 0 || db_bytes(busy) < 400'000); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  MESSAGE("log: " << std::filesystem::file_size(busy / "carcassonne.db-wal") << " bytes; checkpoints: " << b->checkpoints() << ", " << b->checkpoint_restarts() << " of them RESTART");
  CHECK(b->checkpoints() > 0);
  CHECK(db_bytes(busy) > 400'000);
  // The log starts over once it is all in the database, so it stays smaller than the quiet one.
  CHECK(std::filesystem::file_size(busy / "carcassonne.db-wal") < std::filesystem::file_size(quiet / "carcassonne.db-wal"));

  // Both hold every action, now and after reopening.
  for (const auto& dir : {quiet, busy}) {
    auto back = load(dir == quiet ? *q : *b, "busy-room");
    REQUIRE(back);
    CHECK(back->actions.size() == 1500);
  }
  q.reset();
  b.reset();
  for (const auto& dir : {quiet, busy}) {
    auto s = SqliteStore::open(dir);
    auto back = load(*s, "busy-room");
    REQUIRE(back);
    CHECK(back->actions.size() == 1500);
    CHECK(back->version == 1501);
  }
}

// The writer's page cache is bounded (Options::cache_kib); what falls out of it is read
// back from the file, so a database far larger than the cache still holds and serves
// everything.
TEST_CASE("sqlite: the page cache stays within its bound while the database grows past it") {
  TempDir tmp;
  SqliteStore::Options small;
  small.sync = SqliteStore::Sync::Normal;
  small.cache_kib = 64;
  SqliteStore::Options big = small;
  big.cache_kib = 2048;
  const auto fill = [](SqliteStore& s) {
    const std::string payload(200, 'a');
    for (int r = 0; r < 400; ++r) {
      const std::string room = "cache-room-" + std::to_string(r);
      REQUIRE(create(s, room));
      for (int seq = 0; seq < 10; ++seq) REQUIRE(append(s, room, seq, payload, seq + 2));
    }
  };
  auto s = SqliteStore::open(tmp.path() / "small", small);
  auto l = SqliteStore::open(tmp.path() / "big", big);
  fill(*s);
  fill(*l);
  MESSAGE("page cache: " << s->cache_bytes() << " bytes at 64 KiB, " << l->cache_bytes() << " at 2 MiB");
  CHECK(std::filesystem::file_size(tmp.path() / "small" / "carcassonne.db") +
            std::filesystem::file_size(tmp.path() / "small" / "carcassonne.db-wal") > 800'000);
  // A page of cache costs a little more than the page itself (its header); 64 KiB is 64 pages of 1 KiB.
  CHECK(s->cache_bytes() <= 64 * 1024 * 3 / 2);
  CHECK(l->cache_bytes() > 4 * s->cache_bytes());
  for (int r = 0; r < 400; r += 37) {
    auto back = load(*s, "cache-room-" + std::to_string(r));
    REQUIRE(back);
    CHECK(back->actions.size() == 10);
  }
  CHECK(s->cache_bytes() <= 64 * 1024 * 3 / 2);
}

TEST_CASE("sqlite: the store keeps the log to its rooms: appends to known rooms read nothing, deletes leave no orphan") {
  TempDir tmp;
  const auto file = tmp.path() / "carcassonne.db";
  std::atomic<std::int64_t> t{1'000};
  SqliteStore::Options o;
  o.clock = [&t] { return t.load(); };
  auto s = SqliteStore::open(tmp.path(), o);
  REQUIRE(create(*s, "gone", 1'000));
  REQUIRE(append(*s, "gone", 0, "start", 2, "playing"));
  REQUIRE(append(*s, "gone", 1, "m1", 3));
  REQUIRE(create(*s, "done", 1'000));
  REQUIRE(append(*s, "done", 0, "start", 2, "playing"));
  REQUIRE(append(*s, "done", 1, "end", 3, "finished"));
  REQUIRE(create(*s, "idle", 1'000));
  REQUIRE(append(*s, "idle", 0, "start", 2, "playing"));
  // A removed room: its log goes with it, and a later append is refused though the store
  // had just written to it.
  REQUIRE(s->apply(carc::server::RemoveRoom{"gone"}));
  const Status late = append(*s, "gone", 2, "m2", 4);
  CHECK_FALSE(late);
  CHECK(late.error().find("no such room") != std::string::npos);
  // Purges take the logs of the rooms they delete.
  t = 10'000'000;
  REQUIRE(std::get<int>(s->purge_finished_before(5'000'000)) == 1);
  REQUIRE(std::get<int>(s->purge_idle_before(5'000'000)) == 1);
  CHECK_FALSE(append(*s, "idle", 1, "m1", 3));
  // A room the store learns of by loading it takes appends; one it never heard of does not.
  REQUIRE(create(*s, "later", 1'000));
  s.reset();
  s = SqliteStore::open(tmp.path(), o);
  REQUIRE(load(*s, "later"));
  REQUIRE(append(*s, "later", 0, "start", 2, "playing"));
  REQUIRE(append(*s, "later", 1, "m1", 3));
  CHECK(load(*s, "later")->actions.size() == 2);
  s.reset();
  CHECK(raw_int(file, "SELECT count(*) FROM actions WHERE room NOT IN (SELECT id FROM rooms)") == 0);
  CHECK(raw_int(file, "SELECT count(*) FROM rooms") == 1);
}
