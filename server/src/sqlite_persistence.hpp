// The Persistence hook backed by carc::storage (issue 4): each accepted RoomAction becomes
// one stored action (JSON text), durable before the room broadcasts it; on start, stored
// rooms become RestoredRoom values for Room::restore.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <variant>
#include <vector>

#include "carc/server/storage.hpp"
#include "persistence.hpp"
#include "room.hpp"

namespace carc::server {

// One action as stored: {"type": "seat"|"start"|"move"|"chat", "v": version, "gv": game
// version, ...the action's fields}. A move is a record entry (record-format.md).
std::string encode_action(std::int64_t version, std::int64_t game_version, const RoomAction& action);
// The RestoredRoom of a stored room, or why its log cannot be read.
std::variant<RestoredRoom, std::string> decode_room(const StoredRoom& stored);

// Group commit: persist_async hands the action to ONE writer thread, which takes
// everything queued (any number of rooms), stores it in one transaction (one fsync with
// synchronous FULL), and only then answers each `done(true)`. The queue is FIFO, and a room
// has at most one action on its way (Room holds its later requests), so each room's order
// is kept. If the batch cannot be committed, each of its actions is retried in its own
// transaction, so only the ones that really cannot be stored answer `done(false)`.
class SqlitePersistence final : public Persistence {
 public:
  // `crash_after_moves` > 0: test-only fault injection (CARC_CRASH_AFTER_PERSIST): the
  // process _exits right after that many moves were made durable, before the broadcast.
  explicit SqlitePersistence(Storage& storage, int crash_after_moves = 0);
  ~SqlitePersistence() override;  // drain(), then stops the writer
  SqlitePersistence(const SqlitePersistence&) = delete;
  SqlitePersistence& operator=(const SqlitePersistence&) = delete;

  bool room_created(std::string_view room, std::int64_t created_ms) override;
  // Through the writer queue (so it stays in order with persist_async), waiting for it.
  bool persist(std::string_view room, std::int64_t version, std::int64_t game_version,
               const RoomAction& action) override;
  // `done` is called on the writer thread (Room posts back onto its strand).
  void persist_async(std::string_view room, std::int64_t version, std::int64_t game_version,
                     const RoomAction& action, std::function<void(bool)> done) override;
  void room_finished(std::string_view room, std::int64_t finished_ms) override;
  void room_removed(std::string_view room) override;
  // Queued for the writer (folded into its next transaction), not waited for.
  void version_changed(std::string_view room, std::int64_t version) override;
  // Returns once everything queued before the call is written and answered.
  void drain() override;

  struct Stats {
    std::uint64_t batches = 0;  // transactions the writer committed (or tried)
    std::uint64_t actions = 0;  // actions those carried
    std::uint64_t largest = 0;  // the most actions in one batch
    std::uint64_t fallbacks = 0;  // batches that failed and were retried one by one
  };
  Stats stats() const;

 private:
  struct Pending {
    ActionAppend append;
    bool move = false;
    std::function<void(bool)> done;
  };
  void enqueue(Pending p);
  void writer_loop();
  void write(std::vector<Pending>& batch, std::vector<std::pair<std::string, std::int64_t>>& versions);
  void answer(Pending& p, bool ok);

  Storage& storage_;
  int crash_after_moves_;
  int moves_ = 0;  // writer thread only

  mutable std::mutex mu_;
  std::condition_variable wake_;     // the writer: work or stop
  std::condition_variable written_;  // drain(): a pass ended
  std::vector<Pending> queue_;
  std::unordered_map<std::string, std::int64_t> versions_;  // room -> highest version bumped
  std::uint64_t queued_ = 0, done_ = 0;  // passes' sequence numbers, for drain()
  bool stopping_ = false;
  bool writer_done_ = false;
  Stats stats_;
  std::thread writer_;
};

}  // namespace carc::server
