// The host under the benchmark: how much CPU time the hypervisor took from this machine's
// CPUs (the `steal` column of /proc/stat). On a shared virtual machine a latency tail can
// come from there and not from the server: the generator prints it beside each figure.
#pragma once

#include <cstdint>
#include <vector>

namespace carc::load {

// One reading of /proc/stat: for all CPUs together (index 0) and for each CPU (index i + 1),
// the ticks of every kind and the stolen ones.
struct CpuTicks {
  std::vector<std::uint64_t> total, steal;
  static CpuTicks read();  // empty when /proc/stat cannot be read
};

// The share of CPU time stolen between two readings, in percent, for all CPUs (index 0)
// and each CPU (index i + 1); -1 where a reading lacks it or no time passed.
std::vector<double> steal_percent(const CpuTicks& from, const CpuTicks& to);

}  // namespace carc::load
