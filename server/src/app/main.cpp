// carcassonne-server: serves the web client and hosts games.
#include <cstdio>
#include <exception>

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include "app/config.hpp"
#include "community/services.hpp"
#include "durable/durability.hpp"
#include "net/server.hpp"
#include "push/setup.hpp"
#include "community/setup.hpp"
#include "tournaments/setup.hpp"

#ifdef CARC_TEST_HOOKS
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "durable/crash_ratings.hpp"
#include "durable/crash_store.hpp"
#include "base/random.hpp"
#include "room/room.hpp"

namespace {
// The test build only: CARC_CRASH_AFTER_PERSIST=N exits right after the N-th durable move.
carc::server::Durability::Decorator test_hooks() {
  const char* v = std::getenv("CARC_CRASH_AFTER_PERSIST");
  if (v == nullptr || std::atoi(v) <= 0) return {};
  spdlog::warn("CARC_CRASH_AFTER_PERSIST={}: test-only fault injection is on", v);
  const int moves = std::atoi(v);
  return [moves](carc::server::RoomStore& inner) -> std::unique_ptr<carc::server::RoomStore> {
    return std::make_unique<carc::server::CrashAfterMoves>(inner, moves);
  };
}

// CARC_CRASH_RATINGS=<point> exits at one step between a game's end and its rating.
carc::server::Durability::RatingDecorator rating_hooks() {
  const char* v = std::getenv("CARC_CRASH_RATINGS");
  if (v == nullptr || *v == '\0') return {};
  spdlog::warn("CARC_CRASH_RATINGS={}: test-only fault injection is on", v);
  return [point = std::string(v)](std::unique_ptr<carc::server::RatingStore> inner) -> std::unique_ptr<carc::server::RatingStore> {
    return std::make_unique<carc::server::CrashRatings>(std::move(inner), point);
  };
}

// Shifts of the rooms' wall clock (turn-based banks last an hour at least; a test moves the
// clock instead of waiting): CARC_TEST_CLOCK_OFFSET_MS, fixed for the run, or
// CARC_TEST_CLOCK_FILE, a file holding the offset that a test may change while the server
// runs (read again at most every 100 ms; several nodes of a cluster test share one).
std::int64_t clock_offset_ms() {
  static const std::int64_t fixed = [] {
    const char* v = std::getenv("CARC_TEST_CLOCK_OFFSET_MS");
    return v != nullptr ? std::atoll(v) : 0;
  }();
  static const char* file = std::getenv("CARC_TEST_CLOCK_FILE");
  if (file == nullptr) return fixed;
  static std::atomic<std::int64_t> offset{0}, read_at{-1000};
  const std::int64_t now = carc::server::steady_ms();
  if (now - read_at.load(std::memory_order_relaxed) >= 100) {
    read_at.store(now, std::memory_order_relaxed);
    if (std::FILE* f = std::fopen(file, "r")) {
      long long v = 0;
      if (std::fscanf(f, "%lld", &v) == 1) offset.store(v, std::memory_order_relaxed);
      std::fclose(f);
    }
  }
  return fixed + offset.load(std::memory_order_relaxed);
}

// CARC_TEST_SEED=N: every game starts with bag seed N, and the computer players' seeds follow
// from it (random.hpp), so that a test plays a game it knows.
void seed_hook() {
  const char* v = std::getenv("CARC_TEST_SEED");
  if (v == nullptr || *v == '\0') return;
  char* end = nullptr;
  const unsigned long long seed = std::strtoull(v, &end, 10);
  if (end == nullptr || *end != '\0') throw std::runtime_error(std::string("CARC_TEST_SEED is not a number: ") + v);
  spdlog::warn("CARC_TEST_SEED={}: test-only fixed seeds are on", seed);
  carc::server::set_test_seed(seed);
}

void clock_hooks() {
  if (std::getenv("CARC_TEST_CLOCK_OFFSET_MS") == nullptr && std::getenv("CARC_TEST_CLOCK_FILE") == nullptr) return;
  spdlog::warn("CARC_TEST_CLOCK_OFFSET_MS/CARC_TEST_CLOCK_FILE: test-only clock offset is on");
  carc::server::set_clock_offset(&clock_offset_ms);
}
}  // namespace
#endif

int main(int argc, char** argv) {
  using namespace carc::server;
  auto parsed = parse_config(argc, argv);
  if (auto* exit = std::get_if<ConfigExit>(&parsed)) {
    std::fputs(exit->message.c_str(), exit->code == 0 ? stdout : stderr);
    if (!exit->message.ends_with('\n')) std::fputc('\n', exit->code == 0 ? stdout : stderr);
    return exit->code;
  }
  auto& config = std::get<Config>(parsed);
  if (!config.probe_url.empty()) return probe(config.probe_url);

  auto logger = spdlog::stderr_color_mt("carcassonne");
  spdlog::set_default_logger(logger);
  spdlog::set_level(spdlog::level::from_str(config.log_level));
  spdlog::set_pattern("%Y-%m-%dT%H:%M:%S.%e %^%l%$ %v");
  try {
    // Storage first: a database that cannot be used stops the start with its reason.
#ifdef CARC_TEST_HOOKS
    clock_hooks();
    seed_hook();
    const auto durability = Durability::open(config, test_hooks());
    durability->decorate_ratings(rating_hooks());
#else
    const auto durability = Durability::open(config);
#endif
    const Config settings = config;
    Server server(std::move(config), durability->make_persistence());
    start_notifications(server, settings);  // before the rooms: they hand it their notices
    start_signin(server, settings);
    start_tournaments(server, settings);  // before the rooms: they hand it their results (docs/tournaments.md)
    durability->restore(server);
    start_community(server, settings);  // names, and the open games of every node (docs/community.md)
    server.listen();
    server.run();
    durability->stop_wakes();
  } catch (const std::exception& e) {
    spdlog::critical("{}", e.what());
    return 1;
  }
  return 0;
}
