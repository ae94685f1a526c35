// Tournaments' rows in SQLite (docs/tournaments.md#storage): every write is one BEGIN
// IMMEDIATE transaction, which holds the file's write lock, so a check and the write it
// allows cannot be split by another writer.
#include <sqlite3.h>

#include "carc/server/tournament_store.hpp"
#include "sqlite.hpp"
#include "tournament_schema.hpp"

namespace carc::server {

namespace {

constexpr const char* kTournamentColumns = "id, settings, organiser, created_ms, state, round, round_started_ms, seeds, secret";

TournamentRow read_tournament(Stmt& q) {
  return TournamentRow{q.text(0), q.text(1), q.text(2), q.int64(3), q.text(4), static_cast<int>(q.int64(5)), q.int64(6),
                       q.text(7), q.text(8)};
}

class SqliteTournaments final : public TournamentStore {
 public:
  explicit SqliteTournaments(const std::filesystem::path& file)
      : db_(file.string(), SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX) {
    wait_when_busy(db_.handle(), 5000);
    db_.exec(kTournamentSchema);
  }

  Status create(const TournamentRow& t) override {
    try {
      db_.prepare(std::string("INSERT INTO tournaments(") + kTournamentColumns + ") VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)")
          .bind(1, t.id).bind(2, t.settings).bind(3, t.organiser).bind(4, t.created_ms).bind(5, t.state)
          .bind(6, std::int64_t{t.round}).bind(7, t.round_started_ms).bind(8, t.seeds).bind(9, t.secret).run();
      return Status::ok();
    } catch (const SqlError& e) {
      return Status::failed(e.what());
    }
  }

  std::variant<std::optional<TournamentRow>, std::string> tournament(const std::string& id) override {
    try {
      auto q = db_.prepare(std::string("SELECT ") + kTournamentColumns + " FROM tournaments WHERE id = ?1");
      q.bind(1, id);
      if (!q.step()) return std::optional<TournamentRow>();
      return std::optional<TournamentRow>(read_tournament(q));
    } catch (const SqlError& e) {
      return std::string(e.what());
    }
  }

  std::variant<std::vector<TournamentRow>, std::string> tournaments(const std::string& state, std::size_t max) override {
    try {
      auto q = db_.prepare(std::string("SELECT ") + kTournamentColumns +
                           " FROM tournaments WHERE ?1 = '' OR state = ?1 ORDER BY created_ms DESC, id LIMIT ?2");
      q.bind(1, state).bind(2, static_cast<std::int64_t>(max));
      std::vector<TournamentRow> out;
      while (q.step()) out.push_back(read_tournament(q));
      return out;
    } catch (const SqlError& e) {
      return std::string(e.what());
    }
  }

  std::variant<std::vector<EntrantRow>, std::string> entrants(const std::string& id) override {
    try {
      auto q = db_.prepare(
          "SELECT player, name, registered_ms, dropped_after FROM tournament_entrants WHERE tournament = ?1 ORDER BY seq");
      q.bind(1, id);
      std::vector<EntrantRow> out;
      while (q.step()) out.push_back(EntrantRow{q.text(0), q.text(1), q.int64(2), static_cast<int>(q.int64(3))});
      return out;
    } catch (const SqlError& e) {
      return std::string(e.what());
    }
  }

  std::variant<Entry, std::string> enter(const std::string& id, const EntrantRow& e, int seats) override {
    try {
      Entry out = Entry::registered;
      transaction(db_, [&] {
        auto state = db_.prepare("SELECT state FROM tournaments WHERE id = ?1");
        state.bind(1, id);
        if (!state.step()) {
          out = Entry::unknown;
          return;
        }
        const bool registering = state.text(0) == "registering";
        auto mine = db_.prepare("SELECT dropped_after FROM tournament_entrants WHERE tournament = ?1 AND player = ?2");
        mine.bind(1, id).bind(2, e.player);
        if (mine.step()) {
          out = mine.int64(0) == kRemoved ? Entry::removed : Entry::already;
          return;
        }
        if (!registering) {
          out = Entry::closed;
          return;
        }
        auto count = db_.prepare("SELECT COUNT(*) FILTER (WHERE dropped_after <> ?2), COALESCE(MAX(seq), 0) "
                                 "FROM tournament_entrants WHERE tournament = ?1");
        count.bind(1, id).bind(2, std::int64_t{kRemoved});
        count.step();
        if (count.int64(0) >= seats) {
          out = Entry::full;
          return;
        }
        const std::int64_t seq = count.int64(1) + 1;
        db_.prepare("INSERT INTO tournament_entrants(tournament, player, name, registered_ms, dropped_after, seq) "
                    "VALUES(?1, ?2, ?3, ?4, 0, ?5)")
            .bind(1, id).bind(2, e.player).bind(3, e.name).bind(4, e.registered_ms).bind(5, seq).run();
      });
      return out;
    } catch (const SqlError& x) {
      return std::string(x.what());
    }
  }

  std::variant<bool, std::string> withdraw(const std::string& id, const std::string& player) override {
    try {
      db_.prepare("UPDATE tournament_entrants SET dropped_after = ?3 WHERE tournament = ?1 AND player = ?2 AND "
                  "dropped_after = 0 AND EXISTS (SELECT 1 FROM tournaments WHERE id = ?1 AND state = 'registering')")
          .bind(1, id).bind(2, player).bind(3, std::int64_t{kRemoved}).run();
      return db_.changes() > 0;
    } catch (const SqlError& e) {
      return std::string(e.what());
    }
  }

  std::variant<bool, std::string> drop(const std::string& id, const std::string& player, int round) override {
    try {
      db_.prepare("UPDATE tournament_entrants SET dropped_after = ?3 WHERE tournament = ?1 AND player = ?2 AND "
                  "dropped_after = 0 AND EXISTS (SELECT 1 FROM tournaments WHERE id = ?1 AND state = 'running')")
          .bind(1, id).bind(2, player).bind(3, std::int64_t{round}).run();
      return db_.changes() > 0;
    } catch (const SqlError& e) {
      return std::string(e.what());
    }
  }

  std::variant<bool, std::string> advance(const TournamentRow& from, const std::string& to_state, int to_round,
                                          const std::string& seeds, std::int64_t started_ms,
                                          const std::vector<TableRow>& tables) override {
    try {
      bool moved = false;
      const std::string& id = from.id;
      transaction(db_, [&] {
        db_.prepare("UPDATE tournaments SET state = ?4, round = ?5, round_started_ms = ?6, "
                    "seeds = CASE WHEN ?7 = '' THEN seeds ELSE ?7 END "
                    "WHERE id = ?1 AND state = ?2 AND round = ?3 AND round_started_ms = ?8")
            .bind(1, id).bind(2, from.state).bind(3, std::int64_t{from.round}).bind(4, to_state)
            .bind(5, std::int64_t{to_round}).bind(6, started_ms).bind(7, seeds).bind(8, from.round_started_ms).run();
        moved = db_.changes() > 0;
        if (!moved) return;
        for (const TableRow& t : tables) {
          db_.prepare("INSERT INTO tournament_tables(tournament, round, tbl, game, room, players, result) "
                      "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7)")
              .bind(1, id).bind(2, std::int64_t{t.round}).bind(3, std::int64_t{t.table}).bind(4, std::int64_t{t.game})
              .bind(5, t.room).bind(6, t.players).bind(7, t.result).run();
        }
      });
      return moved;
    } catch (const SqlError& e) {
      return std::string(e.what());
    }
  }

  std::variant<std::vector<TableRow>, std::string> tables(const std::string& id) override {
    try {
      auto q = db_.prepare("SELECT round, tbl, game, room, players, result FROM tournament_tables WHERE tournament = ?1 "
                           "ORDER BY round, tbl, game");
      q.bind(1, id);
      std::vector<TableRow> out;
      while (q.step()) {
        out.push_back(TableRow{static_cast<int>(q.int64(0)), static_cast<int>(q.int64(1)), static_cast<int>(q.int64(2)),
                               q.text(3), q.text(4), q.text(5)});
      }
      return out;
    } catch (const SqlError& e) {
      return std::string(e.what());
    }
  }

  std::variant<bool, std::string> set_room(const std::string& id, int round, int table, int game,
                                           const std::string& room) override {
    try {
      db_.prepare("UPDATE tournament_tables SET room = ?5 WHERE tournament = ?1 AND round = ?2 AND tbl = ?3 AND "
                  "game = ?4 AND room = ''")
          .bind(1, id).bind(2, std::int64_t{round}).bind(3, std::int64_t{table}).bind(4, std::int64_t{game})
          .bind(5, room).run();
      return db_.changes() > 0;
    } catch (const SqlError& e) {
      return std::string(e.what());
    }
  }

  Status set_targets(const std::string& id, const std::string& player, const std::string& targets) override {
    try {
      if (targets.empty()) {
        db_.prepare("DELETE FROM tournament_notify WHERE tournament = ?1 AND player = ?2").bind(1, id).bind(2, player).run();
      } else {
        db_.prepare("INSERT INTO tournament_notify(tournament, player, targets) VALUES(?1, ?2, ?3) "
                    "ON CONFLICT(tournament, player) DO UPDATE SET targets = excluded.targets")
            .bind(1, id).bind(2, player).bind(3, targets).run();
      }
      return Status::ok();
    } catch (const SqlError& e) {
      return Status::failed(e.what());
    }
  }

  std::variant<std::vector<std::pair<std::string, std::string>>, std::string> targets(const std::string& id) override {
    try {
      auto q = db_.prepare("SELECT player, targets FROM tournament_notify WHERE tournament = ?1 ORDER BY player");
      q.bind(1, id);
      std::vector<std::pair<std::string, std::string>> out;
      while (q.step()) out.emplace_back(q.text(0), q.text(1));
      return out;
    } catch (const SqlError& e) {
      return std::string(e.what());
    }
  }

  std::variant<bool, std::string> set_result(const std::string& id, int round, int table, int game,
                                             const std::string& result) override {
    try {
      db_.prepare("UPDATE tournament_tables SET result = ?5 WHERE tournament = ?1 AND round = ?2 AND tbl = ?3 AND "
                  "game = ?4 AND result = ''")
          .bind(1, id).bind(2, std::int64_t{round}).bind(3, std::int64_t{table}).bind(4, std::int64_t{game})
          .bind(5, result).run();
      return db_.changes() > 0;
    } catch (const SqlError& e) {
      return std::string(e.what());
    }
  }

 private:
  Db db_;
};

}  // namespace

std::unique_ptr<TournamentStore> TournamentStore::sqlite(const std::filesystem::path& file) {
  try {
    return std::make_unique<SqliteTournaments>(file);
  } catch (const SqlError& e) {
    throw StorageError("cannot open the tournaments' tables in " + file.string() + ": " + e.what());
  }
}

}  // namespace carc::server
