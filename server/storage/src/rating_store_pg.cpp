// The results and ratings on PostgreSQL, in the rooms' database (rating_store.hpp, docs/community.md#ratings).
#include "carc/server/rating_store.hpp"

#include "pg.hpp"

#include "rating_text.hpp"

namespace carc::server {

namespace {

using namespace rating_text;

// ---- PostgreSQL ----
class PgRatings final : public RatingStore {
 public:
  explicit PgRatings(const std::string& url) : conn_(url, PgConnOptions{}) {
    conn_.exec("SET client_min_messages = warning");
    // Several nodes may make the tables at once: one at a time.
    check(conn_.exec("SELECT pg_advisory_lock(7261001)"));
    const PgResult exists = conn_.exec("SELECT to_regclass('results') IS NOT NULL");
    const bool fresh = exists.ok() && exists.rows() == 1 && exists.text(0, 0) == "f";
    const PgResult made = conn_.exec(std::string("BEGIN;") + kPgSchema + (fresh ? std::string(kPgBackfill) + ";" : "") + "COMMIT;");
    if (!made.ok()) conn_.exec("ROLLBACK");
    conn_.exec("SELECT pg_advisory_unlock(7261001)");
    check(exists);
    check(made);
    prepare();
  }

  std::variant<bool, std::string> record(const StoredResult& result, const std::vector<std::string>& players,
                                         const Rate& rate) override {
    try {
      ensure();
      if (conn_.run("result_exists", {result.room}).rows() > 0) return false;  // without the lock
      check(conn_.exec("BEGIN"));
      try {
        // Every node's ratings change one game at a time: a player's rating is read and
        // written under this lock (one game ends every few seconds at most).
        check(conn_.exec("SELECT pg_advisory_xact_lock(7261002)"));
        if (conn_.run("result_exists", {result.room}).rows() > 0) {
          check(conn_.exec("ROLLBACK"));
          return false;
        }
        const std::int64_t seq = conn_.run("result_next", {}).int64(0, 0);
        conn_.run("result_add", {std::to_string(seq), result.room, result.pace, result.expansions,
                                 std::to_string(result.finished_ms), result.rated ? "true" : "false", result.seats});
        if (result.rated) {
          std::vector<StoredRating> current;
          for (const std::string& p : players) {
            const PgResult r = conn_.run("rating_get", {p, result.pace});
            if (r.rows() == 1) current.push_back({p, result.pace, number(r.text(0, 0)), number(r.text(0, 1)), r.int64(0, 2), r.text(0, 3), r.int64(0, 4)});
          }
          const RatedResult rated = rate(seq, current);
          for (const StoredRating& r : rated.ratings) {
            conn_.run("rating_put", {r.player, r.pace, exact(r.mu), exact(r.sigma), exact(ordinal(r)), std::to_string(r.games),
                                     r.name, std::to_string(r.updated_ms)});
          }
          for (const StoredRatingPoint& p : rated.points) {
            conn_.run("point_add", {p.player, p.pace, std::to_string(seq), p.room, std::to_string(p.seat), std::to_string(p.rank),
                                    exact(p.mu_before), exact(p.sigma_before), exact(p.mu), exact(p.sigma),
                                    std::to_string(p.finished_ms)});
          }
        }
        check(conn_.exec("COMMIT"));
        return true;
      } catch (...) {
        if (conn_.healthy()) conn_.exec("ROLLBACK");
        throw;
      }
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
  }

  std::variant<std::vector<StoredResult>, std::string> results() override {
    try {
      ensure();
      const PgResult r = conn_.run("results_all", {});
      std::vector<StoredResult> out;
      for (int i = 0; i < r.rows(); ++i) {
        out.push_back({r.int64(i, 0), r.text(i, 1), r.text(i, 2), r.text(i, 3), r.int64(i, 4), r.text(i, 5) == "t", r.text(i, 6)});
      }
      return out;
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
  }

  std::variant<std::vector<StoredRating>, std::string> ratings(const std::string& player) override {
    try {
      ensure();
      const PgResult r = conn_.run("ratings_of", {player});
      std::vector<StoredRating> out;
      for (int i = 0; i < r.rows(); ++i) {
        out.push_back({player, r.text(i, 0), number(r.text(i, 1)), number(r.text(i, 2)), r.int64(i, 3), r.text(i, 4), r.int64(i, 5)});
      }
      return out;
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
  }

  std::variant<std::vector<StoredRatingPoint>, std::string> points(const std::string& player, const std::string& pace,
                                                                   int limit) override {
    try {
      ensure();
      const PgResult r = conn_.run("points_of", {player, pace, std::to_string(limit)});
      std::vector<StoredRatingPoint> out;
      for (int i = 0; i < r.rows(); ++i) {
        out.push_back({player, pace, r.int64(i, 0), r.text(i, 1), static_cast<int>(r.int64(i, 2)), static_cast<int>(r.int64(i, 3)),
                       number(r.text(i, 4)), number(r.text(i, 5)), number(r.text(i, 6)), number(r.text(i, 7)), r.int64(i, 8)});
      }
      return out;
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
  }

  std::variant<std::vector<LeaderRow>, std::string> leaderboard(const std::string& pace,
                                                                const std::optional<std::string>& expansions,
                                                                int limit) override {
    try {
      ensure();
      const PgResult r = expansions ? conn_.run("board_expansions", {pace, *expansions, std::to_string(limit)})
                                    : conn_.run("board", {pace, std::to_string(limit)});
      std::vector<LeaderRow> out;
      for (int i = 0; i < r.rows(); ++i) {
        out.push_back({StoredRating{r.text(i, 0), pace, number(r.text(i, 1)), number(r.text(i, 2)), r.int64(i, 3), r.text(i, 4),
                                    r.int64(i, 5)},
                       r.int64(i, 6)});
      }
      return out;
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
  }

  std::variant<std::vector<PlayerGame>, std::string> games(const std::string& player, int limit) override {
    try {
      ensure();
      const PgResult r = conn_.run("games_of", {player, std::to_string(limit)});
      std::vector<PlayerGame> out;
      for (int i = 0; i < r.rows(); ++i) {
        out.push_back({r.int64(i, 0), r.text(i, 1), r.text(i, 2), r.text(i, 3), r.int64(i, 4), static_cast<int>(r.int64(i, 5)),
                       static_cast<int>(r.int64(i, 6)), r.text(i, 7), r.text(i, 8)});
      }
      return out;
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
  }

  std::variant<std::vector<RoomRatingPoint>, std::string> room_points(const std::string& room) override {
    try {
      ensure();
      const PgResult r = conn_.run("room_points", {room});
      std::vector<RoomRatingPoint> out;
      for (int i = 0; i < r.rows(); ++i) {
        out.push_back({{r.text(i, 0), r.text(i, 1), r.int64(i, 2), r.text(i, 3), static_cast<int>(r.int64(i, 4)),
                        static_cast<int>(r.int64(i, 5)), number(r.text(i, 6)), number(r.text(i, 7)), number(r.text(i, 8)),
                        number(r.text(i, 9)), r.int64(i, 10)},
                       r.int64(i, 11)});
      }
      return out;
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
  }

  std::variant<std::vector<std::string>, std::string> unrecorded_rooms() override {
    try {
      ensure();
      const PgResult r = conn_.run("unrecorded", {});
      std::vector<std::string> out;
      for (int i = 0; i < r.rows(); ++i) out.push_back(r.text(i, 0));
      return out;
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
  }

 private:
  static void check(const PgResult& r) {
    if (!r.ok()) throw PgError(r.error());
  }
  void prepare() {
    conn_.prepare("result_exists", "SELECT 1 FROM results WHERE room = $1");
    conn_.prepare("result_next", "SELECT COALESCE(MAX(seq), 0) + 1 FROM results");
    conn_.prepare("result_add", "INSERT INTO results(seq, room, pace, expansions, finished_ms, rated, seats) "
                                "VALUES($1, $2, $3, $4, $5, $6, $7)");
    conn_.prepare("rating_get", "SELECT mu, sigma, games, name, updated_ms FROM ratings WHERE player = $1 AND pace = $2");
    conn_.prepare("rating_put",
                  "INSERT INTO ratings(player, pace, mu, sigma, ordinal, games, name, updated_ms) "
                  "VALUES($1, $2, $3, $4, CAST($5 AS DOUBLE PRECISION), $6, $7, $8) ON CONFLICT(player, pace) DO UPDATE SET "
                  "mu = EXCLUDED.mu, sigma = EXCLUDED.sigma, ordinal = EXCLUDED.ordinal, games = EXCLUDED.games, "
                  "name = EXCLUDED.name, updated_ms = EXCLUDED.updated_ms");
    conn_.prepare("point_add", "INSERT INTO rating_points(player, pace, seq, room, seat, rank, mu_before, sigma_before, mu, "
                               "sigma, finished_ms) VALUES($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)");
    conn_.prepare("results_all", "SELECT seq, room, pace, expansions, finished_ms, rated, seats FROM results ORDER BY seq");
    conn_.prepare("ratings_of", "SELECT pace, mu, sigma, games, name, updated_ms FROM ratings WHERE player = $1 ORDER BY pace");
    conn_.prepare("points_of", "SELECT seq, room, seat, rank, mu_before, sigma_before, mu, sigma, finished_ms FROM rating_points "
                               "WHERE player = $1 AND pace = $2 ORDER BY seq DESC LIMIT $3");
    conn_.prepare("board", "SELECT player, mu, sigma, games, name, updated_ms, games FROM ratings WHERE pace = $1 "
                           "ORDER BY ordinal DESC, player LIMIT $2");
    conn_.prepare("board_expansions",
                  "SELECT r.player, r.mu, r.sigma, r.games, r.name, r.updated_ms, COUNT(*) FROM ratings r "
                  "JOIN rating_points p ON p.player = r.player AND p.pace = r.pace JOIN results s ON s.seq = p.seq "
                  "WHERE r.pace = $1 AND s.expansions = $2 GROUP BY r.player, r.pace "
                  "ORDER BY MAX(r.ordinal) DESC, r.player LIMIT $3");
    conn_.prepare("games_of", "SELECT p.seq, p.room, p.pace, s.expansions, s.finished_ms, p.seat, p.rank, s.seats, "
                              "COALESCE(a.moves, '') FROM rating_points p JOIN results s ON s.seq = p.seq "
                              "LEFT JOIN analyses a ON a.room = p.room AND a.status = 'done' "
                              "WHERE p.player = $1 ORDER BY p.seq DESC LIMIT $2");
    conn_.prepare("room_points",
                  "SELECT p.player, p.pace, p.seq, p.room, p.seat, p.rank, p.mu_before, p.sigma_before, p.mu, p.sigma, "
                  "p.finished_ms, (SELECT COUNT(*) FROM rating_points o WHERE o.player = p.player AND o.pace = p.pace "
                  "AND o.seq <= p.seq) FROM rating_points p WHERE p.room = $1 ORDER BY p.seat");
    conn_.prepare("unrecorded", "SELECT id FROM rooms WHERE phase = 'finished' AND quarantined IS NULL "
                                "AND id NOT IN (SELECT room FROM results) ORDER BY updated_ms");
  }
  void ensure() {
    if (!conn_.healthy()) {
      conn_.reset();
      conn_.prepare_all();
    }
  }
  PgConn conn_;
};


}  // namespace

std::unique_ptr<RatingStore> RatingStore::postgres(const std::string& url) {
  try {
    return std::make_unique<PgRatings>(url);
  } catch (const PgError& e) {
    throw StorageError(std::string("cannot open the ratings in PostgreSQL: ") + e.what());
  }
}

}  // namespace carc::server
