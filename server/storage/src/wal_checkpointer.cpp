#include "wal_checkpointer.hpp"

#include <pthread.h>

#include <sqlite3.h>

#include <algorithm>
#include <cstdio>

#include "sqlite.hpp"

namespace carc::server {

WalCheckpointer::WalCheckpointer(const std::string& file, sqlite3* writer, int pages, const std::string& sync_pragma,
                                 int busy_timeout_ms, std::function<void(const std::string&)> warn)
    : writer_(writer), warn_(std::move(warn)), pages_(pages), db_(std::make_unique<Db>(file, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX)) {
  db_->exec(sync_pragma);  // how the checkpoint syncs the files, as the writer would
  // RESTART waits for the commit under way (milliseconds), and holds the next commits while
  // it waits: a reader that keeps an old snapshot (a backup) must not hold them for the
  // writer's whole busy timeout at every attempt. Past kRestartWaitMs it gives up (counted).
  wait_when_busy(db_->handle(), std::min(busy_timeout_ms, kRestartWaitMs));
  thread_ = std::thread([this] { run(); });
  sqlite3_wal_hook(writer_, &WalCheckpointer::on_wal, this);
}

WalCheckpointer::~WalCheckpointer() {
  sqlite3_wal_hook(writer_, nullptr, nullptr);
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  wake_.notify_one();
  thread_.join();
}

std::uint64_t WalCheckpointer::checkpoints() const {
  std::lock_guard lock(mu_);
  return checkpoints_;
}

std::uint64_t WalCheckpointer::failures() const {
  std::lock_guard lock(mu_);
  return failures_;
}

std::uint64_t WalCheckpointer::restarts() const {
  std::lock_guard lock(mu_);
  return restarts_;
}

// On the writer's thread, after each commit, with the number of pages in the log.
int WalCheckpointer::on_wal(void* self, sqlite3*, const char*, int pages) {
  auto* c = static_cast<WalCheckpointer*>(self);
  if (pages < c->pages_) return SQLITE_OK;
  {
    std::lock_guard lock(c->mu_);
    if (c->due_) return SQLITE_OK;
    c->due_ = true;
  }
  c->wake_.notify_one();
  return SQLITE_OK;
}

void WalCheckpointer::say(const std::string& what) const {
  if (warn_) warn_(what);
  else std::fprintf(stderr, "storage: %s\n", what.c_str());
}

void WalCheckpointer::run() {
  ::pthread_setname_np(::pthread_self(), "carc-checkpoint");
  std::unique_lock lock(mu_);
  while (true) {
    wake_.wait(lock, [this] { return due_ || stop_; });
    if (stop_) return;
    due_ = false;
    lock.unlock();
    // PASSIVE: as much as can be copied without waiting for the writer or a reader. Once
    // the whole log is in the database, the writer's next transaction starts the log over.
    int log = 0, copied = 0;
    int rc = sqlite3_wal_checkpoint_v2(db_->handle(), "main", SQLITE_CHECKPOINT_PASSIVE, &log, &copied);
    bool restarted = false;
    if (rc == SQLITE_OK && log >= kCap * pages_) {
      // Commits back to back leave no moment at which the whole log is in the database,
      // and only then does it start over. RESTART waits for the commit under way, holds
      // the next ones for as long as it copies the rest, and the log starts over.
      rc = sqlite3_wal_checkpoint_v2(db_->handle(), "main", SQLITE_CHECKPOINT_RESTART, &log, &copied);
      restarted = rc == SQLITE_OK;
    }
    const std::string why = rc == SQLITE_OK ? std::string() : sqlite3_errmsg(db_->handle());
    lock.lock();
    if (rc == SQLITE_OK) ++checkpoints_;
    if (restarted) ++restarts_;
    // A failure (SQLITE_BUSY: a reader held the log past the busy timeout; a full disk; an
    // I/O error) is counted, and logged once per episode: the next commit past the
    // threshold asks again, and the log grows meanwhile (carc_storage_wal_bytes).
    if (rc != SQLITE_OK) {
      ++failures_;
      if (!failing_) say("a WAL checkpoint failed (" + why + "); the log grows until one succeeds");
      failing_ = true;
    } else if (failing_) {
      failing_ = false;
      say("WAL checkpoints succeed again");
    }
  }
}

}  // namespace carc::server
