// A WAL checkpoint that fails: counted, logged once per episode, the log's size
// and the counts visible to /metrics (RoomStore::health), and checkpoints succeed again once
// the cause is gone.
#include <doctest/doctest.h>
#include <sqlite3.h>

#include <chrono>
#include <filesystem>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "carc/server/sqlite_store.hpp"
#include "helpers.hpp"

using carc::server::SqliteStore;
using carc::test::append;
using carc::test::create;
using carc::test::TempDir;

TEST_CASE("sqlite: a failing checkpoint is counted and logged once per episode; the log's size is reported") {
  TempDir tmp;
  std::mutex m;
  std::vector<std::string> said;
  SqliteStore::Options o;
  o.sync = SqliteStore::Sync::Normal;
  o.checkpoint_kib = 16;     // 16 pages of 1 KiB: a checkpoint every few appends
  // A RESTART checkpoint gives up behind the reader after WalCheckpointer::kRestartWaitMs
  // (250 ms), holding the writer's commits meanwhile; they wait for it (busy timeout 5 s).
  o.warn = [&](const std::string& what) {
    std::lock_guard lock(m);
    said.push_back(what);
  };
  auto s = SqliteStore::open(tmp.path(), o);
  REQUIRE(create(*s, "r"));
  CHECK(s->health().checkpoint_failures == 0);

  // A reader that keeps its snapshot (a backup tool, a forgotten sqlite3 shell): the log
  // cannot start over, and a RESTART checkpoint fails once it waited its busy timeout.
  sqlite3* reader = nullptr;
  REQUIRE(sqlite3_open_v2((tmp.path() / SqliteStore::kFileName).c_str(), &reader, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK);
  REQUIRE(sqlite3_exec(reader, "BEGIN; SELECT count(*) FROM actions;", nullptr, nullptr, nullptr) == SQLITE_OK);

  const std::string payload(600, 'p');
  int seq = 0;
  for (; seq < 2000 && s->checkpoint_failures() < 3; ++seq) {
    REQUIRE(append(*s, "r", seq, payload, seq + 2));
    if (seq % 50 == 49) std::this_thread::sleep_for(std::chrono::milliseconds(30));
  }
  const auto h = s->health();
  MESSAGE("failures " << h.checkpoint_failures << ", log " << h.wal_bytes << " bytes after " << seq << " appends");
  CHECK(h.checkpoint_failures >= 3);
  CHECK(h.wal_bytes > 4 * 16 * 1024);
  // One line an episode: failures and recoveries alternate. A busy machine may fail a
  // checkpoint for a moment before the reader's episode (the log starting over just then),
  // so what was said before it may hold one more failure and its recovery.
  const auto failed = [](const std::string& line) { return line.find("checkpoint failed") != std::string::npos; };
  std::size_t lines = 0;
  {
    std::lock_guard lock(m);
    for (const std::string& line : said) MESSAGE("said: " << line);
    REQUIRE(!said.empty());
    CHECK(failed(said.back()));
    for (std::size_t i = 0; i < said.size(); ++i) CHECK(failed(said[i]) == (i % 2 == 0));
    lines = said.size();
  }

  // The reader lets go: the next checkpoint succeeds, which is said once too.
  REQUIRE(sqlite3_exec(reader, "COMMIT;", nullptr, nullptr, nullptr) == SQLITE_OK);
  sqlite3_close(reader);
  const auto before = s->checkpoints();
  for (int i = 0; i < 400 && s->checkpoints() == before; ++i, ++seq) {
    REQUIRE(append(*s, "r", seq, payload, seq + 2));
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  CHECK(s->checkpoints() > before);
  std::lock_guard lock(m);
  REQUIRE(said.size() == lines + 1);
  CHECK(said.back().find("succeed again") != std::string::npos);
}
