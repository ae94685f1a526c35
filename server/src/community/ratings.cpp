#include "community/ratings.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <future>
#include <set>

#include <nlohmann/json.hpp>

#include "carc/protocol/json.hpp"
#include <spdlog/spdlog.h>

#include "carc/core/game.hpp"
#include "community/open_games.hpp"
#include "community/player_stats.hpp"
#include "community/rating_book.hpp"
#include "keys/player_id.hpp"

namespace carc::server::community {

namespace {

using nlohmann::json;

constexpr int kChartPoints = 200;   // rating history points per pace on a player's page
constexpr int kRecentGames = 20;    // recent rated games on a player's page
constexpr int kBoardRows = 100;     // leaderboard rows
constexpr int kStatGames = 1000;    // the newest rated games a player's statistics read
constexpr std::int64_t kCachedMs = 30'000;  // how long the open games' rater trusts a read
constexpr std::size_t kCacheSize = 10'000;  // entries before the cache starts again

Ratings::Answer error(int status, std::string_view code, std::string_view message) {
  return {status, protocol::json_text(json{{"error", code}, {"message", message}})};
}
Ratings::Answer unavailable() { return error(503, "unavailable", "ratings cannot be read right now; try again"); }

json rating_json(const StoredRating& r) {
  return {{"rating", shown(r)}, {"mu", r.mu}, {"sigma", r.sigma}, {"games", r.games}, {"provisional", provisional(r)}};
}

// %XX and '+' of a query value.
std::string unescape(std::string_view v) {
  std::string out;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (v[i] == '+') out += ' ';
    else if (v[i] == '%' && i + 2 < v.size() && std::isxdigit(static_cast<unsigned char>(v[i + 1])) &&
             std::isxdigit(static_cast<unsigned char>(v[i + 2]))) {
      out += static_cast<char>(std::stoi(std::string(v.substr(i + 1, 2)), nullptr, 16));
      i += 2;
    } else {
      out += v[i];
    }
  }
  return out;
}

std::int64_t unix_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

}  // namespace

std::string rated_message(const std::string& pace, const std::vector<RoomRatingPoint>& seats) {
  json out = json::array();
  for (const auto& [p, games] : seats) {
    const StoredRating before{p.player, p.pace, p.mu_before, p.sigma_before, games - 1, {}, 0};
    const StoredRating after{p.player, p.pace, p.mu, p.sigma, games, {}, 0};
    out.push_back({{"seat", p.seat}, {"player", p.player}, {"place", p.rank}, {"before", shown(before)},
                   {"after", shown(after)}, {"change", shown(after) - shown(before)}, {"games", games},
                   {"provisional", provisional(after)}});
  }
  return protocol::json_text(json{{"type", "rated"}, {"pace", pace}, {"seats", std::move(out)}});
}

std::optional<BoardQuery> parse_board_query(std::string_view query, std::string* why) {
  BoardQuery q;
  bool have_pace = false;
  while (!query.empty()) {
    const std::size_t amp = query.find('&');
    const std::string_view part = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view{} : query.substr(amp + 1);
    if (part.empty()) continue;
    const std::size_t eq = part.find('=');
    const std::string_view name = part.substr(0, eq);
    const std::string value = eq == std::string_view::npos ? std::string() : unescape(part.substr(eq + 1));
    if (name == "pace") {
      if (value == "live") q.pace = "live";
      else if (value == "turn-based" || value == "turn_based") q.pace = "turn-based";
      else return *why = "pace must be live or turn-based", std::nullopt;
      have_pace = true;
    } else if (name == "expansions") {
      // The ids in the engine's order, as results store them; each known once.
      std::set<int> seen;
      std::string rest = value;
      while (!rest.empty()) {
        const std::size_t comma = rest.find(',');
        const std::string id = rest.substr(0, comma);
        rest = comma == std::string::npos ? std::string() : rest.substr(comma + 1);
        int found = -1;
        for (int e = 0; e < kExpansionKinds; ++e) {
          if (expansion_name(static_cast<Expansion>(e)) == id) found = e;
        }
        if (found < 0 || !seen.insert(found).second) return *why = "unknown or repeated expansion id: " + id.substr(0, 40), std::nullopt;
      }
      std::string ids;
      for (int e : seen) ids += (ids.empty() ? "" : ",") + std::string(expansion_name(static_cast<Expansion>(e)));
      q.expansions = ids;
    } else {
      return *why = "unknown parameter: " + std::string(name.substr(0, 40)), std::nullopt;
    }
  }
  if (!have_pace) return *why = "pace=live or pace=turn-based is required", std::nullopt;
  return q;
}

Ratings::Ratings(std::unique_ptr<RatingStore> store) : store_(std::move(store)), worker_("carc-ratings") {}

void Ratings::record(GameResult g, std::function<void(std::string)> rated) {
  auto store = store_;
  const bool queued = worker_.post([this, store, g = std::move(g), rated = std::move(rated)] {
    const StoredResult stored = stored_result(g);
    if (!stored.rated) spdlog::info("room {}: not rated ({})", g.room, *unrated_reason(g));
    std::vector<std::string> players;
    for (const ResultSeat& s : g.seats) players.push_back(s.player);
    RatedResult made;
    const auto r = store->record(stored, players, [&](std::int64_t, const std::vector<StoredRating>& current) {
      made = rate_result(g, current);
      return made;
    });
    if (const auto* why = std::get_if<std::string>(&r)) {
      // Not stored: the room's log still has the game, and the next start derives it again.
      return spdlog::error("ratings: room {}: the result could not be stored ({}); it is rated at the next start", g.room, *why);
    }
    if (!std::get<bool>(r) || !stored.rated) return;  // recorded before: counted once
    for (const StoredRating& after : made.ratings) remember(after.player, after.pace, shown(after));
    if (!rated) return;
    std::vector<RoomRatingPoint> seats;
    for (std::size_t i = 0; i < made.points.size(); ++i) seats.push_back({made.points[i], made.ratings[i].games});
    rated(rated_message(g.pace, seats));
  });
  if (!queued) spdlog::error("ratings: room {}: the ratings' queue is full; it is rated at the next start", g.room);
}

void Ratings::player(std::string id, std::function<void(Answer)> done) {
  if (!player_id_well_formed(id)) return done(error(400, "bad_request", "a player id is 16 base64url characters"));
  auto store = store_;
  if (!worker_.post([store, id, done] {
        const auto ratings = store->ratings(id);
        if (std::holds_alternative<std::string>(ratings)) return done(unavailable());
        const auto& list = std::get<std::vector<StoredRating>>(ratings);
        if (list.empty()) return done(error(404, "not_found", "no rated games for this player"));
        json out = {{"player", id}, {"name", nullptr}, {"ratings", json::object()}, {"recent", json::array()}};
        std::vector<StoredRatingPoint> recent;
        std::int64_t newest = -1;
        for (const StoredRating& r : list) {
          const auto points = store->points(id, r.pace, kChartPoints);
          if (std::holds_alternative<std::string>(points)) return done(unavailable());
          json chart = json::array();
          const auto& ps = std::get<std::vector<StoredRatingPoint>>(points);
          for (auto it = ps.rbegin(); it != ps.rend(); ++it) {  // oldest first
            chart.push_back({{"at", it->finished_ms}, {"rating", it->mu - 3 * it->sigma}, {"room", it->room}});
          }
          json one = rating_json(r);
          one["history"] = std::move(chart);
          out["ratings"][r.pace] = std::move(one);
          // The name of its last game's seat (docs/community.md: a profile's name goes here).
          if (r.updated_ms > newest) newest = r.updated_ms, out["name"] = r.name;
          recent.insert(recent.end(), ps.begin(), ps.end());
        }
        // Recent games and statistics read the results themselves (docs/community.md, "A player's page").
        const auto games = store->games(id, kStatGames);
        if (std::holds_alternative<std::string>(games)) return done(unavailable());
        const auto& gs = std::get<std::vector<PlayerGame>>(games);
        std::map<std::int64_t, const StoredRatingPoint*> by_seq;
        for (const StoredRatingPoint& p : recent) by_seq[p.seq] = &p;
        for (std::size_t i = 0; i < gs.size() && i < static_cast<std::size_t>(kRecentGames); ++i) {
          const PlayerGame& g = gs[i];
          json one = {{"room", g.room}, {"pace", g.pace}, {"at", g.finished_ms}, {"seat", g.seat}, {"place", g.rank},
                      {"expansions", g.expansions}, {"before", nullptr}, {"after", nullptr}, {"score", nullptr},
                      {"players", nullptr}, {"analysed", !g.analysis.empty()}};
          if (const auto it = by_seq.find(g.seq); it != by_seq.end()) {
            one["before"] = it->second->mu_before - 3 * it->second->sigma_before;
            one["after"] = it->second->mu - 3 * it->second->sigma;
          }
          if (const auto seats = parse_seats(g.seats); seats && static_cast<std::size_t>(g.seat) < seats->size()) {
            one["score"] = (*seats)[static_cast<std::size_t>(g.seat)].score;
            one["players"] = seats->size();
          }
          out["recent"].push_back(std::move(one));
        }
        out["stats"] = player_stats(gs);
        done({200, protocol::json_text(out)});
      })) {
    done(unavailable());
  }
}

void Ratings::room(std::string id, std::function<void(Answer)> done) {
  auto store = store_;
  if (!worker_.post([store, id, done] {
        const auto points = store->room_points(id);
        if (std::holds_alternative<std::string>(points)) return done(unavailable());
        const auto& seats = std::get<std::vector<RoomRatingPoint>>(points);
        if (seats.empty()) return done(error(404, "not_found", "no rated result for this room (not rated, or not yet)"));
        done({200, rated_message(seats.front().point.pace, seats)});
      })) {
    done(unavailable());
  }
}

void Ratings::leaderboard(std::string query, std::function<void(Answer)> done) {
  std::string why;
  const auto q = parse_board_query(query, &why);
  if (!q) return done(error(400, "bad_request", why));
  auto store = store_;
  if (!worker_.post([store, q = *q, done] {
        const auto rows = store->leaderboard(q.pace, q.expansions, kBoardRows);
        if (std::holds_alternative<std::string>(rows)) return done(unavailable());
        json players = json::array();
        for (const LeaderRow& row : std::get<std::vector<LeaderRow>>(rows)) {
          json one = rating_json(row.rating);
          one["player"] = row.rating.player;
          one["name"] = row.rating.name;
          one["games"] = row.games;
          players.push_back(std::move(one));
        }
        json out = {{"pace", q.pace}, {"players", std::move(players)}};
        if (q.expansions) out["expansions"] = *q.expansions;
        done({200, protocol::json_text(out)});
      })) {
    done(unavailable());
  }
}

void Ratings::remember(const std::string& player, const std::string& pace, std::optional<double> rating) {
  std::lock_guard lock(cache_mu_);
  if (cache_.size() >= kCacheSize) cache_.clear();
  Cached& c = cache_[{player, pace}];
  c.rating = rating;
  c.read_ms = unix_ms();
  c.reading = false;
}

std::optional<double> Ratings::read_rating(const std::string& player, const std::string& pace) {
  const auto list = store_->ratings(player);
  if (std::holds_alternative<std::string>(list)) return std::nullopt;  // unreadable now: asked again later
  std::optional<double> found;
  for (const StoredRating& r : std::get<std::vector<StoredRating>>(list)) {
    if (r.pace == pace) found = shown(r);
  }
  remember(player, pace, found);
  return found;
}

std::optional<double> Ratings::cached(const std::string& player, const std::string& pace) {
  std::optional<double> out;
  {
    std::lock_guard lock(cache_mu_);
    if (cache_.size() >= kCacheSize) cache_.clear();
    Cached& c = cache_[{player, pace}];
    out = c.rating;
    if (c.reading || (c.read_ms > 0 && unix_ms() - c.read_ms < kCachedMs)) return out;
    c.reading = true;
  }
  const bool queued = worker_.post([this, player, pace] {
    if (!player_id_well_formed(player)) return remember(player, pace, std::nullopt);
    read_rating(player, pace);
  });
  if (!queued) {
    std::lock_guard lock(cache_mu_);
    cache_[{player, pace}].reading = false;
  }
  return out;
}

void Ratings::current(std::string player, std::string pace, std::function<void(std::optional<double>)> done) {
  if (!worker_.post([this, player, pace, done] { done(read_rating(player, pace)); })) done(std::nullopt);
}

void rate_open_games(OpenGames& games, std::shared_ptr<Ratings> ratings) {
  games.set_rater([ratings = std::move(ratings)](std::vector<OpenListing>& list) {
    for (OpenListing& g : list) {
      if (!g.host_player.empty()) g.rating = ratings->cached(g.host_player, g.pace == protocol::Pace::TurnBased ? "turn-based" : "live");
    }
  });
}

void Ratings::drain() {
  std::promise<void> p;
  auto f = p.get_future();
  if (worker_.post([&p] { p.set_value(); })) f.wait();
}

}  // namespace carc::server::community
