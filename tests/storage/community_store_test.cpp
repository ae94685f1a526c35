// The community's rows (server/storage/src/community_store.cpp, docs/community.md) on every
// backend: a player's names newest first, a second name within the gap refused (one
// statement: two nodes at once cannot both pass), and the open games' rows: a node's rows
// replaced as a whole, another node's kept, rows older than the freshness bound left out.
#include <doctest/doctest.h>

#include <functional>

#include "carc/server/community_store.hpp"
#include "helpers.hpp"
#include "pg_server.hpp"

using namespace carc::test;
using carc::server::CommunityStore;
using carc::server::NameEntry;
using carc::server::OpenGameRow;

namespace {

// Runs `body` on a fresh store of each backend (and again on the same data reopened).
void on_every_backend(const std::function<void(const std::function<std::unique_ptr<CommunityStore>()>&)>& body) {
  {
    CAPTURE("memory");
    auto store = std::shared_ptr<CommunityStore>(CommunityStore::memory());
    body([&] {
      struct Shared final : CommunityStore {
        std::shared_ptr<CommunityStore> s;
        explicit Shared(std::shared_ptr<CommunityStore> x) : s(std::move(x)) {}
        std::variant<std::vector<NameEntry>, std::string> names(const std::string& p, std::size_t m) override { return s->names(p, m); }
        std::variant<bool, std::string> add_name(const std::string& p, const std::string& n, std::int64_t a, std::int64_t g) override {
          return s->add_name(p, n, a, g);
        }
        carc::server::Status put_open_games(const std::string& n, const std::vector<OpenGameRow>& r, std::int64_t a) override {
          return s->put_open_games(n, r, a);
        }
        std::variant<std::vector<OpenGameRow>, std::string> open_games(std::int64_t f) override { return s->open_games(f); }
      };
      return std::unique_ptr<CommunityStore>(new Shared(store));
    });
  }
  {
    CAPTURE("sqlite");
    TempDir dir;
    body([&] { return CommunityStore::sqlite(dir.path() / "carcassonne.db"); });
  }
  {
    CAPTURE("postgresql");
    const std::string url = PgServer::shared().fresh_database();
    body([&] { return CommunityStore::postgres(url); });
  }
}

std::vector<std::string> names_of(CommunityStore& s, const std::string& player) {
  auto got = s.names(player, 10);
  REQUIRE(std::holds_alternative<std::vector<NameEntry>>(got));
  std::vector<std::string> out;
  for (const auto& n : std::get<std::vector<NameEntry>>(got)) out.push_back(n.name);
  return out;
}

}  // namespace

TEST_CASE("community store: names newest first; a change within the gap is refused; kept when reopened") {
  on_every_backend([](const auto& open) {
    constexpr std::int64_t day = 86'400'000;
    {
      auto s = open();
      CHECK(names_of(*s, "playerA").empty());
      CHECK(std::get<bool>(s->add_name("playerA", "Ann", 1'000, day)));
      CHECK(!std::get<bool>(s->add_name("playerA", "Annie", 1'000 + day - 1, day)));  // too soon: nothing added
      CHECK(names_of(*s, "playerA") == std::vector<std::string>{"Ann"});
      CHECK(std::get<bool>(s->add_name("playerB", "Bob", 2'000, day)));  // another player is not held back
      CHECK(std::get<bool>(s->add_name("playerA", "Annie", 1'000 + day + 1, day)));
    }
    auto s = open();  // a restart
    CHECK(names_of(*s, "playerA") == std::vector<std::string>{"Annie", "Ann"});
    auto got = std::get<std::vector<NameEntry>>(s->names("playerA", 1));
    REQUIRE(got.size() == 1);
    CHECK(got[0].since_ms == 1'000 + day + 1);
  });
}

TEST_CASE("community store: each node's open games replace its own rows; stale rows are left out") {
  on_every_backend([](const auto& open) {
    auto s = open();
    CHECK(static_cast<bool>(s->put_open_games("n1", {{"roomA", "", R"({"a":1})", 0}, {"roomB", "", R"({"b":1})", 0}}, 1'000)));
    CHECK(static_cast<bool>(s->put_open_games("n2", {{"roomC", "", R"({"c":1})", 0}}, 5'000)));
    auto rows = std::get<std::vector<OpenGameRow>>(s->open_games(0));
    REQUIRE(rows.size() == 3);
    CHECK(rows[0].room == "roomA");
    CHECK(rows[0].node == "n1");
    CHECK(rows[0].listing == R"({"a":1})");
    CHECK(rows[2].node == "n2");
    // n1's rows are older than the bound: a dead node's games drop out.
    rows = std::get<std::vector<OpenGameRow>>(s->open_games(2'000));
    REQUIRE(rows.size() == 1);
    CHECK(rows[0].room == "roomC");
    // n1 writes again: only roomB now (roomA started); n2's row stays.
    CHECK(static_cast<bool>(s->put_open_games("n1", {{"roomB", "", R"({"b":2})", 0}}, 6'000)));
    rows = std::get<std::vector<OpenGameRow>>(s->open_games(0));
    REQUIRE(rows.size() == 2);
    CHECK(rows[0].room == "roomB");
    CHECK(rows[0].listing == R"({"b":2})");
    CHECK(rows[0].updated_ms == 6'000);
    CHECK(rows[1].room == "roomC");
    // A room taken over by another node is that node's row.
    CHECK(static_cast<bool>(s->put_open_games("n2", {{"roomB", "", R"({"b":3})", 0}, {"roomC", "", R"({"c":1})", 0}}, 7'000)));
    rows = std::get<std::vector<OpenGameRow>>(s->open_games(0));
    REQUIRE(rows.size() == 2);
    CHECK(rows[0].node == "n2");
    CHECK(static_cast<bool>(s->put_open_games("n2", {}, 8'000)));  // a node that stops clears its rows
    CHECK(std::get<std::vector<OpenGameRow>>(s->open_games(0)).empty());
  });
}
