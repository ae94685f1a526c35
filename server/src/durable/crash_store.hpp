// Test-only fault injection (CARC_CRASH_AFTER_PERSIST=N), as a decorator of any store: the
// process _exits with 86 right after the commit that made the N-th move durable, before
// the writer answers it, so before its broadcast. Compiled only into the test build of the
// server (carcassonne-server-test, main.cpp with CARC_TEST_HOOKS), never the shipped one.
#pragma once

#include <unistd.h>

#include <spdlog/spdlog.h>

#include "durable/action_codec.hpp"
#include "carc/server/room_store.hpp"

namespace carc::server {

class CrashAfterMoves final : public RoomStore {
 public:
  CrashAfterMoves(RoomStore& inner, int moves) : inner_(inner), limit_(moves) {}

  BatchResult commit(const Batch& batch) override {
    BatchResult r = inner_.commit(batch);
    if (!r.committed()) return r;
    for (std::size_t i = 0; i < batch.writes.size(); ++i) {
      const auto* a = std::get_if<AppendAction>(&batch.writes[i]);
      const bool stored = i >= r.refused.size() || r.refused[i].empty();
      if (a != nullptr && stored && is_move_payload(a->payload)) ++moves_;
    }
    if (moves_ >= limit_) {
      spdlog::warn("CARC_CRASH_AFTER_PERSIST: exiting after a durable write, before its broadcast");
      spdlog::default_logger()->flush();
      ::_exit(86);
    }
    return r;
  }
  bool syncs_apart() const override { return inner_.syncs_apart(); }
  Status sync() override { return inner_.sync(); }
  Status quarantine(const std::string& room, const std::string& reason) override { return inner_.quarantine(room, reason); }
  std::variant<int, std::string> purge_finished_before(std::int64_t ms) override { return inner_.purge_finished_before(ms); }
  std::variant<int, std::string> purge_idle_before(std::int64_t ms) override { return inner_.purge_idle_before(ms); }
  RoomLoad load_room(const std::string& id) override { return inner_.load_room(id); }
  RoomsLoad load_rooms() override { return inner_.load_rooms(); }
  std::vector<std::pair<std::string, std::string>> quarantined() override { return inner_.quarantined(); }
  std::uint64_t commits() const override { return inner_.commits(); }
  ClusterStore* cluster() override { return inner_.cluster(); }
  StoreHealth health() const override { return inner_.health(); }
  std::string describe() const override { return inner_.describe(); }
  Status save_analysis(const StoredAnalysis& a) override { return inner_.save_analysis(a); }
  AnalysesLoad load_analyses(const std::string& room) override { return inner_.load_analyses(room); }

 private:
  RoomStore& inner_;
  int limit_;
  int moves_ = 0;  // the writer's thread only
};

}  // namespace carc::server
