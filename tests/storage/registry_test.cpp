// The registry with the real writer and store, without sockets: rooms created, found and
// loaded without blocking the caller, and room expiry decided on the room's strand
// (the race of a room expired between an upgrade's find() and its attach()).
#include <doctest/doctest.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <future>
#include <nlohmann/json.hpp>

#include "carc/server/sqlite_store.hpp"
#include "base/metrics.hpp"
#include "base/random.hpp"
#include "rooms/registry.hpp"
#include "durable/store_writer.hpp"

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

struct RegistryFixture {
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
  RoomRegistry rooms{io, RoomServices{writer, metrics, nullptr, {}, {}, {}, {}, {}, {}}, limits};

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

TEST_CASE("registry: a room expired while an upgrade was on its way is never joined as an orphan") {
  // Before the fix, expire() dropped the room from the map and the database on the
  // sweeper's thread, whatever was queued on the room's strand: the upgrade that had just
  // found it attached anyway, and its join was refused as unavailable (the database had no
  // such room any more), for good. Now the room decides on its strand: retired, it closes
  // the newcomer (RoomClosed), who reconnects and finds no room.
  RegistryFixture f;
  const auto room = f.create();
  REQUIRE(room);
  const std::string id = room->id();
  const auto found = f.find(id);  // the upgrade found the room
  REQUIRE(found == room);
  CHECK(f.rooms.expire(steady_ms() + 10'000) == 1);  // the sweeper runs first
  auto client = std::make_shared<FakeClient>();
  boost::asio::post(found->strand(), [&] { found->attach(client); });  // then the attach
  f.settle();
  boost::asio::post(found->strand(), [&] {
    found->handle(client, carc::protocol::JoinMsg{"Late", std::nullopt}, Room::Clock::now());
  });
  f.settle();

  for (const json& frame : client->frames) CHECK(frame["type"] != "error");  // no `unavailable`
  REQUIRE(client->closes.size() == 1);
  CHECK(client->closes[0] == CloseReason::RoomClosed);
  CHECK_FALSE(f.find(id));  // the reconnect hears there is no such room
  CHECK_FALSE(f.store->load_room(id).room);
  CHECK(f.metrics.rooms_expired.load() == 1);
}

TEST_CASE("registry: a room with a connection that arrived first is not expired") {
  RegistryFixture f;
  const auto room = f.create();
  auto client = std::make_shared<FakeClient>();
  boost::asio::post(room->strand(), [&] { room->attach(client); });  // attach first
  f.settle();
  f.rooms.expire(steady_ms() + 10'000);  // skipped: it has a connection
  boost::asio::post(room->strand(), [&] { room->detach(client); });
  f.settle();
  // Idle again, but not for long enough; the expiry looks at the time on the strand.
  CHECK(f.rooms.expire(steady_ms()) == 0);
  boost::asio::post(room->strand(), [&] {
    room->attach(client);
    room->handle(client, carc::protocol::JoinMsg{"Ann", std::nullopt}, Room::Clock::now());
  });
  f.settle();
  CHECK(client->closes.empty());
  REQUIRE_FALSE(client->frames.empty());
  CHECK(client->frames.back()["type"] == "welcome");
  CHECK(f.find(room->id()) == room);
  CHECK(f.store->load_room(room->id()).room->actions.size() == 1);
}

// A two-player game played to its end (first legal placement every turn, no meeples), as
// storage would give it back.
RestoredRoom finished_game() {
  RestoredRoom r;
  r.actions.push_back(SeatTaken{0, "Ann", sha256_hex("token-ann"), std::nullopt, true});
  r.actions.push_back(SeatTaken{1, "Bob", sha256_hex("token-bob"), std::nullopt, false});
  r.actions.push_back(GameStarted{2, 42, unix_ms()});
  carc::Game g = carc::Game::seeded(2, 42);
  std::vector<carc::LegalMove> legal;
  int index = 0;
  while (!g.finished()) {
    const carc::Seat seat = g.current_seat();
    g.legal_moves(legal);
    REQUIRE_FALSE(legal.empty());
    const auto& p = legal.front().placement;
    const carc::Move m = carc::Move::place(*g.held(seat), p.cell, p.rotation);
    REQUIRE_FALSE(g.play(m));
    r.actions.push_back(MovePlayed{index++, seat, m, false, unix_ms()});
  }
  r.version = r.game_version = static_cast<std::int64_t>(r.actions.size()) + 1;
  return r;
}

std::shared_ptr<Room> add_finished(RegistryFixture& f, const std::string& id) {
  auto made = Room::restore(f.rooms.make_strand(), id, f.rooms.services(), finished_game());
  REQUIRE(std::holds_alternative<std::shared_ptr<Room>>(made));
  auto room = std::get<std::shared_ptr<Room>>(made);
  REQUIRE(room->phase() == carc::protocol::RoomPhase::Finished);
  f.rooms.add(room);
  return room;
}

TEST_CASE("registry: a finished game leaves memory as its last connection closes (--finished-room-ttl 0)") {
  RegistryFixture f;
  REQUIRE(f.limits.finished_room_ttl_s == 0);  // the default
  const auto room = add_finished(f, "finished-room-1");
  auto ann = std::make_shared<FakeClient>(), bob = std::make_shared<FakeClient>();
  boost::asio::post(room->strand(), [&] {
    room->attach(ann);
    room->attach(bob);
  });
  f.settle();
  boost::asio::post(room->strand(), [&] { room->detach(ann); });
  f.settle();
  CHECK(f.rooms.find_loaded("finished-room-1") == room);  // Bob still looks at the result
  CHECK(f.metrics.rooms_expired.load() == 0);
  boost::asio::post(room->strand(), [&] { room->detach(bob); });
  f.settle();
  CHECK_FALSE(f.rooms.find_loaded("finished-room-1"));  // gone at once, no sweep needed
  CHECK(room->retired());
  CHECK(f.metrics.rooms_expired.load() == 1);
  // One loaded back for its link waits a few seconds for its client before a sweep takes it.
  const auto back = add_finished(f, "finished-room-2");
  CHECK(f.rooms.expire(steady_ms() + 1'000) == 0);
  CHECK(f.rooms.expire(steady_ms() + 10'000) == 1);
  f.settle();
  CHECK_FALSE(f.rooms.find_loaded("finished-room-2"));
}

TEST_CASE("registry: with --finished-room-ttl S, a finished game stays S seconds after its last connection") {
  RegistryFixture f;
  f.limits.finished_room_ttl_s = 60;
  f.limits.room_ttl_s = 3600;
  const auto room = add_finished(f, "finished-room-3");
  auto ann = std::make_shared<FakeClient>();
  boost::asio::post(room->strand(), [&] { room->attach(ann); });
  f.settle();
  boost::asio::post(room->strand(), [&] { room->detach(ann); });
  f.settle();
  CHECK(f.rooms.find_loaded("finished-room-3") == room);
  CHECK(f.rooms.expire(steady_ms() + 30'000) == 0);
  CHECK(f.rooms.expire(steady_ms() + 61'000) == 1);
  f.settle();
  CHECK_FALSE(f.rooms.find_loaded("finished-room-3"));
  CHECK(f.metrics.rooms_expired.load() == 1);
}

TEST_CASE("registry: concurrent finds of a room not in memory share one load") {
  RegistryFixture f;
  std::atomic<int> loads{0};
  std::vector<RoomRegistry::RoomCallback> pending;
  std::mutex m;
  f.rooms.set_loader([&](std::string, RoomRegistry::RoomCallback done) {
    loads.fetch_add(1);
    std::lock_guard lock(m);
    pending.push_back(std::move(done));
  });
  std::atomic<int> answered{0};
  std::shared_ptr<Room> made = std::make_shared<Room>(f.rooms.make_strand(), "loaded-room-1", RoomServices{f.writer, f.metrics, nullptr, {}, {}, {}, {}, {}, {}});
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
