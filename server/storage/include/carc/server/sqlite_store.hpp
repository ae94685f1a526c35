// The SQLite room store (docs/durability.md): one database `carcassonne.db` in the data folder, WAL
// mode, forward migrations on `PRAGMA user_version`. The default: nothing else to run.
//
// Thread-safe. Writes go through one connection behind a mutex (the server's one writer
// thread); load_room reads on a second, read-only connection with its own mutex, so a read
// never waits for a commit nor a commit for a read (WAL: readers see the last commit). An
// in-memory database has one connection for both.
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "carc/server/room_store.hpp"

namespace carc::server {

class Db;               // the SQLite connection (internal)
class WalCheckpointer;  // checkpoints the log off the commit path (internal)

struct SqliteOptions {
  enum class Sync { Full, Normal };  // PRAGMA synchronous for commits that carry writes
  Sync sync = Sync::Full;
  // With Sync::Full on a file: a commit writes the log without waiting for the disk and
  // sync() then syncs the log (RoomStore::syncs_apart), so that the next batch is written
  // while the disk syncs the last one. False: each commit syncs itself.
  bool sync_apart = true;
  int busy_timeout_ms = 5000;
  // The write-ahead log's size, in KiB, at which a checkpoint runs on its own thread and
  // connection: never inside a commit, and commits wait for one only if the log reaches 4
  // times this all the same. 0: SQLite's own, inside the commit. A checkpoint copies each
  // page once however often the log holds it, and a room in play rewrites its page of the
  // actions table with every move: 16 MiB (about 16 s of 1,000 rooms in play) copies a
  // fraction of what 1 MiB did (docs/hot-path.md, "Tried this evening").
  int checkpoint_kib = 16 * 1024;
  // A new file's page size in bytes (an existing file keeps its own). A commit writes every
  // page it touched to the log, then the checkpoint writes them again to the database; the
  // actions of the rooms in one commit lie on different pages (the log is keyed by room),
  // so smaller pages write less: 1 KiB pages write half of what SQLite's default 4 KiB do.
  int page_size = 1024;
  // The writer connection's page cache, in KiB (a file on disk; an in-memory store keeps
  // every page). Pages beyond it are read again through the kernel's page cache, which
  // is shared, reclaimable and not the server's own memory; SQLite's default is 2 MiB.
  // 512 KiB holds the pages that 200 rooms in play append to (1 KiB pages): at 256 the
  // writer read about 2 pages back per move flat out, at 512 about 0.15 (`/proc/<pid>/
  // task/<writer>/io`, docs/hot-path.md); at 1,000 rooms it costs half a KB a room.
  int cache_kib = 512;
  std::function<std::int64_t()> clock;  // unix ms; empty = system clock
  // Where the store reports trouble that no call returns (a checkpoint that failed, then
  // succeeds again: once per episode). Empty: stderr.
  std::function<void(const std::string&)> warn;
};

class SqliteStore final : public RoomStore {
 public:
  using Options = SqliteOptions;
  using Sync = SqliteOptions::Sync;

  static constexpr int kSchemaVersion = 6;
  static constexpr const char* kFileName = "carcassonne.db";

  // Opens (or creates) `dir`/carcassonne.db. Throws StorageError when the folder cannot be
  // created or written, the disk is full, the file is not a healthy SQLite database, or
  // its schema is newer than this binary. Never deletes or replaces an existing file.
  static std::unique_ptr<SqliteStore> open(const std::filesystem::path& dir, Options options);
  static std::unique_ptr<SqliteStore> open(const std::filesystem::path& dir) { return open(dir, Options{}); }
  static std::unique_ptr<SqliteStore> in_memory(Options options);
  static std::unique_ptr<SqliteStore> in_memory() { return in_memory(Options{}); }

  ~SqliteStore() override;

  // With Sync::Full a batch that carries writes is on disk when this returns, or, syncing
  // apart, once the sync() after it returns; a batch of version bumps alone is committed
  // without waiting for the disk (a crash keeps it, a power cut may not).
  BatchResult commit(const Batch& batch) override;
  bool syncs_apart() const override { return sync_apart_; }
  Status sync() override;
  Status quarantine(const std::string& room, const std::string& reason) override;
  std::variant<int, std::string> purge_finished_before(std::int64_t ms) override;
  std::variant<int, std::string> purge_idle_before(std::int64_t ms) override;
  RoomLoad load_room(const std::string& id) override;
  RoomsLoad load_rooms() override;
  std::vector<std::pair<std::string, std::string>> quarantined() override;
  std::uint64_t commits() const override;
  std::string describe() const override;
  StoreHealth health() const override;
  Status save_analysis(const StoredAnalysis& a) override;      // sqlite_analysis.cpp
  AnalysesLoad load_analyses(const std::string& room) override;

  const std::filesystem::path& path() const { return path_; }  // empty in memory
  std::uint64_t checkpoints() const;          // completed by the checkpoint thread
  std::uint64_t checkpoint_restarts() const;  // of them, the ones that held commits (the log reached 4x)
  std::uint64_t checkpoint_failures() const;  // checkpoints that failed (busy, disk full, I/O)
  std::size_t cache_bytes() const;            // the writer connection's page cache now

 private:
  SqliteStore(std::unique_ptr<Db> db, std::filesystem::path path, Options options);
  std::int64_t now() const;
  // Applies one write inside the open transaction; the reason it was refused, or "".
  std::string write_locked(const Write& w, std::int64_t now);
  // Reads a room through `db` (the writer's or the reads' connection, under its mutex).
  static std::optional<StoredRoom> read_room(Db& db, const std::string& id);
  std::variant<int, std::string> purge(const char* what, const char* sql, std::int64_t ms);

  mutable std::mutex mu_;
  std::unique_ptr<Db> db_;
  std::filesystem::path path_;
  Options options_;
  bool sync_apart_ = false;
  int log_fd_ = -1;  // the write-ahead log, opened by the first sync() (sync()'s thread only)
  std::atomic<bool> sync_failed_{false};  // a sync failed: what the kernel dropped is unknown
  std::unique_ptr<WalCheckpointer> checkpointer_;  // after db_: it goes first
  mutable std::mutex read_mu_;
  std::unique_ptr<Db> reader_;  // read-only, for load_room; null in memory (db_ then)
  // Rooms known to exist and the updated_ms last written for each (under mu_): an append
  // of one of them reads nothing of the rooms table (commit).
  std::unordered_map<std::string, std::int64_t> known_;
};

}  // namespace carc::server
