// What the load generator reads of a process and prints of a run: a process's memory and
// CPU time (from /proc), percentiles, the --timeline windows and the server's own split of
// its rooms' memory (from /metrics).
#pragma once

#include <string>
#include <vector>

#include "host.hpp"

namespace carc::load {

// The resident memory of a process, in KB, or -1.
long rss_kb(int pid);

// utime + stime of a process (all its threads), in seconds.
double cpu_s(int pid);

// The `p` quantile (0 to 1) of `v`, the nearest sample below; 0 if `v` is empty.
double percentile(std::vector<double> v, double p);

// A reading of /proc/stat taken during play, at `at_s` seconds of play.
struct HostSample {
  double at_s;
  CpuTicks ticks;
};

// --timeline: each window's moves, p50, p99 and max, and how many of its moves are over the
// whole run's p99 (`tail`): a tail made in a few seconds shows up as one window holding it.
// Each window also shows the share of CPU time the hypervisor stole in it, over all CPUs,
// from the readings in `host` nearest to its ends.
void print_timeline(const std::vector<double>& ms, const std::vector<float>& at, int window_s, double p99,
                    const std::vector<HostSample>& host);

// Sums of carc_room_memory_bytes{part=...} from /metrics (absent on servers without it).
struct MemorySplit {
  double engine = -1, history = -1, view = -1, other = -1;
  static MemorySplit parse(const std::string& metrics);
};

}  // namespace carc::load
