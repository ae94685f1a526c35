// The registry with the real writer and store, without sockets: rooms created, found and
// loaded without blocking the caller.
#include <doctest/doctest.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <future>
#include <nlohmann/json.hpp>

#include "carc/server/sqlite_store.hpp"
#include "metrics.hpp"
#include "registry.hpp"
#include "store_writer.hpp"

using namespace carc::server;
using nlohmann::json;

namespace {

struct FakeClient final : Client {
  std::mutex m;
  std::vector<json> frames;
  std::vector<CloseReason> closes;
  void send(std::shared_ptr<const std::string> frame) override {
    std::lock_guard lock(m);
    frames.push_back(json::parse(*frame));
  }
  void close(CloseReason why) override {
    std::lock_guard lock(m);
    closes.push_back(why);
  }
};

struct Fixture {
  boost::asio::io_context io;
  Metrics metrics;
  std::unique_ptr<SqliteStore> store = SqliteStore::in_memory();
  StoreWriter writer{*store};
  Limits limits = [] {
    Limits l;
    l.room_ttl_s = 1;
    l.empty_room_ttl_s = 1;
    return l;
  }();
  RoomRegistry rooms{io, RoomServices{writer, metrics}, limits};

  // Runs the strands until the writer and they have nothing left (answers hop between them).
  void settle() {
    for (int i = 0; i < 5; ++i) {
      writer.drain();
      io.restart();
      io.poll();
    }
  }
  std::shared_ptr<Room> create() {
    std::promise<std::shared_ptr<Room>> p;
    rooms.create([&](std::shared_ptr<Room> r) { p.set_value(std::move(r)); });
    return p.get_future().get();
  }
  std::shared_ptr<Room> find(const std::string& id) {
    std::promise<std::shared_ptr<Room>> p;
    rooms.find(id, [&](std::shared_ptr<Room> r) { p.set_value(std::move(r)); });
    return p.get_future().get();
  }
};

}  // namespace

TEST_CASE("registry: concurrent finds of a room not in memory share one load") {
  Fixture f;
  std::atomic<int> loads{0};
  std::vector<RoomRegistry::RoomCallback> pending;
  std::mutex m;
  f.rooms.set_loader([&](std::string, RoomRegistry::RoomCallback done) {
    loads.fetch_add(1);
    std::lock_guard lock(m);
    pending.push_back(std::move(done));
  });
  std::atomic<int> answered{0};
  std::shared_ptr<Room> made = std::make_shared<Room>(f.rooms.make_strand(), "loaded-room-1", RoomServices{f.writer, f.metrics});
  for (int i = 0; i < 5; ++i) {
    f.rooms.find("loaded-room-1", [&](std::shared_ptr<Room> r) {
      if (r == made) answered.fetch_add(1);
    });
  }
  f.rooms.find("bad id!", [&](std::shared_ptr<Room> r) { CHECK_FALSE(r); });
  CHECK(loads == 1);
  CHECK(answered == 0);  // nothing waited on the caller's thread
  REQUIRE(pending.size() == 1);
  pending[0](made);
  CHECK(answered == 5);
  CHECK(f.rooms.find_loaded("loaded-room-1") == made);
}
