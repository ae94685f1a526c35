// A tournament as stored (docs/tournaments.md): settings, entrants, seeds and every table
// with its result; what happens next (`plan`) and what the page shows (`view`) are computed
// from it alone. Pure: no I/O.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "tournaments/bracket.hpp"
#include "tournaments/results.hpp"
#include "tournaments/settings.hpp"

namespace carc::server::tournaments {

inline constexpr int kRemovedEntrant = -1;  // dropped_after of an entrant removed before the start

// A computer player the organiser entered: "bot:<level>:<n>" (never a public player id,
// which has no ':'). Its level ("easy", "medium", "hard"), or "" for a human's id.
PlayerId bot_id(const std::string& level, int n);
std::string bot_level(const PlayerId& player);

struct Entrant {
  PlayerId player;
  std::string name;
  int dropped_after = 0;  // 0: in; n: dropped after round n; kRemovedEntrant: removed before the start
};

struct Seed {
  PlayerId player;
  double rating = 0;
};

struct Table {
  int round = 1;
  int table = 0;
  int game = 0;
  std::string room;  // "" until its room is made
  std::vector<PlayerId> players;
  std::optional<TableResult> result;
};

struct Tournament {
  std::string id;
  Settings settings;
  std::string organiser;
  std::int64_t created_ms = 0;
  std::string state = "registering";  // "registering" | "running" | "finished"
  int round = 0;
  std::int64_t round_started_ms = 0;
  std::vector<Entrant> entrants;  // registration order
  std::vector<Seed> seeds;        // from the start: best first
  std::vector<Table> tables;
};

// The entrants still registered (not removed), in registration order.
std::vector<Entrant> registered(const Tournament& t);
// The seeds at the start: rating first (the given ratings; none: 0), then registration order.
std::vector<Seed> seed(const Tournament& t, const std::function<double(const PlayerId&)>& rating);

// What the tournament does next. `wait`: a table of the round is still playing. `next_round`:
// the round `round` with `tables` (round 1 from the seeds at the start). `more_games`: a
// knockout match needs another game in the current round. `finish`: the last round is over.
// Byes, and a knockout match against a dropped player, come with their result.
struct Plan {
  enum class Kind { wait, next_round, more_games, finish };
  Kind kind = Kind::wait;
  int round = 0;
  std::vector<Table> tables;
};
Plan plan(const Tournament& t);

// Standings (Swiss, round robin) or places (knockout, once over), from the results alone.
nlohmann::json standings_json(const Tournament& t);
// Everything GET /api/tournaments/<id> answers (docs/tournaments.md#the-api).
nlohmann::json view(const Tournament& t);
nlohmann::json summary(const Tournament& t, std::size_t entrants);  // one line of the list

// The stored forms: a table's players, a result's seats, the seeds.
std::string players_text(const std::vector<PlayerId>& players);
std::optional<std::vector<PlayerId>> parse_players(const std::string& text);
std::string result_text(const TableResult& r);
std::optional<TableResult> parse_result(int round, int table, int game, const std::string& text);
std::string seeds_text(const std::vector<Seed>& seeds);
std::optional<std::vector<Seed>> parse_seeds(const std::string& text);

}  // namespace carc::server::tournaments
