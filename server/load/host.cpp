#include "host.hpp"

#include <fstream>
#include <sstream>
#include <string>

namespace carc::load {

CpuTicks CpuTicks::read() {
  CpuTicks t;
  std::ifstream in("/proc/stat");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("cpu", 0) != 0) break;  // the cpu lines come first
    std::istringstream fields(line);
    std::string name;
    fields >> name;
    // user nice system idle iowait irq softirq steal (guest time is counted in user too)
    std::uint64_t total = 0, steal = 0, v = 0;
    for (int i = 0; i < 8 && fields >> v; ++i) {
      total += v;
      if (i == 7) steal = v;
    }
    t.total.push_back(total);
    t.steal.push_back(steal);
  }
  return t;
}

std::vector<double> steal_percent(const CpuTicks& from, const CpuTicks& to) {
  std::vector<double> out;
  for (std::size_t i = 0; i < to.total.size(); ++i) {
    if (i >= from.total.size() || to.total[i] <= from.total[i] || to.steal[i] < from.steal[i]) {
      out.push_back(-1);
      continue;
    }
    out.push_back(100.0 * static_cast<double>(to.steal[i] - from.steal[i]) /
                  static_cast<double>(to.total[i] - from.total[i]));
  }
  return out;
}

}  // namespace carc::load
