// The PostgreSQL store's analyses (docs/analysis.md): the table `analyses` (migration 2 -> 3 of
// pg_schema.cpp). Any node may write a room's analysis: it is not part of the room's log,
// so it needs no fence; saves go on the writer's connection, loads on the reader's.
#include <exception>

#include "pg_link.hpp"

namespace carc::server {

Status PgStore::save_analysis(const StoredAnalysis& a) {
  std::lock_guard lock(write_->mu);
  try {
    if (std::string why; !ensure_connected(*write_, &why)) return Status::failed("save_analysis: " + why);
    PgResult r = write_->conn->run("analysis_save", {a.room, a.status, a.record, a.moves, std::to_string(now())});
    if (r.rows() == 0) return Status::failed("no room " + a.room);
    return Status::ok();
  } catch (const std::exception& e) {
    return Status::failed(std::string("save_analysis: ") + e.what());
  }
}

AnalysesLoad PgStore::load_analyses(const std::string& room) {
  std::lock_guard lock(read_->mu);
  AnalysesLoad out;
  try {
    if (std::string why; !ensure_connected(*read_, &why)) {
      out.error = "load_analyses: " + why;
      return out;
    }
    PgResult r = room.empty() ? read_->conn->run("analyses_open", {}) : read_->conn->run("analysis_load", {room});
    for (int i = 0; i < r.rows(); ++i) out.analyses.push_back(StoredAnalysis{r.text(i, 0), r.text(i, 1), r.text(i, 2), r.text(i, 3)});
  } catch (const std::exception& e) {
    out.error = std::string("load_analyses: ") + e.what();
  }
  return out;
}

}  // namespace carc::server
