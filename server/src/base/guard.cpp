#include "base/guard.hpp"

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <string>

#include <spdlog/spdlog.h>

namespace carc::server {

namespace {
std::atomic<std::uint64_t> g_errors{0};
std::atomic<std::uint64_t> g_unlogged{0};
std::atomic<std::int64_t> g_logged_at{-1'000'000'000};

std::string what_of(const std::exception_ptr& e) {
  try {
    if (e) std::rethrow_exception(e);
  } catch (const std::exception& ex) {
    return ex.what();
  } catch (...) {
  }
  return "an exception that is not a std::exception";
}
}  // namespace

std::uint64_t internal_errors() { return g_errors.load(std::memory_order_relaxed); }

void note_internal_error(std::string_view where, std::exception_ptr e) noexcept {
  g_errors.fetch_add(1, std::memory_order_relaxed);
  const std::int64_t now = std::chrono::duration_cast<std::chrono::milliseconds>(
                               std::chrono::steady_clock::now().time_since_epoch()).count();
  std::int64_t last = g_logged_at.load(std::memory_order_relaxed);
  // One line a second at most: a request that throws every time must not flood the log.
  if (now - last < 1000 || !g_logged_at.compare_exchange_strong(last, now, std::memory_order_relaxed)) {
    g_unlogged.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  try {
    const auto skipped = g_unlogged.exchange(0, std::memory_order_relaxed);
    spdlog::error("internal error in {}: {} (the server carries on{})", where, what_of(e),
                  skipped > 0 ? fmt::format("; {} more since the last such line", skipped) : std::string());
  } catch (...) {
  }
}

}  // namespace carc::server
