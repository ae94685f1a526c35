// The directory of open games alone (server/src/community/open_games.hpp): quick play's
// choice (the same expansions and pace, then the most seats taken, then the closest rating
// when both are known, then the oldest), the per-address cap, the list's JSON.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "community/open_games.hpp"

namespace carc::server {

namespace {

OpenListing game(std::string room, int seated, std::int64_t opened, ExpansionSet e = {}, protocol::Pace pace = protocol::Pace::Live) {
  OpenListing l;
  l.room = std::move(room);
  l.seated = seated;
  l.seats = 5;
  l.expansions = e;
  l.pace = pace;
  l.host = "Host";
  l.opened_ms = opened;
  return l;
}

}  // namespace

TEST_CASE("open games: quick play picks the same expansions and pace, then the most seats, then the oldest") {
  const ExpansionSet river = ExpansionSet{}.with(Expansion::River);
  std::vector<OpenListing> games{game("old-base-1", 1, 100), game("new-base-3", 3, 300), game("mid-base-3", 3, 200),
                                 game("river-4", 4, 50, river), game("tb-4", 4, 50, {}, protocol::Pace::TurnBased)};
  CHECK(OpenGames::best(games, {})->room == "mid-base-3");
  CHECK(OpenGames::best(games, {river, protocol::Pace::Live, std::nullopt})->room == "river-4");
  CHECK(OpenGames::best(games, {{}, protocol::Pace::TurnBased, std::nullopt})->room == "tb-4");
  CHECK(!OpenGames::best(games, {river, protocol::Pace::TurnBased, std::nullopt}).has_value());
  // A full one is never offered.
  games[2].seated = 5;
  CHECK(OpenGames::best(games, {})->room == "new-base-3");
  // Ratings (the seam): with both known, the closer host wins among equal seats.
  games[0].seated = 3;
  games[0].rating = 1500;
  games[1].rating = 1800;
  CHECK(OpenGames::best(games, {{}, protocol::Pace::Live, 1750.0})->room == "new-base-3");
  CHECK(OpenGames::best(games, {{}, protocol::Pace::Live, 1400.0})->room == "old-base-1");
}

TEST_CASE("open games: one address opens at most its cap; closing, starting or leaving frees a place") {
  OpenGames dir(2);
  CHECK(!dir.admit("r1", "1.2.3.4").has_value());
  CHECK(!dir.admit("r2", "1.2.3.4").has_value());
  const auto refused = dir.admit("r3", "1.2.3.4");
  REQUIRE(refused);
  CHECK(refused->find("at most 2") != std::string::npos);
  CHECK(!dir.admit("r3", "5.6.7.8").has_value());  // another address
  CHECK(dir.opened_by("1.2.3.4") == 2);
  dir.changed("r1", game("r1", 1, 1), true);
  CHECK(dir.list().size() == 1);
  dir.changed("r1", std::nullopt, true);  // unlisted (full, host away) but still open: still counted
  CHECK(dir.admit("r3", "1.2.3.4").has_value());
  dir.changed("r1", std::nullopt, false);  // started, closed or gone
  CHECK(dir.opened_by("1.2.3.4") == 1);
  CHECK(!dir.admit("r3", "1.2.3.4").has_value());
}

TEST_CASE("open games: the list's JSON, with the rating seam and turn-based clocks") {
  OpenGames dir;
  OpenListing tb = game("tb-room-000", 2, 7, ExpansionSet{}.with(Expansion::Abbot), protocol::Pace::TurnBased);
  tb.bank_seconds = 86400;
  tb.increment_seconds = 3600;
  dir.changed(tb.room, tb, true);
  auto live = game("live-room-00", 1, 5);
  live.turn_seconds = 60;
  dir.changed(live.room, live, true);
  dir.set_rater([](std::vector<OpenListing>& l) {
    for (auto& g : l) if (g.room == "tb-room-000") g.rating = 1620.5;
  });
  const auto j = nlohmann::json::parse(OpenGames::json(dir.list()))["games"];
  REQUIRE(j.size() == 2);
  CHECK(j[0]["room"] == "live-room-00");  // the oldest first
  CHECK(j[0]["turn_seconds"] == 60);
  CHECK(j[0]["bank_seconds"].is_null());
  CHECK(j[0]["rating"].is_null());
  CHECK(j[1]["pace"] == "turn_based");
  CHECK(j[1]["expansions"] == nlohmann::json::array({"abbot"}));
  CHECK(j[1]["bank_seconds"] == 86400);
  CHECK(j[1]["increment_seconds"] == 3600);
  CHECK(j[1]["turn_seconds"].is_null());
  CHECK(j[1]["seats_free"] == 3);
  CHECK(j[1]["rating"] == 1620.5);
}

}  // namespace carc::server

#include "http/routing.hpp"

namespace carc::server {

TEST_CASE("routing: the community's paths go to its API, whatever the method (it answers 405 itself)") {
  using K = Route::Kind;
  auto kind = [](HttpMethod m, std::string_view target) { return route_request(m, target, false, Listen::Public).kind; };
  CHECK(kind(HttpMethod::Get, "/api/open-games") == K::CommunityApi);
  CHECK(kind(HttpMethod::Get, "/api/open-games?x=1") == K::CommunityApi);
  CHECK(kind(HttpMethod::Post, "/api/quick-play") == K::CommunityApi);
  CHECK(kind(HttpMethod::Other, "/api/me/name") == K::CommunityApi);  // PUT
  CHECK(kind(HttpMethod::Get, "/api/players/AAAAAAAAAAAAAAAA/names") == K::CommunityApi);
  // A player's page is the ratings' (docs/community.md#ratings), not this API's.
  CHECK(kind(HttpMethod::Get, "/api/players/AAAAAAAAAAAAAAAA") == K::Player);
  CHECK(kind(HttpMethod::Get, "/api/open-games/x") == K::ApiNotFound);
}

}  // namespace carc::server
