// What a tournament does next, from its stored rows alone (docs/tournaments.md#rounds).
#include "tournaments/model.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "tournaments/round_robin.hpp"
#include "tournaments/standings.hpp"
#include "tournaments/swiss.hpp"

namespace carc::server::tournaments {

PlayerId bot_id(const std::string& level, int n) { return "bot:" + level + ":" + std::to_string(n); }

std::string bot_level(const PlayerId& player) {
  if (!player.starts_with("bot:")) return {};
  const auto end = player.find(':', 4);
  return end == std::string::npos ? std::string() : player.substr(4, end - 4);
}

std::vector<Entrant> registered(const Tournament& t) {
  std::vector<Entrant> out;
  for (const Entrant& e : t.entrants) {
    if (e.dropped_after != kRemovedEntrant) out.push_back(e);
  }
  return out;
}

std::vector<Seed> seed(const Tournament& t, const std::function<double(const PlayerId&)>& rating) {
  std::vector<Seed> seeds;
  for (const Entrant& e : registered(t)) seeds.push_back({e.player, rating(e.player)});
  std::stable_sort(seeds.begin(), seeds.end(), [](const Seed& a, const Seed& b) { return a.rating > b.rating; });
  return seeds;
}

namespace {

std::vector<PlayerId> seed_players(const Tournament& t) {
  std::vector<PlayerId> out;
  for (const Seed& s : t.seeds) out.push_back(s.player);
  return out;
}

std::set<PlayerId> dropped(const Tournament& t) {
  std::set<PlayerId> out;
  for (const Entrant& e : t.entrants) {
    if (e.dropped_after > 0) out.insert(e.player);
  }
  return out;
}

std::vector<TableResult> results(const Tournament& t) {
  std::vector<TableResult> out;
  for (const Table& table : t.tables) {
    if (table.result) out.push_back(*table.result);
  }
  return out;
}

// A table of the round; a table of one is a bye, played at once.
Table make_table(int round, int index, int game, std::vector<PlayerId> players) {
  Table table{round, index, game, "", std::move(players), std::nullopt};
  if (table.players.size() == 1) table.result = TableResult{round, index, game, {{table.players[0], 0, false}}};
  return table;
}

std::vector<Match> bracket_of(const Tournament& t) {
  const int n = static_cast<int>(t.seeds.size());
  return t.settings.format == Format::double_elimination ? double_elimination(n) : single_elimination(n);
}

// A knockout game: a dropped player forfeits it (gone, 0 points) and it needs no room.
Table knockout_game(const Tournament& t, int round, int index, int game, const PlayerId& a, const PlayerId& b) {
  Table table{round, index, game, "", {a, b}, std::nullopt};
  const std::set<PlayerId> out = dropped(t);
  if (out.count(a) || out.count(b)) {
    table.result = TableResult{round, index, game, {{a, 0, out.count(a) > 0}, {b, 0, out.count(b) > 0}}};
    if (out.count(a) && out.count(b)) table.result->seats[0].gone = false;  // both dropped: the first seat goes on
  }
  return table;
}

Plan knockout_plan(const Tournament& t) {
  const std::vector<Match> bracket = bracket_of(t);
  const std::vector<MatchState> states = resolve(bracket, seed_players(t), results(t), t.settings.best_of);
  Plan p;
  // A match of the current round still undecided after its games: one more game.
  for (std::size_t i = 0; i < bracket.size(); ++i) {
    const MatchState& s = states[i];
    if (t.round == 0 || bracket[i].round != t.round || s.decided) continue;
    if (s.a.kind != Slot::Kind::player || s.b.kind != Slot::Kind::player) continue;
    p.kind = Plan::Kind::more_games;
    p.round = t.round;
    p.tables.push_back(knockout_game(t, t.round, static_cast<int>(i), s.games, s.a.player, s.b.player));
  }
  if (!p.tables.empty()) return p;
  if (std::all_of(states.begin(), states.end(), [](const MatchState& s) { return s.decided; })) {
    return {Plan::Kind::finish, t.round, {}};
  }
  p.kind = Plan::Kind::next_round;
  p.round = t.round + 1;
  for (std::size_t i = 0; i < bracket.size(); ++i) {
    const MatchState& s = states[i];
    if (bracket[i].round != p.round || s.decided) continue;
    if (s.a.kind == Slot::Kind::player && s.b.kind == Slot::Kind::player) {
      p.tables.push_back(knockout_game(t, p.round, static_cast<int>(i), 0, s.a.player, s.b.player));
    }
  }
  return p;
}

}  // namespace

Plan plan(const Tournament& t) {
  for (const Table& table : t.tables) {
    if (table.round == t.round && !table.result) return {};  // still playing
  }
  if (knockout(t.settings.format)) return knockout_plan(t);
  const std::set<PlayerId> out = dropped(t);
  std::vector<PlayerId> active;
  for (const Seed& s : t.seeds) {
    if (!out.count(s.player)) active.push_back(s.player);
  }
  Plan p{Plan::Kind::next_round, t.round + 1, {}};
  std::vector<std::vector<PlayerId>> seating;
  if (t.settings.format == Format::swiss) {
    if (t.round >= t.settings.rounds || active.size() < 2) return {Plan::Kind::finish, t.round, {}};
    const std::vector<TableResult> done = results(t);
    std::vector<PlayerId> ranked;
    for (const Standing& s : standings(seed_players(t), out, done)) {
      if (!s.dropped) ranked.push_back(s.player);
    }
    std::set<PlayerId> had_bye;
    for (const TableResult& r : done) {
      if (r.bye()) had_bye.insert(r.seats[0].player);
    }
    seating = swiss_pairing(ranked, met_pairs(done), had_bye, t.settings.per_table).tables;
  } else {
    const auto schedule = round_robin(seed_players(t), t.settings.per_table);
    if (t.round >= static_cast<int>(schedule.size()) || active.size() < 2) return {Plan::Kind::finish, t.round, {}};
    for (const auto& table : schedule[static_cast<std::size_t>(t.round)]) {
      std::vector<PlayerId> here;
      for (const PlayerId& player : table) {
        if (!out.count(player)) here.push_back(player);
      }
      if (!here.empty()) seating.push_back(std::move(here));
    }
  }
  for (std::size_t i = 0; i < seating.size(); ++i) {
    p.tables.push_back(make_table(p.round, static_cast<int>(i), 0, std::move(seating[i])));
  }
  return p;
}

}  // namespace carc::server::tournaments
