#include "durable/store_writer.hpp"

#include <pthread.h>

#include <algorithm>
#include <future>
#include <iterator>

#include <spdlog/spdlog.h>

#include "durable/action_codec.hpp"

namespace carc::server {

StoreWriter::StoreWriter(RoomStore& store, Options options)
    : store_(store), options_(options), batcher_(store), syncs_apart_(store.syncs_apart()),
      writer_([this] { writer_loop(); }), reader_([this] { reader_loop(); }) {
  if (syncs_apart_) syncer_ = std::thread([this] { syncer_loop(); });
}

StoreWriter::~StoreWriter() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  wake_.notify_all();
  read_wake_.notify_all();
  apart_wake_.notify_all();
  for (std::thread& t : apart_) t.join();
  reader_.join();  // answers the reads still waiting first
  writer_.join();  // the writer empties its queue first, and waits for the syncer's answers
  {
    std::lock_guard lock(mu_);
    sync_stop_ = true;
  }
  sync_wake_.notify_all();
  if (syncer_.joinable()) syncer_.join();
}

// ---- Persistence -------------------------------------------------------------------------
void StoreWriter::room_created(std::string_view room, std::int64_t created_ms, Done done) {
  enqueue(Item{{CreateRoom{std::string(room), created_ms, true}, std::move(done), {}, 0}, {}});
}

void StoreWriter::room_created_unowned(std::string_view room, std::int64_t created_ms, Done done) {
  enqueue(Item{{CreateRoom{std::string(room), created_ms, false}, std::move(done), {}, 0}, {}});
}

void StoreWriter::persist_async(std::string_view room, std::int64_t version, std::int64_t game_version,
                                const RoomAction& action, Done done) {
  AppendAction a;
  a.room = std::string(room);
  a.payload = encode_action(version, game_version, action);
  a.version = version;
  if (std::holds_alternative<GameStarted>(action)) a.phase = "playing";
  enqueue(Item{{std::move(a), std::move(done), {}, 0}, {}});
}

void StoreWriter::room_finished(std::string_view room, std::int64_t) {
  enqueue(Item{{SetPhase{std::string(room), "finished"}, {}, {}, 0}, {}});
}

void StoreWriter::room_removed(std::string_view room) { enqueue(Item{{RemoveRoom{std::string(room)}, {}, {}, 0}, {}}); }

void StoreWriter::version_changed(std::string_view room, std::int64_t version) {
  bool deferred = false, stopped = true;
  {
    std::lock_guard lock(mu_);
    if (!writer_done_) {
      stopped = false;
      auto [it, added] = versions_.try_emplace(std::string(room), version);
      if (!added) it->second = std::max(it->second, version);
      ++queued_;
      if (!delaying_) deferred = wake_writer();
    }
  }
  if (deferred) start_deferred_wake();
  if (!stopped) return;
  std::vector<Item> none;
  std::vector<VersionBump> one{{std::string(room), version}};
  process(none, one);
}

void StoreWriter::drain() {
  std::unique_lock lock(mu_);
  wake_.notify_one();  // a deferred wake may never run: the I/O threads may have stopped
  const std::uint64_t target = queued_;
  written_.wait(lock, [&] { return done_ >= target || writer_done_; });
}

// ---- reads ---------------------------------------------------------------------------------
void StoreWriter::load(std::string room, std::function<void(RoomLoad)> done) {
  {
    std::lock_guard lock(mu_);
    if (!stopping_ && reads_.size() < options_.max_reads) {
      reads_.push_back(Read{std::move(room), std::move(done), queued_});
      read_wake_.notify_one();
      return;
    }
    ++stats_.reads_refused;
  }
  RoomLoad busy;
  busy.error = "load_room " + room + ": storage busy (" + std::to_string(options_.max_reads) + " reads waiting)";
  answer_later([done = std::move(done), busy = std::move(busy)]() mutable { done(std::move(busy)); });
}

void StoreWriter::reader_loop() {
  ::pthread_setname_np(::pthread_self(), "carc-reader");
  std::unique_lock lock(mu_);
  for (;;) {
    read_wake_.wait(lock, [&] { return stopping_ || !reads_.empty(); });
    if (reads_.empty()) break;  // stopping
    // Every read waiting, at once: they share one wait for the writer, so a burst of
    // lookups costs one pass of waiting, not one each.
    std::deque<Read> reads;
    reads.swap(reads_);
    std::uint64_t after = 0;
    for (const Read& r : reads) after = std::max(after, r.after);
    // Every write queued before a read is stored first: the read sees it.
    wake_.notify_one();  // a deferred wake may be late: the reads wait for that pass
    written_.wait(lock, [&] { return done_ >= after || writer_done_; });
    stats_.reads += reads.size();
    lock.unlock();
    for (Read& read : reads) {
      RoomLoad r;
      try {
        r = store_.load_room(read.room);
      } catch (const std::exception& e) {
        r = RoomLoad{};
        r.error = "load_room " + read.room + ": " + e.what();
      }
      if (r.room) {
        // Open for appends: in order with the writes, before any the caller queues next.
        const std::int64_t next = r.room->actions.empty() ? 0 : r.room->actions.back().seq + 1;
        std::lock_guard hold(mu_);
        if (!writer_done_) queue_.push_back(Item{{std::nullopt, {}, read.room, next}, {}});
      }
      try {
        read.done(std::move(r));
      } catch (const std::exception& e) {
        spdlog::error("storage: a load callback threw: {}", e.what());
      }
    }
    lock.lock();
  }
}

// ---- maintenance -------------------------------------------------------------------------
RoomsLoad StoreWriter::load_all() {
  RoomsLoad out;
  run_and_wait([&](RoomStore& store) {
    out = store.load_rooms();
    for (const StoredRoom& r : out.rooms) batcher_.open(r.id, r.actions.empty() ? 0 : r.actions.back().seq + 1);
  });
  return out;
}

void StoreWriter::run(std::function<void(RoomStore&)> task) { enqueue(Item{{}, std::move(task)}); }

void StoreWriter::run_and_wait(std::function<void(RoomStore&)> task) {
  std::promise<void> ran;
  run([&](RoomStore& store) {
    try {
      task(store);
      ran.set_value();
    } catch (...) {
      ran.set_exception(std::current_exception());  // start-up hears why, never hangs
    }
  });
  ran.get_future().get();
}

void StoreWriter::every(std::chrono::milliseconds every, std::function<void(RoomStore&)> task) {
  {
    std::lock_guard lock(mu_);
    periodic_.push_back(Periodic{every, std::chrono::steady_clock::now() + every, std::move(task)});
  }
  // A pass (with nothing to do) makes the writer wait with the new deadline: an idle writer
  // waits for work only, and would otherwise never run the task.
  run([](RoomStore&) {});
}

void StoreWriter::every_apart(std::chrono::milliseconds every, std::function<void()> task) {
  std::lock_guard lock(mu_);
  apart_.emplace_back([this, every, task = std::move(task)] {
    ::pthread_setname_np(::pthread_self(), "carc-apart");
    std::unique_lock hold(mu_);
    for (;;) {
      if (apart_wake_.wait_for(hold, every, [&] { return stopping_; })) return;
      hold.unlock();
      try {
        task();
      } catch (const std::exception& e) {
        spdlog::error("storage: a periodic task threw: {}", e.what());
      }
      hold.lock();
    }
  });
}

StoreWriter::Stats StoreWriter::stats() const {
  std::lock_guard lock(mu_);
  Stats s = stats_;
  const WriteBatcher::Stats b = batcher_.stats();
  s.batches = b.batches;
  s.writes = b.writes;
  s.largest = b.largest;
  s.fallbacks = b.fallbacks;
  s.queued = queued_writes_;
  s.reads_waiting = reads_.size();
  return s;
}

// ---- the writer thread -------------------------------------------------------------------
void StoreWriter::defer_wakes(Defer defer) {
  std::lock_guard lock(mu_);
  defer_ = std::move(defer);
}

bool StoreWriter::wake_writer() {
  if (!defer_ || stopping_) {
    wake_.notify_one();
    return false;
  }
  if (wake_deferred_) return false;  // the burst's wake is already on its way
  wake_deferred_ = true;
  return true;
}

void StoreWriter::start_deferred_wake() {
  defer_([this] {
    {
      std::lock_guard lock(mu_);
      wake_deferred_ = false;
    }
    wake_.notify_one();
  });
}

void StoreWriter::answer_later(std::function<void()> f) {
  Defer defer;
  {
    std::lock_guard lock(mu_);
    if (!stopping_) defer = defer_;
  }
  if (defer) defer(std::move(f));
  else f();
}

void StoreWriter::enqueue(Item item) {
  bool queued = false, deferred = false, full = false;
  {
    std::lock_guard lock(mu_);
    const bool write = item.entry.write.has_value();
    if (write && !writer_done_ && queued_writes_ >= options_.max_queue) {
      full = true;
      ++stats_.overflows;
    } else if (!writer_done_) {
      // Reads and tasks wake the writer at once: a caller may block on them (run_and_wait)
      // before the I/O threads that would run a deferred wake have started.
      queue_.push_back(std::move(item));
      ++queued_;
      queued = true;
      if (write) ++queued_writes_;
      if (!write || queue_.size() >= options_.full_batch) wake_.notify_one();
      else if (!delaying_) deferred = wake_writer();
    }
  }
  if (deferred) start_deferred_wake();
  if (queued) return;
  if (full) {
    // The store does not keep up (stalled or gone): refused now rather than queued forever.
    spdlog::warn("storage: {} writes wait for the store already; this one is refused as unavailable", options_.max_queue);
    answer_later([done = std::move(item.entry.done)]() mutable { WriteBatcher::answer(done, false); });
    return;
  }
  // After the writer stopped (nothing should still come): done here, on the caller's thread.
  std::vector<Item> one;
  one.push_back(std::move(item));
  std::vector<VersionBump> none;
  process(one, none);
  std::vector<WriteBatcher::Done> unsynced = batcher_.take_unsynced();
  sync_and_answer(unsynced);
}

bool StoreWriter::sync_and_answer(std::vector<WriteBatcher::Done>& answers) {
  if (answers.empty()) return true;
  const Status synced = store_.sync();
  if (!synced) spdlog::error("storage: {} ({} change(s) refused as unavailable)", synced.error(), answers.size());
  for (auto& done : answers) WriteBatcher::answer(done, synced.is_ok());
  return synced.is_ok();
}

void StoreWriter::writer_loop() {
  ::pthread_setname_np(::pthread_self(), "carc-writer");  // for top -H and perf
  std::unique_lock lock(mu_);
  for (;;) {
    const auto has_work = [&] { return stopping_ || !queue_.empty() || !versions_.empty(); };
    if (periodic_.empty()) {
      wake_.wait(lock, has_work);
    } else {
      const auto next = std::min_element(periodic_.begin(), periodic_.end(),
                                         [](const Periodic& a, const Periodic& b) { return a.next < b.next; })->next;
      wake_.wait_until(lock, next, has_work);
    }
    std::vector<std::function<void(RoomStore&)>> due;
    if (!stopping_) {
      const auto now = std::chrono::steady_clock::now();
      for (Periodic& p : periodic_) {
        if (p.next > now) continue;
        due.push_back(p.task);
        p.next = now + p.every;
      }
    }
    if (queue_.empty() && versions_.empty() && due.empty()) {
      if (stopping_) break;
      continue;
    }
    if (busy()) {
      // Group commit under load: more writes arrive while this one waits, and share its
      // transaction and fsync.
      ++stats_.delayed;
      delaying_ = true;
      wake_.wait_for(lock, options_.commit_delay, [&] { return stopping_ || queue_.size() >= options_.full_batch; });
      delaying_ = false;
    }
    std::vector<Item> items;
    items.swap(queue_);
    queued_writes_ = 0;
    std::vector<VersionBump> versions;
    versions.reserve(versions_.size());
    for (auto& [room, version] : versions_) versions.push_back({room, version});
    versions_.clear();
    const std::uint64_t taken = queued_;
    last_batch_ = items.size();
    lock.unlock();
    for (auto& task : due) items.push_back(Item{{}, std::move(task)});
    process(items, versions);
    std::vector<WriteBatcher::Done> unsynced = batcher_.take_unsynced();
    lock.lock();
    end_pass(std::move(unsynced), taken);
    last_end_ = std::chrono::steady_clock::now();
  }
  written_.wait(lock, [&] { return syncs_waiting_ == 0; });  // every answer given
  writer_done_ = true;
  written_.notify_all();
}

void StoreWriter::end_pass(std::vector<WriteBatcher::Done> unsynced, std::uint64_t taken) {
  if (!unsynced.empty() || syncs_waiting_ > 0) {  // behind the passes still waiting: in order
    sync_jobs_.push_back(SyncJob{std::move(unsynced), taken});
    ++syncs_waiting_;
    sync_wake_.notify_one();
    return;
  }
  done_ = taken;
  written_.notify_all();
}

void StoreWriter::syncer_loop() {
  ::pthread_setname_np(::pthread_self(), "carc-sync");
  std::unique_lock lock(mu_);
  for (;;) {
    sync_wake_.wait(lock, [&] { return sync_stop_ || !sync_jobs_.empty(); });
    if (sync_jobs_.empty()) break;  // stopping
    std::vector<SyncJob> jobs;
    jobs.swap(sync_jobs_);
    lock.unlock();
    std::vector<WriteBatcher::Done> answers = std::move(jobs.front().answers);
    for (std::size_t k = 1; k < jobs.size(); ++k) {
      std::move(jobs[k].answers.begin(), jobs[k].answers.end(), std::back_inserter(answers));
    }
    const bool wrote = !answers.empty();
    const bool synced = sync_and_answer(answers);  // every pass taken was committed before it
    lock.lock();
    if (wrote) ++stats_.syncs;
    if (!synced) ++stats_.sync_failures;
    syncs_waiting_ -= jobs.size();
    done_ = jobs.back().taken;
    written_.notify_all();
  }
}

bool StoreWriter::busy() const {
  return options_.commit_delay.count() > 0 && !stopping_ && last_batch_ >= options_.busy_batch &&
         queue_.size() < options_.full_batch && std::chrono::steady_clock::now() - last_end_ < options_.busy_gap;
}

// On the writer thread (or the caller's after it stopped): never under mu_.
void StoreWriter::process(std::vector<Item>& items, std::vector<VersionBump>& versions) {
  std::vector<WriteBatcher::Entry> entries;
  entries.reserve(items.size());
  for (Item& item : items) {
    if (item.entry.write || !item.entry.open.empty()) {
      entries.push_back(std::move(item.entry));
      continue;
    }
    std::vector<VersionBump> none;
    batcher_.commit(entries, none);  // the task sees every write queued before it
    run_task(item.task);
  }
  batcher_.commit(entries, versions);
}

void StoreWriter::run_task(std::function<void(RoomStore&)>& task) {
  try {
    task(store_);
  } catch (const std::exception& e) {
    spdlog::error("storage: a storage task threw: {}", e.what());
  }
}

}  // namespace carc::server
