#include "store_writer.hpp"

#include <pthread.h>

#include <algorithm>
#include <future>

#include <spdlog/spdlog.h>

#include "action_codec.hpp"

namespace carc::server {

namespace {

const std::string& room_of(const Write& w) {
  return std::visit([](const auto& v) -> const std::string& { return v.room; }, w);
}

std::string describe(const Write& w) {
  struct {
    std::string operator()(const CreateRoom& c) { return "create " + c.room; }
    std::string operator()(const AppendAction& a) { return "append " + a.room + " #" + std::to_string(a.seq); }
    std::string operator()(const SetPhase& p) { return "set_phase " + p.room + " " + p.phase; }
    std::string operator()(const RemoveRoom& r) { return "remove " + r.room; }
  } d;
  return std::visit(d, w);
}

}  // namespace

StoreWriter::StoreWriter(RoomStore& store, Options options)
    : store_(store), options_(options), writer_([this] { writer_loop(); }) {}

StoreWriter::~StoreWriter() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  wake_.notify_all();
  writer_.join();  // the writer empties its queue first
}

// ---- Persistence -------------------------------------------------------------------------
void StoreWriter::room_created(std::string_view room, std::int64_t created_ms, Done done) {
  enqueue(Item{CreateRoom{std::string(room), created_ms, true}, {}, std::move(done)});
}

void StoreWriter::room_created_unowned(std::string_view room, std::int64_t created_ms, Done done) {
  enqueue(Item{CreateRoom{std::string(room), created_ms, false}, {}, std::move(done)});
}

void StoreWriter::persist_async(std::string_view room, std::int64_t version, std::int64_t game_version,
                                const RoomAction& action, Done done) {
  AppendAction a;
  a.room = std::string(room);
  a.payload = encode_action(version, game_version, action);
  a.version = version;
  if (std::holds_alternative<GameStarted>(action)) a.phase = "playing";
  enqueue(Item{std::move(a), {}, std::move(done)});
}

void StoreWriter::room_finished(std::string_view room, std::int64_t) {
  enqueue(Item{SetPhase{std::string(room), "finished"}, {}, {}});
}

void StoreWriter::room_removed(std::string_view room) { enqueue(Item{RemoveRoom{std::string(room)}, {}, {}}); }

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

// ---- reads and maintenance ---------------------------------------------------------------
void StoreWriter::load(std::string room, std::function<void(RoomLoad)> done) {
  run([this, room = std::move(room), done = std::move(done)](RoomStore& store) {
    RoomLoad r = store.load_room(room);
    if (r.room) next_seq_[room] = r.room->actions.empty() ? 0 : r.room->actions.back().seq + 1;
    done(std::move(r));
  });
}

RoomsLoad StoreWriter::load_all() {
  RoomsLoad out;
  run_and_wait([&](RoomStore& store) {
    out = store.load_rooms();
    for (const StoredRoom& r : out.rooms) next_seq_[r.id] = r.actions.empty() ? 0 : r.actions.back().seq + 1;
  });
  return out;
}

void StoreWriter::run(std::function<void(RoomStore&)> task) { enqueue(Item{std::nullopt, std::move(task), {}}); }

void StoreWriter::run_and_wait(std::function<void(RoomStore&)> task) {
  std::promise<void> ran;
  run([&](RoomStore& store) {
    task(store);
    ran.set_value();
  });
  ran.get_future().wait();
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

StoreWriter::Stats StoreWriter::stats() const {
  std::lock_guard lock(mu_);
  return stats_;
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

void StoreWriter::enqueue(Item item) {
  bool queued = false, deferred = false;
  {
    std::lock_guard lock(mu_);
    if (!writer_done_) {
      // Reads and tasks wake the writer at once: a caller may block on them (run_and_wait)
      // before the I/O threads that would run a deferred wake have started.
      const bool write = item.write.has_value();
      queue_.push_back(std::move(item));
      ++queued_;
      queued = true;
      if (!write || queue_.size() >= options_.full_batch) wake_.notify_one();
      else if (!delaying_) deferred = wake_writer();
    }
  }
  if (deferred) start_deferred_wake();
  if (queued) return;
  // After the writer stopped (nothing should still come): done here, on the caller's thread.
  std::vector<Item> one;
  one.push_back(std::move(item));
  std::vector<VersionBump> none;
  process(one, none);
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
    std::vector<VersionBump> versions;
    versions.reserve(versions_.size());
    for (auto& [room, version] : versions_) versions.push_back({room, version});
    versions_.clear();
    const std::uint64_t taken = queued_;
    last_batch_ = items.size();
    lock.unlock();
    for (auto& task : due) items.push_back(Item{std::nullopt, std::move(task), {}});
    process(items, versions);
    lock.lock();
    done_ = taken;
    last_end_ = std::chrono::steady_clock::now();
    written_.notify_all();
  }
  writer_done_ = true;
  written_.notify_all();
}

bool StoreWriter::busy() const {
  return options_.commit_delay.count() > 0 && !stopping_ && last_batch_ >= options_.busy_batch &&
         queue_.size() < options_.full_batch && std::chrono::steady_clock::now() - last_end_ < options_.busy_gap;
}

// On the writer thread (or the caller's after it stopped): never under mu_.
void StoreWriter::process(std::vector<Item>& items, std::vector<VersionBump>& versions) {
  std::vector<Item*> writes;
  for (Item& item : items) {
    if (item.write) {
      writes.push_back(&item);
      continue;
    }
    std::vector<VersionBump> none;
    flush(writes, none);  // the task sees every write queued before it
    run_task(item.task);
  }
  flush(writes, versions);
}

bool StoreWriter::number(Item& item, std::unordered_map<std::string, std::int64_t>& next, std::string* why) {
  if (const auto* c = std::get_if<CreateRoom>(&*item.write)) {
    next[c->room] = 0;  // its actions may follow in the same batch
    return true;
  }
  auto* a = std::get_if<AppendAction>(&*item.write);
  if (a == nullptr) return true;
  auto it = next.find(a->room);
  if (it == next.end()) {
    const auto known = next_seq_.find(a->room);
    if (known == next_seq_.end()) {
      *why = "the room is not open on this server (never created or loaded here, or removed)";
      return false;
    }
    it = next.emplace(a->room, known->second).first;
  }
  a->seq = it->second++;
  return true;
}

void StoreWriter::settle(const Item& item, const std::string& refused) {
  const Write& w = *item.write;
  if (!refused.empty()) return;
  if (const auto* a = std::get_if<AppendAction>(&w)) next_seq_[a->room] = a->seq + 1;
  if (const auto* c = std::get_if<CreateRoom>(&w)) next_seq_[c->room] = 0;
  if (const auto* r = std::get_if<RemoveRoom>(&w)) next_seq_.erase(r->room);
}

void StoreWriter::flush(std::vector<Item*>& writes, std::vector<VersionBump>& versions) {
  if (writes.empty() && versions.empty()) return;
  Batch batch;
  std::vector<Item*> sent;
  std::unordered_map<std::string, std::int64_t> next;
  for (Item* item : writes) {
    std::string why;
    if (!number(*item, next, &why)) {
      spdlog::error("storage: {}: {} (the change is refused as unavailable)", describe(*item->write), why);
      answer(*item, false);
      continue;
    }
    batch.writes.push_back(*item->write);
    sent.push_back(item);
  }
  batch.versions = std::move(versions);
  versions.clear();
  writes.clear();
  if (batch.empty()) return;

  const BatchResult result = store_.commit(batch);
  {
    std::lock_guard lock(mu_);
    ++stats_.batches;
    stats_.writes += sent.size();
    stats_.largest = std::max<std::uint64_t>(stats_.largest, sent.size());
  }
  if (result.committed()) {
    for (std::size_t i = 0; i < sent.size(); ++i) {
      const std::string& refused = i < result.refused.size() ? result.refused[i] : std::string();
      if (!refused.empty()) spdlog::error("storage: {} (refused)", refused);
      settle(*sent[i], refused);
      answer(*sent[i], refused.empty());
    }
    return;
  }
  if (sent.size() <= 1) {
    // Nothing to tell apart: the one write (if any) cannot be stored.
    if (sent.empty()) {
      spdlog::warn("storage: {}", result.error);
    } else {
      spdlog::error("storage: {} (the change is refused as unavailable)", result.error);
      answer(*sent[0], false);
      if (!batch.versions.empty()) {
        Batch bumps;
        bumps.versions = std::move(batch.versions);
        const BatchResult r = store_.commit(bumps);
        if (!r.committed()) spdlog::warn("storage: {}", r.error);
      }
    }
    return;
  }
  // One bad write must not make the others unavailable: each in its own transaction.
  spdlog::warn("storage: {}; retrying its {} write(s) one by one", result.error, sent.size());
  {
    std::lock_guard lock(mu_);
    ++stats_.fallbacks;
  }
  commit_one_by_one(sent, batch.versions);
}

void StoreWriter::commit_one_by_one(std::vector<Item*>& writes, std::vector<VersionBump>& versions) {
  std::vector<std::string> failed_rooms;  // later writes of a room that failed fail too (order)
  for (Item* item : writes) {
    const std::string& room = room_of(*item->write);
    if (std::find(failed_rooms.begin(), failed_rooms.end(), room) != failed_rooms.end()) {
      spdlog::error("storage: {}: an earlier write of the room failed (the change is refused as unavailable)",
                    describe(*item->write));
      answer(*item, false);
      continue;
    }
    std::unordered_map<std::string, std::int64_t> next;
    std::string why;
    bool ok = number(*item, next, &why);
    if (ok) {
      Batch one;
      one.writes.push_back(*item->write);
      const BatchResult r = store_.commit(one);
      why = r.committed() ? (r.refused.empty() ? std::string() : r.refused[0]) : r.error;
      ok = why.empty();
      if (r.committed()) settle(*item, why);
    }
    if (!ok) {
      spdlog::error("storage: {}: {} (the change is refused as unavailable)", describe(*item->write), why);
      failed_rooms.push_back(room);
    }
    answer(*item, ok);
  }
  if (!versions.empty()) {
    Batch bumps;
    bumps.versions = std::move(versions);
    const BatchResult r = store_.commit(bumps);
    if (!r.committed()) spdlog::warn("storage: {}", r.error);
  }
}

void StoreWriter::answer(Item& item, bool ok) {
  if (!item.done) return;
  try {
    item.done(ok);
  } catch (const std::exception& e) {
    spdlog::error("storage: a persist callback threw: {}", e.what());
  }
}

void StoreWriter::run_task(std::function<void(RoomStore&)>& task) {
  try {
    task(store_);
  } catch (const std::exception& e) {
    spdlog::error("storage: a storage task threw: {}", e.what());
  }
}

}  // namespace carc::server
