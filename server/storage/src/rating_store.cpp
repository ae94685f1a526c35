// The results and ratings on SQLite, PostgreSQL and in memory (rating_store.hpp,
// docs/community.md#ratings). mu and sigma are stored as text in their shortest exact form,
// so a rating read back is the very double that was computed (the recompute test compares
// them exactly); `ordinal` (mu - 3 sigma) is a REAL beside them for ordering only.
#include "carc/server/rating_store.hpp"

#include <sqlite3.h>

#include <algorithm>
#include <charconv>
#include <map>
#include <mutex>
#include <set>
#include <system_error>

#include "pg.hpp"
#include "sqlite.hpp"

namespace carc::server {

namespace {

std::string exact(double v) {
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

double number(const std::string& s) {
  double v = 0;
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  if (r.ec != std::errc{}) throw std::runtime_error("a stored rating is not a number: " + s);
  return v;
}

double ordinal(const StoredRating& r) { return r.mu - 3 * r.sigma; }

constexpr const char* kSqliteSchema =
    "CREATE TABLE IF NOT EXISTS results(seq INTEGER PRIMARY KEY, room TEXT NOT NULL UNIQUE, pace TEXT NOT NULL,"
    "  expansions TEXT NOT NULL, finished_ms INTEGER NOT NULL, rated INTEGER NOT NULL, seats TEXT NOT NULL);"
    "CREATE TABLE IF NOT EXISTS ratings(player TEXT NOT NULL, pace TEXT NOT NULL, mu TEXT NOT NULL,"
    "  sigma TEXT NOT NULL, ordinal REAL NOT NULL, games INTEGER NOT NULL, name TEXT NOT NULL,"
    "  updated_ms INTEGER NOT NULL, PRIMARY KEY(player, pace)) WITHOUT ROWID;"
    "CREATE INDEX IF NOT EXISTS ratings_by_ordinal ON ratings(pace, ordinal);"
    "CREATE TABLE IF NOT EXISTS rating_points(player TEXT NOT NULL, pace TEXT NOT NULL, seq INTEGER NOT NULL,"
    "  room TEXT NOT NULL, seat INTEGER NOT NULL, rank INTEGER NOT NULL, mu_before TEXT NOT NULL,"
    "  sigma_before TEXT NOT NULL, mu TEXT NOT NULL, sigma TEXT NOT NULL, finished_ms INTEGER NOT NULL,"
    "  PRIMARY KEY(player, pace, seq)) WITHOUT ROWID;";

constexpr const char* kPgSchema =
    "CREATE TABLE IF NOT EXISTS results(seq BIGINT PRIMARY KEY, room TEXT NOT NULL UNIQUE, pace TEXT NOT NULL,"
    "  expansions TEXT NOT NULL, finished_ms BIGINT NOT NULL, rated BOOLEAN NOT NULL, seats TEXT NOT NULL);"
    "CREATE TABLE IF NOT EXISTS ratings(player TEXT NOT NULL, pace TEXT NOT NULL, mu TEXT NOT NULL,"
    "  sigma TEXT NOT NULL, ordinal DOUBLE PRECISION NOT NULL, games BIGINT NOT NULL, name TEXT NOT NULL,"
    "  updated_ms BIGINT NOT NULL, PRIMARY KEY(player, pace));"
    "CREATE INDEX IF NOT EXISTS ratings_by_ordinal ON ratings(pace, ordinal);"
    "CREATE TABLE IF NOT EXISTS rating_points(player TEXT NOT NULL, pace TEXT NOT NULL, seq BIGINT NOT NULL,"
    "  room TEXT NOT NULL, seat INTEGER NOT NULL, rank INTEGER NOT NULL, mu_before TEXT NOT NULL,"
    "  sigma_before TEXT NOT NULL, mu TEXT NOT NULL, sigma TEXT NOT NULL, finished_ms BIGINT NOT NULL,"
    "  PRIMARY KEY(player, pace, seq));";

// The games finished before the ratings existed have no player bound to any seat: when the
// tables are made, they are recorded at once as unrated, so the first start does not load
// every finished game of the keep time to find that out (unrecorded_rooms).
constexpr const char* kBackfill =
    "INSERT INTO results(seq, room, pace, expansions, finished_ms, rated, seats) "
    "SELECT ROW_NUMBER() OVER (ORDER BY updated_ms, id), id, '', '', updated_ms, 0, '[]' FROM rooms "
    "WHERE phase = 'finished'";
constexpr const char* kPgBackfill =
    "INSERT INTO results(seq, room, pace, expansions, finished_ms, rated, seats) "
    "SELECT ROW_NUMBER() OVER (ORDER BY updated_ms, id), id, '', '', updated_ms, false, '[]' FROM rooms "
    "WHERE phase = 'finished'";

// ---- SQLite ----
class SqliteRatings final : public RatingStore {
 public:
  explicit SqliteRatings(const std::filesystem::path& file)
      : db_(file.string(), SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX) {
    sqlite3_busy_timeout(db_.handle(), 5000);
    transaction(db_, [&] {
      const bool fresh = db_.scalar("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'results'") == 0;
      db_.exec(kSqliteSchema);
      if (fresh) db_.exec(kBackfill);
    });
  }

  std::variant<bool, std::string> record(const StoredResult& result, const std::vector<std::string>& players,
                                         const Rate& rate) override {
    try {
      // Most hand-overs are of rooms recorded before (a finished room loaded again): a read
      // answers them without taking the database's write lock.
      if (recorded(result.room)) return false;
      bool stored = false;
      transaction(db_, [&] {
        {
          auto q = db_.prepare("SELECT 1 FROM results WHERE room = ?1");
          q.bind(1, result.room);
          if (q.step()) return;
        }
        const std::int64_t seq = db_.scalar("SELECT COALESCE(MAX(seq), 0) + 1 FROM results");
        db_.prepare("INSERT INTO results(seq, room, pace, expansions, finished_ms, rated, seats) "
                    "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7)")
            .bind(1, seq).bind(2, result.room).bind(3, result.pace).bind(4, result.expansions)
            .bind(5, result.finished_ms).bind(6, std::int64_t{result.rated ? 1 : 0}).bind(7, result.seats).run();
        stored = true;
        if (!result.rated) return;
        std::vector<StoredRating> current;
        for (const std::string& p : players) {
          auto q = db_.prepare("SELECT mu, sigma, games, name, updated_ms FROM ratings WHERE player = ?1 AND pace = ?2");
          q.bind(1, p).bind(2, result.pace);
          if (q.step()) current.push_back({p, result.pace, number(q.text(0)), number(q.text(1)), q.int64(2), q.text(3), q.int64(4)});
        }
        const RatedResult rated = rate(seq, current);
        for (const StoredRating& r : rated.ratings) {
          db_.prepare("INSERT INTO ratings(player, pace, mu, sigma, ordinal, games, name, updated_ms) "
                      "VALUES(?1, ?2, ?3, ?4, CAST(?5 AS REAL), ?6, ?7, ?8) ON CONFLICT(player, pace) DO UPDATE SET "
                      "mu = ?3, sigma = ?4, ordinal = CAST(?5 AS REAL), games = ?6, name = ?7, updated_ms = ?8")
              .bind(1, r.player).bind(2, r.pace).bind(3, exact(r.mu)).bind(4, exact(r.sigma))
              .bind(5, exact(ordinal(r))).bind(6, r.games).bind(7, r.name).bind(8, r.updated_ms).run();
        }
        for (const StoredRatingPoint& p : rated.points) {
          db_.prepare("INSERT INTO rating_points(player, pace, seq, room, seat, rank, mu_before, sigma_before, mu, sigma,"
                      " finished_ms) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)")
              .bind(1, p.player).bind(2, p.pace).bind(3, seq).bind(4, p.room).bind(5, std::int64_t{p.seat})
              .bind(6, std::int64_t{p.rank}).bind(7, exact(p.mu_before)).bind(8, exact(p.sigma_before))
              .bind(9, exact(p.mu)).bind(10, exact(p.sigma)).bind(11, p.finished_ms).run();
        }
      });
      return stored;
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
  }

  bool recorded(const std::string& room) {
    auto q = db_.prepare("SELECT 1 FROM results WHERE room = ?1");
    q.bind(1, room);
    return q.step();
  }

  std::variant<std::vector<StoredResult>, std::string> results() override {
    try {
      std::vector<StoredResult> out;
      auto q = db_.prepare("SELECT seq, room, pace, expansions, finished_ms, rated, seats FROM results ORDER BY seq");
      while (q.step()) out.push_back({q.int64(0), q.text(1), q.text(2), q.text(3), q.int64(4), q.int64(5) != 0, q.text(6)});
      return out;
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
  }

  std::variant<std::vector<StoredRating>, std::string> ratings(const std::string& player) override {
    try {
      std::vector<StoredRating> out;
      auto q = db_.prepare("SELECT pace, mu, sigma, games, name, updated_ms FROM ratings WHERE player = ?1 ORDER BY pace");
      q.bind(1, player);
      while (q.step()) out.push_back({player, q.text(0), number(q.text(1)), number(q.text(2)), q.int64(3), q.text(4), q.int64(5)});
      return out;
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
  }

  std::variant<std::vector<StoredRatingPoint>, std::string> points(const std::string& player, const std::string& pace,
                                                                   int limit) override {
    try {
      std::vector<StoredRatingPoint> out;
      auto q = db_.prepare("SELECT seq, room, seat, rank, mu_before, sigma_before, mu, sigma, finished_ms FROM rating_points "
                           "WHERE player = ?1 AND pace = ?2 ORDER BY seq DESC LIMIT ?3");
      q.bind(1, player).bind(2, pace).bind(3, std::int64_t{limit});
      while (q.step()) {
        out.push_back({player, pace, q.int64(0), q.text(1), static_cast<int>(q.int64(2)), static_cast<int>(q.int64(3)),
                       number(q.text(4)), number(q.text(5)), number(q.text(6)), number(q.text(7)), q.int64(8)});
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
      std::vector<LeaderRow> out;
      auto q = expansions
                   ? db_.prepare("SELECT r.player, r.mu, r.sigma, r.games, r.name, r.updated_ms, COUNT(*) FROM ratings r "
                                 "JOIN rating_points p ON p.player = r.player AND p.pace = r.pace "
                                 "JOIN results s ON s.seq = p.seq WHERE r.pace = ?1 AND s.expansions = ?2 "
                                 "GROUP BY r.player ORDER BY r.ordinal DESC, r.player LIMIT ?3")
                   : db_.prepare("SELECT player, mu, sigma, games, name, updated_ms, games FROM ratings WHERE pace = ?1 "
                                 "AND ?2 = ?2 ORDER BY ordinal DESC, player LIMIT ?3");
      q.bind(1, pace).bind(2, expansions.value_or("")).bind(3, std::int64_t{limit});
      while (q.step()) {
        out.push_back({StoredRating{q.text(0), pace, number(q.text(1)), number(q.text(2)), q.int64(3), q.text(4), q.int64(5)},
                       q.int64(6)});
      }
      return out;
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
  }

  std::variant<std::vector<std::string>, std::string> unrecorded_rooms() override {
    try {
      std::vector<std::string> out;
      auto q = db_.prepare("SELECT id FROM rooms WHERE phase = 'finished' AND (quarantined IS NULL OR quarantined = '') "
                           "AND id NOT IN (SELECT room FROM results) ORDER BY updated_ms");
      while (q.step()) out.push_back(q.text(0));
      return out;
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
  }

 private:
  Db db_;
};

// ---- memory ----
class MemoryRatings final : public RatingStore {
 public:
  std::variant<bool, std::string> record(const StoredResult& result, const std::vector<std::string>& players,
                                         const Rate& rate) override {
    std::lock_guard lock(mu_);
    for (const StoredResult& r : results_) {
      if (r.room == result.room) return false;
    }
    StoredResult stored = result;
    stored.seq = static_cast<std::int64_t>(results_.size()) + 1;
    results_.push_back(stored);
    if (!result.rated) return true;
    std::vector<StoredRating> current;
    for (const std::string& p : players) {
      if (auto it = ratings_.find({p, result.pace}); it != ratings_.end()) current.push_back(it->second);
    }
    const RatedResult rated = rate(stored.seq, current);
    for (const StoredRating& r : rated.ratings) ratings_[{r.player, r.pace}] = r;
    for (StoredRatingPoint p : rated.points) {
      p.seq = stored.seq;
      points_.push_back(p);
    }
    return true;
  }
  std::variant<std::vector<StoredResult>, std::string> results() override {
    std::lock_guard lock(mu_);
    return results_;
  }
  std::variant<std::vector<StoredRating>, std::string> ratings(const std::string& player) override {
    std::lock_guard lock(mu_);
    std::vector<StoredRating> out;
    for (const auto& [k, r] : ratings_) {
      if (k.first == player) out.push_back(r);
    }
    return out;
  }
  std::variant<std::vector<StoredRatingPoint>, std::string> points(const std::string& player, const std::string& pace,
                                                                   int limit) override {
    std::lock_guard lock(mu_);
    std::vector<StoredRatingPoint> out;
    for (auto it = points_.rbegin(); it != points_.rend() && static_cast<int>(out.size()) < limit; ++it) {
      if (it->player == player && it->pace == pace) out.push_back(*it);
    }
    return out;
  }
  std::variant<std::vector<LeaderRow>, std::string> leaderboard(const std::string& pace,
                                                                const std::optional<std::string>& expansions,
                                                                int limit) override {
    std::lock_guard lock(mu_);
    std::vector<LeaderRow> out;
    for (const auto& [k, r] : ratings_) {
      if (k.second != pace) continue;
      std::int64_t games = r.games;
      if (expansions) {
        games = 0;
        for (const StoredRatingPoint& p : points_) {
          if (p.player == r.player && p.pace == pace && results_[static_cast<std::size_t>(p.seq - 1)].expansions == *expansions) ++games;
        }
        if (games == 0) continue;
      }
      out.push_back({r, games});
    }
    std::sort(out.begin(), out.end(), [](const LeaderRow& a, const LeaderRow& b) {
      const double oa = ordinal(a.rating), ob = ordinal(b.rating);
      return oa != ob ? oa > ob : a.rating.player < b.rating.player;
    });
    if (static_cast<int>(out.size()) > limit) out.resize(static_cast<std::size_t>(limit));
    return out;
  }
  std::variant<std::vector<std::string>, std::string> unrecorded_rooms() override { return std::vector<std::string>{}; }

 private:
  std::mutex mu_;
  std::vector<StoredResult> results_;
  std::map<std::pair<std::string, std::string>, StoredRating> ratings_;
  std::vector<StoredRatingPoint> points_;
};

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

std::unique_ptr<RatingStore> RatingStore::sqlite(const std::filesystem::path& file) {
  try {
    return std::make_unique<SqliteRatings>(file);
  } catch (const SqlError& e) {
    throw StorageError("cannot open the ratings in " + file.string() + ": " + e.what());
  }
}

std::unique_ptr<RatingStore> RatingStore::memory() { return std::make_unique<MemoryRatings>(); }

std::unique_ptr<RatingStore> RatingStore::postgres(const std::string& url) {
  try {
    return std::make_unique<PgRatings>(url);
  } catch (const PgError& e) {
    throw StorageError(std::string("cannot open the ratings in PostgreSQL: ") + e.what());
  }
}

}  // namespace carc::server
