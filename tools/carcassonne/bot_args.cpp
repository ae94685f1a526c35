#include <chrono>
#include <ctime>
#include <iostream>

#include "cli.hpp"
#include "commands.hpp"

namespace carc::tools {

std::int64_t wall_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

std::int64_t thread_cpu_ns() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

std::optional<BotSpec> parse_bot(const std::string& s, int iterations, std::int64_t think_ns) {
  if (auto level = bot_level(s, nullptr)) return level;
  const std::size_t cut = s.find_first_of("@:");
  const auto kind = bot_kind_from_name(s.substr(0, cut));
  if (!kind) return std::nullopt;
  BotSpec spec;
  spec.kind = *kind;
  if (cut == std::string::npos) {
    if (*kind == BotKind::Mcts) {
      spec.iterations = iterations;
      spec.think_ns = think_ns;
    }
    return spec;
  }
  if (*kind != BotKind::Mcts) return std::nullopt;
  std::string rest = s.substr(cut + 1);
  std::uint64_t n = 0;
  if (s[cut] == '@') {
    if (!cli::parse_u64(rest, &n) || n == 0 || n > static_cast<std::uint64_t>(BotSpec::kMaxIterations)) {
      return std::nullopt;
    }
    spec.iterations = static_cast<int>(n);
    return spec;
  }
  std::int64_t unit = 1'000'000'000;
  if (rest.size() > 2 && rest.ends_with("ms")) {
    unit = 1'000'000;
    rest.resize(rest.size() - 2);
  } else if (rest.size() > 1 && rest.ends_with("s")) {
    rest.resize(rest.size() - 1);
  } else {
    return std::nullopt;
  }
  if (!cli::parse_u64(rest, &n) || n == 0 || n > 3'600'000) return std::nullopt;
  spec.think_ns = static_cast<std::int64_t>(n) * unit;
  return spec;
}

}  // namespace carc::tools
