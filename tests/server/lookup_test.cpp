// Lookups of rooms that are not in memory (docs/configuration.md): storage is asked once per missing id
// (misses are remembered, bounded and expiring, and forgotten when the room appears), a
// bounded number of loads run at once, and a load that fails on the way still answers.
#include <future>
#include <stdexcept>
#include <thread>

#include <boost/asio/io_context.hpp>
#include <boost/asio/strand.hpp>
#include <doctest/doctest.h>

#include "base/metrics.hpp"
#include "rooms/miss_cache.hpp"
#include "rooms/registry.hpp"

namespace carc::server {

namespace {

using namespace std::chrono_literals;

struct LookupFixture {
  boost::asio::io_context io;
  Metrics metrics;
  NullPersistence store;
  Limits limits;
  RoomRegistry rooms{io, RoomServices{store, metrics, nullptr, {}, {}, {}, {}, {}, {}}, limits};
  int loads = 0;
  std::vector<RoomRegistry::RoomCallback> held;  // loads the test answers itself

  // A loader that finds nothing, at once.
  void none() {
    rooms.set_loader([this](std::string, RoomRegistry::RoomCallback done) {
      ++loads;
      done(nullptr);
    });
  }
  // A loader that keeps every request until the test answers it.
  void holding() {
    rooms.set_loader([this](std::string, RoomRegistry::RoomCallback done) {
      ++loads;
      held.push_back(std::move(done));
    });
  }
  // find() answered within `wait` (nullopt: still waiting).
  std::optional<std::shared_ptr<Room>> find(const std::string& id, std::chrono::milliseconds wait = 1000ms) {
    auto p = std::make_shared<std::promise<std::shared_ptr<Room>>>();
    auto f = p->get_future();
    rooms.find(id, [p](std::shared_ptr<Room> r) { p->set_value(std::move(r)); });
    if (f.wait_for(wait) != std::future_status::ready) return std::nullopt;
    return f.get();
  }
  std::shared_ptr<Room> make(const std::string& id) {
    return std::make_shared<Room>(boost::asio::make_strand(io), id, rooms.services());
  }
};

}  // namespace

TEST_CASE("a room storage does not have is looked for once, then answered from memory") {
  // Before, every lookup of a missing id was a task on the storage writer's thread.
  LookupFixture f;
  f.none();
  const std::string id = "NoSuchRoom00000000000";
  REQUIRE(!f.rooms.find_cached(id).has_value());  // only storage can tell, the first time
  for (int i = 0; i < 50; ++i) {
    auto r = f.find(id);
    REQUIRE(r.has_value());
    CHECK(*r == nullptr);
  }
  CHECK(f.loads == 1);
  CHECK(f.rooms.find_cached(id) == std::optional<std::shared_ptr<Room>>(nullptr));  // known missing
  CHECK(f.rooms.miss(id) == RoomRegistry::Miss::NotFound);
  CHECK(f.metrics.storage_lookups == 1);
  CHECK(f.metrics.lookups_remembered == 50);
  // Another id is another lookup; a malformed one is never one.
  CHECK(f.find("AnotherMissingRoom0")->get() == nullptr);
  CHECK(f.find("bad id!")->get() == nullptr);
  CHECK(f.loads == 2);
}

TEST_CASE("a remembered miss is forgotten when the room appears here") {
  LookupFixture f;
  f.none();
  const std::string id = "RoomThatAppears00000";
  CHECK(f.find(id)->get() == nullptr);
  f.rooms.add(f.make(id));  // created, restored or claimed on this node
  const auto r = f.find(id);
  REQUIRE(r.has_value());
  REQUIRE(*r != nullptr);
  CHECK((*r)->id() == id);
  CHECK(f.loads == 1);
}

TEST_CASE("a miss the loader explains (elsewhere, unreachable) is not remembered as missing") {
  LookupFixture f;
  int loads = 0;
  f.rooms.set_loader([&](std::string id, RoomRegistry::RoomCallback done) {
    ++loads;
    f.rooms.note_miss(id, RoomRegistry::Miss::Unavailable);
    done(nullptr);
  });
  const std::string id = "UnreachableRoom00000";
  CHECK(f.find(id)->get() == nullptr);
  CHECK(f.rooms.miss(id) == RoomRegistry::Miss::Unavailable);
  CHECK(!f.rooms.find_cached(id).has_value());  // storage is asked again next time
  CHECK(f.find(id)->get() == nullptr);
  CHECK(loads == 2);
}

TEST_CASE("a new lookup of a room does not hide why the last one missed") {
  // The answer to a lookup is sent after it returned (on the session's thread), reading
  // the note the loader left (503 "moved" for a room another node holds): a second lookup
  // of the same id starting meanwhile must not erase it (the client would hear 404).
  LookupFixture f;
  std::vector<RoomRegistry::RoomCallback> held;
  f.rooms.set_loader([&](std::string id, RoomRegistry::RoomCallback done) {
    f.rooms.note_miss(id, RoomRegistry::Miss::Elsewhere);
    held.push_back(std::move(done));
  });
  const std::string id = "HeldElsewhere0000000";
  CHECK(!f.find(id, 0ms).has_value());
  REQUIRE(held.size() == 1);
  held[0](nullptr);
  CHECK(f.rooms.miss(id) == RoomRegistry::Miss::Elsewhere);
  CHECK(!f.find(id, 0ms).has_value());  // asked again: not remembered as missing
  CHECK(held.size() == 2);
  CHECK(f.rooms.miss(id) == RoomRegistry::Miss::Elsewhere);
  held[1](nullptr);
}

TEST_CASE("a load that throws, or drops its answer, still answers everyone waiting") {
  // Before, loading_[id] was never cleared when the load failed on its way: every later
  // request for that room waited forever.
  LookupFixture f;
  int loads = 0;
  f.rooms.set_loader([&](std::string, RoomRegistry::RoomCallback) {
    ++loads;
    throw std::runtime_error("the store's queue refused the task");
  });
  const std::string id = "ThrowingLoadRoom0000";
  std::optional<std::shared_ptr<Room>> r;
  CHECK_NOTHROW(r = f.find(id));
  REQUIRE(r.has_value());
  CHECK(*r == nullptr);
  CHECK(f.rooms.miss(id) == RoomRegistry::Miss::Unavailable);  // 503 for the client, not 404
  CHECK(f.find(id).has_value());                              // not stuck: asked again
  CHECK(loads == 2);

  // The callback of an asynchronous load throws before it answers (the writer catches and
  // logs it and drops the task): the dropped answer answers.
  std::vector<std::function<void()>> tasks;
  f.rooms.set_loader([&](std::string, RoomRegistry::RoomCallback done) {
    tasks.push_back([done] {
      throw std::runtime_error("the stored log does not decode");
      done(nullptr);
    });
  });
  const std::string other = "DroppedAnswerRoom000";
  auto p1 = std::make_shared<std::promise<std::shared_ptr<Room>>>();
  auto p2 = std::make_shared<std::promise<std::shared_ptr<Room>>>();
  f.rooms.find(other, [p1](std::shared_ptr<Room> room) { p1->set_value(room); });
  f.rooms.find(other, [p2](std::shared_ptr<Room> room) { p2->set_value(room); });  // shares the load
  REQUIRE(tasks.size() == 1);
  CHECK_THROWS(tasks[0]());
  tasks.clear();  // the writer drops the failed task
  CHECK(p1->get_future().wait_for(1s) == std::future_status::ready);
  CHECK(p2->get_future().wait_for(1s) == std::future_status::ready);
  // A waiter whose own callback throws does not keep the others from their answer.
  f.none();
  const std::string third = "ThrowingWaiterRoom00";
  auto p3 = std::make_shared<std::promise<std::shared_ptr<Room>>>();
  f.holding();
  f.rooms.find(third, [](std::shared_ptr<Room>) { throw std::runtime_error("a session that broke"); });
  f.rooms.find(third, [p3](std::shared_ptr<Room> room) { p3->set_value(room); });
  REQUIRE(f.held.size() == 1);
  CHECK_NOTHROW(f.held[0](nullptr));
  CHECK(p3->get_future().wait_for(1s) == std::future_status::ready);
}

TEST_CASE("only a bounded number of storage lookups run at once") {
  LookupFixture f;
  f.holding();
  for (std::size_t i = 0; i < RoomRegistry::kMaxLoads; ++i) {
    CHECK(!f.find("HeldRoom" + std::to_string(1000000 + i), 0ms).has_value());  // waiting for storage
  }
  CHECK(f.held.size() == RoomRegistry::kMaxLoads);
  const auto r = f.find("OneTooManyRoom000000", 100ms);
  REQUIRE(r.has_value());  // answered at once, storage not asked
  CHECK(*r == nullptr);
  CHECK(f.rooms.miss("OneTooManyRoom000000") == RoomRegistry::Miss::Busy);
  CHECK(f.held.size() == RoomRegistry::kMaxLoads);
  CHECK(f.metrics.lookups_busy == 1);
  for (auto& done : f.held) done(nullptr);
  f.held.clear();
  CHECK(!f.find("OneTooManyRoom000000", 0ms).has_value());  // room again: storage is asked
  CHECK(f.held.size() == 1);
}

TEST_CASE("the remembered misses are bounded in number and in time") {
  MissCache c(3, 1000);
  c.remember("a", 0);
  c.remember("b", 10);
  c.remember("c", 20);
  CHECK(c.size() == 3);
  c.remember("d", 30);  // past the capacity the oldest goes
  CHECK(c.size() == 3);
  CHECK(!c.contains("a", 30));
  CHECK(c.contains("d", 30));
  CHECK(c.contains("b", 1009));
  CHECK(!c.contains("b", 1010));  // expired
  c.forget("c");
  CHECK(!c.contains("c", 100));
  for (int i = 0; i < 10000; ++i) c.remember("id" + std::to_string(i), 2000 + i);
  CHECK(c.size() <= 3);
  c.remember("x", 100000);
  CHECK(c.size() == 1);  // everything else expired on the way
  MissCache off(10, 0);
  off.remember("a", 0);
  CHECK(!off.contains("a", 0));
}

TEST_CASE("several nodes remember a miss only briefly (a room created on another node shows up)") {
  // Nothing tells this node that another one created a room, so a remembered miss must not
  // outlive a short time there; on one node creation here forgets it at once.
  LookupFixture f;
  f.none();
  f.rooms.set_shared_storage(true);
  const std::string id = "CreatedElsewhere0000";
  CHECK(f.find(id)->get() == nullptr);
  CHECK(f.rooms.find_cached(id).has_value());
  std::this_thread::sleep_for(std::chrono::milliseconds(RoomRegistry::kSharedMissTtlMs + 100));
  CHECK(!f.rooms.find_cached(id).has_value());  // storage is asked again
  CHECK(RoomRegistry::kSharedMissTtlMs <= 5000);
}

}  // namespace carc::server
