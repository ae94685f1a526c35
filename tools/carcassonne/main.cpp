// `carcassonne`: replay records, play random games, benchmark the engine.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "carc/core/game.hpp"
#include "carc/core/random_player.hpp"
#include "carc/protocol/json.hpp"
#include "carc/protocol/record.hpp"
#include "cli.hpp"
#include "commands.hpp"

namespace {

using carc::protocol::json;
using Clock = std::chrono::steady_clock;

constexpr const char* kUsage =
    "usage:\n"
    "  carcassonne replay FILE|-                     replay a carcassonne-record/1 record\n"
    "  carcassonne random --players N --seed S [--expansions ID,...] [--options ID,...]\n"
    "                                                play one random game, print its record\n"
    "  carcassonne legal FILE --tile T               after a record's moves, every legal placement of T for\n"
    "                                                the seat to play, with its figures and take-back (JSON)\n"
    "  carcassonne analyse FILE|- [--ms-per-move M] [--iterations K] [--seed S] [--clock wall|cpu]\n"
    "                                                move-by-move analysis of a record: each move's value, the best\n"
    "                                                move found, loss, spread and label (JSON; default 1000 ms a move)\n"
    "  carcassonne bench [--games N] [--players P] [--expansions ...] [--options ...]\n"
    "                                                benchmark the engine on one thread\n"
    "  carcassonne arena --bots A,B[,C...] --games N [--players P] [--ms-per-move M]\n"
    "                    [--iterations K] [--seed S] [--threads T] [--clock wall|cpu]\n"
    "                    [--expansions ID,...] [--options ID,...] [--per-game]\n"
    "      bots play paired deals (each deal once per rotation of the seats, so N is\n"
    "      rounded up to a multiple of P; one bot per seat, P defaults to their number);\n"
    "      prints one JSON object (wins, win_rate, ci95, mean_score, mean_margin,\n"
    "      ms_per_move p50/p99, playouts_per_s), progress on stderr. Bots: random, greedy,\n"
    "      mcts (budget from --ms-per-move and/or --iterations, else 2000 playouts),\n"
    "      mcts@K (K playouts), mcts:Mms or mcts:Ss (think time), or the levels easy,\n"
    "      medium (mcts:300ms), hard (mcts:1500ms). --clock cpu measures think time in\n"
    "      each thread's CPU time (fair on a busy machine); --threads plays games in parallel;\n"
    "      --per-game adds a JSON line a game on stderr (each bot's score, win, figures placed,\n"
    "      figures on other tiles, actions, and actions naming a figure by kind).\n"
    "  carcassonne bench-bots [--players P] [--positions N] [--iterations K] [--tiles-placed T]\n"
    "                         [--expansions ...] [--options ...]\n"
    "      each bot's think time and mcts playouts per second on mid-game boards, one thread\n"
    "  carcassonne bench-view [--games N] [--players P]\n"
    "      the public state on the hot path: rules and patch per move, the whole state\n"
    "      of a finished board and a welcome served from it\n";

// The expansions' ids, comma-separated, as the engine knows them.
std::string expansion_ids() {
  std::string out;
  for (int e = 0; e < carc::kExpansionKinds; ++e) {
    out += (e > 0 ? "," : "") + std::string(carc::expansion_name(static_cast<carc::Expansion>(e)));
  }
  return out;
}

// The rule options' ids (docs/options.md), likewise.
std::string option_ids() {
  std::string out;
  for (int o = 0; o < carc::kOptionKinds; ++o) {
    out += (o > 0 ? "," : "") + std::string(carc::option_name(static_cast<carc::Option>(o)));
  }
  return out;
}

// The ids of a comma-separated flag's value, as a JSON array for the record's parsers.
json id_list(const std::string& v) {
  json ids = json::array();
  std::stringstream list(v);
  for (std::string id; std::getline(list, id, ',');) ids.push_back(id);
  return ids;
}

}  // namespace

int carc::tools::usage_error(const std::string& why) {
  std::cerr << "carcassonne: " << why << "\n" << kUsage << "expansion ids: " << expansion_ids() << "\n"
            << "option ids: " << option_ids() << "\n";
  return 64;
}

bool carc::tools::options_flag(const std::vector<std::string>& args, OptionSet* out, std::string* why) {
  bool bad = false;
  const std::string* v = carc::cli::value(args, "--options", &bad);
  *out = OptionSet{};
  if (bad) {
    *why = "--options needs a list of ids (" + option_ids() + ")";
    return false;
  }
  if (v == nullptr) return true;
  const json ids = id_list(*v);
  auto set = carc::protocol::parse_options(&ids);
  if (const auto* w = std::get_if<std::string>(&set)) {
    *why = *w;
    return false;
  }
  *out = std::get<OptionSet>(set);
  return true;
}

bool carc::tools::expansions_flag(const std::vector<std::string>& args, ExpansionSet* out, std::string* why) {
  bool bad = false;
  const std::string* v = carc::cli::value(args, "--expansions", &bad);
  *out = ExpansionSet{};
  if (bad) {
    *why = "--expansions needs a list of ids (" + expansion_ids() + ")";
    return false;
  }
  if (v == nullptr) return true;
  const json ids = id_list(*v);
  auto set = carc::protocol::parse_expansions(&ids);
  if (const auto* w = std::get_if<std::string>(&set)) {
    *why = *w;
    return false;
  }
  *out = std::get<ExpansionSet>(set);
  return true;
}

namespace carc::tools {

void print_error(const std::string& message, std::optional<int> move) {
  json e{{"error", message}};
  e["move"] = move ? json(*move) : json(nullptr);
  std::cout << e.dump() << "\n";
}

std::optional<protocol::Record> read_record(const std::string& file) {
  std::string text;
  if (file == "-") {
    text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
  } else {
    std::ifstream in(file, std::ios::binary);
    if (!in) {
      print_error("cannot read " + file, std::nullopt);
      return std::nullopt;
    }
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  const json j = json::parse(text, nullptr, false);
  if (j.is_discarded()) {
    print_error("malformed JSON", std::nullopt);
    return std::nullopt;
  }
  auto parsed = protocol::parse_record(j);
  if (auto* e = std::get_if<protocol::RecordError>(&parsed)) {
    print_error(e->message, e->move);
    return std::nullopt;
  }
  return std::get<protocol::Record>(std::move(parsed));
}

}  // namespace carc::tools

namespace {

using carc::tools::print_error;
using carc::tools::read_record;
using carc::tools::usage_error;

using carc::cli::flag;


int cmd_replay(const std::vector<std::string>& args) {
  if (args.size() != 1) return usage_error("replay takes one FILE (or - for stdin)");
  const std::optional<carc::protocol::Record> record = read_record(args[0]);
  if (!record) return 2;
  auto result = carc::protocol::replay(*record);
  if (auto* e = std::get_if<carc::protocol::RecordError>(&result)) {
    print_error(e->message, e->move);
    return 2;
  }
  std::cout << std::get<json>(result).dump() << "\n";
  return 0;
}

// Plays a seeded game with random players; returns the moves in record order.
std::vector<carc::Move> random_game(int players, std::uint64_t seed, carc::ExpansionSet expansions,
                                    carc::OptionSet options, std::vector<carc::Event>* events) {
  std::vector<carc::Event> local;
  std::vector<carc::Event>& ev = events != nullptr ? *events : local;
  carc::Game g = carc::Game::seeded(players, seed, expansions, options, &ev);
  carc::RandomPlayer player(seed ^ 0x5DEECE66DULL);
  std::vector<carc::Move> moves;
  // Placements and discards as their events tell them (a seeded game discards by itself);
  // a step made inside a turn (Move::Type::Step) as it was chosen.
  const auto take = [&](std::size_t from) {
    for (std::size_t i = from; i < ev.size(); ++i) {
      if (const auto* p = std::get_if<carc::TilePlaced>(&ev[i])) {
        moves.push_back(carc::move_of(*p));
      } else if (const auto* d = std::get_if<carc::TileDiscarded>(&ev[i])) {
        carc::Move m = carc::Move::discard(d->tile);
        m.extra = d->extra;
        moves.push_back(m);
      }
    }
  };
  take(0);
  while (!g.finished()) {
    const carc::Move m = player.choose(g);
    const std::size_t before = ev.size();
    if (g.play(m, &ev)) break;  // cannot happen: the move comes from the generator
    if (m.type == carc::Move::Type::Step) moves.push_back(m);
    take(before);
  }
  return moves;
}

int cmd_random(const std::vector<std::string>& args) {
  bool bad = false;
  std::uint64_t players = 0;
  std::uint64_t seed = 0;
  if (!flag(args, "--players", &players, &bad) || bad) return usage_error("random needs --players N (2..5, 6 if an expansion allows it)");
  if (!flag(args, "--seed", &seed, &bad) || bad) return usage_error("random needs --seed S (an unsigned 64-bit integer)");
  carc::ExpansionSet expansions;
  if (std::string why; !carc::tools::expansions_flag(args, &expansions, &why)) return usage_error(why);
  carc::OptionSet options;
  if (std::string why; !carc::tools::options_flag(args, &options, &why)) return usage_error(why);
  if (players < 2 || players > static_cast<std::uint64_t>(carc::ruleset(expansions).max_players)) {
    return usage_error("--players must be 2..5 (2..6 if an expansion allows it)");
  }
  const auto moves = random_game(static_cast<int>(players), seed, expansions, options, nullptr);
  json record = carc::protocol::record_json(static_cast<int>(players), moves, true, expansions, options);
  carc::protocol::Record r{static_cast<int>(players), expansions, options, moves, true};
  auto result = carc::protocol::replay(r);
  if (auto* e = std::get_if<carc::protocol::RecordError>(&result)) {
    print_error("internal error: the random game does not replay: " + e->message, e->move);
    return 3;
  }
  record["seed"] = std::to_string(seed);
  record["result"] = std::get<json>(result);
  std::cout << record.dump() << "\n";
  return 0;
}

[[gnu::noinline]] void play_games(std::uint64_t games, int players, carc::ExpansionSet expansions,
                                  carc::OptionSet options, std::uint64_t* placements, std::uint64_t* checksum) {
  for (std::uint64_t i = 0; i < games; ++i) {
    carc::Game g = carc::Game::seeded(players, i, expansions, options);
    carc::RandomPlayer player(i * 0x9E3779B97F4A7C15ULL + 1);
    while (!g.finished()) {
      if (g.play(player.choose(g))) break;
    }
    *placements += static_cast<std::uint64_t>(g.tiles_placed());
    for (int s = 0; s < g.players(); ++s) *checksum += static_cast<std::uint64_t>(g.score(s));
    if (games >= 10 && (i + 1) % (games / 10) == 0) std::cerr << "bench: " << (i + 1) << "/" << games << " games\n";
  }
}

int cmd_bench(const std::vector<std::string>& args) {
  bool bad = false;
  std::uint64_t games = 20000;
  std::uint64_t players = 4;
  flag(args, "--games", &games, &bad);
  flag(args, "--players", &players, &bad);
  carc::ExpansionSet expansions;
  if (std::string why; !carc::tools::expansions_flag(args, &expansions, &why)) return usage_error(why);
  carc::OptionSet options;
  if (std::string why; !carc::tools::options_flag(args, &options, &why)) return usage_error(why);
  if (bad || games == 0 || players < 2 || players > static_cast<std::uint64_t>(carc::ruleset(expansions).max_players)) {
    return usage_error("bench [--games N>0] [--players 2..5 (6 if an expansion allows it)]");
  }

  // Whole random games, no event collection (what bots and simulations do).
  std::uint64_t placements = 0;
  std::uint64_t checksum = 0;
  const auto t0 = Clock::now();
  play_games(games, static_cast<int>(players), expansions, options, &placements, &checksum);
  const double game_secs = std::chrono::duration<double>(Clock::now() - t0).count();

  // Legal placement listing on mid-game boards: 36 tiles placed.
  std::vector<carc::Game> boards;
  for (std::uint64_t i = 0; i < 16; ++i) {
    carc::Game g = carc::Game::seeded(static_cast<int>(players), 1000 + i, expansions, options);
    carc::RandomPlayer player(i + 7);
    while (!g.finished() && g.tiles_placed() < 37) {
      if (g.play(player.choose(g))) break;
    }
    boards.push_back(g);
  }
  std::vector<carc::Placement> out;
  std::uint64_t listings = 0;
  std::uint64_t listed = 0;
  const auto t1 = Clock::now();
  double list_secs = 0;
  do {
    for (int rep = 0; rep < 1000; ++rep) {
      for (const carc::Game& g : boards) {
        for (int t = 0; t < carc::kTileKinds; ++t) {
          if (g.rules().counts[static_cast<std::size_t>(t)] == 0) continue;
          g.legal_placements(static_cast<carc::Tile>(t), out);
          listed += out.size();
          ++listings;
        }
      }
    }
    list_secs = std::chrono::duration<double>(Clock::now() - t1).count();
  } while (list_secs < 0.5);

  json report{{"games", games},
              {"players", players},
              {"expansions", carc::protocol::expansions_json(expansions)},
              {"options", carc::protocol::options_json(options)},
              {"seconds", game_secs},
              {"games_per_second", static_cast<double>(games) / game_secs},
              {"tiles_placed_per_second", static_cast<double>(placements) / game_secs},
              {"placements_per_second", static_cast<double>(listings) / list_secs},
              {"legal_placements_per_listing", static_cast<double>(listed) / static_cast<double>(listings)},
              {"state_bytes", carc::Game::memory_bytes()},
              {"score_checksum", checksum}};
  std::cout << report.dump() << "\n";
  return 0;
}

// A record's moves, then every legal placement of a tile for the seat to play: the
// perft-style view of a position (figures and take-backs included).
int cmd_legal(const std::vector<std::string>& args) {
  bool bad = false;
  const std::string* tile_name = carc::cli::value(args, "--tile", &bad);
  if (args.empty() || tile_name == nullptr || bad) return usage_error("legal FILE --tile T");
  const std::optional<carc::protocol::Record> read = read_record(args[0]);
  if (!read) return 2;
  const carc::protocol::Record& record = *read;
  const auto tile = carc::tile_from_name(*tile_name);
  if (!tile) return usage_error("unknown tile " + *tile_name);
  carc::Game g = carc::Game::replay(record.players, record.expansions, record.options);
  int index = 0;
  for (const carc::Move& m : record.moves) {
    if (auto e = g.play(m)) {
      print_error(std::string(carc::rule_error_message(*e)), index);
      return 2;
    }
    ++index;
  }
  std::vector<carc::Placement> placements;
  g.legal_placements(*tile, placements);
  json out = json::array();
  for (const carc::Placement& p : placements) {
    json entry{{"x", p.cell.x}, {"y", p.cell.y}, {"rotation", p.rotation.degrees()}};
    json meeples = json::array();
    for (const carc::Port port : g.meeple_targets(*tile, p, g.current_seat())) meeples.push_back(std::string(carc::port_name(port)));
    entry["meeples"] = meeples;
    if (g.rules().has_specials) {
      json figures = json::object();
      for (int f = 1; f < carc::kFigureKinds; ++f) {
        if (g.rules().figures[static_cast<std::size_t>(f)] == 0) continue;
        json ports = json::array();
        for (const carc::Port port : g.figure_targets(*tile, p, g.current_seat(), static_cast<carc::Figure>(f))) {
          ports.push_back(std::string(carc::port_name(port)));
        }
        figures[std::string(carc::figure_name(static_cast<carc::Figure>(f)))] = ports;
      }
      entry["figures"] = figures;
    }
    if (g.rules().action_part != nullptr) {
      int points = 0;
      const auto back = g.action_offer(*tile, p, g.current_seat(), &points);
      entry["return"] = back ? json{{"x", back->x}, {"y", back->y}} : json(nullptr);
    }
    out.push_back(std::move(entry));
  }
  std::cout << json{{"seat", g.current_seat()}, {"tile", *tile_name}, {"count", placements.size()}, {"legal", out}}.dump()
            << "\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "-h") {
    std::cout << kUsage << "expansion ids: " << expansion_ids() << "\n";
    return args.empty() ? 64 : 0;
  }
  const std::string cmd = args[0];
  args.erase(args.begin());
  try {
    if (cmd == "replay") return cmd_replay(args);
    if (cmd == "random") return cmd_random(args);
    if (cmd == "bench") return cmd_bench(args);
    if (cmd == "legal") return cmd_legal(args);
    if (cmd == "analyse" || cmd == "analyze") return carc::tools::cmd_analyse(args);
    if (cmd == "arena") return carc::tools::cmd_arena(args);
    if (cmd == "bench-bots") return carc::tools::cmd_bench_bots(args);
    if (cmd == "bench-view") return carc::tools::cmd_bench_view(args);
  } catch (const std::exception& e) {
    print_error(std::string("internal error: ") + e.what(), std::nullopt);
    return 2;
  }
  return usage_error("unknown command " + cmd);
}
