// Small command-line helpers shared by the `carcassonne` commands.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace carc::cli {

// The nearest-rank percentile (q in [0, 1]) of the samples; 0 when there are none.
inline double percentile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const auto i = static_cast<std::size_t>(std::ceil(q * static_cast<double>(v.size())));
  return v[std::min(v.size() - 1, i == 0 ? 0 : i - 1)];
}

inline bool parse_u64(std::string_view s, std::uint64_t* out) {
  if (s.empty() || s.size() > 20) return false;
  std::uint64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    const std::uint64_t d = static_cast<std::uint64_t>(c - '0');
    if (v > (UINT64_MAX - d) / 10) return false;
    v = v * 10 + d;
  }
  *out = v;
  return true;
}

// The value after `name` (flags of the form --name value), or nullptr.
inline const std::string* value(const std::vector<std::string>& args, std::string_view name, bool* bad) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == name) {
      if (i + 1 >= args.size()) {
        *bad = true;
        return nullptr;
      }
      return &args[i + 1];
    }
  }
  return nullptr;
}

// An unsigned flag: true when present (then *bad says whether its value parsed).
inline bool flag(const std::vector<std::string>& args, std::string_view name, std::uint64_t* out, bool* bad) {
  const std::string* v = value(args, name, bad);
  if (v == nullptr) return *bad;
  if (!parse_u64(*v, out)) *bad = true;
  return true;
}

}  // namespace carc::cli
