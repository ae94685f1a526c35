#include "carc/server/community_store.hpp"

#include <sqlite3.h>

#include <algorithm>
#include <map>
#include <mutex>

#include "pg.hpp"
#include "sqlite.hpp"

namespace carc::server {

namespace {

// The same tables in both backends (docs/community.md).
constexpr const char* kCommunitySchema =
    "CREATE TABLE IF NOT EXISTS player_names(player TEXT NOT NULL, name TEXT NOT NULL, since_ms BIGINT NOT NULL, "
    "PRIMARY KEY(player, since_ms));"
    "CREATE TABLE IF NOT EXISTS open_games(room TEXT PRIMARY KEY, node TEXT NOT NULL, listing TEXT NOT NULL, "
    "updated_ms BIGINT NOT NULL);";

// Inserted only when the player took no name within the gap: one statement, so two requests
// at once cannot both pass.
constexpr const char* kAddNameSqlite =
    "INSERT INTO player_names(player, name, since_ms) SELECT ?1, ?2, ?3 WHERE NOT EXISTS "
    "(SELECT 1 FROM player_names WHERE player = ?1 AND since_ms > ?3 - ?4)";
constexpr const char* kAddNamePg =
    "INSERT INTO player_names(player, name, since_ms) SELECT $1, $2, $3::bigint WHERE NOT EXISTS "
    "(SELECT 1 FROM player_names WHERE player = $1 AND since_ms > $3::bigint - $4::bigint) ON CONFLICT DO NOTHING";

class SqliteCommunity final : public CommunityStore {
 public:
  explicit SqliteCommunity(const std::filesystem::path& file)
      : db_(file.string(), SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX) {
    wait_when_busy(db_.handle(), 5000);
    db_.exec(kCommunitySchema);
  }
  std::variant<std::vector<NameEntry>, std::string> names(const std::string& player, std::size_t max) override {
    try {
      std::vector<NameEntry> out;
      auto q = db_.prepare("SELECT name, since_ms FROM player_names WHERE player = ?1 ORDER BY since_ms DESC LIMIT ?2");
      q.bind(1, player).bind(2, static_cast<std::int64_t>(max));
      while (q.step()) out.push_back(NameEntry{q.text(0), q.int64(1)});
      return out;
    } catch (const SqlError& e) {
      return std::string(e.what());
    }
  }
  std::variant<bool, std::string> add_name(const std::string& player, const std::string& name, std::int64_t now_ms,
                                           std::int64_t gap_ms) override {
    try {
      db_.prepare(kAddNameSqlite).bind(1, player).bind(2, name).bind(3, now_ms).bind(4, gap_ms).run();
      return db_.changes() > 0;
    } catch (const SqlError& e) {
      return std::string(e.what());
    }
  }
  Status put_open_games(const std::string& node, const std::vector<OpenGameRow>& rows, std::int64_t now_ms) override {
    try {
      transaction(db_, [&] {
        db_.prepare("DELETE FROM open_games WHERE node = ?1").bind(1, node).run();
        for (const auto& r : rows) {
          db_.prepare("INSERT OR REPLACE INTO open_games(room, node, listing, updated_ms) VALUES(?1, ?2, ?3, ?4)")
              .bind(1, r.room)
              .bind(2, node)
              .bind(3, r.listing)
              .bind(4, now_ms)
              .run();
        }
      });
      return Status::ok();
    } catch (const SqlError& e) {
      return Status::failed(e.what());
    }
  }
  std::variant<std::vector<OpenGameRow>, std::string> open_games(std::int64_t fresh_after_ms) override {
    try {
      std::vector<OpenGameRow> out;
      auto q = db_.prepare("SELECT room, node, listing, updated_ms FROM open_games WHERE updated_ms > ?1 ORDER BY room");
      q.bind(1, fresh_after_ms);
      while (q.step()) out.push_back(OpenGameRow{q.text(0), q.text(1), q.text(2), q.int64(3)});
      return out;
    } catch (const SqlError& e) {
      return std::string(e.what());
    }
  }

 private:
  Db db_;
};

class MemoryCommunity final : public CommunityStore {
 public:
  std::variant<std::vector<NameEntry>, std::string> names(const std::string& player, std::size_t max) override {
    std::lock_guard lock(mu_);
    std::vector<NameEntry> out;
    if (auto it = names_.find(player); it != names_.end()) {
      for (auto n = it->second.rbegin(); n != it->second.rend() && out.size() < max; ++n) out.push_back(*n);
    }
    return out;
  }
  std::variant<bool, std::string> add_name(const std::string& player, const std::string& name, std::int64_t now_ms,
                                           std::int64_t gap_ms) override {
    std::lock_guard lock(mu_);
    auto& list = names_[player];
    if (!list.empty() && list.back().since_ms > now_ms - gap_ms) return false;
    list.push_back(NameEntry{name, now_ms});
    return true;
  }
  Status put_open_games(const std::string& node, const std::vector<OpenGameRow>& rows, std::int64_t now_ms) override {
    std::lock_guard lock(mu_);
    std::erase_if(open_, [&](const auto& p) { return p.second.node == node; });
    for (auto r : rows) {
      r.node = node;
      r.updated_ms = now_ms;
      open_[r.room] = r;
    }
    return Status::ok();
  }
  std::variant<std::vector<OpenGameRow>, std::string> open_games(std::int64_t fresh_after_ms) override {
    std::lock_guard lock(mu_);
    std::vector<OpenGameRow> out;
    for (const auto& [room, r] : open_) {
      if (r.updated_ms > fresh_after_ms) out.push_back(r);
    }
    return out;
  }

 private:
  std::mutex mu_;
  std::map<std::string, std::vector<NameEntry>> names_;
  std::map<std::string, OpenGameRow> open_;
};

class PgCommunity final : public CommunityStore {
 public:
  explicit PgCommunity(const std::string& url) : conn_(url, PgConnOptions{}) {
    conn_.exec("SET client_min_messages = warning");
    // Nodes start together: one at a time makes the tables (two CREATE TABLE IF NOT EXISTS
    // at once can collide in PostgreSQL's catalogue).
    conn_.exec(std::string("SELECT pg_advisory_lock(7305402); ") + kCommunitySchema + " SELECT pg_advisory_unlock(7305402);");
    conn_.prepare("names", "SELECT name, since_ms FROM player_names WHERE player = $1 ORDER BY since_ms DESC LIMIT $2");
    conn_.prepare("name_add", kAddNamePg);
    conn_.prepare("open_clear", "DELETE FROM open_games WHERE node = $1");
    conn_.prepare("open_put",
                  "INSERT INTO open_games(room, node, listing, updated_ms) VALUES($1, $2, $3, $4) "
                  "ON CONFLICT(room) DO UPDATE SET node = EXCLUDED.node, listing = EXCLUDED.listing, "
                  "updated_ms = EXCLUDED.updated_ms");
    conn_.prepare("open_list", "SELECT room, node, listing, updated_ms FROM open_games WHERE updated_ms > $1 ORDER BY room");
  }
  std::variant<std::vector<NameEntry>, std::string> names(const std::string& player, std::size_t max) override {
    try {
      ensure();
      const PgResult r = conn_.run("names", {player, std::to_string(max)});
      std::vector<NameEntry> out;
      for (int i = 0; i < r.rows(); ++i) out.push_back(NameEntry{r.text(i, 0), r.int64(i, 1)});
      return out;
    } catch (const PgError& e) {
      return std::string(e.what());
    }
  }
  std::variant<bool, std::string> add_name(const std::string& player, const std::string& name, std::int64_t now_ms,
                                           std::int64_t gap_ms) override {
    try {
      ensure();
      return conn_.run("name_add", {player, name, std::to_string(now_ms), std::to_string(gap_ms)}).affected() > 0;
    } catch (const PgError& e) {
      return std::string(e.what());
    }
  }
  Status put_open_games(const std::string& node, const std::vector<OpenGameRow>& rows, std::int64_t now_ms) override {
    try {
      ensure();
      std::vector<std::pair<std::string, Params>> statements;
      statements.push_back({"open_clear", {node}});
      for (const auto& r : rows) statements.push_back({"open_put", {r.room, node, r.listing, std::to_string(now_ms)}});
      const auto piped = conn_.pipeline(statements);
      if (!piped.error.empty()) return Status::failed(piped.error);
      return Status::ok();
    } catch (const PgError& e) {
      return Status::failed(e.what());
    }
  }
  std::variant<std::vector<OpenGameRow>, std::string> open_games(std::int64_t fresh_after_ms) override {
    try {
      ensure();
      const PgResult r = conn_.run("open_list", {std::to_string(fresh_after_ms)});
      std::vector<OpenGameRow> out;
      for (int i = 0; i < r.rows(); ++i) out.push_back(OpenGameRow{r.text(i, 0), r.text(i, 1), r.text(i, 2), r.int64(i, 3)});
      return out;
    } catch (const PgError& e) {
      return std::string(e.what());
    }
  }

 private:
  void ensure() {
    if (!conn_.healthy()) {
      conn_.reset();
      conn_.prepare_all();
    }
  }
  PgConn conn_;
};

}  // namespace

std::unique_ptr<CommunityStore> CommunityStore::sqlite(const std::filesystem::path& file) {
  try {
    return std::make_unique<SqliteCommunity>(file);
  } catch (const SqlError& e) {
    throw StorageError("cannot open the community's tables in " + file.string() + ": " + e.what());
  }
}

std::unique_ptr<CommunityStore> CommunityStore::memory() { return std::make_unique<MemoryCommunity>(); }

std::unique_ptr<CommunityStore> CommunityStore::postgres(const std::string& url) {
  try {
    return std::make_unique<PgCommunity>(url);
  } catch (const PgError& e) {
    throw StorageError(std::string("cannot open the community's tables in PostgreSQL: ") + e.what());
  }
}

}  // namespace carc::server
