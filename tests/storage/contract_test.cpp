// The same behaviour on both backends where the two used to differ: start-up
// loads only what can still be played, and a room whose write was refused for what it
// found is forgotten by the store, so its later writes are refused the same way.
#include <doctest/doctest.h>

#include <string>

#include "backends.hpp"

using carc::test::append;
using carc::test::create;
using carc::test::fresh_backends;
using carc::test::load;
using carc::test::set_phase;

TEST_CASE("store: start-up loads the playable rooms only; a finished game is read on demand") {
  for (auto& b : fresh_backends()) {
    CAPTURE(b->name());
    {
      auto s = b->open();
      REQUIRE(create(*s, "lobby"));
      REQUIRE(create(*s, "playing"));
      REQUIRE(append(*s, "playing", 0, "start", 2, "playing"));
      REQUIRE(create(*s, "done"));
      REQUIRE(append(*s, "done", 0, "start", 2, "playing"));
      REQUIRE(set_phase(*s, "done", "finished"));
    }
    auto s = b->open();
    const auto all = s->load_rooms();
    REQUIRE(all.error.empty());
    REQUIRE(all.rooms.size() == 2);
    CHECK(all.rooms[0].id == "lobby");
    CHECK(all.rooms[1].id == "playing");
    const auto done = load(*s, "done");
    REQUIRE(done);
    CHECK(done->phase == "finished");
    CHECK(done->actions.size() == 1);
  }
}

TEST_CASE("store: a room gone behind the store's back refuses its phase change, then its appends") {
  for (auto& b : fresh_backends()) {
    CAPTURE(b->name());
    auto s = b->open();
    REQUIRE(create(*s, "gone"));
    REQUIRE(append(*s, "gone", 0, "a0", 2));
    // Deleted by someone else (an operator, a purge of another node): this store still
    // thinks it has it.
    auto other = b->open();
    REQUIRE(load(*other, "gone"));  // several nodes: claimed (a new epoch), so it may remove it
    REQUIRE(other->apply(carc::server::RemoveRoom{"gone"}));
    REQUIRE_FALSE(load(*other, "gone"));
    const auto phase = set_phase(*s, "gone", "finished");
    CHECK_FALSE(phase);
    const auto later = append(*s, "gone", 1, "a1", 3);
    CHECK_FALSE(later);
    if (auto* cluster = s->cluster()) CHECK(cluster->held() == 0);  // forgotten, as SQLite forgets it
    CHECK_FALSE(load(*s, "gone"));
  }
}
