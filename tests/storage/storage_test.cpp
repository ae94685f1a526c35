#include <doctest/doctest.h>
#include <sqlite3.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "carc/server/storage.hpp"
#include "helpers.hpp"

using carc::server::Storage;
using carc::server::StorageError;
using carc::server::StoredAction;
using carc::server::StoredRoom;
using carc::server::StoredSeat;
using carc::test::sample_room;
using carc::test::slurp;
using carc::test::spit;
using carc::test::TempDir;

namespace {

Storage::Options fixed_clock(std::atomic<std::int64_t>& t) {
  Storage::Options o;
  o.clock = [&t] { return t.load(); };
  return o;
}

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

std::string open_error(const std::filesystem::path& dir) {
  try {
    Storage::open(dir);
  } catch (const StorageError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("storage: a room round-trips with its seats and actions, in memory") {
  std::atomic<std::int64_t> t{5000};
  auto s = Storage::in_memory(fixed_clock(t));
  StoredRoom r = sample_room("room-aaaaaaaaaa");
  r.actions = {{0, R"({"type":"start"})"}, {1, R"({"type":"play","x":1})"}};
  REQUIRE(s->create_room(r));

  auto back = s->load_room("room-aaaaaaaaaa");
  REQUIRE(back);
  r.updated_ms = 5000;
  CHECK(*back == r);
  CHECK(back->seed == 0xDEADBEEFCAFEF00DULL);  // the full 64 bits survive a signed column
  CHECK_FALSE(s->load_room("nope"));
  CHECK_FALSE(s->create_room(r));  // already there
  CHECK(s->last_error().find("room-aaaaaaaaaa") != std::string::npos);
  REQUIRE(s->load_rooms().size() == 1);
  CHECK(s->load_rooms()[0] == r);
}

TEST_CASE("storage: actions come back in order; a duplicate or orphan action is refused") {
  auto s = Storage::in_memory();
  REQUIRE(s->create_room(sample_room("r1")));
  REQUIRE(s->create_room(sample_room("r2")));
  // Interleave two rooms and insert out of order on purpose: order is by seq, per room.
  for (int i = 0; i < 50; ++i) {
    const std::int64_t seq = (i * 7) % 50;
    REQUIRE(s->append_action("r1", seq, "a" + std::to_string(seq), i + 10, "playing"));
    REQUIRE(s->append_action("r2", i, "b" + std::to_string(i), i + 10, i == 49 ? "finished" : "playing"));
  }
  auto r1 = s->load_room("r1");
  REQUIRE(r1);
  REQUIRE(r1->actions.size() == 50);
  for (std::size_t i = 0; i < 50; ++i) {
    CHECK(r1->actions[i].seq == static_cast<std::int64_t>(i));
    CHECK(r1->actions[i].payload == "a" + std::to_string(i));
  }
  CHECK(r1->version == 59);
  CHECK(r1->phase == "playing");
  CHECK(s->load_room("r2")->phase == "finished");

  CHECK_FALSE(s->append_action("r1", 3, "again", 99, "finished"));
  CHECK_FALSE(s->last_error().empty());
  auto after = s->load_room("r1");
  CHECK(after->actions == r1->actions);  // the failed transaction changed nothing
  CHECK(after->version == 59);
  CHECK(after->phase == "playing");

  CHECK_FALSE(s->append_action("ghost", 0, "x", 1, "playing"));
  CHECK_FALSE(s->load_room("ghost"));
}

TEST_CASE("storage: seats are inserted or replaced; version never goes back") {
  auto s = Storage::in_memory();
  REQUIRE(s->create_room(sample_room("r")));
  REQUIRE(s->put_seat("r", {2, "Carol", std::string(64, 'c')}));
  REQUIRE(s->put_seat("r", {1, "Bobby", std::string(64, 'd')}));
  CHECK_FALSE(s->put_seat("ghost", {0, "X", "h"}));
  auto r = s->load_room("r");
  REQUIRE(r->seats.size() == 3);
  CHECK(r->seats[1] == StoredSeat{1, "Bobby", std::string(64, 'd')});
  CHECK(r->seats[2].name == "Carol");

  CHECK(s->set_version("r", 10));
  CHECK(s->set_version("r", 7));  // stale writer: ignored, not an error
  CHECK(s->load_room("r")->version == 10);
  CHECK(s->set_phase("r", "playing"));
  CHECK_FALSE(s->set_phase("ghost", "playing"));
  CHECK(s->set_settings("r", R"({"x":1})"));
  CHECK(s->load_room("r")->settings == R"({"x":1})");
  CHECK(s->load_room("r")->phase == "playing");
}

TEST_CASE("storage: a file database survives reopening, in WAL mode at the latest schema") {
  TempDir tmp;
  const auto dir = tmp.path() / "nested" / "data";  // created if missing
  StoredRoom r = sample_room("persisted-room");
  {
    auto s = Storage::open(dir);
    REQUIRE(s->create_room(r));
    REQUIRE(s->append_action(r.id, 0, "start", 4, "playing"));
    REQUIRE(s->set_version(r.id, 5));
  }
  CHECK(std::filesystem::exists(dir / "carcassonne.db"));
  {
    Storage::Options o;
    o.sync = Storage::Sync::Normal;
    auto s = Storage::open(dir, o);
    auto back = s->load_room(r.id);
    REQUIRE(back);
    CHECK(back->version == 5);
    CHECK(back->phase == "playing");
    CHECK(back->actions == std::vector<StoredAction>{{0, "start"}});
    CHECK(back->seats == r.seats);
  }
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open((dir / "carcassonne.db").c_str(), &db) == SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, nullptr);
  REQUIRE(sqlite3_step(st) == SQLITE_ROW);
  CHECK(sqlite3_column_int(st, 0) == Storage::kSchemaVersion);
  sqlite3_finalize(st);
  sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &st, nullptr);
  REQUIRE(sqlite3_step(st) == SQLITE_ROW);
  CHECK(std::string(reinterpret_cast<const char*>(sqlite3_column_text(st, 0))) == "wal");
  sqlite3_finalize(st);
  sqlite3_close(db);
}

TEST_CASE("storage: a version-1 database is migrated forward with its rooms") {
  TempDir tmp;
  const auto file = tmp.path() / "carcassonne.db";
  // Schema version 1 as it shipped: no quarantine column.
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
  auto s = Storage::open(tmp.path());
  auto r = s->load_room("old-room");
  REQUIRE(r);
  CHECK(r->seed == 0xFFFFFFFFFFFFFFFEULL);
  CHECK(r->version == 12);
  CHECK(r->seats.size() == 2);
  CHECK(r->actions == std::vector<StoredAction>{{0, "p0"}, {1, "p1"}});
  CHECK(s->quarantine("old-room", "v2 feature works"));  // the column added by step 2
  CHECK(s->quarantined().size() == 1);
}

TEST_CASE("storage: a newer schema is refused and left untouched") {
  TempDir tmp;
  const auto file = tmp.path() / "carcassonne.db";
  raw_sql(file, "CREATE TABLE future(x); PRAGMA user_version = 99;");
  const std::string before = slurp(file);
  const std::string msg = open_error(tmp.path());
  CHECK(msg.find("newer") != std::string::npos);
  CHECK(msg.find("99") != std::string::npos);
  CHECK(slurp(file) == before);
}

TEST_CASE("storage: a garbage file is refused with a clear message and left byte-identical") {
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

TEST_CASE("storage: a SQLite file with damaged pages is refused and left byte-identical") {
  TempDir tmp;
  const auto file = tmp.path() / "carcassonne.db";
  {
    auto s = Storage::open(tmp.path());
    for (int i = 0; i < 40; ++i) {
      REQUIRE(s->create_room(sample_room("room-" + std::to_string(i))));
      REQUIRE(s->append_action("room-" + std::to_string(i), 0, std::string(500, 'x'), 1, "playing"));
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

TEST_CASE("storage: an unusable data folder path is reported") {
  TempDir tmp;
  spit(tmp.path() / "file", "x");
  CHECK(open_error(tmp.path() / "file").find("cannot create the data folder") != std::string::npos);
  std::filesystem::create_directory(tmp.path() / "d");
  std::filesystem::create_directory(tmp.path() / "d" / "carcassonne.db");
  CHECK(open_error(tmp.path() / "d").find("not a regular file") != std::string::npos);
}

TEST_CASE("storage: quarantined rooms are kept aside, reported, and never purged") {
  std::atomic<std::int64_t> t{1000};
  auto s = Storage::in_memory(fixed_clock(t));
  REQUIRE(s->create_room(sample_room("good")));
  REQUIRE(s->create_room(sample_room("bad")));
  REQUIRE(s->append_action("bad", 0, "start", 4, "playing"));
  REQUIRE(s->quarantine("bad", "move 0 refused: illegal_placement"));
  CHECK_FALSE(s->quarantine("ghost", "x"));

  auto rooms = s->load_rooms();
  REQUIRE(rooms.size() == 1);
  CHECK(rooms[0].id == "good");
  auto q = s->quarantined();
  REQUIRE(q.size() == 1);
  CHECK(q[0].first == "bad");
  CHECK(q[0].second == "move 0 refused: illegal_placement");
  REQUIRE(s->load_room("bad"));  // still readable, with its log
  CHECK(s->load_room("bad")->quarantined == "move 0 refused: illegal_placement");
  CHECK(s->load_room("good")->quarantined.empty());
  CHECK(s->load_room("bad")->actions.size() == 1);

  t = 1'000'000;
  CHECK(s->purge_idle_before(999'999) == 1);  // "good" only
  CHECK(s->purge_finished_before(999'999) == 0);
  CHECK(s->quarantined().size() == 1);
  CHECK(s->load_room("bad"));
}

TEST_CASE("storage: purge removes finished games after their time and idle rooms, with their logs") {
  std::atomic<std::int64_t> t{1000};
  auto s = Storage::in_memory(fixed_clock(t));
  REQUIRE(s->create_room(sample_room("lobby-old")));
  REQUIRE(s->create_room(sample_room("done-old")));
  REQUIRE(s->append_action("done-old", 0, "start", 4, "finished"));
  t = 5000;
  REQUIRE(s->create_room(sample_room("lobby-new")));
  REQUIRE(s->create_room(sample_room("done-new")));
  REQUIRE(s->append_action("done-new", 0, "start", 4, "finished"));
  REQUIRE(s->create_room(sample_room("playing-new")));
  REQUIRE(s->append_action("playing-new", 0, "start", 4, "playing"));

  CHECK(s->purge_finished_before(3000) == 1);
  CHECK_FALSE(s->load_room("done-old"));
  CHECK(s->load_room("done-new"));
  CHECK(s->load_room("lobby-old"));
  CHECK(s->purge_idle_before(3000) == 1);
  CHECK_FALSE(s->load_room("lobby-old"));
  CHECK(s->load_rooms().size() == 3);

  // A write refreshes the idle clock.
  t = 9000;
  REQUIRE(s->set_version("lobby-new", 10));
  CHECK(s->purge_idle_before(8000) == 1);  // playing-new
  CHECK(s->load_room("lobby-new"));
  // The logs went with the rooms: a new room with an old id starts clean.
  REQUIRE(s->create_room(sample_room("done-old")));
  CHECK(s->load_room("done-old")->actions.empty());
}

TEST_CASE("storage: concurrent writers from many threads") {
  TempDir tmp;
  auto s = Storage::open(tmp.path(), {Storage::Sync::Normal, 5000, {}});
  constexpr int kThreads = 4;
  constexpr int kMoves = 50;
  for (int i = 0; i < kThreads; ++i) REQUIRE(s->create_room(sample_room("room" + std::to_string(i))));
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int i = 0; i < kThreads; ++i) {
    threads.emplace_back([&, i] {
      const std::string id = "room" + std::to_string(i);
      for (int m = 0; m < kMoves; ++m) {
        if (!s->append_action(id, m, "m" + std::to_string(m), m + 1, "playing")) ++failures;
        if (!s->set_version(id, m + 2)) ++failures;
        (void)s->load_room(id);
      }
    });
  }
  for (auto& th : threads) th.join();
  CHECK(failures == 0);
  for (const auto& r : s->load_rooms()) {
    CHECK(r.actions.size() == kMoves);
    CHECK(r.version == kMoves + 1);
  }
}

TEST_CASE("storage: append with the next seq, keeping the phase, with the seat in the same transaction") {
  auto s = Storage::in_memory();
  REQUIRE(s->create_room(sample_room("r")));
  const StoredSeat carol{2, "Carol", std::string(64, 'c')};
  REQUIRE(s->append_action("r", R"({"type":"seat"})", 4, "", &carol));
  REQUIRE(s->append_action("r", R"({"type":"start"})", 5, "playing"));
  REQUIRE(s->append_action("r", R"({"type":"chat"})", 9, ""));
  REQUIRE(s->append_action("r", R"({"type":"move"})", 8, ""));  // an older version never wins
  auto r = s->load_room("r");
  REQUIRE(r);
  CHECK(r->actions == std::vector<StoredAction>{{0, R"({"type":"seat"})"},
                                                 {1, R"({"type":"start"})"},
                                                 {2, R"({"type":"chat"})"},
                                                 {3, R"({"type":"move"})"}});
  CHECK(r->phase == "playing");
  CHECK(r->version == 9);
  REQUIRE(r->seats.size() == 3);
  CHECK(r->seats[2] == carol);
  CHECK_FALSE(s->append_action("ghost", "x", 1, ""));
  CHECK_FALSE(s->load_room("ghost"));

  REQUIRE(s->create_room(sample_room("done")));
  REQUIRE(s->set_phase("done", "finished"));
  CHECK(s->remove_room("r"));
  CHECK(s->remove_room("done"));  // finished: kept for its record until purged
  CHECK_FALSE(s->load_room("r"));
  CHECK(s->load_room("done"));
}

// ---- group commit (Storage::commit_batch) --------------------------------------------
TEST_CASE("storage: a batch of appends over many rooms is one transaction, in order per room") {
  TempDir tmp;
  auto s = Storage::open(tmp.path() / "data");
  for (int r = 0; r < 10; ++r) REQUIRE(s->create_room(sample_room("room-" + std::to_string(r))));

  std::vector<carc::server::ActionAppend> batch;
  for (int i = 0; i < 5; ++i) {
    for (int r = 0; r < 10; ++r) {
      carc::server::ActionAppend a;
      a.room = "room-" + std::to_string(r);
      a.payload = "action " + std::to_string(i);
      a.version = 10 + i;
      a.phase = i == 0 ? "playing" : "";
      if (i == 1) a.seat = StoredSeat{2, "Carol " + std::to_string(r), std::string(64, 'c')};
      batch.push_back(a);
    }
  }
  const std::vector<std::pair<std::string, std::int64_t>> versions = {{"room-3", 40}, {"room-4", 2}};
  const auto before = s->commits();
  REQUIRE(s->commit_batch(batch, versions));
  CHECK(s->commits() == before + 1);

  s.reset();
  s = Storage::open(tmp.path() / "data");  // what is on disk
  for (int r = 0; r < 10; ++r) {
    const auto room = s->load_room("room-" + std::to_string(r));
    REQUIRE(room);
    REQUIRE(room->actions.size() == 5);
    for (int i = 0; i < 5; ++i) {
      CHECK(room->actions[static_cast<std::size_t>(i)].seq == i);
      CHECK(room->actions[static_cast<std::size_t>(i)].payload == "action " + std::to_string(i));
    }
    CHECK(room->phase == "playing");
    CHECK(room->version == (r == 3 ? 40 : 14));  // versions never go back (room-4: 2 < 14)
    REQUIRE(room->seats.size() == 3);
    CHECK(room->seats[2].name == "Carol " + std::to_string(r));
  }
}

TEST_CASE("storage: a batch with one bad append stores nothing and says which one failed") {
  auto s = Storage::in_memory();
  REQUIRE(s->create_room(sample_room("good")));
  std::vector<carc::server::ActionAppend> batch(3);
  batch[0].room = "good";
  batch[0].payload = "first";
  batch[0].version = 4;
  batch[1].room = "missing";
  batch[1].payload = "lost";
  batch[1].version = 4;
  batch[2].room = "good";
  batch[2].payload = "second";
  batch[2].version = 5;
  CHECK_FALSE(s->commit_batch(batch));
  INFO(s->last_error());
  CHECK(s->last_error().find("missing") != std::string::npos);
  CHECK(s->load_room("good")->actions.empty());
  CHECK(s->load_room("good")->version == 3);

  batch.erase(batch.begin() + 1);
  CHECK(s->commit_batch(batch));
  const auto good = s->load_room("good");
  REQUIRE(good->actions.size() == 2);
  CHECK(good->actions[1].payload == "second");
  CHECK(good->version == 5);
}

TEST_CASE("storage: a batch of version bumps alone, and an empty batch") {
  auto s = Storage::in_memory();
  REQUIRE(s->create_room(sample_room("a")));
  const auto before = s->commits();
  CHECK(s->commit_batch({}, {}));
  CHECK(s->commits() == before);
  CHECK(s->commit_batch({}, {{"a", 9}, {"nobody", 4}}));
  CHECK(s->commits() == before + 1);
  CHECK(s->load_room("a")->version == 9);
  CHECK(s->load_room("a")->actions.empty());
}
