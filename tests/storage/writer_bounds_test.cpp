// What the writer owes its callers when things go wrong (docs/durability.md): a task's error reaches
// whoever waits for it, a full queue answers at once, reads never cut the writer's passes
// into extra transactions; and the thread-free batching half (WriteBatcher), driven pass by
// pass without a thread.
#include <doctest/doctest.h>

#include <atomic>
#include <condition_variable>
#include <future>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "durable/action_codec.hpp"
#include "backends.hpp"
#include "writer_helpers.hpp"
#include "durable/store_writer.hpp"
#include "durable/write_batcher.hpp"

using namespace carc::server;
using carc::test::fresh_backends;
using carc::test::chat;
using carc::test::created;
using carc::test::Gate;
using carc::test::hold_writer;
using carc::test::load;

namespace {


}  // namespace

TEST_CASE("writer: what a task throws reaches run_and_wait's caller instead of hanging it") {
  auto store = SqliteStore::in_memory();
  StoreWriter w(*store);
  // On a thread of its own: a run_and_wait that never returns must fail this test, not hang it.
  auto outcome = std::make_shared<std::promise<std::string>>();
  std::thread([&w, outcome] {
    try {
      w.run_and_wait([](RoomStore&) { throw std::runtime_error("the database is gone"); });
      outcome->set_value("returned");
    } catch (const std::exception& e) {
      outcome->set_value(std::string("threw: ") + e.what());
    }
  }).detach();
  auto f = outcome->get_future();
  REQUIRE_MESSAGE(f.wait_for(std::chrono::seconds(10)) == std::future_status::ready, "run_and_wait hung");
  CHECK(f.get() == "threw: the database is gone");
  // The writer carries on.
  CHECK(created(w, "after"));
}

TEST_CASE("writer: a full queue refuses writes at once; the ones queued are stored") {
  auto store = SqliteStore::in_memory();
  StoreWriter::Options o;
  o.max_queue = 4;
  StoreWriter w(*store, o);
  for (int r = 0; r < 6; ++r) REQUIRE(created(w, "room-" + std::to_string(r)));
  Gate gate;
  w.persist_async("room-0", 2, 1, chat(0), [](bool) {});
  hold_writer(w, gate);  // the writer is stuck (as behind a stalled store)
  std::mutex m;
  std::vector<std::pair<int, bool>> answers;
  for (int r = 0; r < 6; ++r) {
    w.persist_async("room-" + std::to_string(r), 3, 1, chat(r), [&, r](bool ok) {
      std::lock_guard lock(m);
      answers.emplace_back(r, ok);
    });
  }
  {
    std::lock_guard lock(m);  // answered before the writer moved: at once, on the caller's thread
    REQUIRE(answers.size() == 2);
    CHECK(answers[0] == std::pair<int, bool>{4, false});
    CHECK(answers[1] == std::pair<int, bool>{5, false});
  }
  CHECK(w.stats().overflows == 2);
  CHECK(w.stats().queued == 4);
  gate.release();
  w.drain();
  std::lock_guard lock(m);
  REQUIRE(answers.size() == 6);
  for (std::size_t i = 2; i < 6; ++i) CHECK(answers[i].second);
  CHECK(load(*store, "room-3")->actions.size() == 1);
  CHECK(load(*store, "room-4")->actions.empty());
}

TEST_CASE("writer: a read between writes costs no transaction, and sees the writes before it") {
  for (auto& b : fresh_backends()) {
    CAPTURE(b->name());
    auto store = b->open();
    StoreWriter w(*store);
    for (int r = 0; r < 6; ++r) REQUIRE(created(w, "room-" + std::to_string(r)));
    Gate gate;
    w.persist_async("room-0", 2, 1, chat(0), [](bool) {});
    hold_writer(w, gate);
    const auto commits_before = store->commits();
    std::atomic<int> ok{0};
    auto done = [&](bool good) { ok += good ? 1 : 0; };
    for (int r = 1; r <= 3; ++r) w.persist_async("room-" + std::to_string(r), 2, 1, chat(r), done);
    std::promise<std::size_t> seen;
    w.load("room-2", [&](RoomLoad l) { seen.set_value(l.room ? l.room->actions.size() : 99); });
    for (int r = 3; r <= 5; ++r) w.persist_async("room-" + std::to_string(r), 3, 1, chat(r), done);
    gate.release();
    CHECK(seen.get_future().get() == 1);  // the write queued before the read
    w.drain();
    CHECK(ok == 6);
    // Before: the read ran on the writer thread between two batches, cutting the pass in two.
    CHECK(store->commits() - commits_before == 1);
    CHECK(w.stats().reads == 1);
  }
}

TEST_CASE("writer: too many reads waiting are refused at once with an error") {
  auto store = SqliteStore::in_memory();
  StoreWriter::Options o;
  o.max_reads = 2;
  StoreWriter w(*store, o);
  REQUIRE(created(w, "r"));
  Gate gate;
  w.persist_async("r", 2, 1, chat(0), [](bool) {});
  hold_writer(w, gate);  // reads wait for that write: they pile up
  std::mutex m;
  std::vector<std::string> errors;
  const auto read = [&] {
    w.load("r", [&](RoomLoad l) {
      std::lock_guard lock(m);
      errors.push_back(l.error);
    });
  };
  read();
  for (int i = 0; i < 1000 && w.stats().reads_waiting != 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  REQUIRE(w.stats().reads_waiting == 0);  // the read thread took it, and waits for the write
  for (int i = 0; i < 4; ++i) read();
  {
    std::lock_guard lock(m);
    // The read thread took one and waits; two wait in its queue; two are refused.
    CHECK(errors.size() == 2);
    for (const auto& e : errors) CHECK(e.find("storage busy") != std::string::npos);
  }
  gate.release();
  w.drain();
  for (int i = 0; i < 500; ++i) {
    {
      std::lock_guard lock(m);
      if (errors.size() == 5) break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  std::lock_guard lock(m);
  REQUIRE(errors.size() == 5);
  for (std::size_t i = 2; i < 5; ++i) CHECK(errors[i].empty());
  CHECK(w.stats().reads_refused == 2);
}

TEST_CASE("batcher: one pass is one transaction; an open numbers the room's appends; a failed pass goes write by write") {
  auto store = SqliteStore::in_memory();
  WriteBatcher batcher(*store);
  std::vector<std::pair<std::string, bool>> answers;
  const auto answer = [&](std::string who) { return [&answers, who](bool ok) { answers.emplace_back(who, ok); }; };
  using Entry = WriteBatcher::Entry;
  std::vector<VersionBump> none;

  std::vector<Entry> pass;
  pass.push_back(Entry{CreateRoom{"a", 1000, true}, answer("create a"), {}, 0});
  pass.push_back(Entry{AppendAction{"a", 0, "a0", 2, ""}, answer("a0"), {}, 0});
  pass.push_back(Entry{AppendAction{"stranger", 0, "x", 2, ""}, answer("stranger"), {}, 0});
  const auto commits = store->commits();
  batcher.commit(pass, none);
  CHECK(store->commits() == commits + 1);
  REQUIRE(answers.size() == 3);
  CHECK(answers[0] == std::pair<std::string, bool>{"stranger", false});  // not open here: refused before the store
  CHECK(answers[1].second);
  CHECK(answers[2].second);

  // A room stored by someone else is opened at its next seq, in order with the writes.
  REQUIRE(store->apply(CreateRoom{"b", 1000, true}));
  REQUIRE(store->apply(AppendAction{"b", 0, "b0", 2, ""}));
  pass.push_back(Entry{std::nullopt, {}, "b", 1});
  pass.push_back(Entry{AppendAction{"b", 0, "b1", 3, ""}, answer("b1"), {}, 0});
  pass.push_back(Entry{AppendAction{"a", 0, "a1", 3, ""}, answer("a1"), {}, 0});
  batcher.commit(pass, none);
  CHECK(load(*store, "b")->actions.back().seq == 1);
  CHECK(load(*store, "a")->actions.back().seq == 1);

  // Seq 2 of "a" taken behind its back: the pass fails, and is retried write by write.
  REQUIRE(store->apply(AppendAction{"a", 2, "someone else's", 4, ""}));
  answers.clear();
  pass.push_back(Entry{AppendAction{"b", 0, "b2", 4, ""}, answer("b2"), {}, 0});
  pass.push_back(Entry{AppendAction{"a", 0, "a2", 4, ""}, answer("a2"), {}, 0});
  pass.push_back(Entry{AppendAction{"a", 0, "a3", 5, ""}, answer("a3"), {}, 0});
  batcher.commit(pass, none);
  REQUIRE(answers.size() == 3);
  CHECK(answers[0] == std::pair<std::string, bool>{"b2", true});
  CHECK(answers[1] == std::pair<std::string, bool>{"a2", false});
  CHECK(answers[2] == std::pair<std::string, bool>{"a3", false});  // after a failed write of its room
  CHECK(batcher.stats().fallbacks == 1);
  CHECK(batcher.stats().batches == 3);
  CHECK(pass.empty());
}
