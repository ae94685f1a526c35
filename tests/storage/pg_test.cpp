// What only the PostgreSQL store has (docs/cluster.md): schema versions and the databases it
// refuses (left untouched), an unreachable server, leases and the fence on owner + epoch,
// takeover, handoff, and a server restart under it.
#include <doctest/doctest.h>

#include <chrono>
#include <string>
#include <thread>

#include "backends.hpp"

using carc::server::PgStore;
using carc::server::StorageError;
using carc::test::append;
using carc::test::create;
using carc::test::load;
using carc::test::PgServer;

namespace {

PgStore::Options node(const std::string& id, std::int64_t lease_ms = 10'000) {
  PgStore::Options o;
  o.node_id = id;
  o.lease_ms = lease_ms;
  return o;
}

std::string pg_open_error(const std::string& url, PgStore::Options o = node("n")) {
  try {
    PgStore::open(url, o);
  } catch (const StorageError& e) {
    return e.what();
  }
  return "";
}

std::string scalar(const std::string& url, const std::string& sql) {
  const std::string cmd = "psql -X -tA " + carc::test::shell_quote(url) + " -c " + carc::test::shell_quote(sql);
  std::string out;
  if (FILE* p = ::popen(cmd.c_str(), "r")) {
    char buf[256];
    while (std::fgets(buf, sizeof buf, p) != nullptr) out += buf;
    ::pclose(p);
  }
  while (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

}  // namespace

TEST_CASE("postgresql: schema version, reopening, and databases it must not touch") {
  auto& pg = PgServer::shared();
  const std::string url = pg.fresh_database();
  {
    auto s = PgStore::open(url, node("n1"));
    REQUIRE(create(*s, "room-1"));
    CHECK(s->describe().find("PostgreSQL 127.0.0.1:") == 0);
    CHECK(s->describe().find("carc_t") != std::string::npos);
  }
  CHECK(scalar(url, "SELECT value FROM carc_meta WHERE key = 'schema_version'") == std::to_string(PgStore::kSchemaVersion));
  {
    auto s = PgStore::open(url, node("n1"));  // migrations are idempotent; the node takes its room back
    REQUIRE(load(*s, "room-1"));
    CHECK(append(*s, "room-1", 0, "start", 2, "playing"));
  }

  // A schema newer than this binary: refused, nothing changed.
  pg.psql(url.substr(url.rfind('/') + 1), "UPDATE carc_meta SET value = 99");
  std::string why = pg_open_error(url);
  CHECK(why.find("schema version 99") != std::string::npos);
  CHECK(why.find("newer") != std::string::npos);
  CHECK(scalar(url, "SELECT value FROM carc_meta") == "99");
  CHECK(scalar(url, "SELECT count(*) FROM actions") == "1");

  // Somebody else's database with a table called rooms: refused, untouched.
  const std::string foreign = pg.fresh_database();
  pg.psql(foreign.substr(foreign.rfind('/') + 1), "CREATE TABLE rooms(name TEXT); INSERT INTO rooms VALUES('x')");
  why = pg_open_error(foreign);
  CHECK(why.find("not ours") != std::string::npos);
  CHECK(scalar(foreign, "SELECT name FROM rooms") == "x");
  CHECK(scalar(foreign, "SELECT to_regclass('carc_meta') IS NULL") == "t");

  // An upgrade from schema 1 (no handoff column, no analyses yet) keeps the data.
  const std::string old = pg.fresh_database();
  {
    auto s = PgStore::open(old, node("n1"));
    REQUIRE(create(*s, "old-room"));
    REQUIRE(append(*s, "old-room", 0, "start", 3, "playing"));
  }
  pg.psql(old.substr(old.rfind('/') + 1), "DROP TABLE analyses; DROP TABLE wakes; DROP TABLE key_seats; ALTER TABLE rooms DROP COLUMN wanted_by, DROP COLUMN wanted_until; UPDATE carc_meta SET value = 1");
  {
    auto s = PgStore::open(old, node("n1"));
    CHECK(scalar(old, "SELECT value FROM carc_meta") == std::to_string(PgStore::kSchemaVersion));
    const auto r = load(*s, "old-room");
    REQUIRE(r);
    CHECK(r->actions.size() == 1);
    CHECK(r->version == 3);
    CHECK(scalar(old, "SELECT to_regclass('analyses') IS NOT NULL") == "t");  // step 3
    CHECK(scalar(old, "SELECT count(*) FROM pg_tables WHERE tablename IN ('wakes', 'player_keys', 'key_seats', 'notices_sent')") == "4");  // step 4
    CHECK(scalar(old, "SELECT count(*) FROM information_schema.columns WHERE table_name = 'rooms' AND column_name = 'wanted_until'") == "1");  // step 5
  }
}

TEST_CASE("postgresql: an unreachable server is a clear error at start") {
  // A port nobody listens on (the throwaway server's, once stopped, would do too).
  const auto t0 = std::chrono::steady_clock::now();
  const std::string why = pg_open_error("postgresql://carc:secret@127.0.0.1:1/carc");
  CHECK(why.find("cannot connect to PostgreSQL at postgresql://carc:***@127.0.0.1:1/carc") == 0);
  CHECK(why.find("secret") == std::string::npos);  // never the password
  CHECK(why.find("--db") != std::string::npos);
  CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(10));
  CHECK(pg_open_error(PgServer::shared().url_of("postgres"), PgStore::Options{}).find("node id") != std::string::npos);
}

TEST_CASE("postgresql: the fence: a node past its lease can never append again; the next node takes over") {
  const std::string url = PgServer::shared().fresh_database();
  // node-b opens first and node-a renews its short lease just before it writes: on a busy
  // machine, opening a store (connect, migrations) can take longer than the lease.
  auto b = PgStore::open(url, node("node-b"));
  auto a = PgStore::open(url, node("node-a", 1000));
  REQUIRE(a->renew_lease().error.empty());  // renewed, or re-registered if it ran out
  REQUIRE(create(*a, "room-x"));
  REQUIRE(append(*a, "room-x", 0, "a0", 2, "playing"));

  // A live owner keeps its room: another node is told who has it.
  auto seen = b->load_room("room-x");
  CHECK_FALSE(seen.room);
  CHECK(seen.owner == "node-a");
  CHECK_FALSE(append(*b, "room-x", 1, "b-too-early", 3));

  // node-a stops renewing (paused). Past its lease its own appends are refused even before
  // anybody takes the room (the lease is checked in the same statement).
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  const auto late = append(*a, "room-x", 1, "a1-after-lease", 3);
  CHECK_FALSE(late);
  CHECK(late.error().find("fence") != std::string::npos);

  // The first node asked takes it over with a new epoch and carries on from the log.
  const auto taken = b->load_room("room-x");
  REQUIRE(taken.room);
  CHECK(taken.owner.empty());
  CHECK(taken.room->actions.size() == 1);
  REQUIRE(append(*b, "room-x", 1, "b1", 3));
  CHECK(scalar(url, "SELECT owner || ' ' || epoch FROM rooms WHERE id = 'room-x'") == "node-b 2");

  // node-a wakes up: its renewal says the lease was lost and it forgets every room.
  const auto renewal = a->renew_lease();
  CHECK(renewal.lost);
  CHECK(a->held() == 0);
  CHECK_FALSE(append(*a, "room-x", 2, "a2-after-wake", 4));
  // Even claiming it back fails while node-b is live.
  CHECK(a->load_room("room-x").owner == "node-b");
  // A second writer of the same place: the primary key refuses it.
  CHECK_FALSE(append(*b, "room-x", 1, "b1-again", 4));

  const auto log = load(*b, "room-x");
  REQUIRE(log);
  REQUIRE(log->actions.size() == 2);
  CHECK(log->actions[0].payload == "a0");
  CHECK(log->actions[1].payload == "b1");
}

TEST_CASE("postgresql: handoff: the owner sees the request in its renewal and releases the room") {
  const std::string url = PgServer::shared().fresh_database();
  auto a = PgStore::open(url, node("node-a"));
  auto b = PgStore::open(url, node("node-b"));
  REQUIRE(create(*a, "room-h"));
  REQUIRE(append(*a, "room-h", 0, "a0", 2));
  CHECK(b->load_room("room-h").owner == "node-a");
  REQUIRE(b->request_handoff("room-h"));
  const auto r = a->renew_lease();
  CHECK(r.ok);
  REQUIRE(r.wanted.size() == 1);
  CHECK(r.wanted[0] == "room-h");
  REQUIRE(a->release("room-h"));
  CHECK_FALSE(append(*a, "room-h", 1, "a1-after-release", 3));
  const auto taken = b->load_room("room-h");
  REQUIRE(taken.room);
  REQUIRE(append(*b, "room-h", 1, "b1", 3));
  CHECK(a->renew_lease().wanted.empty());
}

TEST_CASE("postgresql: handoff: a released room waits for the node that asked; the old owner cannot take it back first") {
  // The room's clients reach the old owner again (a client connected to it directly, or a
  // front that still routes there): it must not claim the room back before the asker does,
  // or the two nodes pass it back and forth and the asker never gets it.
  const std::string url = PgServer::shared().fresh_database();
  auto a = PgStore::open(url, node("node-a"));
  auto b = PgStore::open(url, node("node-b"));
  auto c = PgStore::open(url, node("node-c"));
  REQUIRE(create(*a, "room-w"));
  REQUIRE(append(*a, "room-w", 0, "a0", 2));
  REQUIRE(b->request_handoff("room-w"));

  // Asked for, not yet released (node-a sent its clients away; they came back at once).
  auto again = a->load_room("room-w");
  CHECK_FALSE(again.room);
  CHECK(again.kept_for == "node-b");
  CHECK(again.error.empty());
  CHECK(scalar(url, "SELECT owner || ' ' || epoch FROM rooms WHERE id = 'room-w'") == "node-a 1");

  REQUIRE(a->renew_lease().wanted.size() == 1);
  REQUIRE(a->release("room-w"));
  // Kept for node-b, for min(max(lease, 3 s), 5 s): 5 s with these 10 s leases.
  const double kept_s = std::stod(scalar(url, "SELECT EXTRACT(EPOCH FROM wanted_until - clock_timestamp()) FROM rooms WHERE id = 'room-w'"));
  CHECK(kept_s > 4.0);
  CHECK(kept_s <= 5.0);
  for (auto* other : {a.get(), c.get()}) {
    again = other->load_room("room-w");
    CHECK_FALSE(again.room);
    CHECK(again.kept_for == "node-b");
    CHECK(again.owner.empty());
  }
  CHECK(scalar(url, "SELECT COALESCE(owner, '-') FROM rooms WHERE id = 'room-w'") == "-");

  // node-b claims it, and the request is done with.
  const auto taken = b->load_room("room-w");
  REQUIRE(taken.room);
  CHECK(taken.room->actions.size() == 1);
  CHECK(scalar(url, "SELECT owner || ' ' || COALESCE(wanted_by, '-') || ' ' || (wanted_until IS NULL) FROM rooms WHERE id = 'room-w'") ==
        "node-b - true");
  REQUIRE(append(*b, "room-w", 1, "b1", 3));

  // Kept for node-a now; once that time is over (moved into the past here), anyone claims it.
  REQUIRE(a->request_handoff("room-w"));
  REQUIRE(b->renew_lease().wanted.size() == 1);
  REQUIRE(b->release("room-w"));
  CHECK(c->load_room("room-w").kept_for == "node-a");
  scalar(url, "UPDATE rooms SET wanted_until = clock_timestamp() - interval '1 millisecond' WHERE id = 'room-w'");
  REQUIRE(c->load_room("room-w").room);
  REQUIRE(append(*c, "room-w", 2, "c2", 4));

  // Kept for a node whose lease ran out: nobody waits for it.
  REQUIRE(b->request_handoff("room-w"));
  REQUIRE(c->renew_lease().wanted.size() == 1);
  REQUIRE(c->release("room-w"));
  CHECK(a->load_room("room-w").kept_for == "node-b");
  scalar(url, "UPDATE nodes SET lease_until = clock_timestamp() - interval '1 second' WHERE id = 'node-b'");
  const auto freed = a->load_room("room-w");
  REQUIRE(freed.room);
  CHECK(freed.room->actions.size() == 3);
}

TEST_CASE("postgresql: a room the database gave a node that never held it is released when another node asks") {
  // node-a's claim reached the database after node-a had given up on it (a stalled network
  // that later delivered it): the database says node-a owns the room, node-a knows nothing
  // of it, and nobody may claim it while node-a is live.
  const std::string url = PgServer::shared().fresh_database();
  auto a = PgStore::open(url, node("node-a"));
  auto b = PgStore::open(url, node("node-b"));
  REQUIRE(create(*b, "room-o"));
  REQUIRE(append(*b, "room-o", 0, "b0", 2));
  REQUIRE(b->release("room-o"));
  scalar(url, "UPDATE rooms SET owner = 'node-a', epoch = epoch + 1 WHERE id = 'room-o'");
  REQUIRE(scalar(url, "SELECT owner || ' ' || epoch FROM rooms WHERE id = 'room-o'") == "node-a 2");
  CHECK(a->held() == 0);
  CHECK(b->load_room("room-o").owner == "node-a");
  REQUIRE(b->request_handoff("room-o"));

  // The first renewal that sees it only notes it (a claim whose answer is on its way would be
  // held by the next one); the second releases it.
  auto r = a->renew_lease();
  CHECK(r.ok);
  CHECK(r.wanted.empty());
  CHECK(r.orphans_released.empty());
  CHECK(scalar(url, "SELECT owner FROM rooms WHERE id = 'room-o'") == "node-a");
  r = a->renew_lease();
  REQUIRE(r.orphans_released.size() == 1);
  CHECK(r.orphans_released[0] == "room-o");
  const auto taken = b->load_room("room-o");
  REQUIRE(taken.room);
  CHECK(taken.room->actions.size() == 1);
  REQUIRE(append(*b, "room-o", 1, "b1", 3));

  // A room a node does hold is never released that way: it is handed over (wanted) instead.
  REQUIRE(create(*a, "room-k"));
  REQUIRE(b->request_handoff("room-k"));
  for (int i = 0; i < 2; ++i) {
    r = a->renew_lease();
    CHECK(r.orphans_released.empty());
    REQUIRE(r.wanted.size() == 1);
  }
  CHECK(scalar(url, "SELECT owner FROM rooms WHERE id = 'room-k'") == "node-a");
  REQUIRE(append(*a, "room-k", 0, "a0", 2));
}

TEST_CASE("postgresql: a server restart fails the writes in flight, stores nothing half, and the store carries on") {
  auto& pg = PgServer::shared();
  const std::string url = pg.fresh_database();
  auto s = PgStore::open(url, node("node-r", 60'000));
  REQUIRE(create(*s, "room-r"));
  REQUIRE(append(*s, "room-r", 0, "before", 2));

  pg.stop();
  CHECK_FALSE(append(*s, "room-r", 1, "while-down", 3));  // finds the connection dead
  const auto down = append(*s, "room-r", 1, "while-down", 3);
  CHECK_FALSE(down);
  CHECK(down.error().find("unreachable") != std::string::npos);
  CHECK_FALSE(s->load_room("room-r").error.empty());
  CHECK_FALSE(s->renew_lease().error.empty());
  pg.start();

  // The first call after the restart may find the old connection dead, and the server
  // may still be starting up: one of the next ones, within a few seconds, reconnects.
  const auto retry = [&](std::int64_t seq, const std::string& payload, std::int64_t version) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (std::chrono::steady_clock::now() < deadline) {
      if (append(*s, "room-r", seq, payload, version)) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    return false;
  };
  CHECK(retry(1, "after", 3));
  pg.restart();
  CHECK(retry(2, "after-restart", 4));
  const auto r = load(*s, "room-r");
  REQUIRE(r);
  REQUIRE(r->actions.size() == 3);
  CHECK(r->actions[1].payload == "after");
  CHECK(r->actions[2].payload == "after-restart");
}

TEST_CASE("postgresql: version bumps and removals are fenced like appends (owner, epoch, lease)") {
  const std::string url = PgServer::shared().fresh_database();
  auto a = PgStore::open(url, node("node-a", 400));
  REQUIRE(create(*a, "room-f"));
  REQUIRE(append(*a, "room-f", 0, "a0", 2, "playing"));
  REQUIRE(create(*a, "room-g"));
  std::this_thread::sleep_for(std::chrono::milliseconds(700));  // node-a's lease runs out
  // Past its lease a node changes nothing of its rooms: no version, no removal.
  carc::server::Batch bumps;
  bumps.versions.push_back({"room-f", 99});
  (void)a->commit(bumps);
  (void)a->apply(carc::server::RemoveRoom{"room-g"});
  CHECK(scalar(url, "SELECT version FROM rooms WHERE id = 'room-f'") == "2");
  CHECK(scalar(url, "SELECT count(*) FROM rooms WHERE id = 'room-g'") == "1");

  // A room taken over by another node: the old owner's bumps and removals miss it.
  auto b = PgStore::open(url, node("node-b"));
  REQUIRE(b->load_room("room-f").room);
  REQUIRE(b->load_room("room-g").room);
  REQUIRE(a->renew_lease().lost);  // node-a is back, with a new lease and no rooms
  (void)a->commit(bumps);
  (void)a->apply(carc::server::RemoveRoom{"room-g"});
  CHECK(scalar(url, "SELECT version FROM rooms WHERE id = 'room-f'") == "2");
  CHECK(scalar(url, "SELECT count(*) FROM rooms WHERE id = 'room-g'") == "1");
  // The owner's own bump goes through.
  REQUIRE(carc::test::bump(*b, "room-f", 7));
  CHECK(scalar(url, "SELECT version FROM rooms WHERE id = 'room-f'") == "7");
}
