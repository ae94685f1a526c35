// `carcassonne analyse FILE [--ms-per-move M] [--iterations K] [--seed S] [--clock wall|cpu]`:
// the move-by-move analysis of a record (core/include/carc/core/analysis.hpp), printed as
// the JSON of GET /api/rooms/<id>/analysis.
#include <algorithm>
#include <fstream>
#include <iostream>
#include <iterator>

#include "carc/core/analysis.hpp"
#include "carc/protocol/analysis_json.hpp"
#include "carc/protocol/json.hpp"
#include "carc/protocol/record.hpp"
#include "cli.hpp"
#include "commands.hpp"

namespace carc::tools {
using protocol::json;

int cmd_analyse(const std::vector<std::string>& args) {
  if (args.empty() || args[0].starts_with("--")) return usage_error("analyse takes a FILE (or - for stdin)");
  bool bad = false;
  std::uint64_t ms = kDefaultAnalysisMs;
  std::uint64_t iterations = 0;
  std::uint64_t seed = 1;
  const bool has_ms = cli::flag(args, "--ms-per-move", &ms, &bad);
  const bool has_iterations = cli::flag(args, "--iterations", &iterations, &bad);
  cli::flag(args, "--seed", &seed, &bad);
  const std::string* clock = cli::value(args, "--clock", &bad);
  if (bad || (clock != nullptr && *clock != "wall" && *clock != "cpu")) {
    return usage_error("analyse FILE [--ms-per-move M] [--iterations K] [--seed S] [--clock wall|cpu]");
  }
  if (ms == 0 && iterations == 0) return usage_error("analyse needs a budget: --ms-per-move or --iterations above 0");
  const std::optional<protocol::Record> read = read_record(args[0]);
  if (!read) return 2;
  const protocol::Record& record = *read;
  // A record that breaks a rule is refused exactly as `replay` refuses it.
  if (auto result = protocol::replay(record); auto* e = std::get_if<protocol::RecordError>(&result)) {
    print_error(e->message, e->move);
    return 2;
  }
  // --iterations alone is a deterministic budget; a time budget (the default) is not.
  BotSpec spec;
  spec.kind = BotKind::Mcts;
  spec.iterations = static_cast<int>(std::min<std::uint64_t>(iterations, BotSpec::kMaxIterations));
  if ((has_ms || !has_iterations) && ms > 0) {
    spec.think_ns = static_cast<std::int64_t>(ms) * 1'000'000;
    spec.clock = clock != nullptr && *clock == "cpu" ? BotClock(thread_cpu_ns) : BotClock(wall_ns);
  }

  const std::int64_t start = wall_ns();
  json moves = json::array();
  std::int64_t playouts = 0;
  const std::span<const Move> all(record.moves);
  auto game = seeded_replay(record.players, record.expansions, all, 0, record.options);
  if (auto* r = std::get_if<ReplayRefusal>(&game)) {
    print_error(std::string(rule_error_message(r->error)), r->move);
    return 2;
  }
  Game g = std::get<Game>(std::move(game));
  Game seats = Game::replay(record.players, record.expansions, record.options);  // who made each move, discards included
  // One entry per record entry: the steps inside a turn are played with their placement's
  // (docs/analysis.md).
  int entry = -1;
  int steps = 0;
  for (std::size_t i = 0; i < record.moves.size(); ++i) {
    const Seat seat = seats.current_seat();
    if (seats.play(record.moves[i])) return 3;  // cannot happen: replay() accepted the record
    if (record.moves[i].type == Move::Type::Step) {
      ++steps;
      if (g.play(record.moves[i])) return 3;  // cannot happen: replay() accepted the record
      continue;
    }
    ++entry;
    if (g.moves_played() + steps > static_cast<int>(i)) {  // the seeded game discarded it by itself
      MoveAnalysis a;
      a.move = entry;
      a.seat = seat;
      a.discard = true;
      moves.push_back(protocol::move_analysis_json(a));
      continue;
    }
    const auto a = analyse_move(g, record.moves[i], entry, spec, analysis_seed(seed, entry));
    if (!a) {
      print_error("internal error: the analysis could not play the record's move", entry);
      return 3;
    }
    playouts += a->playouts;
    moves.push_back(protocol::move_analysis_json(*a));
    if (g.play(record.moves[i])) return 3;  // cannot happen: analyse_move played it
    std::cerr << "analyse: " << (i + 1) << "/" << record.moves.size() << "\n";
  }
  const double seconds = static_cast<double>(wall_ns() - start) / 1e9;
  std::cout << json{{"status", "done"}, {"moves", moves}, {"playouts", playouts}, {"seconds", seconds}, {"seed", seed}}.dump()
            << "\n";
  return 0;
}

}  // namespace carc::tools
