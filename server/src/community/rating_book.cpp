#include "community/rating_book.hpp"

namespace carc::server::community {

bool provisional(const StoredRating& r) { return r.games < kSettledGames || r.sigma > kSettledSigma; }

double shown(const StoredRating& r) { return RatingModel{}.ordinal(Rating{r.mu, r.sigma}); }

StoredResult stored_result(const GameResult& g) {
  StoredResult r;
  r.room = g.room;
  r.pace = g.pace;
  r.expansions = g.expansions;
  r.finished_ms = g.finished_ms;
  r.rated = !unrated_reason(g).has_value();
  r.seats = seats_json(g.seats);
  return r;
}

RatedResult rate_result(const GameResult& g, const std::vector<StoredRating>& current, const RatingModel& model) {
  std::vector<Rating> prior;
  std::vector<StoredRating> before;
  for (const ResultSeat& s : g.seats) {
    StoredRating r{s.player, g.pace, model.mu, model.sigma, 0, s.name, 0};
    for (const StoredRating& c : current) {
      if (c.player == s.player) r = c;
    }
    prior.push_back({r.mu, r.sigma});
    before.push_back(r);
  }
  const std::vector<int> place = places(g);
  const std::vector<Rating> after = rate(prior, place, model);
  RatedResult out;
  for (std::size_t i = 0; i < g.seats.size(); ++i) {
    out.ratings.push_back({g.seats[i].player, g.pace, after[i].mu, after[i].sigma, before[i].games + 1, g.seats[i].name,
                           g.finished_ms});
    out.points.push_back({g.seats[i].player, g.pace, 0, g.room, static_cast<int>(i), place[i], before[i].mu,
                          before[i].sigma, after[i].mu, after[i].sigma, g.finished_ms});
  }
  return out;
}

std::map<std::pair<std::string, std::string>, StoredRating> recompute(const std::vector<StoredResult>& results) {
  std::map<std::pair<std::string, std::string>, StoredRating> book;
  for (const StoredResult& r : results) {
    if (!r.rated) continue;
    auto seats = parse_seats(r.seats);
    if (!seats) continue;
    const GameResult g{r.room, r.pace, r.expansions, r.finished_ms, std::move(*seats)};
    std::vector<StoredRating> current;
    for (const ResultSeat& s : g.seats) {
      if (auto it = book.find({s.player, r.pace}); it != book.end()) current.push_back(it->second);
    }
    for (const StoredRating& n : rate_result(g, current).ratings) book[{n.player, n.pace}] = n;
  }
  return book;
}

}  // namespace carc::server::community
