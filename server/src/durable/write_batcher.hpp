// The thread-free half of the group-commit writer (StoreWriter): numbers each room's
// appends, stores a pass's writes in one transaction, and when that transaction fails
// retries each write in its own, so that only the writes that really cannot be stored
// answer `done(false)`.
//
// No thread, no lock, no clock: StoreWriter calls it from its one writer thread, and tests
// drive it directly, pass by pass.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <functional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "carc/server/room_store.hpp"

namespace carc::server {

class WriteBatcher {
 public:
  using Done = std::function<void(bool)>;

  // One entry of a pass: a write with its answer, or a room opened for appends (loaded from
  // the store) that continues at `next_seq`. An open goes in order with the writes around
  // it and costs no transaction.
  struct Entry {
    std::optional<Write> write;
    Done done;                   // may be empty
    std::string open;            // the room opened, when `write` is empty
    std::int64_t next_seq = 0;
  };

  struct Stats {
    std::uint64_t batches = 0;    // transactions committed (or tried)
    std::uint64_t writes = 0;     // writes those carried
    std::uint64_t largest = 0;    // the most writes in one batch
    std::uint64_t fallbacks = 0;  // batches that failed and were retried one by one
  };

  explicit WriteBatcher(RoomStore& store) : store_(store) {}

  // Stores `entries` (in order) and `versions` (after them) in one transaction, answers each
  // write, and empties both.
  void commit(std::vector<Entry>& entries, std::vector<VersionBump>& versions);
  // The room goes on at `next_seq` (a room read from the store); outside a pass.
  void open(const std::string& room, std::int64_t next_seq) { next_seq_[room] = next_seq; }
  bool is_open(const std::string& room) const { return next_seq_.contains(room); }
  // From any thread: counted before the writes are answered.
  Stats stats() const {
    const auto r = std::memory_order_relaxed;
    return Stats{batches_.load(r), writes_.load(r), largest_.load(r), fallbacks_.load(r)};
  }

  // Calls `done(ok)`; a callback that throws is logged, never passed on.
  static void answer(Done& done, bool ok);
  // A store that syncs apart (RoomStore::syncs_apart): the answers of the writes stored
  // since the last call, which may be given only after the store's next sync(). Writes
  // that failed are answered at once.
  std::vector<Done> take_unsynced() { return std::exchange(unsynced_, {}); }

 private:
  // Gives each append its room's next seq; false (with `why`) if the room is not open here.
  bool number(Entry& e, std::unordered_map<std::string, std::int64_t>& next, std::string* why);
  void settle(const Entry& e);  // the seqs a stored write moves on
  void one_by_one(std::vector<Entry*>& writes, std::vector<VersionBump>& versions);
  void commit_versions(std::vector<VersionBump>& versions);
  // A write's answer: now, or after the store's sync when it was stored.
  void give(Done& done, bool ok);

  RoomStore& store_;
  std::unordered_map<std::string, std::int64_t> next_seq_;  // room -> its next action's seq
  std::vector<Done> unsynced_;
  std::atomic<std::uint64_t> batches_{0}, writes_{0}, largest_{0}, fallbacks_{0};
};

}  // namespace carc::server
