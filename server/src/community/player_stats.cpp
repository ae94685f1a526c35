#include "community/player_stats.hpp"

#include <map>

#include "community/game_result.hpp"

namespace carc::server::community {

namespace {

using nlohmann::json;

// Two decimals are all a page shows; rounding here keeps the JSON short and stable.
double two_places(double v) { return static_cast<double>(static_cast<long long>(v * 100.0 + (v < 0 ? -0.5 : 0.5))) / 100.0; }

struct SetTally {
  int games = 0, wins = 0;
  long long score = 0;
};

}  // namespace

json player_stats(const std::vector<PlayerGame>& games) {
  std::map<std::string, SetTally> sets;
  std::map<std::string, long long> points;
  int with_points = 0, analysed = 0, moves = 0;
  double loss = 0;
  for (const PlayerGame& g : games) {
    const auto seats = parse_seats(g.seats);
    if (!seats || g.seat < 0 || static_cast<std::size_t>(g.seat) >= seats->size()) continue;  // unreadable: left out
    const ResultSeat& me = (*seats)[static_cast<std::size_t>(g.seat)];
    SetTally& t = sets[g.expansions];
    ++t.games;
    t.wins += g.rank == 1 ? 1 : 0;
    t.score += me.score;
    if (!me.points.empty()) {
      ++with_points;
      for (const auto& [kind, n] : me.points) points[kind] += n;
    }
    if (g.analysis.empty()) continue;
    const json entries = json::parse(g.analysis, nullptr, false);
    if (!entries.is_array()) continue;
    int mine = 0;
    for (const json& e : entries) {
      // A discard has no label: nothing was chosen, nothing is measured.
      if (!e.is_object() || e.value("seat", -1) != g.seat || !e.contains("label") || e["label"].is_null()) continue;
      const auto l = e.find("loss");
      if (l == e.end() || !l->is_number()) continue;
      loss += l->get<double>();
      ++mine;
    }
    moves += mine;
    analysed += mine > 0 ? 1 : 0;
  }
  json out = {{"games", 0}, {"sets", json::array()}, {"points", json::array()}};
  int total = 0;
  for (const auto& [ids, t] : sets) {
    total += t.games;
    out["sets"].push_back({{"expansions", ids}, {"games", t.games}, {"wins", t.wins},
                           {"win_rate", two_places(static_cast<double>(t.wins) / t.games)},
                           {"average_score", two_places(static_cast<double>(t.score) / t.games)}});
  }
  out["games"] = total;
  for (const auto& [kind, n] : points) {
    out["points"].push_back({{"kind", kind}, {"total", n}, {"per_game", two_places(static_cast<double>(n) / with_points)}});
  }
  out["analysis"] = {{"games", analysed}, {"moves", moves},
                     {"average_loss", moves > 0 ? json(two_places(loss / moves)) : json(nullptr)}};
  return out;
}

}  // namespace carc::server::community
