// The Persistence hook over any RoomStore (docs/durability.md): one writer thread, group
// commit, durable before broadcast; reads on a thread of their own.
//
// Every call returns at once and hands its work to ONE writer thread, which takes
// everything queued (any number of rooms: actions, new rooms, finished and removed rooms,
// version bumps), stores it in one transaction (WriteBatcher: RoomStore::commit, one fsync,
// one pipeline round trip), and only then answers each `done(ok)`. The queue is FIFO and a
// room has at most one action on its way (Room holds its later requests), so each room's
// order is kept. The queue is bounded (Options::max_queue): past it a write is answered
// `done(false)` at once (the room refuses it as `unavailable`) instead of waiting behind a
// store that stalls.
//
// Reads (a room loaded on demand) run on a second thread, on the store's read connection
// (RoomStore::load_room may run beside commit): a lookup never cuts the writer's pass into
// an extra transaction and fsync. A read waits for the writer to store every write queued
// before it, so it sees them. Its queue is bounded too (Options::max_reads): past it a
// read answers an error at once. Maintenance (purges, quarantine) still runs on the writer
// thread between two batches. The writer numbers each room's actions (0, 1, 2, ...): it
// learns a room's next number when the room is created or loaded through it.
//
// A store that syncs apart (RoomStore::syncs_apart: SQLite on a file) returns from a commit
// before the disk has it; a third thread then syncs the store and only after that answers
// the pass's writes, while the writer commits the next pass. One sync covers every pass
// committed before it, so a slow disk makes the passes larger, not the queue longer.
//
// Under load the writer waits a little before a commit (StoreWriterOptions::commit_delay,
// as PostgreSQL's commit_delay does), so one transaction, its fsync and its pages carry
// more writes; an idle server's writes are never delayed.
#pragma once

#include <chrono>
#include <condition_variable>
#include <deque>
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
#include "durable/persistence.hpp"
#include "durable/write_batcher.hpp"

namespace carc::server {

struct StoreWriterOptions {
  // When the last pass carried at least `busy_batch` writes and the next write came within
  // `busy_gap` of its end (the server is busy), the writer waits up to `commit_delay` for
  // more before it commits again, or until `full_batch` are waiting. Zero: never waits.
  std::chrono::microseconds commit_delay{1500};
  std::chrono::microseconds busy_gap{1000};
  std::size_t busy_batch = 4;
  std::size_t full_batch = 256;
  // Writes waiting for the writer, at most; past it a write fails at once (`unavailable`).
  std::size_t max_queue = 50'000;
  // Reads waiting for the read thread, at most; past it a read fails at once.
  std::size_t max_reads = 1'024;
};

class StoreWriter final : public Persistence {
 public:
  using Options = StoreWriterOptions;
  explicit StoreWriter(RoomStore& store, Options options = {});
  ~StoreWriter() override;  // writes and answers everything queued, then stops the thread
  StoreWriter(const StoreWriter&) = delete;
  StoreWriter& operator=(const StoreWriter&) = delete;

  // ---- Persistence: `done` is called on the writer thread; a write refused because the
  // queue is full is answered at once, through the deferred-wake hook when it is set (off
  // the caller's stack), else on the caller's thread ----
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

  // ---- reads, on the read thread ----
  // The room as stored, after every write queued before this call; `done` on the read
  // thread (or at once, with an error, when too many reads wait). A room found is open for
  // appends from then on.
  void load(std::string room, std::function<void(RoomLoad)> done);

  // ---- maintenance, on the writer thread ----
  // Every stored room that can still be played (not finished, not quarantined), each open
  // for appends. Blocks (start-up only; never from the writer thread).
  RoomsLoad load_all();
  // Runs `task` on the writer thread between two batches.
  void run(std::function<void(RoomStore&)> task);
  // Blocks until `task` ran (start-up and tests only); what `task` throws is thrown here.
  void run_and_wait(std::function<void(RoomStore&)> task);
  // Runs `task` on the writer thread every `every`, the first time after `every`.
  void every(std::chrono::milliseconds every, std::function<void(RoomStore&)> task);
  // Runs `task` every `every` on a thread of its own, never behind a commit (a lease
  // renewal: a slow commit must not let the lease run out). Stopped with the writer.
  void every_apart(std::chrono::milliseconds every, std::function<void()> task);

  struct Stats {
    std::uint64_t batches = 0;    // transactions the writer committed (or tried)
    std::uint64_t writes = 0;     // writes those carried
    std::uint64_t largest = 0;    // the most writes in one batch
    std::uint64_t fallbacks = 0;  // batches that failed and were retried one by one
    std::uint64_t delayed = 0;    // batches the writer waited for (commit_delay)
    std::uint64_t overflows = 0;  // writes refused at once: the queue was full (max_queue)
    std::uint64_t reads = 0;      // rooms read on the read thread
    std::uint64_t reads_refused = 0;  // reads refused at once: too many waiting (max_reads)
    std::uint64_t syncs = 0;          // syncs of a store that syncs apart
    std::uint64_t sync_failures = 0;  // of them, the failed ones (their writes: done(false))
    std::size_t queued = 0;       // writes waiting now
    std::size_t reads_waiting = 0;  // reads waiting now (not yet taken by the read thread)
  };
  Stats stats() const;

 private:
  struct Item {
    WriteBatcher::Entry entry;             // a write or a room opened, or
    std::function<void(RoomStore&)> task;  // something to run between two batches
  };
  struct Read {
    std::string room;
    std::function<void(RoomLoad)> done;
    std::uint64_t after = 0;  // the writer's passes that must be done first (queued_)
  };
  void enqueue(Item item);
  // Answers `f` off the caller's stack when wakes are deferred (the caller may hold its
  // room's state mid-change), else at once.
  void answer_later(std::function<void()> f);
  // Under mu_, after queueing: wakes the writer now, or marks a deferred wake that the
  // caller starts (start_deferred_wake) once it has let go of mu_.
  bool wake_writer();
  void start_deferred_wake();
  void writer_loop();
  void reader_loop();
  void syncer_loop();
  // Syncs what the passes behind `answers` committed and answers each write: stored, or
  // refused as unavailable when the sync failed. Returns whether it synced (true for none).
  bool sync_and_answer(std::vector<WriteBatcher::Done>& answers);
  // Under mu_, at the end of a pass: its answers waiting for the store's sync go to the
  // syncer, and the pass counts as done (drain, reads) once they are given.
  void end_pass(std::vector<WriteBatcher::Done> unsynced, std::uint64_t taken);
  // Everything taken in one pass: batches of writes, split by tasks.
  void process(std::vector<Item>& items, std::vector<VersionBump>& versions);
  void run_task(std::function<void(RoomStore&)>& task);

  // Under mu_: whether the writer should wait for more before its next batch; it then sets
  // delaying_, while which enqueue() wakes it only for a full batch or a stop.
  bool busy() const;

  RoomStore& store_;
  const Options options_;
  WriteBatcher batcher_;  // writer thread only

  mutable std::mutex mu_;
  std::condition_variable wake_;     // the writer: work or stop
  std::condition_variable written_;  // drain(): a pass ended
  std::vector<Item> queue_;
  std::size_t queued_writes_ = 0;  // writes in queue_ (the bound)
  std::deque<Read> reads_;
  std::condition_variable read_wake_;  // the reader: a read or stop
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
  struct SyncJob {
    std::vector<WriteBatcher::Done> answers;  // given once the store has synced
    std::uint64_t taken = 0;                  // the pass's sequence number (done_)
  };
  const bool syncs_apart_;
  std::vector<SyncJob> sync_jobs_;  // passes waiting for the syncer, oldest first
  std::size_t syncs_waiting_ = 0;   // passes given to the syncer and not yet answered
  bool sync_stop_ = false;
  std::condition_variable sync_wake_;  // the syncer: a pass or stop
  std::condition_variable apart_wake_;  // the threads of every_apart: stop
  std::vector<std::thread> apart_;
  std::thread writer_;
  std::thread reader_;
  std::thread syncer_;  // a store that syncs apart only
};

}  // namespace carc::server
