// A tournament as JSON (docs/tournaments.md#the-api), and the stored forms of its rows.
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "carc/protocol/json.hpp"

#include "tournaments/model.hpp"
#include "tournaments/standings.hpp"

namespace carc::server::tournaments {

using json = nlohmann::json;

std::string players_text(const std::vector<PlayerId>& players) { return protocol::json_text(json(players)); }

std::optional<std::vector<PlayerId>> parse_players(const std::string& text) {
  const json j = json::parse(text, nullptr, false);
  if (!j.is_array()) return std::nullopt;
  std::vector<PlayerId> out;
  for (const json& p : j) {
    if (!p.is_string()) return std::nullopt;
    out.push_back(p.get<std::string>());
  }
  return out;
}

std::string result_text(const TableResult& r) {
  json seats = json::array();
  for (const TableSeat& s : r.seats) seats.push_back({{"player", s.player}, {"score", s.score}, {"gone", s.gone}});
  return protocol::json_text(seats);
}

std::optional<TableResult> parse_result(int round, int table, int game, const std::string& text) {
  if (text.empty()) return std::nullopt;
  const json j = json::parse(text, nullptr, false);
  if (!j.is_array() || j.empty()) return std::nullopt;
  TableResult r{round, table, game, {}};
  for (const json& s : j) {
    if (!s.is_object() || !s.contains("player") || !s["player"].is_string() || !s.contains("score") ||
        !s["score"].is_number_integer()) {
      return std::nullopt;
    }
    r.seats.push_back({s["player"].get<std::string>(), s["score"].get<int>(), s.value("gone", false)});
  }
  return r;
}

std::string seeds_text(const std::vector<Seed>& seeds) {
  json j = json::array();
  for (const Seed& s : seeds) j.push_back({{"player", s.player}, {"rating", s.rating}});
  return protocol::json_text(j);
}

std::optional<std::vector<Seed>> parse_seeds(const std::string& text) {
  if (text.empty()) return std::vector<Seed>{};
  const json j = json::parse(text, nullptr, false);
  if (!j.is_array()) return std::nullopt;
  std::vector<Seed> out;
  for (const json& s : j) {
    if (!s.is_object() || !s.contains("player") || !s["player"].is_string()) return std::nullopt;
    out.push_back({s["player"].get<std::string>(), s.value("rating", 0.0)});
  }
  return out;
}

namespace {

double points(std::int64_t units) { return static_cast<double>(units) / kPointUnit; }

}  // namespace

json standings_json(const Tournament& t) {
  json rows = json::array();
  std::vector<PlayerId> players;
  for (const Seed& s : t.seeds) players.push_back(s.player);
  std::vector<TableResult> done;
  for (const Table& table : t.tables) {
    if (table.result) done.push_back(*table.result);
  }
  if (knockout(t.settings.format)) {
    const auto bracket = t.settings.format == Format::double_elimination ? double_elimination(static_cast<int>(players.size()))
                                                                         : single_elimination(static_cast<int>(players.size()));
    const auto states = resolve(bracket, players, done, t.settings.best_of);
    if (auto places = knockout_places(bracket, states, players)) {
      for (const Placing& p : *places) rows.push_back({{"player", p.player}, {"rank", p.place}});
    }
    return rows;
  }
  std::set<PlayerId> out;
  for (const Entrant& e : t.entrants) {
    if (e.dropped_after > 0) out.insert(e.player);
  }
  for (const Standing& s : standings(players, out, done)) {
    rows.push_back({{"player", s.player},
                    {"rank", s.rank},
                    {"points", points(s.points)},
                    {"buchholz", static_cast<double>(s.buchholz) / (kPointUnit * kBuchholzUnit)},
                    {"scored", s.scored},
                    {"tables", s.tables},
                    {"byes", s.byes},
                    {"dropped", s.dropped}});
  }
  return rows;
}

json view(const Tournament& t) {
  json entrants = json::array();
  for (const Entrant& e : registered(t)) {
    entrants.push_back({{"player", e.player}, {"name", e.name},
                        {"dropped_after", e.dropped_after > 0 ? json(e.dropped_after) : json(nullptr)}});
  }
  json seeds = json::array();
  for (const Seed& s : t.seeds) seeds.push_back({{"player", s.player}, {"rating", s.rating}});
  std::map<int, json> rounds;
  for (const Table& table : t.tables) {
    json j{{"table", table.table}, {"game", table.game}, {"players", table.players},
           {"room", table.room.empty() ? json(nullptr) : json(table.room)}, {"bye", table.players.size() == 1}};
    if (table.result) {
      json seats = json::array();
      const std::vector<int> places = table_places(*table.result);
      for (std::size_t i = 0; i < table.result->seats.size(); ++i) {
        const TableSeat& s = table.result->seats[i];
        seats.push_back({{"player", s.player}, {"score", s.score}, {"gone", s.gone}, {"place", places[i]}});
      }
      j["result"] = seats;
    } else {
      j["result"] = nullptr;
    }
    if (!rounds.count(table.round)) rounds[table.round] = json::array();
    rounds[table.round].push_back(j);
  }
  json round_list = json::array();
  for (auto& [n, tables] : rounds) round_list.push_back({{"round", n}, {"tables", tables}});
  return json{{"id", t.id},
              {"settings", settings_json(t.settings)},
              {"organiser", t.organiser},
              {"created", t.created_ms},
              {"state", t.state},
              {"round", t.round},
              {"round_started", t.round_started_ms == 0 ? json(nullptr) : json(t.round_started_ms)},
              {"entrants", entrants},
              {"seeds", seeds},
              {"rounds", round_list},
              {"standings", standings_json(t)}};
}

json summary(const Tournament& t, std::size_t entrants) {
  return json{{"id", t.id},         {"name", t.settings.name},   {"format", format_name(t.settings.format)},
              {"state", t.state},   {"round", t.round},          {"entrants", entrants},
              {"seats", t.settings.seats}, {"pace", t.settings.pace}, {"rated", t.settings.rated},
              {"start", t.settings.start_ms ? json(*t.settings.start_ms) : json("when_full")}};
}

}  // namespace carc::server::tournaments
