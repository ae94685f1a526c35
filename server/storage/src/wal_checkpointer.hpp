// Checkpoints the SQLite store's write-ahead log on a thread and connection of its own, so
// that no commit ever waits for a checkpoint.
//
// SQLite's automatic checkpoint runs inside the COMMIT that takes the log over its
// threshold: that commit copies the log into the database file and, with
// synchronous=FULL, syncs both before it returns. Every move waiting for that commit
// waited milliseconds longer; at 1,000 rooms it doubled the p99 of move-to-every-client
// (docs/hot-path.md). Here the writer's WAL hook only wakes this thread, which runs a
// PASSIVE checkpoint: it copies what it can while commits go on, and never blocks them.
// Should the log reach kCap times the threshold all the same (commits back to back leave
// no moment at which all of it is in the database, and only then does it start over), a
// RESTART checkpoint holds the commits for as long as it copies the rest: the log stays
// bounded, and that wait, which SQLite's own makes at every threshold, comes only then.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>

struct sqlite3;

namespace carc::server {

class Db;

class WalCheckpointer {
 public:
  // Opens its own connection to `file` (already in WAL mode) and installs a WAL hook on
  // `writer` (which replaces SQLite's automatic checkpoint on that connection). `pages`:
  // the log's size, in pages, that asks for a checkpoint. Throws SqlError.
  WalCheckpointer(const std::string& file, sqlite3* writer, int pages, const std::string& sync_pragma,
                  int busy_timeout_ms, std::function<void(const std::string&)> warn);
  // Removes the hook, stops and joins the thread. The writer's connection, closed last,
  // checkpoints what is left.
  ~WalCheckpointer();
  WalCheckpointer(const WalCheckpointer&) = delete;
  WalCheckpointer& operator=(const WalCheckpointer&) = delete;

  std::uint64_t checkpoints() const;  // completed, since the store opened
  std::uint64_t restarts() const;     // of them, RESTART ones (the log had reached kCap times the threshold)
  std::uint64_t failures() const;     // checkpoints that failed (busy past the timeout, disk full, I/O)

  static constexpr int kCap = 4;
  static constexpr int kRestartWaitMs = 250;  // the longest a RESTART checkpoint holds commits waiting for readers

 private:
  static int on_wal(void* self, sqlite3*, const char*, int pages);
  void run();
  void say(const std::string& what) const;

  sqlite3* writer_;
  std::function<void(const std::string&)> warn_;
  int pages_;
  std::unique_ptr<Db> db_;
  mutable std::mutex mu_;
  std::condition_variable wake_;
  bool due_ = false;
  bool stop_ = false;
  std::uint64_t checkpoints_ = 0;
  std::uint64_t restarts_ = 0;
  std::uint64_t failures_ = 0;
  bool failing_ = false;  // the last checkpoint failed: logged once per episode
  std::thread thread_;  // last: starts once everything above is ready
};

}  // namespace carc::server
