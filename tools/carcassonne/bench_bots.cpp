// `carcassonne bench-bots`: how long each bot thinks, and how many playouts mcts runs a
// second, on mid-game boards (half the tiles placed), on one thread.
#include <iostream>

#include "carc/core/player_view.hpp"
#include "carc/core/random_player.hpp"
#include "carc/protocol/json.hpp"
#include "cli.hpp"
#include "commands.hpp"

namespace carc::tools {

int cmd_bench_bots(const std::vector<std::string>& args) {
  bool bad = false;
  std::uint64_t players = 2;
  std::uint64_t positions = 16;
  std::uint64_t iterations = 5000;
  std::uint64_t placed = 36;
  cli::flag(args, "--players", &players, &bad);
  cli::flag(args, "--positions", &positions, &bad);
  cli::flag(args, "--iterations", &iterations, &bad);
  cli::flag(args, "--tiles-placed", &placed, &bad);
  ExpansionSet expansions;
  if (std::string why; !expansions_flag(args, &expansions, &why)) return usage_error(why);
  OptionSet options;
  if (std::string why; !options_flag(args, &options, &why)) return usage_error(why);
  if (bad || players < 2 || players > static_cast<std::uint64_t>(ruleset(expansions).max_players) || positions == 0 || iterations == 0 ||
      iterations > static_cast<std::uint64_t>(BotSpec::kMaxIterations) || placed < 1 || placed > 60) {
    return usage_error("bench-bots [--players 2..5 (6 if an expansion allows it)] [--positions N] [--iterations K] [--tiles-placed 1..60]");
  }
  std::vector<PlayerView> views;
  for (std::uint64_t i = 0; views.size() < positions; ++i) {
    Game g = Game::seeded(static_cast<int>(players), 7000 + i, expansions, options);
    RandomPlayer player(i + 3);
    while (!g.finished() && g.tiles_placed() < static_cast<int>(placed)) {
      if (g.play(player.choose(g))) break;
    }
    if (!g.finished()) views.emplace_back(g);
  }
  protocol::json report{{"players", players}, {"positions", positions}, {"tiles_placed", placed}};
  for (const BotKind kind : {BotKind::Random, BotKind::Greedy, BotKind::Mcts}) {
    BotSpec spec;
    spec.kind = kind;
    spec.iterations = static_cast<int>(iterations);
    std::int64_t playouts = 0;
    const std::int64_t wall0 = wall_ns();
    const std::int64_t cpu0 = thread_cpu_ns();
    std::uint64_t seed = 1;
    for (const PlayerView& v : views) playouts += choose(v, spec, seed++).playouts;
    const double cpu_s = static_cast<double>(thread_cpu_ns() - cpu0) / 1e9;
    const double wall_s = static_cast<double>(wall_ns() - wall0) / 1e9;
    const std::string name(bot_kind_name(kind));
    report[name + "_ms_per_move"] = cpu_s * 1e3 / static_cast<double>(views.size());
    if (kind == BotKind::Mcts) {
      report["mcts_iterations"] = iterations;
      report["playouts_per_s"] = static_cast<double>(playouts) / cpu_s;
      report["playouts_per_s_wall"] = static_cast<double>(playouts) / wall_s;
    }
  }
  std::cout << report.dump() << "\n";
  return 0;
}

}  // namespace carc::tools
