#include "figures.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>

namespace carc::load {

long rss_kb(int pid) {
  if (pid <= 0) return -1;
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::atol(line.c_str() + 6);
  }
  return -1;
}

double cpu_s(int pid) {
  if (pid <= 0) return -1;
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto close = all.rfind(')');
  if (close == std::string::npos) return -1;
  std::istringstream fields(all.substr(close + 2));
  std::string f;
  double ticks = 0;
  for (int i = 3; i <= 15 && fields >> f; ++i) {
    if (i == 14 || i == 15) ticks += std::atof(f.c_str());
  }
  return ticks / static_cast<double>(::sysconf(_SC_CLK_TCK));
}

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[static_cast<std::size_t>(p * static_cast<double>(v.size() - 1))];
}

void print_timeline(const std::vector<double>& ms, const std::vector<float>& at, int window_s, double p99,
                    const std::vector<HostSample>& host) {
  std::vector<std::vector<double>> windows;
  for (std::size_t i = 0; i < ms.size() && i < at.size(); ++i) {
    const auto w = static_cast<std::size_t>(std::max(0.0f, at[i]) / static_cast<float>(window_s));
    if (w >= windows.size()) windows.resize(w + 1);
    windows[w].push_back(ms[i]);
  }
  // The index of the reading nearest to a moment of play.
  const auto nearest = [&](double t) {
    std::size_t best = 0;
    for (std::size_t i = 1; i < host.size(); ++i) {
      if (std::abs(host[i].at_s - t) < std::abs(host[best].at_s - t)) best = i;
    }
    return best;
  };
  std::fprintf(stderr, "timeline (%d s windows): from_s moves p50_ms p99_ms max_ms over_run_p99 host_steal_pct\n",
               window_s);
  for (std::size_t w = 0; w < windows.size(); ++w) {
    const auto& v = windows[w];
    const auto tail = std::count_if(v.begin(), v.end(), [&](double x) { return x > p99; });
    // Between the readings nearest to the window's ends, moved apart to span at least 0.9 s
    // (readings come once a second, and once more at the end of play): the last window (moves
    // answered after the end) gets the last second's figure instead of none.
    const double from = static_cast<double>(w) * window_s;
    std::size_t a = nearest(from);
    const std::size_t b = std::max(nearest(from + window_s), std::min(a + 1, host.size() - 1));
    while (a > 0 && host[b].at_s - host[a].at_s < 0.9) --a;
    const std::vector<double> steal = b > a ? steal_percent(host[a].ticks, host[b].ticks) : std::vector<double>{};
    std::fprintf(stderr, "  %6zu %6zu %8.2f %8.2f %8.2f %6ld %8.1f\n", w * static_cast<std::size_t>(window_s), v.size(),
                 percentile(v, 0.5), percentile(v, 0.99), v.empty() ? 0.0 : *std::max_element(v.begin(), v.end()),
                 static_cast<long>(tail), steal.empty() ? -1.0 : steal[0]);
  }
}

MemorySplit MemorySplit::parse(const std::string& metrics) {
  MemorySplit m;
  const auto get = [&](const char* part) -> double {
    const std::string key = std::string("carc_room_memory_bytes{part=\"") + part + "\"} ";
    const auto at = metrics.find(key);
    return at == std::string::npos ? -1 : std::atof(metrics.c_str() + at + key.size());
  };
  m.engine = get("engine");
  m.history = get("history");
  m.view = get("view");
  m.other = get("other");
  return m;
}

}  // namespace carc::load
