#include "community/game_result.hpp"

#include <set>

#include <nlohmann/json.hpp>

#include "carc/protocol/json.hpp"

namespace carc::server::community {

std::optional<std::string> unrated_reason(const GameResult& g) {
  if (g.never_rated) return std::string("its room is never rated (an unrated tournament's table)");
  if (g.seats.size() < 2) return "fewer than two players";
  std::set<std::string> players;
  for (std::size_t i = 0; i < g.seats.size(); ++i) {
    const ResultSeat& s = g.seats[i];
    const std::string seat = "seat " + std::to_string(i);
    if (s.bot) return seat + " is a computer player";
    if (s.player.empty()) return seat + " has no player key";
    if (!players.insert(s.player).second) return seat + "'s player holds another seat too";
    // One turn in four played by the computer for someone still seated: the result says
    // too little about the player (a player gone at the end loses instead, places()).
    if (!s.gone && s.auto_turns * 4 > s.turns) {
      return seat + " was played by the computer for " + std::to_string(s.auto_turns) + " of " +
             std::to_string(s.turns) + " turns";
    }
  }
  return std::nullopt;
}

bool has_unbound_seats(const GameResult& g) {
  if (g.never_rated) return false;
  for (const ResultSeat& s : g.seats) {
    if (!s.bot && s.player.empty()) return true;
  }
  return false;
}

void fill_unbound(GameResult& g, const std::map<int, std::string>& players) {
  if (g.never_rated) return;
  for (std::size_t i = 0; i < g.seats.size(); ++i) {
    ResultSeat& s = g.seats[i];
    const auto it = players.find(static_cast<int>(i));
    if (!s.bot && s.player.empty() && it != players.end()) s.player = it->second;
  }
}

std::vector<int> places(const GameResult& g) {
  std::vector<int> out(g.seats.size(), 1);
  for (std::size_t i = 0; i < g.seats.size(); ++i) {
    for (std::size_t j = 0; j < g.seats.size(); ++j) {
      const ResultSeat &a = g.seats[i], &b = g.seats[j];
      const bool better = (!b.gone && a.gone) || (b.gone == a.gone && b.score > a.score);
      if (better) ++out[i];
    }
  }
  return out;
}

std::string seats_json(const std::vector<ResultSeat>& seats) {
  nlohmann::json a = nlohmann::json::array();
  for (const ResultSeat& s : seats) {
    a.push_back({{"player", s.player}, {"name", s.name}, {"bot", s.bot}, {"score", s.score}, {"turns", s.turns},
                 {"auto_turns", s.auto_turns}, {"gone", s.gone}});
    if (!s.points.empty()) a.back()["points"] = s.points;
  }
  return protocol::json_text(a);
}

std::optional<std::vector<ResultSeat>> parse_seats(std::string_view text) {
  const nlohmann::json a = nlohmann::json::parse(text, nullptr, false);
  if (!a.is_array()) return std::nullopt;
  std::vector<ResultSeat> out;
  try {
    for (const nlohmann::json& s : a) {
      out.push_back({s.at("player").get<std::string>(), s.at("name").get<std::string>(), s.at("bot").get<bool>(),
                     s.at("score").get<int>(), s.at("turns").get<int>(), s.at("auto_turns").get<int>(),
                     s.at("gone").get<bool>(), {}});
      if (const auto p = s.find("points"); p != s.end()) out.back().points = p->get<std::map<std::string, int>>();
    }
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;
  }
  return out;
}

}  // namespace carc::server::community
