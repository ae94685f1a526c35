// The group-commit writer (StoreWriter, the server's Persistence hook) over every backend:
// concurrent rooms share one transaction per pass, each room's order is kept, a write that
// cannot be stored fails alone, reads see every write queued before them, and nothing
// queued is lost when the writer shuts down.
#include <doctest/doctest.h>

#include <atomic>
#include <condition_variable>
#include <future>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "durable/action_codec.hpp"
#include "backends.hpp"
#include "writer_helpers.hpp"
#include "durable/store_writer.hpp"

using namespace carc::server;
using carc::test::fresh_backends;
using carc::test::chat;
using carc::test::created;
using carc::test::Gate;
using carc::test::hold_writer;
using carc::test::persist;
using carc::test::text_of;
using carc::test::load;

namespace {


}  // namespace

TEST_CASE("writer: everything queued while the writer is busy goes out in one transaction") {
  for (auto& b : fresh_backends()) {
    CAPTURE(b->name());
    auto store = b->open();
    StoreWriter w(*store);
    constexpr int kRooms = 50;
    for (int r = 0; r < kRooms; ++r) REQUIRE(created(w, "room-" + std::to_string(r)));

    Gate gate;
    std::atomic<int> ok{0}, failed{0};
    auto done = [&](bool good) { (good ? ok : failed).fetch_add(1); };
    const auto stats_before = w.stats();
    const auto commits_before = store->commits();
    w.persist_async("room-0", 2, 1, chat(0), done);
    hold_writer(w, gate);  // the first batch is committed; the writer waits in a task
    for (int r = 0; r < kRooms; ++r) w.persist_async("room-" + std::to_string(r), 3, 1, chat(1), done);
    w.room_created("late-room", 1000, done);
    w.version_changed("room-7", 9);
    gate.release();
    w.drain();

    CHECK(ok == kRooms + 2);
    CHECK(failed == 0);
    const auto st = w.stats();
    CHECK(st.batches - stats_before.batches == 2);
    CHECK(st.writes - stats_before.writes == kRooms + 2);
    CHECK(st.largest == kRooms + 1);
    CHECK(store->commits() == commits_before + 2);  // one transaction (one fsync) per batch
    const auto r0 = load(*store, "room-0");
    REQUIRE(r0->actions.size() == 2);
    CHECK(text_of(r0->actions[0]) == "line 0");
    CHECK(text_of(r0->actions[1]) == "line 1");
    CHECK(load(*store, "room-7")->version == 9);
    CHECK(load(*store, "late-room"));
  }
}

TEST_CASE("writer: concurrent rooms keep their order and share commits") {
  for (auto& b : fresh_backends()) {
    CAPTURE(b->name());
    constexpr int kRooms = 40, kActions = 25;
    {
      auto store = b->open();
      StoreWriter w(*store);
      for (int r = 0; r < kRooms; ++r) REQUIRE(created(w, "room-" + std::to_string(r)));
      const auto before = w.stats();
      const auto commits_before = store->commits();
      std::vector<std::thread> rooms;
      std::atomic<int> failures{0};
      for (int r = 0; r < kRooms; ++r) {
        rooms.emplace_back([&, r] {
          // Like Room: the next action only once the previous one is durable.
          for (int i = 0; i < kActions; ++i) {
            if (!persist(w, "room-" + std::to_string(r), 2 + i, chat(i))) failures.fetch_add(1);
          }
        });
      }
      for (auto& t : rooms) t.join();
      CHECK(failures == 0);
      const auto st = w.stats();
      const auto batches = st.batches - before.batches;
      MESSAGE("batches: " << batches << " for " << st.writes - before.writes << " actions, largest " << st.largest);
      CHECK(st.writes - before.writes == kRooms * kActions);
      CHECK(batches < st.writes - before.writes);  // rooms shared commits
      CHECK(store->commits() - commits_before == batches);
    }
    auto store = b->open();
    for (int r = 0; r < kRooms; ++r) {
      const auto room = load(*store, "room-" + std::to_string(r));
      REQUIRE(room);
      REQUIRE(room->actions.size() == kActions);
      for (int i = 0; i < kActions; ++i) {
        CHECK(room->actions[static_cast<std::size_t>(i)].seq == i);
        CHECK(text_of(room->actions[static_cast<std::size_t>(i)]) == "line " + std::to_string(i));
      }
      CHECK(room->version == 1 + kActions);
    }
  }
}

TEST_CASE("writer: a write that cannot be stored fails alone") {
  for (auto& b : fresh_backends()) {
    CAPTURE(b->name());
    auto store = b->open();
    StoreWriter w(*store);
    for (const char* id : {"a", "b", "gone", "clash"}) REQUIRE(created(w, id));
    // Behind the writer's back: "gone" is deleted, and seq 0 of "clash" is taken (as by a
    // second writer of the room).
    REQUIRE(store->apply(RemoveRoom{"gone"}));
    REQUIRE(store->apply(AppendAction{"clash", 0, "someone else's", 2, ""}));

    Gate gate;
    std::mutex m;
    std::vector<std::pair<std::string, bool>> answers;
    auto answer = [&](std::string who) {
      return [&, who](bool good) {
        std::lock_guard lock(m);
        answers.emplace_back(who, good);
      };
    };
    w.persist_async("a", 2, 1, chat(0), [](bool) {});
    hold_writer(w, gate);
    w.persist_async("a", 3, 1, chat(1), answer("a"));
    w.persist_async("gone", 3, 1, chat(1), answer("gone"));
    w.persist_async("clash", 3, 1, chat(1), answer("clash"));
    w.persist_async("never-created", 3, 1, chat(1), answer("never-created"));
    w.persist_async("b", 3, 1, chat(1), answer("b"));
    gate.release();
    w.drain();
    // The refusals are answered as they are found (the first before the store); the writes
    // stored, in order, once stored (on a store that syncs apart, after its sync).
    REQUIRE(answers.size() == 5);
    CHECK(answers[0] == std::pair<std::string, bool>{"never-created", false});
    const std::map<std::string, bool> by_room(answers.begin(), answers.end());
    CHECK(by_room == std::map<std::string, bool>{{"never-created", false}, {"a", true}, {"gone", false}, {"clash", false}, {"b", true}});
    std::vector<std::string> stored;
    for (const auto& [who, good] : answers) if (good) stored.push_back(who);
    CHECK(stored == std::vector<std::string>{"a", "b"});
    CHECK(w.stats().fallbacks == 1);  // the taken seq failed the batch; retried one by one
    CHECK(load(*store, "a")->actions.size() == 2);
    CHECK(load(*store, "b")->actions.size() == 1);
    CHECK(load(*store, "clash")->actions.size() == 1);
    CHECK(load(*store, "clash")->actions[0].payload == "someone else's");
  }
}

TEST_CASE("writer: a room loaded through it goes on with its next seq; reads see the writes before them") {
  for (auto& b : fresh_backends()) {
    CAPTURE(b->name());
    {
      auto store = b->open();
      StoreWriter w(*store);
      REQUIRE(created(w, "old"));
      for (int i = 0; i < 3; ++i) REQUIRE(persist(w, "old", 2 + i, chat(i)));
    }
    auto store = b->open();
    StoreWriter w(*store);
    CHECK_FALSE(persist(w, "old", 9, chat(9)));  // not loaded by this writer yet
    std::promise<RoomLoad> loaded;
    w.load("old", [&](RoomLoad r) { loaded.set_value(std::move(r)); });
    const RoomLoad r = loaded.get_future().get();
    REQUIRE(r.room);
    CHECK(r.room->actions.size() == 3);
    REQUIRE(persist(w, "old", 5, chat(3)));

    // A read queued right behind writes sees them.
    std::promise<std::size_t> seen;
    w.persist_async("old", 6, 1, chat(4), [](bool) {});
    w.room_finished("old", 2000);
    w.load("old", [&](RoomLoad l) { seen.set_value(l.room && l.room->phase == "finished" ? l.room->actions.size() : 0); });
    CHECK(seen.get_future().get() == 5);
    // Start-up loads what can still be played: the finished room is read on demand only.
    REQUIRE(created(w, "playing"));
    REQUIRE(persist(w, "playing", 2, chat(0)));
    const auto all = w.load_all();
    REQUIRE(all.rooms.size() == 1);
    CHECK(all.rooms[0].id == "playing");
    CHECK(all.rooms[0].actions.back().seq == 0);
  }
}

TEST_CASE("writer: shutting down writes and answers everything still queued") {
  for (auto& b : fresh_backends()) {
    CAPTURE(b->name());
    std::atomic<int> answered{0};
    {
      auto store = b->open();
      StoreWriter w(*store);
      for (int r = 0; r < 30; ++r) w.room_created("room-" + std::to_string(r), 1000, [](bool) {});
      for (int r = 0; r < 30; ++r) {
        w.persist_async("room-" + std::to_string(r), 2, 1, chat(r), [&](bool good) {
          if (good) answered.fetch_add(1);
        });
      }
    }  // the destructor drains
    CHECK(answered == 30);
    auto store = b->open();
    for (int r = 0; r < 30; ++r) CHECK(load(*store, "room-" + std::to_string(r))->actions.size() == 1);
  }
}

TEST_CASE("writer: periodic tasks run on the writer thread") {
  auto backends = fresh_backends();
  auto store = backends.front()->open();
  StoreWriter w(*store);
  std::promise<std::thread::id> ran;
  std::atomic<bool> once{false};
  w.every(std::chrono::milliseconds(20), [&](carc::server::RoomStore&) {
    if (!once.exchange(true)) ran.set_value(std::this_thread::get_id());
  });
  auto f = ran.get_future();
  REQUIRE(f.wait_for(std::chrono::seconds(5)) == std::future_status::ready);
  std::promise<std::thread::id> writer_thread;
  w.run([&](carc::server::RoomStore&) { writer_thread.set_value(std::this_thread::get_id()); });
  const auto periodic_thread = f.get();
  CHECK(periodic_thread == writer_thread.get_future().get());
  CHECK(periodic_thread != std::this_thread::get_id());
}

// Runs three passes of writes: one, then three (queued while the writer was held in a
// task), then the three queued while it was held after the second, plus whatever `more`
// queues once it lets go. Only the third comes while the writer is busy (its last pass
// carried 3 writes and the next were already waiting), so only it may wait.
namespace {
// Each part of the test below reopens the same database: its own rooms.
std::string prefix;
std::string name(int r) { return prefix + std::to_string(r); }

void create_rooms(StoreWriter& w) {
  for (int r = 0; r < 12; ++r) REQUIRE(created(w, name(r)));
}

std::chrono::steady_clock::duration three_passes(StoreWriter& w, const std::function<void()>& more) {
  std::atomic<int> ok{0};
  auto done = [&](bool good) { ok.fetch_add(good ? 1 : 0); };
  Gate first, second;
  w.persist_async(name(0), 2, 1, chat(0), done);
  w.drain();
  hold_writer(w, first);  // a pass of one item (the task): the next is not "busy"
  for (int r = 1; r <= 3; ++r) w.persist_async(name(r), 2, 1, chat(r), done);
  w.run([&](RoomStore&) { second.hold(); });
  first.release();
  second.wait_entered();
  for (int r = 4; r <= 6; ++r) w.persist_async(name(r), 2, 1, chat(r), done);
  const auto released = std::chrono::steady_clock::now();
  second.release();
  more();
  w.drain();
  return std::chrono::steady_clock::now() - released;
}
}  // namespace

TEST_CASE("writer: under load a commit waits for more writes to share it; an idle writer never waits") {
  for (auto& b : fresh_backends()) {
    CAPTURE(b->name());
    {
      // Waits until a full batch (8) is queued, long before the 30 s delay is over.
      auto store = b->open();
      StoreWriter::Options o;
      o.commit_delay = std::chrono::seconds(30);
      o.busy_batch = 2;
      o.full_batch = 8;
      // "Busy" means the next write came within busy_gap of the last pass's end: generous,
      // so that a loaded machine's scheduling never makes the writer look idle here.
      o.busy_gap = std::chrono::milliseconds(500);
      StoreWriter w(*store, o);
      prefix = "full-";
      create_rooms(w);
      const auto before = w.stats();
      std::atomic<int> late{0};
      const auto took = three_passes(w, [&] {
        // Once the writer waits (had these come first, the batch would be full already).
        for (int i = 0; i < 2000 && w.stats().delayed == before.delayed; ++i) {
          std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
        for (int r = 7; r <= 11; ++r) w.persist_async(name(r), 2, 1, chat(r), [&](bool good) {
          late.fetch_add(good ? 1 : 0);
        });
      });
      const auto st = w.stats();
      CHECK(late == 5);
      CHECK(st.delayed - before.delayed == 1);
      CHECK(st.batches - before.batches == 3);
      CHECK(st.largest == 8);  // the three waiting and the five that came meanwhile
      CHECK(took < std::chrono::seconds(20));
      // Idle again (no write for longer than busy_gap): a lone write goes out at once.
      std::this_thread::sleep_for(o.busy_gap + std::chrono::milliseconds(20));
      REQUIRE(persist(w, name(0), 3, chat(12)));
      CHECK(w.stats().delayed - before.delayed == 1);
      CHECK(load(*store, name(11))->actions.size() == 1);
    }
    {
      // Nothing more comes: the waiting batch goes out once the delay is over.
      auto store = b->open();
      StoreWriter::Options o;
      o.commit_delay = std::chrono::milliseconds(150);
      o.busy_batch = 2;
      o.busy_gap = std::chrono::milliseconds(500);
      StoreWriter w(*store, o);
      prefix = "timed-";
      create_rooms(w);
      const auto took = three_passes(w, [] {});
      CHECK(w.stats().delayed == 1);
      CHECK(took >= std::chrono::milliseconds(150));
      CHECK(load(*store, name(6))->actions.size() == 1);
    }
    {
      // commit_delay 0: never waits.
      auto store = b->open();
      StoreWriter::Options o;
      o.commit_delay = std::chrono::microseconds(0);
      o.busy_batch = 1;
      StoreWriter w(*store, o);
      prefix = "never-";
      create_rooms(w);
      three_passes(w, [] {});
      CHECK(w.stats().delayed == 0);
    }
  }
}

TEST_CASE("writer: with deferred wakes a burst of writes wakes the writer once and shares one transaction") {
  for (auto& b : fresh_backends()) {
    CAPTURE(b->name());
    auto store = b->open();
    StoreWriter::Options o;
    o.commit_delay = std::chrono::microseconds(0);  // only the deferral groups the writes
    StoreWriter w(*store, o);
    prefix = "burst-";
    create_rooms(w);
    // The writer finds work queued while it was busy without a wake: let it go idle first.
    w.drain();
    std::this_thread::sleep_for(std::chrono::milliseconds(100));

    std::mutex m;
    std::vector<std::function<void()>> wakes;  // what the server would post to its io_context
    w.defer_wakes([&](std::function<void()> wake) {
      std::lock_guard lock(m);
      wakes.push_back(std::move(wake));
    });
    const auto wakes_asked = [&] {
      std::lock_guard lock(m);
      return wakes.size();
    };
    const auto before = w.stats();
    std::atomic<int> ok{0};
    for (int r = 0; r < 6; ++r) w.persist_async(name(r), 2, 1, chat(r), [&](bool good) { ok += good ? 1 : 0; });
    CHECK(wakes_asked() == 1);  // one wake for the burst
    // Until the wake runs, the writer is not woken for the burst: nothing is written.
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    CHECK(w.stats().batches == before.batches);
    CHECK(ok == 0);
    {
      std::function<void()> wake;
      {
        std::lock_guard lock(m);
        wake = wakes.front();
      }
      wake();
    }
    for (int i = 0; i < 500 && ok < 6; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    CHECK(ok == 6);
    CHECK(w.stats().batches - before.batches == 1);
    CHECK(w.stats().largest >= 6);
    CHECK(load(*store, name(5))->actions.size() == 1);

    // The next burst asks for a wake of its own; drain() writes it even if that wake never
    // runs (the I/O threads have stopped before the server drains its writer).
    w.persist_async(name(0), 3, 1, chat(6), [&](bool good) { ok += good ? 1 : 0; });
    CHECK(wakes_asked() == 2);
    w.drain();
    CHECK(ok == 7);
    CHECK(load(*store, name(0))->actions.size() == 2);
    // Reads and tasks never wait for a deferred wake.
    std::promise<int> ran;
    w.run([&](RoomStore&) { ran.set_value(1); });
    CHECK(ran.get_future().wait_for(std::chrono::seconds(10)) == std::future_status::ready);
  }
}
