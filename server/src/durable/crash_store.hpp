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

class CrashAfterMoves final : public ForwardingStore {
 public:
  CrashAfterMoves(RoomStore& inner, int moves) : ForwardingStore(inner), limit_(moves) {}

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

 private:
  int limit_;
  int moves_ = 0;  // the writer's thread only
};

}  // namespace carc::server
