#include "carc/server/key_store.hpp"

#include <sqlite3.h>

#include <algorithm>
#include <map>
#include <mutex>

#include "pg.hpp"
#include "sqlite.hpp"

namespace carc::server {

namespace {

// The tables (player_keys, key_seats, notices_sent) are made by the rooms' store's
// migrations (sqlite_schema.cpp 5 -> 6, pg_schema.cpp 3 -> 4), which run first.

class SqliteKeys final : public KeyStore {
 public:
  explicit SqliteKeys(const std::filesystem::path& file) : db_(file.string(), SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX) {
    wait_when_busy(db_.handle(), 5000);
    db_.exec("CREATE INDEX IF NOT EXISTS key_seats_by_room ON key_seats(room)");  // room_seats
  }
  Status add_key(const std::string& hash, std::int64_t created_ms) override {
    return guard([&] { db_.prepare("INSERT INTO player_keys(hash, created_ms) VALUES(?1, ?2)").bind(1, hash).bind(2, created_ms).run(); });
  }
  std::variant<std::optional<std::string>, std::string> find_key(const std::string& hash) override {
    try {
      auto q = db_.prepare("SELECT hash FROM player_keys WHERE hash = ?1");
      q.bind(1, hash);
      if (q.step()) return std::optional<std::string>(q.text(0));
      return std::optional<std::string>();
    } catch (const SqlError& e) {
      return std::string(e.what());
    }
  }
  Status add_seat(const std::string& hash, const KeySeat& s) override {
    return guard([&] {
      db_.prepare(
             "INSERT INTO key_seats(key_hash, room, seat, sealed, added_ms) VALUES(?1, ?2, ?3, ?4, ?5) "
             "ON CONFLICT(key_hash, room) DO UPDATE SET seat = ?3, sealed = ?4, added_ms = ?5")
          .bind(1, hash)
          .bind(2, s.room)
          .bind(3, std::int64_t{s.seat})
          .bind(4, s.sealed)
          .bind(5, s.added_ms)
          .run();
    });
  }
  std::variant<std::vector<KeySeat>, std::string> seats(const std::string& hash) override {
    try {
      std::vector<KeySeat> out;
      auto q = db_.prepare("SELECT room, seat, sealed, added_ms FROM key_seats WHERE key_hash = ?1 ORDER BY added_ms DESC");
      q.bind(1, hash);
      while (q.step()) out.push_back(KeySeat{q.text(0), static_cast<int>(q.int64(1)), q.text(2), q.int64(3)});
      return out;
    } catch (const SqlError& e) {
      return std::string(e.what());
    }
  }
  std::variant<std::vector<RoomKeySeat>, std::string> room_seats(const std::string& room) override {
    try {
      std::vector<RoomKeySeat> out;
      auto q = db_.prepare("SELECT key_hash, seat, added_ms FROM key_seats WHERE room = ?1 ORDER BY added_ms, key_hash");
      q.bind(1, room);
      while (q.step()) out.push_back(RoomKeySeat{q.text(0), static_cast<int>(q.int64(1)), q.int64(2)});
      return out;
    } catch (const SqlError& e) {
      return std::string(e.what());
    }
  }
  Status mark_sent(const std::string& id, std::int64_t ms) override {
    return guard([&] { db_.prepare("INSERT OR IGNORE INTO notices_sent(id, sent_ms) VALUES(?1, ?2)").bind(1, id).bind(2, ms).run(); });
  }
  std::variant<bool, std::string> was_sent(const std::string& id) override {
    try {
      auto q = db_.prepare("SELECT 1 FROM notices_sent WHERE id = ?1");
      q.bind(1, id);
      return q.step();
    } catch (const SqlError& e) {
      return std::string(e.what());
    }
  }
  std::variant<bool, std::string> revoke(const std::string& hash) override {
    try {
      bool found = false;
      transaction(db_, [&] {
        db_.prepare("DELETE FROM key_seats WHERE key_hash = ?1").bind(1, hash).run();
        db_.prepare("DELETE FROM player_keys WHERE hash = ?1").bind(1, hash).run();
        found = db_.changes() > 0;
      });
      return found;
    } catch (const SqlError& e) {
      return std::string(e.what());
    }
  }

 private:
  template <class F>
  Status guard(F&& f) {
    try {
      f();
      return Status::ok();
    } catch (const SqlError& e) {
      return Status::failed(e.what());
    }
  }
  Db db_;
};

class MemoryKeys final : public KeyStore {
 public:
  Status add_key(const std::string& hash, std::int64_t) override {
    std::lock_guard lock(mu_);
    if (!keys_.try_emplace(hash).second) return Status::failed("the key exists");
    return Status::ok();
  }
  std::variant<std::optional<std::string>, std::string> find_key(const std::string& hash) override {
    std::lock_guard lock(mu_);
    return keys_.contains(hash) ? std::optional<std::string>(hash) : std::nullopt;
  }
  Status add_seat(const std::string& hash, const KeySeat& s) override {
    std::lock_guard lock(mu_);
    auto it = keys_.find(hash);
    if (it == keys_.end()) return Status::failed("no such key");
    it->second[s.room] = s;
    return Status::ok();
  }
  std::variant<std::vector<KeySeat>, std::string> seats(const std::string& hash) override {
    std::lock_guard lock(mu_);
    std::vector<KeySeat> out;
    if (auto it = keys_.find(hash); it != keys_.end()) {
      for (const auto& [room, s] : it->second) out.push_back(s);
    }
    return out;
  }
  std::variant<bool, std::string> revoke(const std::string& hash) override {
    std::lock_guard lock(mu_);
    return keys_.erase(hash) > 0;
  }
  std::variant<std::vector<RoomKeySeat>, std::string> room_seats(const std::string& room) override {
    std::lock_guard lock(mu_);
    std::vector<RoomKeySeat> out;
    for (const auto& [hash, seats] : keys_) {
      if (auto it = seats.find(room); it != seats.end()) out.push_back(RoomKeySeat{hash, it->second.seat, it->second.added_ms});
    }
    std::stable_sort(out.begin(), out.end(), [](const RoomKeySeat& a, const RoomKeySeat& b) { return a.added_ms < b.added_ms; });
    return out;
  }
  Status mark_sent(const std::string& id, std::int64_t) override {
    std::lock_guard lock(mu_);
    sent_[id] = true;
    return Status::ok();
  }
  std::variant<bool, std::string> was_sent(const std::string& id) override {
    std::lock_guard lock(mu_);
    return sent_.contains(id);
  }

 private:
  std::map<std::string, bool> sent_;
  std::mutex mu_;
  std::map<std::string, std::map<std::string, KeySeat>> keys_;
};

class PgKeys final : public KeyStore {
 public:
  explicit PgKeys(const std::string& url) : conn_(url, PgConnOptions{}) {
    conn_.exec("SET client_min_messages = warning");
    // room_seats' index; several nodes may make it at once: one at a time.
    conn_.exec("SELECT pg_advisory_lock(7261003)");
    const PgResult made = conn_.exec("CREATE INDEX IF NOT EXISTS key_seats_by_room ON key_seats(room)");
    conn_.exec("SELECT pg_advisory_unlock(7261003)");
    if (!made.ok()) throw PgError(made.error());
    conn_.prepare("notice_mark", "INSERT INTO notices_sent(id, sent_ms) VALUES($1, $2) ON CONFLICT(id) DO NOTHING");
    conn_.prepare("notice_sent", "SELECT 1 FROM notices_sent WHERE id = $1");
    conn_.prepare("key_add", "INSERT INTO player_keys(hash, created_ms) VALUES($1, $2)");
    conn_.prepare("key_find", "SELECT hash FROM player_keys WHERE hash = $1");
    conn_.prepare("key_seat",
                  "INSERT INTO key_seats(key_hash, room, seat, sealed, added_ms) VALUES($1, $2, $3, $4, $5) "
                  "ON CONFLICT(key_hash, room) DO UPDATE SET seat = EXCLUDED.seat, sealed = EXCLUDED.sealed, "
                  "added_ms = EXCLUDED.added_ms");
    conn_.prepare("key_seats", "SELECT room, seat, sealed, added_ms FROM key_seats WHERE key_hash = $1 ORDER BY added_ms DESC");
    conn_.prepare("room_key_seats", "SELECT key_hash, seat, added_ms FROM key_seats WHERE room = $1 ORDER BY added_ms, key_hash");
    conn_.prepare("key_revoke",
                  "WITH s AS (DELETE FROM key_seats WHERE key_hash = $1) DELETE FROM player_keys WHERE hash = $1");
  }
  Status add_key(const std::string& hash, std::int64_t created_ms) override {
    return guard([&] { conn_.run("key_add", {hash, std::to_string(created_ms)}); });
  }
  std::variant<std::optional<std::string>, std::string> find_key(const std::string& hash) override {
    try {
      ensure();
      const PgResult r = conn_.run("key_find", {hash});
      if (r.rows() == 1) return std::optional<std::string>(r.text(0, 0));
      return std::optional<std::string>();
    } catch (const PgError& e) {
      return std::string(e.what());
    }
  }
  Status add_seat(const std::string& hash, const KeySeat& s) override {
    return guard([&] {
      conn_.run("key_seat", {hash, s.room, std::to_string(s.seat), s.sealed, std::to_string(s.added_ms)});
    });
  }
  std::variant<std::vector<KeySeat>, std::string> seats(const std::string& hash) override {
    try {
      ensure();
      const PgResult r = conn_.run("key_seats", {hash});
      std::vector<KeySeat> out;
      for (int i = 0; i < r.rows(); ++i) {
        out.push_back(KeySeat{r.text(i, 0), static_cast<int>(r.int64(i, 1)), r.text(i, 2), r.int64(i, 3)});
      }
      return out;
    } catch (const PgError& e) {
      return std::string(e.what());
    }
  }
  std::variant<std::vector<RoomKeySeat>, std::string> room_seats(const std::string& room) override {
    try {
      ensure();
      const PgResult r = conn_.run("room_key_seats", {room});
      std::vector<RoomKeySeat> out;
      for (int i = 0; i < r.rows(); ++i) out.push_back(RoomKeySeat{r.text(i, 0), static_cast<int>(r.int64(i, 1)), r.int64(i, 2)});
      return out;
    } catch (const PgError& e) {
      return std::string(e.what());
    }
  }
  Status mark_sent(const std::string& id, std::int64_t ms) override {
    return guard([&] { conn_.run("notice_mark", {id, std::to_string(ms)}); });
  }
  std::variant<bool, std::string> was_sent(const std::string& id) override {
    try {
      ensure();
      return conn_.run("notice_sent", {id}).rows() > 0;
    } catch (const PgError& e) {
      return std::string(e.what());
    }
  }
  std::variant<bool, std::string> revoke(const std::string& hash) override {
    try {
      ensure();
      return conn_.run("key_revoke", {hash}).affected() > 0;
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
  template <class F>
  Status guard(F&& f) {
    try {
      ensure();
      f();
      return Status::ok();
    } catch (const PgError& e) {
      return Status::failed(e.what());
    }
  }
  PgConn conn_;
};

}  // namespace

std::unique_ptr<KeyStore> KeyStore::sqlite(const std::filesystem::path& file) {
  try {
    return std::make_unique<SqliteKeys>(file);
  } catch (const SqlError& e) {
    throw StorageError("cannot open the player keys in " + file.string() + ": " + e.what());
  }
}

std::unique_ptr<KeyStore> KeyStore::memory() { return std::make_unique<MemoryKeys>(); }

std::unique_ptr<KeyStore> KeyStore::postgres(const std::string& url) {
  try {
    return std::make_unique<PgKeys>(url);
  } catch (const PgError& e) {
    throw StorageError(std::string("cannot open the player keys in PostgreSQL: ") + e.what());
  }
}

}  // namespace carc::server
