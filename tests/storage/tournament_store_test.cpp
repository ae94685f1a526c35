// Tournaments' rows (server/storage/src/tournament_store_*.cpp, docs/tournaments.md#storage)
// on every backend: registration only while registering and up to the seats, a round that
// moves on exactly once (two connections racing, as two nodes would), a drop and a result
// stored once, and everything still there when the store is opened again.
#include <doctest/doctest.h>

#include <atomic>
#include <functional>
#include <thread>

#include "carc/server/tournament_store.hpp"
#include "helpers.hpp"
#include "pg_server.hpp"

using namespace carc::test;
using carc::server::EntrantRow;
using carc::server::Entry;
using carc::server::TableRow;
using carc::server::TournamentRow;
using carc::server::TournamentStore;

namespace {

using Open = std::function<std::unique_ptr<TournamentStore>()>;

void on_every_backend(const std::function<void(const Open&)>& body) {
  {
    CAPTURE("sqlite");
    TempDir dir;
    body([&] { return TournamentStore::sqlite(dir.path() / "carcassonne.db"); });
  }
  {
    CAPTURE("postgresql");
    const std::string url = PgServer::shared().fresh_database();
    body([&] { return TournamentStore::postgres(url); });
  }
}

TournamentRow row(const std::string& id, std::int64_t created) {
  TournamentRow t;
  t.id = id;
  t.settings = R"({"name":"Cup"})";
  t.organiser = "organiser0000000";
  t.created_ms = created;
  t.secret = "s3cret";
  return t;
}

template <class T>
T ok(const std::variant<T, std::string>& v) {
  if (const auto* why = std::get_if<std::string>(&v)) FAIL("storage error: " << *why);
  return std::get<T>(v);
}

}  // namespace

TEST_CASE("tournament store: register, start once, drop, results, reopened") {
  on_every_backend([](const Open& open) {
    {
      auto s = open();
      REQUIRE(s->create(row("t1", 1000)).is_ok());
      REQUIRE(s->create(row("t2", 2000)).is_ok());
      CHECK_FALSE(s->create(row("t1", 3000)).is_ok());  // an id is taken once
      CHECK(ok(s->tournament("t1"))->settings == R"({"name":"Cup"})");
      CHECK_FALSE(ok(s->tournament("nope")));
      auto all = ok(s->tournaments("", 10));
      REQUIRE(all.size() == 2);
      CHECK(all[0].id == "t2");  // newest first

      CHECK(ok(s->enter("t1", {"ann", "Ann", 10, 0}, 3)) == Entry::registered);
      CHECK(ok(s->enter("t1", {"ann", "Ann", 11, 0}, 3)) == Entry::already);
      CHECK(ok(s->enter("t1", {"bob", "Bob", 12, 0}, 3)) == Entry::registered);
      CHECK(ok(s->enter("t1", {"cat", "Cat", 13, 0}, 3)) == Entry::registered);
      CHECK(ok(s->enter("t1", {"dan", "Dan", 14, 0}, 3)) == Entry::full);
      CHECK(ok(s->enter("nope", {"dan", "Dan", 14, 0}, 3)) == Entry::unknown);
      CHECK(ok(s->withdraw("t1", "cat")));
      CHECK_FALSE(ok(s->withdraw("t1", "cat")));
      CHECK(ok(s->enter("t1", {"cat", "Cat", 15, 0}, 3)) == Entry::removed);  // removed: not again
      CHECK(ok(s->enter("t1", {"dan", "Dan", 15, 0}, 3)) == Entry::registered);  // the seat is free again
      CHECK_FALSE(ok(s->drop("t1", "ann", 1)));  // not running yet

      const std::vector<TableRow> round1{{1, 0, 0, "roomA", R"(["ann","bob"])", ""}, {1, 1, 0, "roomB", R"(["dan"])", ""}};
      const TournamentRow before = *ok(s->tournament("t1"));
      CHECK(ok(s->advance(before, "running", 1, R"(["ann","bob","dan"])", 5000, round1)));
      CHECK_FALSE(ok(s->advance(before, "running", 1, "[]", 5001, round1)));  // once
      CHECK(ok(s->enter("t1", {"eve", "Eve", 16, 0}, 8)) == Entry::closed);
      CHECK(ok(s->enter("t1", {"ann", "Ann", 16, 0}, 8)) == Entry::already);
      CHECK_FALSE(ok(s->withdraw("t1", "bob")));  // started: only a drop now
      CHECK(ok(s->drop("t1", "bob", 1)));
      CHECK_FALSE(ok(s->drop("t1", "bob", 2)));
      CHECK_FALSE(ok(s->set_room("t1", 1, 0, 0, "roomZ")));  // made already
      CHECK(ok(s->advance(*ok(s->tournament("t1")), "running", 1, "", 6000, {{1, 2, 0, "", "[]", ""}})));
      CHECK(ok(s->set_room("t1", 1, 2, 0, "roomC")));
      CHECK_FALSE(ok(s->set_room("t1", 1, 2, 0, "roomD")));  // once
      CHECK(ok(s->set_result("t1", 1, 0, 0, R"([{"player":"ann","score":30}])")));
      CHECK_FALSE(ok(s->set_result("t1", 1, 0, 0, R"([{"player":"ann","score":99}])")));
      CHECK_FALSE(ok(s->set_result("t1", 9, 0, 0, "[]")));
    }
    auto s = open();  // a restart
    auto t = ok(s->tournament("t1"));
    REQUIRE(t);
    CHECK(t->state == "running");
    CHECK(t->round == 1);
    CHECK(t->round_started_ms == 6000);
    CHECK(t->seeds == R"(["ann","bob","dan"])");
    CHECK(t->secret == "s3cret");
    auto entrants = ok(s->entrants("t1"));
    REQUIRE(entrants.size() == 4);
    CHECK(entrants[0] == EntrantRow{"ann", "Ann", 10, 0});
    CHECK(entrants[1] == EntrantRow{"bob", "Bob", 12, 1});
    CHECK(entrants[2] == EntrantRow{"cat", "Cat", 13, carc::server::kRemoved});
    CHECK(entrants[3].player == "dan");  // registration order
    auto tables = ok(s->tables("t1"));
    REQUIRE(tables.size() == 3);
    CHECK(tables[0].result == R"([{"player":"ann","score":30}])");
    CHECK(tables[1] == TableRow{1, 1, 0, "roomB", R"(["dan"])", ""});
    CHECK(tables[2].room == "roomC");
    CHECK(ok(s->tournaments("running", 10)).size() == 1);
  });
}

TEST_CASE("tournament store: two nodes decide the same round at once; one stores it") {
  on_every_backend([](const Open& open) {
    auto a = open();
    auto b = open();
    REQUIRE(a->create(row("race", 1)).is_ok());
    for (int round = 0; round < 5; ++round) {
      std::atomic<int> moved{0};
      // Both nodes read the same row, decide the same next round and race to store it.
      const TournamentRow seen = *ok(a->tournament("race"));
      auto go = [&](TournamentStore& s, const std::string& room) {
        const std::vector<TableRow> tables{{round + 1, 0, 0, room, "[]", ""}};
        auto r = s.advance(seen, "running", round + 1, "", 100 + round, tables);
        if (std::get_if<bool>(&r) && std::get<bool>(r)) ++moved;
      };
      std::thread x([&] { go(*a, "fromA"); });
      std::thread y([&] { go(*b, "fromB"); });
      x.join();
      y.join();
      CHECK(moved.load() == 1);
    }
    auto tables = ok(a->tables("race"));
    CHECK(tables.size() == 5);  // one table per round, from whichever node won it
    CHECK(ok(b->tournament("race"))->round == 5);
    // A knockout's extra game stays in its round: the start time is what moves.
    const TournamentRow now = *ok(a->tournament("race"));
    CHECK(ok(a->advance(now, "running", 5, "", 200, {{5, 0, 1, "again", "[]", ""}})));
    CHECK_FALSE(ok(b->advance(now, "running", 5, "", 201, {{5, 0, 2, "twice", "[]", ""}})));
    CHECK(ok(a->tables("race")).size() == 6);
  });
}

TEST_CASE("tournament store: an entrant's notification targets set, replaced, forgotten, kept when reopened") {
  on_every_backend([](const Open& open) {
    using Targets = std::vector<std::pair<std::string, std::string>>;
    {
      auto s = open();
      REQUIRE(s->create(row("t1", 1)));
      CHECK(ok(s->targets("t1")).empty());
      REQUIRE(s->set_targets("t1", "bob", R"({"push":{"endpoint":"https://p.example/1"}})"));
      REQUIRE(s->set_targets("t1", "ann", R"({"webhook":{"url":"https://h.example/a","format":"json"}})"));
      REQUIRE(s->set_targets("t1", "bob", R"({"push":{"endpoint":"https://p.example/2"}})"));  // replaced
      REQUIRE(s->set_targets("t2", "cat", R"({"push":{"endpoint":"https://p.example/3"}})"));  // another tournament's
    }
    auto s = open();
    CHECK(ok(s->targets("t1")) == Targets{{"ann", R"({"webhook":{"url":"https://h.example/a","format":"json"}})"},
                                           {"bob", R"({"push":{"endpoint":"https://p.example/2"}})"}});
    REQUIRE(s->set_targets("t1", "ann", ""));  // forgotten
    CHECK(ok(s->targets("t1")) == Targets{{"bob", R"({"push":{"endpoint":"https://p.example/2"}})"}});
    CHECK(ok(s->targets("t2")).size() == 1);
  });
}
