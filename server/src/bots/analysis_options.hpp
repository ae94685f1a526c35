// How the server analyses finished games (analyser.hpp; --analyses, --analysis-ms).
#pragma once

#include <cstddef>
#include <cstdint>

namespace carc::server {

struct AnalysisOptions {
  int concurrent = 1;               // analyses running at once (0: none are made)
  std::size_t max_queued = 64;      // beyond, a finished game is not analysed
  std::int64_t ms_per_move = 1000;  // think time of each move's search
  std::size_t keep_done = 256;      // finished analyses kept in memory (the rest: storage)
  bool idle_priority = true;        // SCHED_IDLE while analysing (--analysis-priority idle|normal)
};

}  // namespace carc::server
