// A store that syncs apart (RoomStore::syncs_apart; docs/durability.md): the writer answers
// a write only after the store's sync that followed its commit, commits the next pass while
// a sync is under way, and answers `false` when the sync fails. SQLite on a file syncs apart
// when its commits are to be on disk (synchronous FULL); in memory or with NORMAL it does not.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "carc/server/sqlite_store.hpp"
#include "durable/store_writer.hpp"
#include "helpers.hpp"
#include "writer_helpers.hpp"

using namespace carc::server;
using namespace std::chrono_literals;
using carc::test::chat;
using carc::test::created;
using carc::test::load;
using carc::test::TempDir;

namespace {

// The real store, with its syncs held while the test says so, or failing.
class HeldSyncs final : public ForwardingStore {
 public:
  explicit HeldSyncs(RoomStore& inner) : ForwardingStore(inner) {}

  BatchResult commit(const Batch& batch) override {
    BatchResult r = inner_.commit(batch);
    commits_.fetch_add(1);
    return r;
  }
  Status sync() override {
    {
      std::unique_lock lock(m_);
      ++entered_;
      cv_.notify_all();
      cv_.wait(lock, [&] { return !holding_; });
      if (failing_) return Status::failed("the disk refused the sync");
    }
    return inner_.sync();
  }

  void hold(bool on) {
    std::lock_guard lock(m_);
    holding_ = on;
    cv_.notify_all();
  }
  void fail(bool on) {
    std::lock_guard lock(m_);
    failing_ = on;
  }
  int entered() {
    std::lock_guard lock(m_);
    return entered_;
  }
  bool wait_entered(int n) {
    std::unique_lock lock(m_);
    return cv_.wait_for(lock, 10s, [&] { return entered_ >= n; });
  }
  int commits_seen() const { return commits_.load(); }

 private:
  std::mutex m_;
  std::condition_variable cv_;
  bool holding_ = false, failing_ = false;
  int entered_ = 0;
  std::atomic<int> commits_{0};
};

bool wait_until(const std::function<bool()>& pred) {
  for (int i = 0; i < 1000 && !pred(); ++i) std::this_thread::sleep_for(10ms);
  return pred();
}

}  // namespace

TEST_CASE("sync apart: a write is answered after the sync behind its commit; the next pass commits meanwhile") {
  TempDir tmp;
  auto sqlite = SqliteStore::open(tmp.path() / "data");
  REQUIRE(sqlite->syncs_apart());
  HeldSyncs store(*sqlite);
  {
    StoreWriter w(store);
    REQUIRE(created(w, "a"));
    REQUIRE(created(w, "b"));
    w.drain();  // the syncer has counted its last sync
    const auto syncs_before = w.stats().syncs;

    store.hold(true);
    const int entered = store.entered();
    std::mutex m;
    std::vector<std::string> answers;
    auto answer = [&](std::string who) {
      return [&, who](bool good) {
        std::lock_guard lock(m);
        answers.push_back(who + (good ? " stored" : " refused"));
      };
    };
    auto answered = [&] {
      std::lock_guard lock(m);
      return answers.size();
    };
    w.persist_async("a", 2, 1, chat(0), answer("a"));
    REQUIRE(store.wait_entered(entered + 1));  // a's pass is committed; its sync waits
    std::this_thread::sleep_for(50ms);
    CHECK(answered() == 0);

    const int commits = store.commits_seen();
    w.persist_async("b", 2, 1, chat(1), answer("b"));
    CHECK(wait_until([&] { return store.commits_seen() > commits; }));  // committed beside the sync
    CHECK(answered() == 0);
    CHECK(load(*sqlite, "b")->actions.size() == 1);  // in the log already, not yet vouched for

    store.hold(false);
    w.drain();
    CHECK(answers == std::vector<std::string>{"a stored", "b stored"});
    CHECK(w.stats().syncs - syncs_before == 2);  // b came after a's sync began: one more
    CHECK(w.stats().sync_failures == 0);
  }
  auto again = SqliteStore::open(tmp.path() / "data");
  CHECK(load(*again, "a")->actions.size() == 1);
  CHECK(load(*again, "b")->actions.size() == 1);
}

TEST_CASE("sync apart: a failed sync answers its writes false") {
  TempDir tmp;
  auto sqlite = SqliteStore::open(tmp.path() / "data");
  HeldSyncs store(*sqlite);
  StoreWriter w(store);
  REQUIRE(created(w, "a"));
  store.fail(true);
  std::atomic<int> ok{0}, refused{0};
  for (int i = 0; i < 3; ++i) w.persist_async("a", 2 + i, 1, chat(i), [&](bool good) { (good ? ok : refused).fetch_add(1); });
  w.drain();
  CHECK(ok == 0);
  CHECK(refused == 3);
  CHECK(w.stats().sync_failures >= 1);
  store.fail(false);
  std::atomic<bool> later{false};
  w.persist_async("a", 9, 1, chat(9), [&](bool good) { later = good; });
  w.drain();
  CHECK(later);
}

TEST_CASE("sync apart: SQLite syncs apart on a file with synchronous FULL only") {
  TempDir tmp;
  CHECK_FALSE(SqliteStore::in_memory()->syncs_apart());
  SqliteStore::Options normal;
  normal.sync = SqliteStore::Sync::Normal;
  CHECK_FALSE(SqliteStore::open(tmp.path() / "normal", normal)->syncs_apart());
  SqliteStore::Options itself;
  itself.sync_apart = false;
  CHECK_FALSE(SqliteStore::open(tmp.path() / "itself", itself)->syncs_apart());

  auto store = SqliteStore::open(tmp.path() / "apart");
  REQUIRE(store->syncs_apart());
  REQUIRE(store->apply(CreateRoom{"r", 1000, true}));
  REQUIRE(store->apply(AppendAction{"r", 0, "payload", 2, ""}));
  CHECK(store->sync().is_ok());
  CHECK(store->sync().is_ok());  // nothing new: still fine
  store.reset();
  auto reopened = SqliteStore::open(tmp.path() / "apart");
  REQUIRE(load(*reopened, "r"));
  CHECK(load(*reopened, "r")->actions.size() == 1);
}
