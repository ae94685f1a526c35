// carcassonne-server: serves the web client and hosts games (issue 3).
#include <cstdio>
#include <exception>

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include "config.hpp"
#include "durability.hpp"
#include "server.hpp"
#include "setup.hpp"

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
    const auto durability = Durability::open(config);
    const Config settings = config;
    Server server(std::move(config), durability->make_persistence());
    start_notifications(server, settings);  // before the rooms: they hand it their notices
    durability->restore(server);
    server.listen();
    server.run();
    durability->stop_wakes();
  } catch (const std::exception& e) {
    spdlog::critical("{}", e.what());
    return 1;
  }
  return 0;
}
