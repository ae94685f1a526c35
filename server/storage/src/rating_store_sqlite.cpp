// The results and ratings on SQLite, in the rooms' file (rating_store.hpp, docs/community.md#ratings).
#include "carc/server/rating_store.hpp"

#include <sqlite3.h>

#include "sqlite.hpp"

#include "rating_text.hpp"

namespace carc::server {

namespace {

using namespace rating_text;

// ---- SQLite ----
class SqliteRatings final : public RatingStore {
 public:
  explicit SqliteRatings(const std::filesystem::path& file)
      : db_(file.string(), SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX) {
    wait_when_busy(db_.handle(), 5000);
    // A result lost with its commit is derived again from its room's log at the next start
    // (docs/community.md, "Exact across crashes"), and the rooms' next commit syncs the log it
    // is in: its own commit does not wait for the disk. Nor does it copy the shared log into
    // the file: the rooms' checkpointer does (docs/hot-path.md, step 3). Flat out, with a
    // result every few moves, the two cost the ratings thread some 8 % of a core.
    db_.exec("PRAGMA synchronous = NORMAL");
    db_.exec("PRAGMA wal_autocheckpoint = 0");
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

  std::variant<std::vector<PlayerGame>, std::string> games(const std::string& player, int limit) override {
    try {
      std::vector<PlayerGame> out;
      auto q = db_.prepare("SELECT p.seq, p.room, p.pace, s.expansions, s.finished_ms, p.seat, p.rank, s.seats, "
                           "COALESCE(a.moves, '') FROM rating_points p JOIN results s ON s.seq = p.seq "
                           "LEFT JOIN analyses a ON a.room = p.room AND a.status = 'done' "
                           "WHERE p.player = ?1 ORDER BY p.seq DESC LIMIT ?2");
      q.bind(1, player).bind(2, std::int64_t{limit});
      while (q.step()) {
        out.push_back({q.int64(0), q.text(1), q.text(2), q.text(3), q.int64(4), static_cast<int>(q.int64(5)),
                       static_cast<int>(q.int64(6)), q.text(7), q.text(8)});
      }
      return out;
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
  }

  std::variant<std::vector<RoomRatingPoint>, std::string> room_points(const std::string& room) override {
    try {
      std::vector<RoomRatingPoint> out;
      auto q = db_.prepare("SELECT p.player, p.pace, p.seq, p.room, p.seat, p.rank, p.mu_before, p.sigma_before, p.mu, p.sigma, p.finished_ms, "
                           "(SELECT COUNT(*) FROM rating_points o WHERE o.player = p.player AND o.pace = p.pace AND o.seq <= p.seq) "
                           "FROM rating_points p WHERE p.room = ?1 ORDER BY p.seat");
      q.bind(1, room);
      while (q.step()) {
        out.push_back({{q.text(0), q.text(1), q.int64(2), q.text(3), static_cast<int>(q.int64(4)), static_cast<int>(q.int64(5)),
                        number(q.text(6)), number(q.text(7)), number(q.text(8)), number(q.text(9)), q.int64(10)},
                       q.int64(11)});
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


}  // namespace

std::unique_ptr<RatingStore> RatingStore::sqlite(const std::filesystem::path& file) {
  try {
    return std::make_unique<SqliteRatings>(file);
  } catch (const SqlError& e) {
    throw StorageError("cannot open the ratings in " + file.string() + ": " + e.what());
  }
}

}  // namespace carc::server
