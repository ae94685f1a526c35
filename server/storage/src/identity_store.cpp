#include "carc/server/identity_store.hpp"

#include <sqlite3.h>

#include <map>
#include <mutex>

#include "pg.hpp"
#include "sqlite.hpp"

namespace carc::server {

namespace {

// The same tables in both databases (types that both read alike).
constexpr const char* kIdentitySchema =
    "CREATE TABLE IF NOT EXISTS player_subjects("
    " issuer TEXT NOT NULL, subject TEXT NOT NULL, player_hash TEXT NOT NULL, player_id TEXT NOT NULL,"
    " name TEXT NOT NULL DEFAULT '', bound_ms BIGINT NOT NULL, PRIMARY KEY(issuer, subject));"
    "CREATE INDEX IF NOT EXISTS player_subjects_by_id ON player_subjects(player_id);"
    "CREATE TABLE IF NOT EXISTS key_aliases("
    " key_hash TEXT PRIMARY KEY, player_hash TEXT NOT NULL, added_ms BIGINT NOT NULL);"
    "CREATE TABLE IF NOT EXISTS rated_invites("
    " code_hash TEXT PRIMARY KEY, created_ms BIGINT NOT NULL, redeemed_by TEXT, redeemed_ms BIGINT);"
    "CREATE INDEX IF NOT EXISTS rated_invites_by_player ON rated_invites(redeemed_by);";

constexpr const char* kBind =
    "INSERT INTO player_subjects(issuer, subject, player_hash, player_id, name, bound_ms) VALUES($1, $2, $3, $4, $5, $6) "
    "ON CONFLICT(issuer, subject) DO UPDATE SET name = excluded.name RETURNING player_hash, player_id";
constexpr const char* kAlias =
    "INSERT INTO key_aliases(key_hash, player_hash, added_ms) VALUES($1, $2, $3) "
    "ON CONFLICT(key_hash) DO UPDATE SET player_hash = excluded.player_hash, added_ms = excluded.added_ms";
constexpr const char* kUnalias = "DELETE FROM key_aliases WHERE key_hash = $1";
constexpr const char* kAliasOf = "SELECT player_hash FROM key_aliases WHERE key_hash = $1";
constexpr const char* kSubjectOf =
    "SELECT issuer, subject, name FROM player_subjects WHERE player_id = $1 ORDER BY bound_ms LIMIT 1";
constexpr const char* kAddInvite = "INSERT INTO rated_invites(code_hash, created_ms) VALUES($1, $2)";
constexpr const char* kRedeem =
    "UPDATE rated_invites SET redeemed_by = $2, redeemed_ms = $3 WHERE code_hash = $1 "
    "AND (redeemed_by IS NULL OR redeemed_by = $2)";
constexpr const char* kInvited = "SELECT 1 FROM rated_invites WHERE redeemed_by = $1 LIMIT 1";

// SQLite spells parameters ?1, PostgreSQL $1: the texts above are PostgreSQL's.
std::string for_sqlite(std::string sql) {
  for (std::size_t i = 0; (i = sql.find('$', i)) != std::string::npos;) sql[i] = '?';
  return sql;
}

class SqliteIdentities final : public IdentityStore {
 public:
  explicit SqliteIdentities(const std::filesystem::path& file)
      : db_(file.string(), SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX) {
    wait_when_busy(db_.handle(), 5000);
    db_.exec(kIdentitySchema);
  }
  std::variant<std::optional<std::string>, std::string> alias_of(const std::string& key_hash) override {
    return attempt<std::optional<std::string>>([&]() -> std::optional<std::string> {
      auto q = db_.prepare(for_sqlite(kAliasOf));
      q.bind(1, key_hash);
      if (q.step()) return q.text(0);
      return std::nullopt;
    });
  }
  std::variant<BoundPlayer, std::string> bind(const BoundSubject& who, const std::string& key_hash, const BoundPlayer& own,
                                              std::int64_t ms) override {
    return attempt<BoundPlayer>([&] {
      BoundPlayer out;
      transaction(db_, [&] {
        auto q = db_.prepare(for_sqlite(kBind));
        q.bind(1, who.issuer).bind(2, who.subject).bind(3, own.player_hash).bind(4, own.player_id).bind(5, who.name).bind(6, ms);
        if (!q.step()) throw SqlError(SQLITE_ERROR, "the binding returned no row");
        out = BoundPlayer{q.text(0), q.text(1)};
        while (q.step()) {
        }
        if (out.player_hash == key_hash) {
          db_.prepare(for_sqlite(kUnalias)).bind(1, key_hash).run();
        } else {
          db_.prepare(for_sqlite(kAlias)).bind(1, key_hash).bind(2, out.player_hash).bind(3, ms).run();
        }
      });
      return out;
    });
  }
  std::variant<std::optional<BoundSubject>, std::string> subject_of(const std::string& player_id) override {
    return attempt<std::optional<BoundSubject>>([&]() -> std::optional<BoundSubject> {
      auto q = db_.prepare(for_sqlite(kSubjectOf));
      q.bind(1, player_id);
      if (q.step()) return BoundSubject{q.text(0), q.text(1), q.text(2)};
      return std::nullopt;
    });
  }
  Status add_invite(const std::string& code_hash, std::int64_t ms) override {
    try {
      db_.prepare(for_sqlite(kAddInvite)).bind(1, code_hash).bind(2, ms).run();
      return Status::ok();
    } catch (const SqlError& e) {
      return Status::failed(e.what());
    }
  }
  std::variant<bool, std::string> redeem_invite(const std::string& code_hash, const std::string& player_id,
                                                std::int64_t ms) override {
    return attempt<bool>([&] {
      db_.prepare(for_sqlite(kRedeem)).bind(1, code_hash).bind(2, player_id).bind(3, ms).run();
      return db_.changes() > 0;
    });
  }
  std::variant<bool, std::string> invited(const std::string& player_id) override {
    return attempt<bool>([&] {
      auto q = db_.prepare(for_sqlite(kInvited));
      q.bind(1, player_id);
      return q.step();
    });
  }

 private:
  template <class T, class F>
  std::variant<T, std::string> attempt(F&& f) {
    try {
      return f();
    } catch (const SqlError& e) {
      return std::string(e.what());
    }
  }
  Db db_;
};

class MemoryIdentities final : public IdentityStore {
 public:
  std::variant<std::optional<std::string>, std::string> alias_of(const std::string& key_hash) override {
    std::lock_guard lock(mu_);
    if (auto it = aliases_.find(key_hash); it != aliases_.end()) return std::optional<std::string>(it->second);
    return std::optional<std::string>();
  }
  std::variant<BoundPlayer, std::string> bind(const BoundSubject& who, const std::string& key_hash, const BoundPlayer& own,
                                              std::int64_t) override {
    std::lock_guard lock(mu_);
    auto [it, added] = subjects_.try_emplace({who.issuer, who.subject}, Row{own, who});
    it->second.who.name = who.name;
    const BoundPlayer out = it->second.player;
    if (out.player_hash == key_hash) aliases_.erase(key_hash);
    else aliases_[key_hash] = out.player_hash;
    return out;
  }
  std::variant<std::optional<BoundSubject>, std::string> subject_of(const std::string& player_id) override {
    std::lock_guard lock(mu_);
    for (const auto& [k, row] : subjects_) {
      if (row.player.player_id == player_id) return std::optional<BoundSubject>(row.who);
    }
    return std::optional<BoundSubject>();
  }
  Status add_invite(const std::string& code_hash, std::int64_t) override {
    std::lock_guard lock(mu_);
    if (!invites_.try_emplace(code_hash).second) return Status::failed("the code exists");
    return Status::ok();
  }
  std::variant<bool, std::string> redeem_invite(const std::string& code_hash, const std::string& player_id,
                                                std::int64_t) override {
    std::lock_guard lock(mu_);
    auto it = invites_.find(code_hash);
    if (it == invites_.end() || (!it->second.empty() && it->second != player_id)) return false;
    it->second = player_id;
    return true;
  }
  std::variant<bool, std::string> invited(const std::string& player_id) override {
    std::lock_guard lock(mu_);
    for (const auto& [code, by] : invites_) {
      if (by == player_id) return true;
    }
    return false;
  }

 private:
  struct Row {
    BoundPlayer player;
    BoundSubject who;
  };
  std::mutex mu_;
  std::map<std::pair<std::string, std::string>, Row> subjects_;
  std::map<std::string, std::string> aliases_;
  std::map<std::string, std::string> invites_;  // code hash -> who redeemed it ("" if nobody)
};

class PgIdentities final : public IdentityStore {
 public:
  explicit PgIdentities(const std::string& url) : conn_(url, PgConnOptions{}) {
    conn_.exec("SET client_min_messages = warning");
    const PgResult r = conn_.exec(kIdentitySchema);
    if (!r.ok()) throw PgError("cannot make the sign-in tables: " + r.error());
    conn_.prepare("id_bind", kBind);
    conn_.prepare("id_alias", kAlias);
    conn_.prepare("id_unalias", kUnalias);
    conn_.prepare("id_alias_of", kAliasOf);
    conn_.prepare("id_subject_of", kSubjectOf);
    conn_.prepare("id_add_invite", kAddInvite);
    conn_.prepare("id_redeem", kRedeem);
    conn_.prepare("id_invited", kInvited);
  }
  std::variant<std::optional<std::string>, std::string> alias_of(const std::string& key_hash) override {
    return attempt<std::optional<std::string>>([&]() -> std::optional<std::string> {
      const PgResult r = conn_.run("id_alias_of", {key_hash});
      if (r.rows() == 1) return r.text(0, 0);
      return std::nullopt;
    });
  }
  std::variant<BoundPlayer, std::string> bind(const BoundSubject& who, const std::string& key_hash, const BoundPlayer& own,
                                              std::int64_t ms) override {
    return attempt<BoundPlayer>([&] {
      const std::string when = std::to_string(ms);
      const PgResult r = conn_.run("id_bind", {who.issuer, who.subject, own.player_hash, own.player_id, who.name, when});
      if (r.rows() != 1) throw PgError("the binding returned no row");
      BoundPlayer out{r.text(0, 0), r.text(0, 1)};
      if (out.player_hash == key_hash) conn_.run("id_unalias", {key_hash});
      else conn_.run("id_alias", {key_hash, out.player_hash, when});
      return out;
    });
  }
  std::variant<std::optional<BoundSubject>, std::string> subject_of(const std::string& player_id) override {
    return attempt<std::optional<BoundSubject>>([&]() -> std::optional<BoundSubject> {
      const PgResult r = conn_.run("id_subject_of", {player_id});
      if (r.rows() == 1) return BoundSubject{r.text(0, 0), r.text(0, 1), r.text(0, 2)};
      return std::nullopt;
    });
  }
  Status add_invite(const std::string& code_hash, std::int64_t ms) override {
    try {
      ensure();
      conn_.run("id_add_invite", {code_hash, std::to_string(ms)});
      return Status::ok();
    } catch (const PgError& e) {
      return Status::failed(e.what());
    }
  }
  std::variant<bool, std::string> redeem_invite(const std::string& code_hash, const std::string& player_id,
                                                std::int64_t ms) override {
    return attempt<bool>([&] { return conn_.run("id_redeem", {code_hash, player_id, std::to_string(ms)}).affected() > 0; });
  }
  std::variant<bool, std::string> invited(const std::string& player_id) override {
    return attempt<bool>([&] { return conn_.run("id_invited", {player_id}).rows() > 0; });
  }

 private:
  void ensure() {
    if (!conn_.healthy()) {
      conn_.reset();
      conn_.prepare_all();
    }
  }
  template <class T, class F>
  std::variant<T, std::string> attempt(F&& f) {
    try {
      ensure();
      return f();
    } catch (const PgError& e) {
      return std::string(e.what());
    }
  }
  PgConn conn_;
};

}  // namespace

std::unique_ptr<IdentityStore> IdentityStore::sqlite(const std::filesystem::path& file) {
  try {
    return std::make_unique<SqliteIdentities>(file);
  } catch (const SqlError& e) {
    throw StorageError("cannot open the sign-in tables in " + file.string() + ": " + e.what());
  }
}

std::unique_ptr<IdentityStore> IdentityStore::memory() { return std::make_unique<MemoryIdentities>(); }

std::unique_ptr<IdentityStore> IdentityStore::postgres(const std::string& url) {
  try {
    return std::make_unique<PgIdentities>(url);
  } catch (const PgError& e) {
    throw StorageError(std::string("cannot open the sign-in tables in PostgreSQL: ") + e.what());
  }
}

}  // namespace carc::server
