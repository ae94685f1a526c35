#include "carc/server/wake_store.hpp"

#include <sqlite3.h>

#include <map>
#include <mutex>

#include "pg.hpp"
#include "sqlite.hpp"

namespace carc::server {

namespace {

// The table `wakes` is made by the rooms' store's migrations (sqlite_schema.cpp 5 -> 6,
// pg_schema.cpp 3 -> 4), which run first.

class SqliteWakes final : public WakeStore {
 public:
  explicit SqliteWakes(const std::filesystem::path& file)
      : db_(file.string(), SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX) {
    wait_when_busy(db_.handle(), 5000);
  }
  Status set(const std::string& room, std::optional<std::int64_t> due_ms) override {
    try {
      if (due_ms) {
        db_.prepare("INSERT INTO wakes(room, due_ms) VALUES(?1, ?2) ON CONFLICT(room) DO UPDATE SET due_ms = ?2")
            .bind(1, room)
            .bind(2, *due_ms)
            .run();
      } else {
        db_.prepare("DELETE FROM wakes WHERE room = ?1").bind(1, room).run();
      }
      return Status::ok();
    } catch (const SqlError& e) {
      return Status::failed(std::string("cannot store the wake-up of room ") + room + ": " + e.what());
    }
  }
  std::variant<std::vector<DueWake>, std::string> due(std::int64_t now_ms, int limit) override {
    try {
      std::vector<DueWake> out;
      auto q = db_.prepare(
          "SELECT w.room, w.due_ms FROM wakes w JOIN rooms r ON r.id = w.room "
          "WHERE w.due_ms <= ?1 AND r.quarantined IS NULL ORDER BY w.due_ms LIMIT ?2");
      q.bind(1, now_ms).bind(2, std::int64_t{limit});
      while (q.step()) out.push_back(DueWake{q.text(0), q.int64(1)});
      return out;
    } catch (const SqlError& e) {
      return std::string("cannot read the due wake-ups: ") + e.what();
    }
  }
  std::optional<std::int64_t> next() override {
    try {
      auto q = db_.prepare("SELECT MIN(due_ms), COUNT(*) FROM wakes");
      if (q.step() && q.int64(1) > 0) return q.int64(0);
    } catch (const SqlError&) {
    }
    return std::nullopt;
  }

 private:
  Db db_;
};

class MemoryWakes final : public WakeStore {
 public:
  Status set(const std::string& room, std::optional<std::int64_t> due_ms) override {
    std::lock_guard lock(mu_);
    if (due_ms) wakes_[room] = *due_ms;
    else wakes_.erase(room);
    return Status::ok();
  }
  std::variant<std::vector<DueWake>, std::string> due(std::int64_t now_ms, int limit) override {
    std::lock_guard lock(mu_);
    std::vector<DueWake> out;
    for (const auto& [room, due] : wakes_) {
      if (due <= now_ms && static_cast<int>(out.size()) < limit) out.push_back(DueWake{room, due});
    }
    return out;
  }
  std::optional<std::int64_t> next() override {
    std::lock_guard lock(mu_);
    std::optional<std::int64_t> at;
    for (const auto& [room, due] : wakes_) at = at ? std::min(*at, due) : due;
    return at;
  }

 private:
  std::mutex mu_;
  std::map<std::string, std::int64_t> wakes_;
};

class PgWakes final : public WakeStore {
 public:
  PgWakes(const std::string& url, std::string node_id) : node_(std::move(node_id)), conn_(url, PgConnOptions{}) {
    conn_.exec("SET client_min_messages = warning");
    prepare();
  }
  Status set(const std::string& room, std::optional<std::int64_t> due_ms) override {
    try {
      ensure();
      if (due_ms) conn_.run("wake_set", {room, std::to_string(*due_ms)});
      else conn_.run("wake_clear", {room});
      return Status::ok();
    } catch (const PgError& e) {
      return Status::failed(std::string("cannot store the wake-up of room ") + room + ": " + e.what());
    }
  }
  std::variant<std::vector<DueWake>, std::string> due(std::int64_t now_ms, int limit) override {
    try {
      ensure();
      const PgResult r = conn_.run("wake_due", {std::to_string(now_ms), node_, std::to_string(limit)});
      std::vector<DueWake> out;
      for (int i = 0; i < r.rows(); ++i) out.push_back(DueWake{r.text(i, 0), r.int64(i, 1)});
      return out;
    } catch (const PgError& e) {
      return std::string("cannot read the due wake-ups: ") + e.what();
    }
  }
  std::optional<std::int64_t> next() override {
    try {
      ensure();
      const PgResult r = conn_.run("wake_next", {});
      if (r.rows() == 1 && !r.null(0, 0)) return r.int64(0, 0);
    } catch (const PgError&) {
    }
    return std::nullopt;
  }

 private:
  void prepare() {
    conn_.prepare("wake_set",
                  "INSERT INTO wakes(room, due_ms) VALUES($1, $2) ON CONFLICT(room) DO UPDATE SET due_ms = EXCLUDED.due_ms");
    conn_.prepare("wake_clear", "DELETE FROM wakes WHERE room = $1");
    // A room another live node holds is that node's to wake (its own timer does).
    conn_.prepare("wake_due",
                  "SELECT w.room, w.due_ms FROM wakes w JOIN rooms r ON r.id = w.room "
                  "WHERE w.due_ms <= $1 AND r.quarantined IS NULL AND (r.owner IS NULL OR r.owner = $2 OR "
                  "NOT EXISTS(SELECT 1 FROM nodes n WHERE n.id = r.owner AND n.lease_until > clock_timestamp())) "
                  "ORDER BY w.due_ms LIMIT $3");
    conn_.prepare("wake_next", "SELECT MIN(due_ms) FROM wakes");
  }
  void ensure() {
    if (!conn_.healthy()) {
      conn_.reset();
      conn_.prepare_all();
    }
  }
  std::string node_;
  PgConn conn_;
};

}  // namespace

std::unique_ptr<WakeStore> WakeStore::sqlite(const std::filesystem::path& file) {
  try {
    return std::make_unique<SqliteWakes>(file);
  } catch (const SqlError& e) {
    throw StorageError("cannot open the wake-ups in " + file.string() + ": " + e.what());
  }
}

std::unique_ptr<WakeStore> WakeStore::memory() { return std::make_unique<MemoryWakes>(); }

std::unique_ptr<WakeStore> WakeStore::postgres(const std::string& url, const std::string& node_id) {
  try {
    return std::make_unique<PgWakes>(url, node_id);
  } catch (const PgError& e) {
    throw StorageError(std::string("cannot open the wake-ups in PostgreSQL: ") + e.what());
  }
}

}  // namespace carc::server
