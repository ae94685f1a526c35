// The Persistence hook over any RoomStore (issues 4 and 11): one writer thread, group
// commit, durable before broadcast.
//
// Every call returns at once and hands its work to ONE writer thread, which takes
// everything queued (any number of rooms: actions, new rooms, finished and removed rooms,
// version bumps), stores it in one transaction (RoomStore::commit: one fsync, one pipeline
// round trip), and only then answers each `done(ok)`. The queue is FIFO and a room has at
// most one action on its way (Room holds its later requests), so each room's order is
// kept. If the transaction fails, each of its writes is retried in its own, so only the
// ones that really cannot be stored answer `done(false)`.
//
// Reads (a room loaded on demand) and maintenance (purges, quarantine) run on the same
// thread between two batches: nothing of the store ever runs on an I/O thread or a room's
// strand. The writer numbers each room's actions (0, 1, 2, ...): it learns a room's next
// number when the room is created or loaded through it.
//
// Under load the writer waits a little before a commit (StoreWriterOptions::commit_delay,
// as PostgreSQL's commit_delay does), so one transaction, its fsync and its pages carry
// more writes; an idle server's writes are never delayed.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <vector>

#include "carc/server/room_store.hpp"
#include "persistence.hpp"

namespace carc::server {

struct StoreWriterOptions {
  // When the last pass carried at least `busy_batch` writes and the next write came within
  // `busy_gap` of its end (the server is busy), the writer waits up to `commit_delay` for
  // more before it commits again, or until `full_batch` are waiting. Zero: never waits.
  std::chrono::microseconds commit_delay{1500};
  std::chrono::microseconds busy_gap{1000};
  std::size_t busy_batch = 4;
  std::size_t full_batch = 256;
};

class StoreWriter final : public Persistence {
 public:
  using Options = StoreWriterOptions;
  explicit StoreWriter(RoomStore& store, Options options = {});
  ~StoreWriter() override;  // writes and answers everything queued, then stops the thread
  StoreWriter(const StoreWriter&) = delete;
  StoreWriter& operator=(const StoreWriter&) = delete;

  // ---- Persistence: `done` is called on the writer thread ----
  void room_created(std::string_view room, std::int64_t created_ms, Done done) override;
  void room_created_unowned(std::string_view room, std::int64_t created_ms, Done done) override;
  void persist_async(std::string_view room, std::int64_t version, std::int64_t game_version,
                     const RoomAction& action, Done done) override;
  void room_finished(std::string_view room, std::int64_t finished_ms) override;
  void room_removed(std::string_view room) override;
  // Folded per room (highest version) into the next transaction; not waited for.
  void version_changed(std::string_view room, std::int64_t version) override;
  // Returns once everything queued before the call is written and answered.
  void drain() override;
  // Set before the writes it should defer; the writer must outlive what `defer` runs.
  void defer_wakes(Defer defer) override;

  // ---- reads and maintenance, on the writer thread ----
  // The room as stored, after every write queued before this call; `done` on the writer
  // thread. A room found is open for appends from then on.
  void load(std::string room, std::function<void(RoomLoad)> done);
  // Every stored room but the quarantined, each open for appends. Blocks (start-up only;
  // never from the writer thread).
  RoomsLoad load_all();
  // Runs `task` on the writer thread between two batches.
  void run(std::function<void(RoomStore&)> task);
  // Blocks until `task` ran (start-up and tests only).
  void run_and_wait(std::function<void(RoomStore&)> task);
  // Runs `task` on the writer thread every `every`, the first time after `every`.
  void every(std::chrono::milliseconds every, std::function<void(RoomStore&)> task);

  struct Stats {
    std::uint64_t batches = 0;    // transactions the writer committed (or tried)
    std::uint64_t writes = 0;     // writes those carried
    std::uint64_t largest = 0;    // the most writes in one batch
    std::uint64_t fallbacks = 0;  // batches that failed and were retried one by one
    std::uint64_t delayed = 0;    // batches the writer waited for (commit_delay)
  };
  Stats stats() const;

 private:
  struct Item {
    std::optional<Write> write;                // a write of the next batch, or
    std::function<void(RoomStore&)> task;      // something to run between two batches
    Done done;                                 // for a write: its answer (may be empty)
  };
  void enqueue(Item item);
  // Under mu_, after queueing: wakes the writer now, or marks a deferred wake that the
  // caller starts (start_deferred_wake) once it has let go of mu_.
  bool wake_writer();
  void start_deferred_wake();
  void writer_loop();
  // Everything taken in one pass: batches of writes, split by tasks.
  void process(std::vector<Item>& items, std::vector<VersionBump>& versions);
  void flush(std::vector<Item*>& writes, std::vector<VersionBump>& versions);
  void commit_one_by_one(std::vector<Item*>& writes, std::vector<VersionBump>& versions);
  // Gives each append its room's next seq; false (with `why`) if the room is not open here.
  bool number(Item& item, std::unordered_map<std::string, std::int64_t>& next, std::string* why);
  void settle(const Item& item, const std::string& refused);  // the seqs a stored write moves on
  void answer(Item& item, bool ok);
  void run_task(std::function<void(RoomStore&)>& task);

  // Under mu_: whether the writer should wait for more before its next batch; it then sets
  // delaying_, while which enqueue() wakes it only for a full batch or a stop.
  bool busy() const;

  RoomStore& store_;
  const Options options_;
  std::unordered_map<std::string, std::int64_t> next_seq_;  // writer thread only

  mutable std::mutex mu_;
  std::condition_variable wake_;     // the writer: work or stop
  std::condition_variable written_;  // drain(): a pass ended
  std::vector<Item> queue_;
  std::unordered_map<std::string, std::int64_t> versions_;  // room -> highest version bumped
  std::uint64_t queued_ = 0, done_ = 0;  // passes' sequence numbers, for drain()
  struct Periodic {
    std::chrono::milliseconds every;
    std::chrono::steady_clock::time_point next;
    std::function<void(RoomStore&)> task;
  };
  std::vector<Periodic> periodic_;
  bool stopping_ = false;
  bool writer_done_ = false;
  bool delaying_ = false;
  Defer defer_;                 // set once, before any write
  bool wake_deferred_ = false;  // a deferred wake is on its way
  std::size_t last_batch_ = 0;                     // writes taken in the last pass
  std::chrono::steady_clock::time_point last_end_;  // when it ended
  Stats stats_;
  std::thread writer_;
};

}  // namespace carc::server
