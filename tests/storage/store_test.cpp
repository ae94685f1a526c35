// The room store's contract (room_store.hpp), on every backend (backends.hpp): the same
// cases, the same expectations.
#include <doctest/doctest.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "backends.hpp"

using namespace carc::server;
using carc::test::append;
using carc::test::bump;
using carc::test::create;
using carc::test::fresh_backends;
using carc::test::load;
using carc::test::set_phase;

namespace {

AppendAction act(const std::string& room, std::int64_t seq, std::string payload, std::int64_t version,
                 std::string phase = "") {
  return AppendAction{room, seq, std::move(payload), version, std::move(phase)};
}

}  // namespace

TEST_CASE("store: a room round-trips with its log, version, phase and times") {
  for (auto& b : fresh_backends()) {
    CAPTURE(b->name());
    std::atomic<std::int64_t> t{5000};
    auto s = b->open([&t] { return t.load(); });
    REQUIRE(create(*s, "room-aaaaaaaaaa", 1234));
    t = 6000;
    REQUIRE(append(*s, "room-aaaaaaaaaa", 0, "first payload", 2));
    REQUIRE(append(*s, "room-aaaaaaaaaa", 1, "second: any bytes \n\t\"'\\ é", 4, "playing"));

    const auto back = load(*s, "room-aaaaaaaaaa");
    REQUIRE(back);
    StoredRoom want;
    want.id = "room-aaaaaaaaaa";
    want.phase = "playing";
    want.version = 4;
    want.created_ms = 1234;
    want.updated_ms = 6000;
    want.actions = {{0, "first payload"}, {1, "second: any bytes \n\t\"'\\ é"}};
    CHECK(*back == want);
    CHECK_FALSE(load(*s, "nope"));

    const Status again = create(*s, "room-aaaaaaaaaa");
    CHECK_FALSE(again);
    CHECK(again.error().find("room-aaaaaaaaaa") != std::string::npos);  // the refusal names its room
    const auto all = s->load_rooms();
    REQUIRE(all.error.empty());
    REQUIRE(all.rooms.size() == 1);
    CHECK(all.rooms[0] == want);
  }
}

TEST_CASE("store: actions come back in order per room; a taken seq fails the whole batch") {
  for (auto& b : fresh_backends()) {
    CAPTURE(b->name());
    auto s = b->open();
    REQUIRE(create(*s, "r1"));
    REQUIRE(create(*s, "r2"));
    // Two rooms interleaved, r1 stored out of order on purpose: the log is ordered by seq.
    for (int i = 0; i < 50; ++i) {
      const std::int64_t seq = (i * 7) % 50;
      REQUIRE(append(*s, "r1", seq, "a" + std::to_string(seq), i + 10, "playing"));
      REQUIRE(append(*s, "r2", i, "b" + std::to_string(i), i + 10, i == 49 ? "finished" : "playing"));
    }
    const auto r1 = load(*s, "r1");
    REQUIRE(r1);
    REQUIRE(r1->actions.size() == 50);
    for (std::size_t i = 0; i < 50; ++i) {
      CHECK(r1->actions[i].seq == static_cast<std::int64_t>(i));
      CHECK(r1->actions[i].payload == "a" + std::to_string(i));
    }
    CHECK(r1->version == 59);
    CHECK(load(*s, "r2")->phase == "finished");

    // The primary key (room, seq) is the backstop against a second writer: the batch that
    // carries a taken seq stores none of its writes.
    Batch batch;
    batch.writes.push_back(act("r2", 50, "fine", 100));
    batch.writes.push_back(act("r1", 3, "again", 99, "finished"));
    const BatchResult r = s->commit(batch);
    CHECK_FALSE(r.committed());
    CHECK(r.error.find("r1") != std::string::npos);
    const auto after = load(*s, "r1");
    CHECK(after->actions == r1->actions);
    CHECK(after->version == 59);
    CHECK(after->phase == "playing");
    CHECK(load(*s, "r2")->actions.size() == 50);
  }
}

TEST_CASE("store: a write refused for what it found does not stop the others of its batch") {
  for (auto& b : fresh_backends()) {
    CAPTURE(b->name());
    auto s = b->open();
    REQUIRE(create(*s, "good"));
    Batch batch;
    batch.writes.push_back(act("good", 0, "first", 4));
    batch.writes.push_back(act("missing", 0, "lost", 4));
    batch.writes.push_back(CreateRoom{"good", 1});  // exists
    batch.writes.push_back(act("good", 1, "second", 5));
    batch.writes.push_back(SetPhase{"missing", "finished"});
    batch.versions.push_back({"nobody", 9});
    const BatchResult r = s->commit(batch);
    REQUIRE(r.committed());
    REQUIRE(r.refused.size() == 5);
    CHECK(r.refused[0].empty());
    CHECK(r.refused[1].find("missing") != std::string::npos);
    CHECK(r.refused[2].find("good") != std::string::npos);
    CHECK(r.refused[3].empty());
    CHECK(r.refused[4].find("missing") != std::string::npos);
    const auto good = load(*s, "good");
    REQUIRE(good->actions.size() == 2);
    CHECK(good->actions[1].payload == "second");
    CHECK(good->version == 5);
    CHECK_FALSE(load(*s, "missing"));
  }
}

TEST_CASE("store: a batch over many rooms is one transaction; versions never go back") {
  for (auto& b : fresh_backends()) {
    CAPTURE(b->name());
    auto s = b->open();
    Batch batch;
    for (int r = 0; r < 10; ++r) batch.writes.push_back(CreateRoom{"room-" + std::to_string(r), 1000});
    for (int i = 0; i < 5; ++i) {
      for (int r = 0; r < 10; ++r) {
        batch.writes.push_back(act("room-" + std::to_string(r), i, "action " + std::to_string(i), 10 + i,
                                   i == 0 ? "playing" : ""));
      }
    }
    batch.writes.push_back(SetPhase{"room-9", "finished"});
    batch.versions = {{"room-3", 40}, {"room-4", 2}};
    const auto before = s->commits();
    REQUIRE(s->commit(batch).committed());
    CHECK(s->commits() == before + 1);

    s.reset();
    s = b->open();  // what was made durable
    for (int r = 0; r < 10; ++r) {
      const auto room = load(*s, "room-" + std::to_string(r));
      REQUIRE(room);
      REQUIRE(room->actions.size() == 5);
      for (int i = 0; i < 5; ++i) CHECK(room->actions[static_cast<std::size_t>(i)].payload == "action " + std::to_string(i));
      CHECK(room->phase == (r == 9 ? "finished" : "playing"));
      CHECK(room->version == (r == 3 ? 40 : 14));  // room-4's bump to 2 is older: ignored
    }
    CHECK(bump(*s, "room-0", 7));  // stale: ignored, not an error
    CHECK(load(*s, "room-0")->version == 14);
    const auto quiet = s->commits();
    CHECK(s->commit(Batch{}).committed());
    CHECK(s->commits() == quiet);  // nothing to do, no transaction
  }
}

TEST_CASE("store: remove keeps finished and quarantined rooms; quarantine is reported and never purged") {
  for (auto& b : fresh_backends()) {
    CAPTURE(b->name());
    std::atomic<std::int64_t> t{1000};
    auto s = b->open([&t] { return t.load(); });
    for (const char* id : {"lobby", "done", "bad", "good"}) REQUIRE(create(*s, id));
    REQUIRE(set_phase(*s, "done", "finished"));
    REQUIRE(append(*s, "bad", 0, "start", 4, "playing"));
    REQUIRE(s->quarantine("bad", "move 0 refused: illegal_placement"));
    CHECK_FALSE(s->quarantine("ghost", "x"));
    for (const char* id : {"lobby", "done", "bad"}) REQUIRE(s->apply(RemoveRoom{id}));
    CHECK_FALSE(load(*s, "lobby"));
    CHECK(load(*s, "done"));  // kept for its record until purged
    REQUIRE(load(*s, "bad"));  // still readable, with its log
    CHECK(load(*s, "bad")->quarantined == "move 0 refused: illegal_placement");
    CHECK(load(*s, "bad")->actions.size() == 1);

    const auto rooms = s->load_rooms();
    REQUIRE(rooms.rooms.size() == 1);  // good: not the quarantined one, nor the finished one (read on demand)
    const auto q = s->quarantined();
    REQUIRE(q.size() == 1);
    CHECK(q[0] == std::pair<std::string, std::string>{"bad", "move 0 refused: illegal_placement"});

    t = 1'000'000;
    CHECK(std::get<int>(s->purge_idle_before(999'999)) == 1);  // "good" only
    CHECK(std::get<int>(s->purge_finished_before(999'999)) == 1);  // "done"
    CHECK(s->quarantined().size() == 1);
    CHECK(load(*s, "bad"));
    // The logs went with the rooms: a new room with an old id starts clean.
    REQUIRE(create(*s, "done"));
    CHECK(load(*s, "done")->actions.empty());
  }
}

TEST_CASE("store: purge removes finished games after their time and idle rooms, by their last write") {
  for (auto& b : fresh_backends()) {
    CAPTURE(b->name());
    std::atomic<std::int64_t> t{1000};
    auto s = b->open([&t] { return t.load(); });
    REQUIRE(create(*s, "lobby-old"));
    REQUIRE(create(*s, "done-old"));
    REQUIRE(append(*s, "done-old", 0, "start", 4, "finished"));
    t = 5000;
    REQUIRE(create(*s, "lobby-new"));
    REQUIRE(create(*s, "done-new"));
    REQUIRE(append(*s, "done-new", 0, "start", 4, "finished"));
    REQUIRE(create(*s, "playing-new"));
    REQUIRE(append(*s, "playing-new", 0, "start", 4, "playing"));

    CHECK(std::get<int>(s->purge_finished_before(3000)) == 1);
    CHECK_FALSE(load(*s, "done-old"));
    CHECK(load(*s, "done-new"));
    CHECK(std::get<int>(s->purge_idle_before(3000)) == 1);
    CHECK_FALSE(load(*s, "lobby-old"));
    CHECK(s->load_rooms().rooms.size() == 2);  // lobby-new, playing-new (done-new is read on demand)
    t = 9000;
    REQUIRE(bump(*s, "lobby-new", 10));  // a write refreshes the idle clock
    CHECK(std::get<int>(s->purge_idle_before(8000)) == 1);  // playing-new
    CHECK(load(*s, "lobby-new"));
  }
}

TEST_CASE("store: concurrent writers, each failure reported with its own reason") {
  // The SQLite store used to keep the last error in the object and callers read
  // it after the call (last_error()), when another thread's write could already have
  // replaced it. Every write now returns its own outcome; here each thread's refusals
  // must name the thread's own room.
  for (auto& b : fresh_backends()) {
    CAPTURE(b->name());
    auto s = b->open();
    constexpr int kThreads = 4, kMoves = 40;
    for (int i = 0; i < kThreads; ++i) REQUIRE(create(*s, "room" + std::to_string(i)));
    std::atomic<int> failures{0}, misreported{0};
    std::vector<std::thread> threads;
    for (int i = 0; i < kThreads; ++i) {
      threads.emplace_back([&, i] {
        const std::string id = "room" + std::to_string(i);
        const std::string ghost = "ghost-of-thread-" + std::to_string(i);
        for (int m = 0; m < kMoves; ++m) {
          if (!append(*s, id, m, "m" + std::to_string(m), m + 1, "playing")) ++failures;
          if (!bump(*s, id, m + 2)) ++failures;
          const Status refused = append(*s, ghost, m, "x", 1);
          if (refused || refused.error().find(ghost) == std::string::npos) ++misreported;
          const Status exists = create(*s, id);
          if (exists || exists.error().find(id) == std::string::npos) ++misreported;
          (void)s->load_room(id);
        }
      });
    }
    for (auto& th : threads) th.join();
    CHECK(failures == 0);
    CHECK(misreported == 0);
    for (const auto& r : s->load_rooms().rooms) {
      CHECK(r.actions.size() == kMoves);
      CHECK(r.version == kMoves + 1);
    }
  }
}

TEST_CASE("store: a finished game's analysis is saved whole, found again after a restart, and purged with its room") {
  for (auto& b : fresh_backends()) {
    CAPTURE(b->name());
    std::atomic<std::int64_t> t{1000};
    {
      auto s = b->open([&t] { return t.load(); });
      REQUIRE(create(*s, "done-a"));
      REQUIRE(append(*s, "done-a", 0, "start", 4, "finished"));
      REQUIRE(create(*s, "done-b"));
      REQUIRE(append(*s, "done-b", 0, "start", 4, "finished"));
      const StoredAnalysis running{"done-a", "running", R"({"players":2})", R"([{"move":0}])"};
      REQUIRE(s->save_analysis(running));
      REQUIRE(s->save_analysis(StoredAnalysis{"done-b", "done", "{}", "[]"}));
      // Written whole: the second save of a room replaces the first.
      const StoredAnalysis more{"done-a", "running", R"({"players":2})", R"([{"move":0},{"move":1}])"};
      REQUIRE(s->save_analysis(more));
      const Status nowhere = s->save_analysis(StoredAnalysis{"no-such-room", "queued", "{}", "[]"});
      CHECK_FALSE(nowhere);
      CHECK(nowhere.error().find("no-such-room") != std::string::npos);
    }
    auto s = b->open([&t] { return t.load(); });  // a restart
    const AnalysesLoad open = s->load_analyses("");
    REQUIRE(open.error.empty());
    REQUIRE(open.analyses.size() == 1);  // done-b is done: nothing to resume
    CHECK(open.analyses[0] == StoredAnalysis{"done-a", "running", R"({"players":2})", R"([{"move":0},{"move":1}])"});
    const AnalysesLoad b_load = s->load_analyses("done-b");
    REQUIRE(b_load.analyses.size() == 1);
    CHECK(b_load.analyses[0].status == "done");
    CHECK(s->load_analyses("no-such-room").analyses.empty());
    t = 9000;
    CHECK(std::get<int>(s->purge_finished_before(5000)) == 2);
    CHECK(s->load_analyses("done-a").analyses.empty());
    CHECK(s->load_analyses("").analyses.empty());
  }
}
