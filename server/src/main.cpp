// carcassonne-server: serves the web client and hosts games (issue 3).
#include <cstdio>
#include <exception>

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include "config.hpp"
#include "durability.hpp"
#include "server.hpp"

#ifdef CARC_TEST_HOOKS
#include <cstdlib>

#include "crash_store.hpp"

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
    const auto durability = Durability::open(config, test_hooks());
#else
    const auto durability = Durability::open(config);
#endif
    Server server(std::move(config), durability->make_persistence());
    durability->restore(server);
    server.listen();
    server.run();
  } catch (const std::exception& e) {
    spdlog::critical("{}", e.what());
    return 1;
  }
  return 0;
}
