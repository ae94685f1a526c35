// Sign-in's rows (docs/community.md, "Sign-in") on every backend: the first key to sign in
// as an account binds it to that key's player; a second key signing in as the same account
// becomes an alias of that player; the name follows the provider; a key signing in again as
// its own account drops its alias; invite codes serve one player; all of it survives a
// reopen (SQLite file, PostgreSQL database).
#include <doctest/doctest.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "carc/server/identity_store.hpp"
#include "carc/server/sqlite_store.hpp"
#include "helpers.hpp"
#include "pg_server.hpp"

using carc::server::BoundPlayer;
using carc::server::BoundSubject;
using carc::server::IdentityStore;

namespace {

template <class T>
T ok(std::variant<T, std::string> r) {
  if (const auto* why = std::get_if<std::string>(&r)) FAIL(*why);
  return std::get<T>(std::move(r));
}

// `open` gives the backend's store, the same data each time.
void contract(const std::function<std::unique_ptr<IdentityStore>()>& open) {
  const BoundPlayer ann{"hash-a", "id-of-a"};
  const BoundSubject account{"https://id.example.org", "sub-1", "Ann"};
  {
    auto s = open();
    CHECK_FALSE(ok(s->alias_of("hash-a")).has_value());
    CHECK_FALSE(ok(s->subject_of("id-of-a")).has_value());
    // The first key binds the account to its own player: no alias.
    const BoundPlayer first = ok(s->bind(account, "hash-a", ann, 1000));
    CHECK(first.player_hash == "hash-a");
    CHECK(first.player_id == "id-of-a");
    CHECK_FALSE(ok(s->alias_of("hash-a")).has_value());
    // A second key signing in as the same account: the bound player, and an alias.
    BoundSubject renamed = account;
    renamed.name = "Ann B.";
    const BoundPlayer second = ok(s->bind(renamed, "hash-b", BoundPlayer{"hash-b", "id-of-b"}, 2000));
    CHECK(second.player_id == "id-of-a");
    CHECK(ok(s->alias_of("hash-b")) == std::optional<std::string>("hash-a"));
    const auto who = ok(s->subject_of("id-of-a"));
    REQUIRE(who.has_value());
    CHECK(who->subject == "sub-1");
    CHECK(who->name == "Ann B.");
    CHECK_FALSE(ok(s->subject_of("id-of-b")).has_value());
    // The same subject at another issuer is another account.
    const BoundPlayer other = ok(s->bind(BoundSubject{"https://other.example.org", "sub-1", ""}, "hash-c",
                                         BoundPlayer{"hash-c", "id-of-c"}, 3000));
    CHECK(other.player_id == "id-of-c");
    // Invites: made, redeemed by one player (again is fine), refused to another; unknown codes refused.
    REQUIRE(s->add_invite("code-hash-1", 4000));
    CHECK_FALSE(ok(s->invited("id-of-c")));
    CHECK(ok(s->redeem_invite("code-hash-1", "id-of-c", 5000)));
    CHECK(ok(s->redeem_invite("code-hash-1", "id-of-c", 5001)));
    CHECK_FALSE(ok(s->redeem_invite("code-hash-1", "id-of-d", 5002)));
    CHECK_FALSE(ok(s->redeem_invite("no-such-code", "id-of-d", 5003)));
    CHECK(ok(s->invited("id-of-c")));
    CHECK_FALSE(ok(s->invited("id-of-d")));
    CHECK_FALSE(s->add_invite("code-hash-1", 6000));  // a code is made once
  }
  auto s = open();  // reopened: all of it kept
  CHECK(ok(s->alias_of("hash-b")) == std::optional<std::string>("hash-a"));
  CHECK(ok(s->subject_of("id-of-a")).has_value());
  CHECK(ok(s->invited("id-of-c")));
  // Key b signs in as the other issuer's account: its alias moves to that player.
  const BoundPlayer moved = ok(s->bind(BoundSubject{"https://other.example.org", "sub-1", ""}, "hash-b",
                                       BoundPlayer{"hash-a", "id-of-a"}, 7000));
  CHECK(moved.player_id == "id-of-c");
  CHECK(ok(s->alias_of("hash-b")) == std::optional<std::string>("hash-c"));
  // Key c, the other account's own key, signing in again: still no alias.
  ok(s->bind(BoundSubject{"https://other.example.org", "sub-1", ""}, "hash-c", BoundPlayer{"hash-c", "id-of-c"}, 8000));
  CHECK_FALSE(ok(s->alias_of("hash-c")).has_value());
}

}  // namespace

TEST_CASE("identity store: memory") {
  auto store = std::shared_ptr<IdentityStore>(IdentityStore::memory());
  contract([&] {
    struct Shared final : IdentityStore {
      std::shared_ptr<IdentityStore> s;
      explicit Shared(std::shared_ptr<IdentityStore> x) : s(std::move(x)) {}
      std::variant<std::optional<std::string>, std::string> alias_of(const std::string& k) override { return s->alias_of(k); }
      std::variant<BoundPlayer, std::string> bind(const BoundSubject& w, const std::string& k, const BoundPlayer& o,
                                                  std::int64_t ms) override {
        return s->bind(w, k, o, ms);
      }
      std::variant<std::optional<BoundSubject>, std::string> subject_of(const std::string& id) override { return s->subject_of(id); }
      carc::server::Status add_invite(const std::string& c, std::int64_t ms) override { return s->add_invite(c, ms); }
      std::variant<bool, std::string> redeem_invite(const std::string& c, const std::string& id, std::int64_t ms) override {
        return s->redeem_invite(c, id, ms);
      }
      std::variant<bool, std::string> invited(const std::string& id) override { return s->invited(id); }
    };
    return std::make_unique<Shared>(store);
  });
}

TEST_CASE("identity store: sqlite") {
  carc::test::TempDir dir;
  // The rooms' store makes the file first, as in the server.
  auto rooms = carc::server::SqliteStore::open(dir.path() / "data", {});
  const auto file = dir.path() / "data" / carc::server::SqliteStore::kFileName;
  contract([&] { return IdentityStore::sqlite(file); });
}

TEST_CASE("identity store: postgresql") {
  const std::string url = carc::test::PgServer::shared().fresh_database();
  contract([&] { return IdentityStore::postgres(url); });
}
