// Results and ratings (docs/community.md#ratings) on every backend: a result is stored once
// with the ratings it changed, the ratings recomputed from the stored results are exactly the
// stored ones, the finished rooms without a result are found again, and which games count.
#include <doctest/doctest.h>

#include <cmath>
#include <future>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "carc/server/key_store.hpp"
#include "carc/server/pg_store.hpp"
#include "carc/server/rating_store.hpp"
#include "carc/server/sqlite_store.hpp"
#include "community/game_result.hpp"
#include "community/player_stats.hpp"
#include "community/rating_book.hpp"
#include "keys/player_id.hpp"
#include "keys/player_keys.hpp"
#include "helpers.hpp"
#include "pg_server.hpp"

using namespace carc::server;
using namespace carc::server::community;
using carc::test::PgServer;
using carc::test::TempDir;

namespace {

// A room store and a rating store on one database (as the server opens them).
struct Backend {
  std::string name;
  std::unique_ptr<RoomStore> rooms;
  std::function<std::unique_ptr<RatingStore>()> open_ratings;
  std::function<std::unique_ptr<KeyStore>()> open_keys;
  std::unique_ptr<RatingStore> ratings;
  std::shared_ptr<TempDir> dir;
};

std::vector<Backend> backends(bool open_ratings = true) {
  std::vector<Backend> out;
  {
    Backend b;
    b.name = "sqlite";
    b.dir = std::make_shared<TempDir>();
    b.rooms = SqliteStore::open(b.dir->path(), {});
    const auto file = b.dir->path() / SqliteStore::kFileName;
    b.open_ratings = [file] { return RatingStore::sqlite(file); };
    b.open_keys = [file] { return KeyStore::sqlite(file); };
    out.push_back(std::move(b));
  }
  {
    Backend b;
    b.name = "postgresql";
    const std::string url = PgServer::shared().fresh_database();
    PgStore::Options o;
    o.node_id = "test-node";
    b.rooms = PgStore::open(url, o);
    b.open_ratings = [url] { return RatingStore::postgres(url); };
    b.open_keys = [url] { return KeyStore::postgres(url); };
    out.push_back(std::move(b));
  }
  {
    Backend b;
    b.name = "memory";
    auto shared = std::shared_ptr<RatingStore>(RatingStore::memory());
    // The memory store lives as long as the process: "reopening" gives the same one.
    struct Same final : RatingStore {
      std::shared_ptr<RatingStore> s;
      explicit Same(std::shared_ptr<RatingStore> x) : s(std::move(x)) {}
      std::variant<bool, std::string> record(const StoredResult& r, const std::vector<std::string>& p, const Rate& f) override {
        return s->record(r, p, f);
      }
      std::variant<std::vector<StoredResult>, std::string> results() override { return s->results(); }
      std::variant<std::vector<StoredRating>, std::string> ratings(const std::string& p) override { return s->ratings(p); }
      std::variant<std::vector<StoredRatingPoint>, std::string> points(const std::string& p, const std::string& pace, int n) override {
        return s->points(p, pace, n);
      }
      std::variant<std::vector<LeaderRow>, std::string> leaderboard(const std::string& pace, const std::optional<std::string>& e,
                                                                    int n) override {
        return s->leaderboard(pace, e, n);
      }
      std::variant<std::vector<PlayerGame>, std::string> games(const std::string& p, int n) override { return s->games(p, n); }
      std::variant<std::vector<RoomRatingPoint>, std::string> room_points(const std::string& r) override { return s->room_points(r); }
      std::variant<std::vector<std::string>, std::string> unrecorded_rooms() override { return s->unrecorded_rooms(); }
    };
    b.open_ratings = [shared] { return std::make_unique<Same>(shared); };
    b.open_keys = [] { return KeyStore::memory(); };
    out.push_back(std::move(b));
  }
  for (Backend& b : out) {
    if (open_ratings) b.ratings = b.open_ratings();
  }
  return out;
}

// What Ratings::record does: the result stored once, rated with rate_result.
bool record(RatingStore& store, const GameResult& g) {
  std::vector<std::string> players;
  for (const ResultSeat& s : g.seats) players.push_back(s.player);
  const auto r = store.record(stored_result(g), players,
                              [&](std::int64_t, const std::vector<StoredRating>& current) { return rate_result(g, current); });
  REQUIRE(std::holds_alternative<bool>(r));
  return std::get<bool>(r);
}

ResultSeat seat(std::string player, int score, bool gone = false) {
  return ResultSeat{std::move(player), "name of " + player, false, score, 36, gone ? 20 : 0, gone, {}};
}

const std::vector<std::string> kPlayers = {"AAAAAAAAAAAAAAA0", "AAAAAAAAAAAAAAA1", "AAAAAAAAAAAAAAA2", "AAAAAAAAAAAAAAA3",
                                           "AAAAAAAAAAAAAAA4", "AAAAAAAAAAAAAAA5", "AAAAAAAAAAAAAAA6", "AAAAAAAAAAAAAAA7"};

// `n` random games among kPlayers: 2 to 6 seats, random scores (ties included), some players
// gone before the end, some games unrated (a computer player, a seat with no player).
std::vector<GameResult> random_games(int n, unsigned seed) {
  std::mt19937 rnd(seed);
  std::vector<GameResult> out;
  for (int k = 0; k < n; ++k) {
    GameResult g;
    g.room = "room-" + std::to_string(seed) + "-" + std::to_string(k);
    g.pace = rnd() % 3 == 0 ? "turn-based" : "live";
    g.expansions = rnd() % 2 == 0 ? "" : "river";
    g.finished_ms = 1'700'000'000'000 + k * 60'000;
    std::vector<std::string> pool = kPlayers;
    std::shuffle(pool.begin(), pool.end(), rnd);
    const int seats = 2 + static_cast<int>(rnd() % 5);
    for (int i = 0; i < seats; ++i) g.seats.push_back(seat(pool[static_cast<std::size_t>(i)], static_cast<int>(rnd() % 8) * 10, rnd() % 10 == 0));
    if (rnd() % 10 == 0) g.seats[0].bot = true;
    if (rnd() % 10 == 0) g.seats[1].player.clear();
    out.push_back(std::move(g));
  }
  return out;
}

void check_recomputed(RatingStore& store) {
  const auto results = store.results();
  REQUIRE(std::holds_alternative<std::vector<StoredResult>>(results));
  const auto book = recompute(std::get<std::vector<StoredResult>>(results));
  std::size_t stored = 0;
  for (const std::string& p : kPlayers) {
    const auto mine = store.ratings(p);
    REQUIRE(std::holds_alternative<std::vector<StoredRating>>(mine));
    for (const StoredRating& r : std::get<std::vector<StoredRating>>(mine)) {
      CAPTURE(p);
      CAPTURE(r.pace);
      const auto it = book.find({p, r.pace});
      REQUIRE(it != book.end());
      CHECK(it->second.mu == r.mu);  // exactly: the same doubles, bit for bit
      CHECK(it->second.sigma == r.sigma);
      CHECK(it->second.games == r.games);
      CHECK(it->second.name == r.name);
      ++stored;
    }
  }
  CHECK(stored == book.size());
}

bool check_recomputed_empty(const std::vector<StoredResult>& results) { return recompute(results).empty(); }

}  // namespace

TEST_CASE("ratings: recomputing every rating from the stored results gives the stored numbers, before and after a reopen") {
  for (Backend& b : backends()) {
    CAPTURE(b.name);
    int rated = 0;
    for (const GameResult& g : random_games(150, 7)) {
      CHECK(record(*b.ratings, g));
      rated += unrated_reason(g) ? 0 : 1;
    }
    CHECK(rated > 60);
    check_recomputed(*b.ratings);
    b.ratings = b.open_ratings();  // as after a restart
    check_recomputed(*b.ratings);
    // The leaderboard is in order of mu - 3 sigma.
    const auto board = b.ratings->leaderboard("live", std::nullopt, 100);
    REQUIRE(std::holds_alternative<std::vector<LeaderRow>>(board));
    const auto& rows = std::get<std::vector<LeaderRow>>(board);
    CHECK(rows.size() == kPlayers.size());
    for (std::size_t i = 1; i < rows.size(); ++i) CHECK(shown(rows[i - 1].rating) >= shown(rows[i].rating));
    const auto river = b.ratings->leaderboard("live", std::string("river"), 100);
    REQUIRE(std::holds_alternative<std::vector<LeaderRow>>(river));
    CHECK_FALSE(std::get<std::vector<LeaderRow>>(river).empty());
    for (const LeaderRow& r : std::get<std::vector<LeaderRow>>(river)) CHECK((r.games > 0 && r.games <= r.rating.games));
  }
}

TEST_CASE("ratings: a result recorded again counts nothing twice") {
  for (Backend& b : backends()) {
    CAPTURE(b.name);
    GameResult g{"room-once-1", "live", "", 1'700'000'000'000, {seat(kPlayers[0], 80), seat(kPlayers[1], 50)}};
    CHECK(record(*b.ratings, g));
    CHECK_FALSE(record(*b.ratings, g));
    b.ratings = b.open_ratings();
    g.seats[0].score = 0;  // derived again differently: still the first one stands
    CHECK_FALSE(record(*b.ratings, g));
    const auto r = std::get<std::vector<StoredRating>>(b.ratings->ratings(kPlayers[0]));
    REQUIRE(r.size() == 1);
    CHECK(r[0].games == 1);
    CHECK(r[0].mu > 25.0);  // it won
    const auto points = std::get<std::vector<StoredRatingPoint>>(b.ratings->points(kPlayers[1], "live", 10));
    REQUIRE(points.size() == 1);
    CHECK(points[0].room == "room-once-1");
    CHECK(points[0].rank == 2);
    CHECK(std::get<std::vector<StoredResult>>(b.ratings->results()).size() == 1);
  }
}

TEST_CASE("ratings: a room's rated seats are read again with each player's games so far (the end screen after a reload)") {
  for (Backend& b : backends()) {
    CAPTURE(b.name);
    CHECK(record(*b.ratings, GameResult{"room-again-1", "live", "", 1'700'000'000'000, {seat(kPlayers[0], 80), seat(kPlayers[1], 50)}}));
    CHECK(record(*b.ratings, GameResult{"room-again-2", "live", "", 1'700'000'060'000,
                                        {seat(kPlayers[2], 10), seat(kPlayers[1], 90), seat(kPlayers[0], 40)}}));
    CHECK(record(*b.ratings, GameResult{"room-again-3", "live", "", 1'700'000'120'000, {seat(kPlayers[0], 10), {}}}));  // unrated
    b.ratings = b.open_ratings();
    const auto read = b.ratings->room_points("room-again-2");
    REQUIRE(std::holds_alternative<std::vector<RoomRatingPoint>>(read));
    const auto& seats = std::get<std::vector<RoomRatingPoint>>(read);
    REQUIRE(seats.size() == 3);
    const auto mine = std::get<std::vector<StoredRatingPoint>>(b.ratings->points(kPlayers[0], "live", 10));
    REQUIRE(mine.size() == 2);
    for (int i = 0; i < 3; ++i) CHECK(seats[static_cast<std::size_t>(i)].point.seat == i);
    CHECK(seats[2].point == mine[0]);  // the newest point of player 0 is this room's
    CHECK(seats[0].games == 1);
    CHECK(seats[1].games == 2);
    CHECK(seats[2].games == 2);
    CHECK(seats[1].point.rank == 1);
    CHECK(std::get<std::vector<RoomRatingPoint>>(b.ratings->room_points("room-again-3")).empty());
    CHECK(std::get<std::vector<RoomRatingPoint>>(b.ratings->room_points("no-such-room")).empty());
  }
}

TEST_CASE("ratings: finished rooms without a result are found again, and only those") {
  for (Backend& b : backends()) {
    if (b.name == "memory") continue;  // no rooms to look at
    CAPTURE(b.name);
    Batch batch;
    for (const char* id : {"finished-no-result", "finished-with-result", "still-playing"}) batch.writes.push_back(CreateRoom{id, 1});
    batch.writes.push_back(SetPhase{"finished-no-result", "finished"});
    batch.writes.push_back(SetPhase{"finished-with-result", "finished"});
    batch.writes.push_back(SetPhase{"still-playing", "playing"});
    REQUIRE(b.rooms->commit(batch).committed());
    CHECK(record(*b.ratings, GameResult{"finished-with-result", "live", "", 1, {seat(kPlayers[0], 1), seat(kPlayers[1], 2)}}));
    const auto pending = b.ratings->unrecorded_rooms();
    REQUIRE(std::holds_alternative<std::vector<std::string>>(pending));
    CHECK(std::get<std::vector<std::string>>(pending) == std::vector<std::string>{"finished-no-result"});
  }
}

TEST_CASE("ratings: the games finished before the ratings existed are recorded unrated when the tables are made") {
  for (Backend& b : backends(false)) {
    if (b.name == "memory") continue;
    CAPTURE(b.name);
    Batch batch;
    for (const char* id : {"old-finished-1", "old-finished-2", "old-playing"}) batch.writes.push_back(CreateRoom{id, 1});
    batch.writes.push_back(SetPhase{"old-finished-1", "finished"});
    batch.writes.push_back(SetPhase{"old-finished-2", "finished"});
    REQUIRE(b.rooms->commit(batch).committed());
    b.ratings = b.open_ratings();  // makes the tables
    CHECK(std::get<std::vector<std::string>>(b.ratings->unrecorded_rooms()).empty());
    const auto results = std::get<std::vector<StoredResult>>(b.ratings->results());
    REQUIRE(results.size() == 2);
    for (const StoredResult& r : results) CHECK_FALSE(r.rated);
    CHECK(check_recomputed_empty(results));
    // A game that ends from now on is derived as usual.
    Batch later;
    later.writes.push_back(SetPhase{"old-playing", "finished"});
    REQUIRE(b.rooms->commit(later).committed());
    b.ratings = b.open_ratings();  // a restart: the tables exist, nothing is filled in again
    CHECK(std::get<std::vector<std::string>>(b.ratings->unrecorded_rooms()) == std::vector<std::string>{"old-playing"});
    CHECK(record(*b.ratings, GameResult{"old-playing", "live", "", 1, {seat(kPlayers[0], 1), seat(kPlayers[1], 2)}}));
    CHECK(std::get<std::vector<StoredResult>>(b.ratings->results()).back().seq == 3);
  }
}

TEST_CASE("ratings: which games are rated, and the places") {
  GameResult g{"r", "live", "", 1, {seat("P0", 50), seat("P1", 70), seat("P2", 50)}};
  CHECK_FALSE(unrated_reason(g));
  CHECK(places(g) == std::vector<int>{2, 1, 2});  // a tie shares a place
  // Whoever is gone at the end ranks below everyone still seated, whatever the score, and
  // their computer-played turns do not make the game unrated.
  g.seats[1].gone = true;
  g.seats[1].auto_turns = 30;
  CHECK_FALSE(unrated_reason(g));
  CHECK(places(g) == std::vector<int>{1, 3, 1});
  // Someone still seated whose turns the computer played for more than a quarter.
  g.seats[0].auto_turns = 10;  // of 36
  CHECK(unrated_reason(g).value_or("").find("10 of 36") != std::string::npos);
  g.seats[0].auto_turns = 9;  // a quarter exactly still counts
  CHECK_FALSE(unrated_reason(g));
  GameResult bot = g;
  bot.seats[2].bot = true;
  CHECK(unrated_reason(bot).value_or("").find("computer player") != std::string::npos);
  GameResult nobody = g;
  nobody.seats[2].player.clear();
  CHECK(unrated_reason(nobody).value_or("").find("no player") != std::string::npos);
  GameResult twice = g;
  twice.seats[2].player = "P0";
  CHECK(unrated_reason(twice).value_or("").find("another seat") != std::string::npos);
  GameResult alone{"r", "live", "", 1, {seat("P0", 1)}};
  CHECK(unrated_reason(alone));
  // Seats survive their stored form.
  CHECK(parse_seats(seats_json(g.seats)) == g.seats);
  CHECK_FALSE(parse_seats("[{\"player\": 3}]"));
  CHECK_FALSE(parse_seats("not json"));
}

TEST_CASE("ratings: provisional until 5 games and sigma 6.5") {
  StoredRating r{"P", "live", 25, 25.0 / 3, 0, "", 0};
  CHECK(provisional(r));
  r.games = 5;
  CHECK(provisional(r));
  r.sigma = 6.5;
  CHECK_FALSE(provisional(r));
  r.games = 4;
  CHECK(provisional(r));
  CHECK(shown(StoredRating{"P", "live", 25, 25.0 / 3, 0, "", 0}) == doctest::Approx(0.0));
}

TEST_CASE("ratings: a player's games and statistics come from the stored results and analyses, on every backend") {
  for (Backend& b : backends()) {
    CAPTURE(b.name);
    GameResult won{"room-stats-1", "live", "", 1'700'000'000'000, {seat(kPlayers[0], 30), seat(kPlayers[1], 20)}};
    won.seats[0].points = {{"city", 20}, {"road", 10}};
    won.seats[1].points = {{"road", 20}};
    GameResult lost{"room-stats-2", "turn-based", "river", 1'700'000'060'000, {seat(kPlayers[0], 10), seat(kPlayers[1], 40)}};
    lost.seats[0].points = {{"city", 4}, {"monastery", 6}};
    GameResult unrated{"room-stats-3", "live", "", 1'700'000'120'000, {seat(kPlayers[0], 50), seat(kPlayers[1], 0)}};
    unrated.seats[1].bot = true;
    for (const GameResult& g : {won, lost, unrated}) CHECK(record(*b.ratings, g));
    if (b.rooms) {
      // The analysis of the first game, in the rooms' own table: seat 0 gave away 0 and 7
      // points, seat 1 2.5; a discard (no label) is not a choice.
      REQUIRE(carc::test::create(*b.rooms, "room-stats-1"));
      REQUIRE(b.rooms->save_analysis(StoredAnalysis{"room-stats-1", "done", "{}",
                                                    R"([{"move":0,"seat":0,"label":"best","loss":0},{"move":1,"seat":1,"label":"good","loss":2.5},)"
                                                    R"({"move":2,"seat":0,"label":"mistake","loss":7},{"move":3,"seat":0,"label":null,"loss":0}])"}));
    }
    for (int reopen = 0; reopen < 2; ++reopen) {
      CAPTURE(reopen);
      if (reopen == 1) b.ratings = b.open_ratings();
      const auto read = b.ratings->games(kPlayers[0], 10);
      REQUIRE(std::holds_alternative<std::vector<PlayerGame>>(read));
      const auto& games = std::get<std::vector<PlayerGame>>(read);
      REQUIRE(games.size() == 2);  // the unrated game is not one of them
      CHECK(games[0].room == "room-stats-2");
      CHECK(games[0].pace == "turn-based");
      CHECK(games[0].expansions == "river");
      CHECK(games[0].rank == 2);
      CHECK(games[0].analysis.empty());
      CHECK(games[1].room == "room-stats-1");
      CHECK(games[1].rank == 1);
      CHECK(games[1].seat == 0);
      CHECK(games[1].analysis.empty() == !b.rooms);
      CHECK(std::get<std::vector<PlayerGame>>(b.ratings->games(kPlayers[0], 1)).size() == 1);

      const nlohmann::json stats = player_stats(games);
      CHECK(stats["games"] == 2);
      REQUIRE(stats["sets"].size() == 2);
      CHECK(stats["sets"][0] == nlohmann::json{{"expansions", ""}, {"games", 1}, {"wins", 1}, {"win_rate", 1.0}, {"average_score", 30.0}});
      CHECK(stats["sets"][1] == nlohmann::json{{"expansions", "river"}, {"games", 1}, {"wins", 0}, {"win_rate", 0.0}, {"average_score", 10.0}});
      CHECK(stats["points"] == nlohmann::json::parse(R"([{"kind":"city","total":24,"per_game":12.0},{"kind":"monastery","total":6,"per_game":3.0},)"
                                                      R"({"kind":"road","total":10,"per_game":5.0}])"));
      if (b.rooms) {
        CHECK(stats["analysis"] == nlohmann::json{{"games", 1}, {"moves", 2}, {"average_loss", 3.5}});
      } else {
        CHECK(stats["analysis"]["average_loss"].is_null());
      }
      const nlohmann::json other = player_stats(std::get<std::vector<PlayerGame>>(b.ratings->games(kPlayers[1], 10)));
      CHECK(other["sets"][0]["wins"] == 0);
      CHECK(other["sets"][1]["wins"] == 1);
      if (b.rooms) CHECK(other["analysis"]["average_loss"] == 2.5);
    }
  }
}

TEST_CASE("ratings: a seat whose binding the room's log lost gets its player from the keys it was shown to") {
  for (Backend& b : backends(false)) {
    CAPTURE(b.name);
    auto store = b.open_keys();
    const std::string a(64, 'a'), c(64, 'c'), d(64, 'd'), e(64, 'e');
    for (const std::string& h : {a, c, d, e}) REQUIRE(store->add_key(h, 1));
    REQUIRE(store->add_seat(a, KeySeat{"room-keys-1", 0, "s0", 100}));
    REQUIRE(store->add_seat(c, KeySeat{"room-keys-1", 1, "s1", 200}));
    REQUIRE(store->add_seat(d, KeySeat{"room-keys-1", 1, "s1", 300}));  // the same seat shown to a second key later
    REQUIRE(store->add_seat(e, KeySeat{"room-keys-2", 0, "s2", 50}));
    const auto rows = store->room_seats("room-keys-1");
    REQUIRE(std::holds_alternative<std::vector<RoomKeySeat>>(rows));
    CHECK(std::get<std::vector<RoomKeySeat>>(rows) ==
          std::vector<RoomKeySeat>{{a, 0, 100}, {c, 1, 200}, {d, 1, 300}});
    CHECK(std::get<std::vector<RoomKeySeat>>(store->room_seats("room-keys-3")).empty());

    PlayerKeys keys(std::move(store));
    auto players_of = [&](RatedPlay mode) {
      std::promise<std::optional<std::map<int, std::string>>> p;
      keys.seat_players("room-keys-1", mode, [&](std::optional<std::map<int, std::string>> m) { p.set_value(std::move(m)); });
      const auto m = p.get_future().get();
      REQUIRE(m.has_value());
      return *m;
    };
    // The first key of each seat, as the first binding wins.
    CHECK(players_of(RatedPlay::Open) == std::map<int, std::string>{{0, player_id_of_hash(a)}, {1, player_id_of_hash(c)}});
    CHECK(players_of(RatedPlay::Invite).empty());  // nobody invited nor signed in: nobody plays rated
  }
  // Only seats without a player are filled, never a computer player's, never in a room that is never rated.
  GameResult g{"room-keys-1", "live", "", 1, {seat("", 10), seat("", 20), seat(kPlayers[2], 30), seat("", 40)}};
  g.seats[3].bot = true;
  CHECK(has_unbound_seats(g));
  const std::map<int, std::string> found{{0, kPlayers[0]}, {2, kPlayers[1]}, {3, kPlayers[3]}};
  GameResult never = g;
  never.never_rated = true;
  fill_unbound(g, found);
  CHECK(g.seats[0].player == kPlayers[0]);
  CHECK(g.seats[1].player.empty());
  CHECK(g.seats[2].player == kPlayers[2]);
  CHECK(g.seats[3].player.empty());
  CHECK(has_unbound_seats(g));  // seat 1 still
  CHECK_FALSE(has_unbound_seats(never));
  fill_unbound(never, found);
  CHECK(never.seats[0].player.empty());
  never.seats[3].bot = false;
  for (std::size_t i = 0; i < 4; ++i) never.seats[i].player = kPlayers[i];
  CHECK(unrated_reason(never) == std::optional<std::string>("its room is never rated (an unrated tournament's table)"));
  never.never_rated = false;
  CHECK_FALSE(unrated_reason(never).has_value());
}
