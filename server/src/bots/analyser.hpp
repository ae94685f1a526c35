// Analyses of finished games (docs/analysis.md): after a game with a human in it ends, its record
// is analysed move by move (core/include/carc/core/analysis.hpp) on the computer players'
// pool, as background work behind every live computer turn: a move's search stops the
// moment a live request waits with no free worker, and is done again later (bot_pool.hpp).
// At most `concurrent` analyses run at once; at most `max_queued` wait.
//
// Progress is saved to storage after every move (a restart resumes from there), and the
// answer of GET /api/rooms/<id>/analysis is built here (docs/protocol-details.md).
// Thread-safe: its own small mutex guards its own jobs (no game state of any room).
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "bots/analysis_options.hpp"
#include "bots/bot_pool.hpp"
#include "carc/server/room_store.hpp"

namespace carc::server {

// A background search's clock: the wall clock until `preempt()` says a live computer turn
// waits (then `*preempted` is set). From then on each reading is a whole `budget_ns` past
// the one before, so the search stops after its current playout, even when it read its
// start after the preemption.
std::function<std::int64_t()> preemptible_clock(std::function<bool()> preempt, std::int64_t budget_ns, bool* preempted);

class Analyser final : public BackgroundWork {
 public:
  using Options = AnalysisOptions;
  // Saves a snapshot (queued on the store's writer, not waited for).
  using Save = std::function<void(StoredAnalysis)>;
  // Reads a room's analysis from storage; `done` gets it, or nullopt, on any thread.
  using Load = std::function<void(std::string room, std::function<void(std::optional<StoredAnalysis>)> done)>;

  explicit Analyser(Options options);
  void set_storage(Save save, Load load);
  // The pool to wake when there is work (set once, before games end).
  void set_pool(BotPool* pool) { pool_ = pool; }

  // A game just ended: its record (carcassonne-record/1 text). False when not queued
  // (analyses are off, the queue is full, or the record does not replay).
  bool enqueue(const std::string& room, const std::string& record);
  // The same, with the record made only when the analysis is queued: a game ends on its
  // room's strand, and flat out the queue is full (docs/hot-path.md).
  bool enqueue(const std::string& room, const std::function<std::string()>& record);
  // After a restart: an analysis that was not done, resumed after its saved moves.
  bool resume(const StoredAnalysis& stored);
  // The JSON answer for `room` from memory (this process's analyses), or nullopt.
  std::optional<std::string> cached(const std::string& room) const;
  // The JSON answer for `room`, or nullopt when neither memory nor storage knows one.
  void lookup(const std::string& room, std::function<void(std::optional<std::string>)> done);

  // ---- BackgroundWork ----
  bool step(const std::function<bool()>& preempt) override;

  const Options& options() const { return options_; }

 private:
  struct Job;
  std::shared_ptr<Job> make_job(const std::string& room, const std::string& record, std::string* why) const;
  std::string answer_locked(const Job& job) const;
  StoredAnalysis snapshot_locked(const Job& job) const;
  void keep_locked(const std::shared_ptr<Job>& job);

  Options options_;
  Save save_;
  Load load_;
  BotPool* pool_ = nullptr;
  mutable std::mutex mu_;
  std::deque<std::shared_ptr<Job>> queue_;  // not done yet, oldest first
  std::unordered_map<std::string, std::shared_ptr<Job>> jobs_;  // by room: queued, running and recent ones
  std::deque<std::string> done_order_;  // finished ones in memory, oldest first
  int running_ = 0;
};

}  // namespace carc::server
