// `carcassonne arena`: bots play seeded games against each other in paired deals (every
// deal once per rotation of the seats), and one JSON object sums up who won.
#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <iostream>
#include <mutex>
#include <sstream>
#include <thread>

#include "carc/core/player_view.hpp"
#include "carc/protocol/json.hpp"
#include "cli.hpp"
#include "commands.hpp"

namespace carc::tools {
namespace {

using protocol::json;

struct Entry {
  std::string name;
  BotSpec spec;
};

struct Options {
  std::vector<Entry> entries;
  int players = 0;
  std::uint64_t deals = 0;  // games = deals x players
  std::uint64_t seed = 1;
  unsigned threads = 1;
  bool cpu_clock = false;
  bool per_game = false;  // --per-game: one JSON line a game on stderr
  ExpansionSet expansions;
  OptionSet options;
};

// What one entry did in one game.
struct Seated {
  int score = 0;
  double win = 0;     // 1/k of a victory shared by k
  int margin = 0;     // its score minus the best other score
  std::vector<double> ms;
  std::int64_t playouts = 0;
  double think_s = 0;
  // Its moves' kinds (--per-game): a figure placed (here or on another tile), an action
  // instead of a figure, an action naming a figure by kind (index = Move::action_kind).
  int figures = 0;
  int elsewhere = 0;
  int actions = 0;
  std::array<int, 8> targets{};
  int targets_supplied = 0;  // of those, made while the seat had a meeple in supply
};

struct Result {
  std::vector<Seated> by_entry;  // indexed by entry, not seat
  std::string error;
};

std::uint64_t mix(std::uint64_t a, std::uint64_t b) {
  Rng r(a * 0x9E3779B97F4A7C15ull ^ (b + 0x632BE59BD9B4E019ull));
  return r.next();
}

Result play(const Options& o, std::uint64_t game_index) {
  const std::uint64_t deal = game_index / static_cast<std::uint64_t>(o.players);
  const int rotation = static_cast<int>(game_index % static_cast<std::uint64_t>(o.players));
  const std::uint64_t deal_seed = mix(o.seed, deal);
  const int players = o.players;
  auto entry_of = [&](Seat s) { return (s + rotation) % players; };

  Result res;
  res.by_entry.resize(static_cast<std::size_t>(players));
  std::vector<BotSpec> specs;
  for (const Entry& e : o.entries) {
    specs.push_back(e.spec);
    specs.back().clock = o.cpu_clock ? BotClock(thread_cpu_ns) : BotClock(wall_ns);
  }
  const BotClock& clock = specs.front().clock;
  Game g = Game::seeded(players, deal_seed, o.expansions, o.options);
  while (!g.finished()) {
    const Seat seat = g.acting_seat();
    const int e = entry_of(seat);
    const PlayerView view(g);
    const std::int64_t t0 = clock();
    const BotChoice c = choose(view, specs[static_cast<std::size_t>(e)], mix(deal_seed, static_cast<std::uint64_t>(g.moves_played() * 8 + rotation)));
    const double secs = static_cast<double>(clock() - t0) / 1e9;
    Seated& s = res.by_entry[static_cast<std::size_t>(e)];
    s.ms.push_back(secs * 1e3);
    s.think_s += secs;
    s.playouts += c.playouts;
    if (c.move.type == Move::Type::Place) {
      s.figures += c.move.meeple ? 1 : 0;
      s.elsewhere += c.move.figure_cell ? 1 : 0;
      if (c.move.action_kind != 0) {
        s.targets[c.move.action_kind & 7]++;
        s.targets_supplied += g.meeples(seat) > 0 ? 1 : 0;
      } else if (c.move.action) {
        s.actions++;
      }
    }
    if (const auto err = g.play(c.move)) {
      std::ostringstream why;
      why << o.entries[static_cast<std::size_t>(e)].name << " made an illegal move (" << rule_error_name(*err)
          << ") in game " << game_index;
      res.error = why.str();
      return res;
    }
  }
  int top = g.score(0);
  for (Seat s = 1; s < players; ++s) top = std::max(top, g.score(s));
  int winners = 0;
  for (Seat s = 0; s < players; ++s) winners += g.score(s) == top ? 1 : 0;
  for (Seat s = 0; s < players; ++s) {
    Seated& r = res.by_entry[static_cast<std::size_t>(entry_of(s))];
    int best_other = -1;
    for (Seat x = 0; x < players; ++x) {
      if (x != s) best_other = std::max(best_other, g.score(x));
    }
    r.score = g.score(s);
    r.win = g.score(s) == top ? 1.0 / winners : 0.0;
    r.margin = g.score(s) - best_other;
  }
  return res;
}

// One game's line for --per-game: by entry, its score, win, and the kinds of its moves.
json game_line(const Options& o, std::uint64_t index, const Result& r) {
  json entries = json::array();
  for (std::size_t e = 0; e < r.by_entry.size(); ++e) {
    const Seated& s = r.by_entry[e];
    json targets = json::object();
    for (std::size_t k = 1; k < s.targets.size(); ++k) {
      if (s.targets[k] != 0) targets[std::to_string(k)] = s.targets[k];
    }
    entries.push_back(json{{"bot", o.entries[e].name}, {"score", s.score},     {"win", s.win},
                           {"moves", s.ms.size()},    {"figures", s.figures}, {"elsewhere", s.elsewhere},
                           {"actions", s.actions},    {"targets", targets},       {"targets_supplied", s.targets_supplied}});
  }
  return json{{"game", index}, {"deal", index / static_cast<std::uint64_t>(o.players)}, {"entries", entries}};
}

// Wilson's 95 % interval of a win rate over n games.
std::pair<double, double> wilson(double wins, double n) {
  const double z = 1.959964;
  const double p = wins / n;
  const double d = 1 + z * z / n;
  const double centre = (p + z * z / (2 * n)) / d;
  const double half = z * std::sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d;
  return {std::max(0.0, centre - half), std::min(1.0, centre + half)};
}

json report(const Options& o, const std::vector<Result>& results) {
  const std::size_t n = o.entries.size();
  json names = json::array();
  json wins = json::array();
  json rate = json::array();
  json ci = json::array();
  json score = json::array();
  json margin = json::array();
  json ms = json::array();
  json rate_playouts = json::array();
  const double games = static_cast<double>(results.size());
  for (std::size_t e = 0; e < n; ++e) {
    double w = 0;
    double total_score = 0;
    double total_margin = 0;
    double think = 0;
    double playouts = 0;
    std::vector<double> times;
    for (const Result& r : results) {
      const Seated& s = r.by_entry[e];
      w += s.win;
      total_score += s.score;
      total_margin += s.margin;
      think += s.think_s;
      playouts += static_cast<double>(s.playouts);
      times.insert(times.end(), s.ms.begin(), s.ms.end());
    }
    const auto [lo, hi] = wilson(w, games);
    names.push_back(o.entries[e].name);
    wins.push_back(w);
    rate.push_back(w / games);
    ci.push_back(json::array({lo, hi}));
    score.push_back(total_score / games);
    margin.push_back(total_margin / games);
    ms.push_back(json{{"p50", cli::percentile(times, 0.50)}, {"p99", cli::percentile(times, 0.99)}});
    rate_playouts.push_back(think > 0 ? playouts / think : 0.0);
  }
  return json{{"bots", names},         {"players", o.players},   {"games", results.size()},
              {"seed", o.seed},        {"clock", o.cpu_clock ? "cpu" : "wall"},
              {"wins", wins},          {"win_rate", rate},       {"ci95", ci},
              {"mean_score", score},   {"mean_margin", margin},  {"ms_per_move", ms},
              {"playouts_per_s", rate_playouts}};
}

std::optional<std::string> parse(const std::vector<std::string>& args, Options* o) {
  bool bad = false;
  std::uint64_t games = 0;
  std::uint64_t players = 0;
  std::uint64_t ms = 0;
  std::uint64_t iterations = 0;
  std::uint64_t threads = 1;
  const std::string* bots = cli::value(args, "--bots", &bad);
  if (!cli::flag(args, "--games", &games, &bad) || games == 0) return "arena needs --games N (N > 0)";
  cli::flag(args, "--players", &players, &bad);
  cli::flag(args, "--ms-per-move", &ms, &bad);
  cli::flag(args, "--iterations", &iterations, &bad);
  cli::flag(args, "--seed", &o->seed, &bad);
  cli::flag(args, "--threads", &threads, &bad);
  const std::string* clock = cli::value(args, "--clock", &bad);
  o->per_game = std::find(args.begin(), args.end(), "--per-game") != args.end();
  if (bad) return "every flag needs a value (unsigned integers for the numbers)";
  if (bots == nullptr) return "arena needs --bots A,B[,C...]";
  std::stringstream list(*bots);
  for (std::string name; std::getline(list, name, ',');) {
    if (iterations > static_cast<std::uint64_t>(BotSpec::kMaxIterations)) return "--iterations is too large";
    const auto spec = parse_bot(name, static_cast<int>(iterations), static_cast<std::int64_t>(ms) * 1'000'000);
    if (!spec) return "unknown bot '" + name + "' (random, greedy, mcts, mcts@K, mcts:Mms, easy, medium, hard)";
    o->entries.push_back(Entry{name, *spec});
  }
  if (players == 0) players = o->entries.size();
  if (std::string why; !expansions_flag(args, &o->expansions, &why)) return why;
  if (std::string why; !options_flag(args, &o->options, &why)) return why;
  if (players < 2 || players > static_cast<std::uint64_t>(ruleset(o->expansions).max_players)) {
    return "--players must be 2..5 (2..6 if an expansion allows it)";
  }
  if (o->entries.size() != players) return "--bots needs one bot per seat (--players of them)";
  if (threads == 0 || threads > 64) return "--threads must be 1..64";
  if (clock != nullptr && *clock != "wall" && *clock != "cpu") return "--clock is wall or cpu";
  o->players = static_cast<int>(players);
  o->deals = (games + players - 1) / players;
  o->threads = static_cast<unsigned>(threads);
  o->cpu_clock = clock != nullptr && *clock == "cpu";
  return std::nullopt;
}

}  // namespace

int cmd_arena(const std::vector<std::string>& args) {
  Options o;
  if (auto why = parse(args, &o)) return usage_error(*why);
  const std::uint64_t total = o.deals * static_cast<std::uint64_t>(o.players);
  std::vector<Result> results(total);
  std::atomic<std::uint64_t> next{0};
  std::mutex progress;
  std::uint64_t finished = 0;
  std::vector<double> running(o.entries.size(), 0.0);
  const std::int64_t start = wall_ns();
  std::int64_t last_print = 0;
  auto worker = [&] {
    for (std::uint64_t i = next++; i < total; i = next++) {
      results[i] = play(o, i);
      const std::lock_guard<std::mutex> lock(progress);
      if (o.per_game) std::cerr << game_line(o, i, results[i]).dump() << "\n";
      ++finished;
      for (std::size_t e = 0; e < running.size(); ++e) running[e] += results[i].by_entry[e].win;
      const std::int64_t now = wall_ns();
      if (finished == total || now - last_print > 2'000'000'000) {
        last_print = now;
        std::cerr << "arena: " << finished << "/" << total << " games, " << (now - start) / 1'000'000'000 << " s, wins";
        for (std::size_t e = 0; e < running.size(); ++e) std::cerr << " " << o.entries[e].name << "=" << running[e];
        std::cerr << "\n";
      }
    }
  };
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < o.threads; ++t) pool.emplace_back(worker);
  worker();
  for (std::thread& t : pool) t.join();
  for (const Result& r : results) {
    if (!r.error.empty()) {
      std::cout << json{{"error", r.error}}.dump() << "\n";
      return 3;
    }
  }
  std::cout << report(o, results).dump() << "\n";
  return 0;
}

}  // namespace carc::tools
