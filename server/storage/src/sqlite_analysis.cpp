// The SQLite store's analyses (docs/analysis.md): the table `analyses` (migration 4 -> 5 of
// sqlite_schema.cpp), written and read on the writer's connection.
#include <exception>

#include "carc/server/sqlite_store.hpp"
#include "sqlite.hpp"

namespace carc::server {

Status SqliteStore::save_analysis(const StoredAnalysis& a) {
  std::lock_guard lock(mu_);
  try {
    // Only for a room that is stored: a purged room leaves no analysis behind.
    db_->prepare(
           "INSERT INTO analyses(room, status, record, moves, updated_ms) "
           "SELECT ?1, ?2, ?3, ?4, ?5 WHERE EXISTS(SELECT 1 FROM rooms WHERE id = ?1) "
           "ON CONFLICT(room) DO UPDATE SET status = excluded.status, record = excluded.record, "
           "moves = excluded.moves, updated_ms = excluded.updated_ms")
        .bind(1, a.room)
        .bind(2, a.status)
        .bind(3, a.record)
        .bind(4, a.moves)
        .bind(5, now())
        .run();
    if (db_->changes() == 0) return Status::failed("no room " + a.room);
    return Status::ok();
  } catch (const std::exception& e) {
    return Status::failed(std::string("save_analysis: ") + e.what());
  }
}

AnalysesLoad SqliteStore::load_analyses(const std::string& room) {
  std::lock_guard lock(mu_);
  AnalysesLoad out;
  try {
    Stmt s = room.empty() ? db_->prepare("SELECT room, status, record, moves FROM analyses WHERE status <> 'done' ORDER BY updated_ms, room")
                          : db_->prepare("SELECT room, status, record, moves FROM analyses WHERE room = ?1");
    if (!room.empty()) s.bind(1, room);
    while (s.step()) out.analyses.push_back(StoredAnalysis{s.text(0), s.text(1), s.text(2), s.text(3)});
  } catch (const std::exception& e) {
    out.error = std::string("load_analyses: ") + e.what();
  }
  return out;
}

}  // namespace carc::server
