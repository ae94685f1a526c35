// The bot and view commands of `carcassonne` (arena.cpp, bench_bots.cpp, bench_view.cpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "carc/core/bot.hpp"
#include "carc/protocol/record.hpp"

namespace carc::tools {

// `carcassonne arena ...`: bots against each other; prints one JSON object.
int cmd_arena(const std::vector<std::string>& args);
// `carcassonne bench-bots ...`: each bot's think time and playout rate on mid-game boards.
int cmd_bench_bots(const std::vector<std::string>& args);
// `carcassonne bench-view ...`: the public state's costs on the hot path (patch per move, welcome).
int cmd_bench_view(const std::vector<std::string>& args);

// Clocks for the bots' time budgets, in nanoseconds: steady wall time, or the CPU time of
// the calling thread (fair when other programs share the machine).
std::int64_t wall_ns();
std::int64_t thread_cpu_ns();

// "random", "greedy", "mcts", "mcts@K" (K playouts), "mcts:Mms" / "mcts:Ss" (think time),
// or a level "easy" / "medium" / "hard". A plain "mcts" takes `iterations` and `think_ns`.
// Nullopt for anything else. The spec has no clock yet.
std::optional<BotSpec> parse_bot(const std::string& s, int iterations, std::int64_t think_ns);

int usage_error(const std::string& why);
// Prints {"error": message, "move": move or null}: how the CLI refuses a record.
void print_error(const std::string& message, std::optional<int> move);
// The record in `file` ("-": stdin), parsed; nullopt once print_error() said why (the file
// cannot be read, its JSON is malformed, or the record's form is refused).
std::optional<protocol::Record> read_record(const std::string& file);

// `carcassonne analyse FILE ...`: the move-by-move analysis of a record (JSON).
int cmd_analyse(const std::vector<std::string>& args);
// Think time per move of an analysis unless told otherwise: a 72-tile game in about 75 s.
inline constexpr std::uint64_t kDefaultAnalysisMs = 1000;

// `--expansions ID,ID` (absent: the base game). False with `*why` on an unknown,
// repeated or unimplemented id.
bool expansions_flag(const std::vector<std::string>& args, ExpansionSet* out, std::string* why);
// `--options ID,ID` (absent: none; docs/options.md). False with `*why` on an unknown or
// repeated id.
bool options_flag(const std::vector<std::string>& args, OptionSet* out, std::string* why);

}  // namespace carc::tools
