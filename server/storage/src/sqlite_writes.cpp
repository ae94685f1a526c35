// The SQLite store's writes: a batch in one transaction, the quarantine and the purges
// (the store itself: sqlite_store.cpp).
#include "carc/server/sqlite_store.hpp"

#include <sqlite3.h>

#include "sqlite.hpp"
#include "sqlite_schema.hpp"

namespace carc::server {

namespace {

// How stale a room's updated_ms may get while it plays: an append refreshes it only once it
// is older than this (a phase change always does), so most appends leave the row and the
// rooms_by_phase index alone. Purges count in days.
constexpr std::int64_t kTouchMs = 60'000;

struct WriteSql {
  Db& db;
  std::int64_t now;
  // Rooms known to exist, with the updated_ms last written (a lower bound of the row's):
  // an append of a known room reads nothing before its insert.
  std::unordered_map<std::string, std::int64_t>& known;

  std::string operator()(const CreateRoom& c) {
    db.prepare(
          "INSERT INTO rooms(id, phase, seed, settings, version, created_ms, updated_ms) "
          "VALUES(?1, 'lobby', 0, '{}', 1, ?2, ?3) ON CONFLICT(id) DO NOTHING")
        .bind(1, c.room)
        .bind(2, c.created_ms != 0 ? c.created_ms : now)
        .bind(3, now)
        .run();
    if (db.changes() == 0) return "create " + c.room + ": the room exists";
    known[c.room] = now;
    return "";
  }
  std::string operator()(const AppendAction& a) {
    // The room first: an action of a room that is gone is refused without touching the log.
    if (!a.phase.empty()) {
      db.prepare("UPDATE rooms SET version = MAX(version, ?2), phase = ?3, updated_ms = ?4 WHERE id = ?1")
          .bind(1, a.room)
          .bind(2, a.version)
          .bind(3, a.phase)
          .bind(4, now)
          .run();
      if (db.changes() == 0) {
        known.erase(a.room);
        return refused(a);
      }
      known[a.room] = now;
    } else {
      auto it = known.find(a.room);
      if (it == known.end()) {
        Stmt room = db.prepare("SELECT updated_ms FROM rooms WHERE id = ?1");
        room.bind(1, a.room);
        if (!room.step()) return refused(a);
        it = known.emplace(a.room, room.int64(0)).first;
      }
      if (now - it->second >= kTouchMs) {
        db.prepare("UPDATE rooms SET updated_ms = ?2 WHERE id = ?1").bind(1, a.room).bind(2, now).run();
        it->second = now;
      }
    }
    // A seq already taken is a constraint error: the whole transaction fails.
    db.prepare("INSERT INTO actions(room, seq, payload, version) VALUES(?1, ?2, ?3, ?4)")
        .bind(1, a.room)
        .bind(2, a.seq)
        .bind(3, a.payload)
        .bind(4, a.version)
        .run();
    return "";
  }
  static std::string refused(const AppendAction& a) {
    return "append " + a.room + " #" + std::to_string(a.seq) + ": no such room";
  }
  std::string operator()(const SetPhase& p) {
    db.prepare("UPDATE rooms SET phase = ?2, updated_ms = ?3 WHERE id = ?1").bind(1, p.room).bind(2, p.phase).bind(3, now).run();
    if (db.changes() == 0) {
      known.erase(p.room);
      return "set_phase " + p.room + ": no such room";
    }
    known[p.room] = now;
    return "";
  }
  std::string operator()(const RemoveRoom& r) {
    known.erase(r.room);
    db.prepare("DELETE FROM rooms WHERE id = ?1 AND phase <> 'finished' AND quarantined IS NULL").bind(1, r.room).run();
    if (db.changes() > 0) db.prepare("DELETE FROM actions WHERE room = ?1").bind(1, r.room).run();
    return "";
  }
};

std::string what(const Write& w) {
  struct {
    std::string operator()(const CreateRoom& c) { return "create " + c.room; }
    std::string operator()(const AppendAction& a) { return "append " + a.room + " #" + std::to_string(a.seq); }
    std::string operator()(const SetPhase& p) { return "set_phase " + p.room; }
    std::string operator()(const RemoveRoom& r) { return "remove " + r.room; }
  } name;
  return std::visit(name, w);
}

}  // namespace

std::string SqliteStore::write_locked(const Write& w, std::int64_t t) { return std::visit(WriteSql{*db_, t, known_}, w); }

BatchResult SqliteStore::commit(const Batch& batch) {
  BatchResult result;
  if (batch.empty()) return result;
  if (sync_failed_.load()) {
    result.error = "an earlier sync of the log failed; nothing more is stored until the server restarts";
    return result;
  }
  std::lock_guard lock(mu_);
  // Version bumps alone need no fsync; with writes, the one commit is as durable as
  // Options::sync says (syncing apart: after the next sync()).
  const bool relax = batch.writes.empty() && options_.sync == Sync::Full && !path_.empty() && !sync_apart_;
  std::string where;
  try {
    if (relax) db_->exec(sqlite_schema::sync_pragma(Sync::Normal));
    const std::int64_t t = now();
    transaction(*db_, [&] {
      result.refused.clear();
      for (const Write& w : batch.writes) {
        where = what(w);
        result.refused.push_back(write_locked(w, t));
      }
      for (const VersionBump& b : batch.versions) {
        where = "version of " + b.room;
        db_->prepare("UPDATE rooms SET version = ?2, updated_ms = ?3 WHERE id = ?1 AND version < ?2")
            .bind(1, b.room)
            .bind(2, b.version)
            .bind(3, t)
            .run();
      }
      where = "commit";
    });
    if (relax) db_->exec(sqlite_schema::sync_pragma(Sync::Full));
  } catch (const std::exception& e) {
    try {
      if (relax) db_->exec(sqlite_schema::sync_pragma(Sync::Full));
    } catch (...) {
    }
    known_.clear();  // what the rolled-back transaction taught it is void
    result.refused.clear();
    result.error = "commit of " + std::to_string(batch.writes.size()) + " write(s), at " + where + ": " + e.what();
  }
  return result;
}

Status SqliteStore::quarantine(const std::string& room, const std::string& reason) {
  std::lock_guard lock(mu_);
  try {
    db_->prepare("UPDATE rooms SET quarantined = ?2 WHERE id = ?1").bind(1, room).bind(2, reason).run();
    if (db_->changes() == 0) return Status::failed("quarantine " + room + ": no such room");
    return Status::ok();
  } catch (const std::exception& e) {
    return Status::failed("quarantine " + room + ": " + e.what());
  }
}

std::variant<int, std::string> SqliteStore::purge(const char* what, const char* sql, std::int64_t ms) {
  std::lock_guard lock(mu_);
  try {
    known_.clear();
    int removed = 0;
    transaction(*db_, [&] {
      // The log first (the cascade of the rooms it belongs to), then the rooms.
      db_->prepare(std::string("DELETE FROM actions WHERE room IN (SELECT id FROM rooms WHERE ") + sql + ")")
          .bind(1, ms)
          .run();
      db_->prepare(std::string("DELETE FROM analyses WHERE room IN (SELECT id FROM rooms WHERE ") + sql + ")")
          .bind(1, ms)
          .run();
      db_->prepare(std::string("DELETE FROM rooms WHERE ") + sql).bind(1, ms).run();
      removed = db_->changes();
    });
    return removed;
  } catch (const std::exception& e) {
    return std::string(what) + ": " + e.what();
  }
}

std::variant<int, std::string> SqliteStore::purge_finished_before(std::int64_t ms) {
  return purge("purge_finished_before", "phase = 'finished' AND quarantined IS NULL AND updated_ms < ?1", ms);
}

std::variant<int, std::string> SqliteStore::purge_idle_before(std::int64_t ms) {
  return purge("purge_idle_before", "phase <> 'finished' AND quarantined IS NULL AND updated_ms < ?1", ms);
}

}  // namespace carc::server
