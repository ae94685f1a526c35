// A database that stops answering (docs/cluster.md): a real PostgreSQL behind a TCP relay that
// the test freezes (stops forwarding without closing anything). The node's writes fail
// instead of hanging, nothing it acknowledged is lost, its rooms go to another node once
// its lease ran out, and it recovers by itself when the relay flows again. The lease is
// renewed the way the server does it (StoreWriter::every_apart, Durability).
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <string>
#include <thread>

#include "durable/action_codec.hpp"
#include "backends.hpp"
#include "writer_helpers.hpp"
#include "durable/store_writer.hpp"
#include "tcp_relay.hpp"

using namespace carc::server;
using carc::test::PgServer;
using carc::test::chat;
using carc::test::TcpRelay;

namespace {

using Clock = std::chrono::steady_clock;

std::uint16_t port_of(const std::string& url) {
  const auto colon = url.rfind(':');
  return static_cast<std::uint16_t>(std::stoi(url.substr(colon + 1, url.find('/', colon) - colon - 1)));
}

std::string via(const std::string& url, std::uint16_t port) {
  const auto colon = url.rfind(':');
  return url.substr(0, colon + 1) + std::to_string(port) + url.substr(url.find('/', colon));
}

// The answer of one write, or nullopt if none came within `limit` (a hang).
std::optional<bool> answer_of(const std::function<void(Persistence::Done)>& write, std::chrono::seconds limit) {
  auto p = std::make_shared<std::promise<bool>>();
  auto f = p->get_future();
  write([p](bool ok) { p->set_value(ok); });
  if (f.wait_for(limit) != std::future_status::ready) return std::nullopt;
  return f.get();
}

template <class F>
bool eventually(F f, std::chrono::seconds limit) {
  const auto end = Clock::now() + limit;
  while (Clock::now() < end) {
    if (f()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return false;
}

}  // namespace

TEST_CASE("stall: a frozen PostgreSQL fails the node's writes, its rooms move, and it recovers by itself") {
  const std::string url = PgServer::shared().fresh_database();
  TcpRelay relay(port_of(url));
  constexpr std::int64_t kLease = 2'000;

  PgStore::Options oa;
  oa.node_id = "node-a";
  oa.lease_ms = kLease;  // statements time out after a quarter of it
  auto a = PgStore::open(via(url, relay.port()), oa);
  PgStore::Options ob;
  ob.node_id = "node-b";
  auto b = PgStore::open(url, ob);

  std::atomic<int> renewals{0}, lost{0};
  {
    StoreWriter w(*a);
    // As Durability does: the lease on a thread of its own, four times per lease.
    w.every_apart(std::chrono::milliseconds(kLease / 4), [&] {
      const LeaseRenewal r = a->renew_lease();
      if (r.ok) renewals.fetch_add(1);
      if (r.lost) lost.fetch_add(1);
    });
    const auto write = [&](std::int64_t version, int i) {
      return answer_of([&](Persistence::Done d) { w.persist_async("room-s", version, 1, chat(i), std::move(d)); },
                       std::chrono::seconds(30));
    };
    REQUIRE(answer_of([&](Persistence::Done d) { w.room_created("room-s", 1000, std::move(d)); }, std::chrono::seconds(10)) ==
            std::optional<bool>(true));
    for (int i = 0; i < 3; ++i) REQUIRE(write(2 + i, i) == std::optional<bool>(true));  // acknowledged

    relay.freeze();  // nothing flows from here on: the next write never reaches the database
    const auto frozen_at = Clock::now();
    // The next move is answered (refused as unavailable), not held forever.
    const auto refused = write(5, 3);
    const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - frozen_at);
    MESSAGE("the write in flight was answered after " << took.count() << " ms (lease " << kLease << " ms)");
    REQUIRE(refused.has_value());
    CHECK_FALSE(*refused);
    // More writes while frozen: each answered, none stored.
    CHECK(write(5, 4) == std::optional<bool>(false));

    // Past the node's lease another node takes the room over, with every acknowledged move.
    std::optional<StoredRoom> taken;
    CHECK(eventually(
        [&] {
          RoomLoad l = b->load_room("room-s");
          if (l.room) taken = std::move(l.room);
          return taken.has_value();
        },
        std::chrono::seconds(20)));
    REQUIRE(taken);
    REQUIRE(taken->actions.size() == 3);
    for (int i = 0; i < 3; ++i) {
      const auto d = decode_action(taken->actions[static_cast<std::size_t>(i)].payload);
      REQUIRE(std::holds_alternative<DecodedAction>(d));
      CHECK(std::get<ChatPosted>(std::get<DecodedAction>(d).action).text == "line " + std::to_string(i));
    }
    CHECK(b->apply(AppendAction{"room-s", 3, "node-b's move", 6, ""}));

    // The relay flows again: the node finds out its lease ran out (its rooms are gone), takes
    // a new one, and serves again without a restart.
    relay.thaw();
    CHECK(eventually([&] { return lost.load() >= 1; }, std::chrono::seconds(20)));
    CHECK(write(6, 5) == std::optional<bool>(false));  // room-s is node-b's now: fenced
    CHECK(eventually(
        [&] {
          return answer_of([&](Persistence::Done d) { w.room_created("room-t", 1000, std::move(d)); },
                           std::chrono::seconds(30)) == std::optional<bool>(true);
        },
        std::chrono::seconds(20)));
    CHECK(answer_of([&](Persistence::Done d) { w.persist_async("room-t", 2, 1, chat(9), std::move(d)); },
                    std::chrono::seconds(30)) == std::optional<bool>(true));
    CHECK(eventually([&] { return renewals.load() >= 1; }, std::chrono::seconds(20)));  // a lease that runs again
  }
  const auto log = b->load_room("room-s");
  REQUIRE(log.room);
  CHECK(log.room->actions.size() == 4);
}
