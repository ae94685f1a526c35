// Group commit in the server's persistence hook (SqlitePersistence over a real database
// file): concurrent rooms share one transaction per writer pass, each room's order is kept,
// a bad action does not make the others of its batch unavailable, and nothing queued is
// lost when the hook shuts down.
#include <doctest/doctest.h>

#include <atomic>
#include <condition_variable>
#include <future>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "carc/server/storage.hpp"
#include "helpers.hpp"
#include "sqlite_persistence.hpp"

using carc::server::ChatPosted;
using carc::server::SqlitePersistence;
using carc::server::Storage;
using carc::test::TempDir;

namespace {

ChatPosted chat(int i) { return ChatPosted{i, std::nullopt, "bot", "line " + std::to_string(i), 1000 + i}; }

// Holds the writer thread inside a done callback until released, so that everything
// queued meanwhile must go out in its next batch.
struct Gate {
  std::mutex m;
  std::condition_variable cv;
  bool entered = false, open = false;
  void hold() {
    std::unique_lock lock(m);
    entered = true;
    cv.notify_all();
    cv.wait(lock, [&] { return open; });
  }
  void wait_entered() {
    std::unique_lock lock(m);
    cv.wait(lock, [&] { return entered; });
  }
  void release() {
    std::lock_guard lock(m);
    open = true;
    cv.notify_all();
  }
};

}  // namespace

TEST_CASE("group commit: everything queued while the writer is busy goes out in one transaction") {
  TempDir tmp;
  auto storage = Storage::open(tmp.path() / "data");
  SqlitePersistence p(*storage);
  constexpr int kRooms = 50;
  for (int r = 0; r < kRooms; ++r) REQUIRE(p.room_created("room-" + std::to_string(r), 1000));

  Gate gate;
  std::atomic<int> ok{0}, failed{0};
  auto done = [&](bool good) { (good ? ok : failed).fetch_add(1); };
  const auto commits_before = storage->commits();
  p.persist_async("room-0", 2, 1, chat(0), [&](bool good) {
    done(good);
    gate.hold();
  });
  gate.wait_entered();  // the first batch is committed; the writer waits in its callback
  for (int r = 0; r < kRooms; ++r) p.persist_async("room-" + std::to_string(r), 3, 1, chat(1), done);
  p.version_changed("room-7", 9);
  gate.release();
  p.drain();

  CHECK(ok == kRooms + 1);
  CHECK(failed == 0);
  const auto st = p.stats();
  CHECK(st.batches == 2);
  CHECK(st.actions == kRooms + 1);
  CHECK(st.largest == kRooms);
  CHECK(storage->commits() == commits_before + 2);  // one transaction (one fsync) per batch
  const auto r0 = storage->load_room("room-0");
  REQUIRE(r0->actions.size() == 2);
  CHECK(r0->actions[0].payload.find("line 0") != std::string::npos);
  CHECK(r0->actions[1].payload.find("line 1") != std::string::npos);
  CHECK(storage->load_room("room-7")->version == 9);
}

TEST_CASE("group commit: concurrent rooms keep their order and share commits") {
  TempDir tmp;
  auto storage = Storage::open(tmp.path() / "data");
  constexpr int kRooms = 40, kActions = 25;
  {
    SqlitePersistence p(*storage);
    for (int r = 0; r < kRooms; ++r) REQUIRE(p.room_created("room-" + std::to_string(r), 1000));
    const auto commits_before = storage->commits();
    std::vector<std::thread> rooms;
    std::atomic<int> failures{0};
    for (int r = 0; r < kRooms; ++r) {
      rooms.emplace_back([&, r] {
        // Like Room: the next action only once the previous one is durable. Half of them
        // through the synchronous persist, which goes through the same queue.
        for (int i = 0; i < kActions; ++i) {
          const std::string id = "room-" + std::to_string(r);
          if (i % 2 == 0) {
            std::promise<bool> durable;
            p.persist_async(id, 2 + i, 1, chat(i), [&](bool good) { durable.set_value(good); });
            if (!durable.get_future().get()) failures.fetch_add(1);
          } else if (!p.persist(id, 2 + i, 1, chat(i))) {
            failures.fetch_add(1);
          }
        }
      });
    }
    for (auto& t : rooms) t.join();
    CHECK(failures == 0);
    const auto st = p.stats();
    MESSAGE("batches: " << st.batches << " for " << st.actions << " actions, largest " << st.largest);
    CHECK(st.actions == kRooms * kActions);
    CHECK(st.batches < st.actions);  // rooms shared commits
    CHECK(storage->commits() - commits_before == st.batches);
  }
  storage.reset();
  storage = Storage::open(tmp.path() / "data");
  for (int r = 0; r < kRooms; ++r) {
    const auto room = storage->load_room("room-" + std::to_string(r));
    REQUIRE(room);
    REQUIRE(room->actions.size() == kActions);
    for (int i = 0; i < kActions; ++i) {
      CHECK(room->actions[static_cast<std::size_t>(i)].payload.find("\"line " + std::to_string(i) + "\"") !=
            std::string::npos);
    }
    CHECK(room->version == 1 + kActions);
  }
}

TEST_CASE("group commit: one action that cannot be stored fails alone") {
  TempDir tmp;
  auto storage = Storage::open(tmp.path() / "data");
  SqlitePersistence p(*storage);
  REQUIRE(p.room_created("a", 1000));
  REQUIRE(p.room_created("b", 1000));
  Gate gate;
  std::mutex m;
  std::vector<std::pair<std::string, bool>> answers;
  auto answer = [&](std::string who) {
    return [&, who](bool good) {
      std::lock_guard lock(m);
      answers.emplace_back(who, good);
    };
  };
  p.persist_async("a", 2, 1, chat(0), [&](bool) { gate.hold(); });
  gate.wait_entered();
  p.persist_async("a", 3, 1, chat(1), answer("a"));
  p.persist_async("gone", 3, 1, chat(1), answer("gone"));  // e.g. removed meanwhile
  p.persist_async("b", 3, 1, chat(1), answer("b"));
  gate.release();
  p.drain();
  REQUIRE(answers.size() == 3);
  CHECK(answers[0] == std::pair<std::string, bool>{"a", true});
  CHECK(answers[1] == std::pair<std::string, bool>{"gone", false});
  CHECK(answers[2] == std::pair<std::string, bool>{"b", true});
  CHECK(p.stats().fallbacks == 1);
  CHECK(storage->load_room("a")->actions.size() == 2);
  CHECK(storage->load_room("b")->actions.size() == 1);
}

TEST_CASE("group commit: shutting down writes and answers everything still queued") {
  TempDir tmp;
  auto storage = Storage::open(tmp.path() / "data");
  std::atomic<int> answered{0};
  {
    SqlitePersistence p(*storage);
    for (int r = 0; r < 30; ++r) REQUIRE(p.room_created("room-" + std::to_string(r), 1000));
    for (int r = 0; r < 30; ++r) {
      p.persist_async("room-" + std::to_string(r), 2, 1, chat(r), [&](bool good) {
        if (good) answered.fetch_add(1);
      });
    }
  }  // the destructor drains
  CHECK(answered == 30);
  storage.reset();
  storage = Storage::open(tmp.path() / "data");
  for (int r = 0; r < 30; ++r) CHECK(storage->load_room("room-" + std::to_string(r))->actions.size() == 1);
}
