// Tournaments' rows in PostgreSQL (docs/tournaments.md#storage), shared by every node. A
// registration and a round's advance both lock the tournament's row (SELECT ... FOR UPDATE,
// UPDATE), so they are ordered: nobody registers after the start, and of two nodes that
// decide the same next round the second finds the round moved and stores nothing.
#include <type_traits>

#include "carc/server/tournament_store.hpp"
#include "pg.hpp"
#include "tournament_schema.hpp"

namespace carc::server {

namespace {

constexpr const char* kColumns = "id, settings, organiser, created_ms, state, round, round_started_ms, seeds, secret";

TournamentRow read_tournament(const PgResult& r, int i) {
  return TournamentRow{r.text(i, 0), r.text(i, 1), r.text(i, 2), r.int64(i, 3), r.text(i, 4),
                       static_cast<int>(r.int64(i, 5)), r.int64(i, 6), r.text(i, 7), r.text(i, 8)};
}

class PgTournaments final : public TournamentStore {
 public:
  explicit PgTournaments(const std::string& url) : conn_(url, PgConnOptions{}) {
    conn_.exec("SET client_min_messages = warning");
    // Nodes start together: one at a time makes the tables.
    check(conn_.exec(std::string("SELECT pg_advisory_lock(7305403); ") + kTournamentSchema +
                     " SELECT pg_advisory_unlock(7305403);"));
    const std::string cols = kColumns;
    conn_.prepare("t_create", "INSERT INTO tournaments(" + cols + ") VALUES($1, $2, $3, $4, $5, $6, $7, $8, $9)");
    conn_.prepare("t_get", "SELECT " + cols + " FROM tournaments WHERE id = $1");
    conn_.prepare("t_lock", "SELECT state FROM tournaments WHERE id = $1 FOR UPDATE");
    conn_.prepare("t_list", "SELECT " + cols + " FROM tournaments WHERE $1 = '' OR state = $1 "
                            "ORDER BY created_ms DESC, id LIMIT $2");
    conn_.prepare("e_list", "SELECT player, name, registered_ms, dropped_after FROM tournament_entrants "
                            "WHERE tournament = $1 ORDER BY seq");
    conn_.prepare("e_mine", "SELECT dropped_after FROM tournament_entrants WHERE tournament = $1 AND player = $2");
    conn_.prepare("e_count", "SELECT COUNT(*) FILTER (WHERE dropped_after <> " + std::to_string(kRemoved) +
                             "), COALESCE(MAX(seq), 0) FROM tournament_entrants WHERE tournament = $1");
    conn_.prepare("e_add", "INSERT INTO tournament_entrants(tournament, player, name, registered_ms, dropped_after, seq) "
                           "VALUES($1, $2, $3, $4, 0, $5)");
    conn_.prepare("e_withdraw", "UPDATE tournament_entrants SET dropped_after = " + std::to_string(kRemoved) +
                                " WHERE tournament = $1 AND player = $2 AND dropped_after = 0 AND EXISTS "
                                "(SELECT 1 FROM tournaments WHERE id = $1 AND state = 'registering')");
    conn_.prepare("e_drop", "UPDATE tournament_entrants SET dropped_after = $3 WHERE tournament = $1 AND player = $2 AND "
                            "dropped_after = 0 AND EXISTS (SELECT 1 FROM tournaments WHERE id = $1 AND state = 'running')");
    conn_.prepare("t_advance", "UPDATE tournaments SET state = $4, round = $5, round_started_ms = $6, "
                               "seeds = CASE WHEN $7 = '' THEN seeds ELSE $7 END "
                               "WHERE id = $1 AND state = $2 AND round = $3 AND round_started_ms = $8");
    conn_.prepare("tb_add", "INSERT INTO tournament_tables(tournament, round, tbl, game, room, players, result) "
                            "VALUES($1, $2, $3, $4, $5, $6, $7)");
    conn_.prepare("tb_list", "SELECT round, tbl, game, room, players, result FROM tournament_tables "
                             "WHERE tournament = $1 ORDER BY round, tbl, game");
    conn_.prepare("tb_room", "UPDATE tournament_tables SET room = $5 WHERE tournament = $1 AND round = $2 AND "
                             "tbl = $3 AND game = $4 AND room = ''");
    conn_.prepare("n_set", "INSERT INTO tournament_notify(tournament, player, targets) VALUES($1, $2, $3) "
                           "ON CONFLICT(tournament, player) DO UPDATE SET targets = excluded.targets");
    conn_.prepare("n_forget", "DELETE FROM tournament_notify WHERE tournament = $1 AND player = $2");
    conn_.prepare("n_list", "SELECT player, targets FROM tournament_notify WHERE tournament = $1 ORDER BY player");
    conn_.prepare("tb_result", "UPDATE tournament_tables SET result = $5 WHERE tournament = $1 AND round = $2 AND "
                               "tbl = $3 AND game = $4 AND result = ''");
  }

  Status create(const TournamentRow& t) override {
    try {
      ensure();
      conn_.run("t_create", {t.id, t.settings, t.organiser, std::to_string(t.created_ms), t.state, std::to_string(t.round),
                             std::to_string(t.round_started_ms), t.seeds, t.secret});
      return Status::ok();
    } catch (const std::exception& e) {
      return Status::failed(e.what());
    }
  }

  std::variant<std::optional<TournamentRow>, std::string> tournament(const std::string& id) override {
    try {
      ensure();
      const PgResult r = conn_.run("t_get", {id});
      if (r.rows() == 0) return std::optional<TournamentRow>();
      return std::optional<TournamentRow>(read_tournament(r, 0));
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
  }

  std::variant<std::vector<TournamentRow>, std::string> tournaments(const std::string& state, std::size_t max) override {
    try {
      ensure();
      const PgResult r = conn_.run("t_list", {state, std::to_string(max)});
      std::vector<TournamentRow> out;
      for (int i = 0; i < r.rows(); ++i) out.push_back(read_tournament(r, i));
      return out;
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
  }

  std::variant<std::vector<EntrantRow>, std::string> entrants(const std::string& id) override {
    try {
      ensure();
      const PgResult r = conn_.run("e_list", {id});
      std::vector<EntrantRow> out;
      for (int i = 0; i < r.rows(); ++i) {
        out.push_back(EntrantRow{r.text(i, 0), r.text(i, 1), r.int64(i, 2), static_cast<int>(r.int64(i, 3))});
      }
      return out;
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
  }

  std::variant<Entry, std::string> enter(const std::string& id, const EntrantRow& e, int seats) override {
    try {
      ensure();
      return in_transaction([&] {
        const PgResult state = conn_.run("t_lock", {id});
        if (state.rows() == 0) return Entry::unknown;
        const PgResult mine = conn_.run("e_mine", {id, e.player});
        if (mine.rows() > 0) return mine.int64(0, 0) == kRemoved ? Entry::removed : Entry::already;
        if (state.text(0, 0) != "registering") return Entry::closed;
        const PgResult count = conn_.run("e_count", {id});
        if (count.int64(0, 0) >= seats) return Entry::full;
        conn_.run("e_add", {id, e.player, e.name, std::to_string(e.registered_ms), std::to_string(count.int64(0, 1) + 1)});
        return Entry::registered;
      });
    } catch (const std::exception& x) {
      return std::string(x.what());
    }
  }

  std::variant<bool, std::string> withdraw(const std::string& id, const std::string& player) override {
    try {
      ensure();
      return in_transaction([&] {
        conn_.run("t_lock", {id});
        return conn_.run("e_withdraw", {id, player}).affected() > 0;
      });
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
  }

  std::variant<bool, std::string> drop(const std::string& id, const std::string& player, int round) override {
    try {
      ensure();
      return conn_.run("e_drop", {id, player, std::to_string(round)}).affected() > 0;
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
  }

  std::variant<bool, std::string> advance(const TournamentRow& from, const std::string& to_state, int to_round,
                                          const std::string& seeds, std::int64_t started_ms,
                                          const std::vector<TableRow>& tables) override {
    try {
      ensure();
      const std::string& id = from.id;
      return in_transaction([&] {
        const PgResult moved = conn_.run("t_advance", {id, from.state, std::to_string(from.round), to_state,
                                                       std::to_string(to_round), std::to_string(started_ms), seeds,
                                                       std::to_string(from.round_started_ms)});
        if (moved.affected() == 0) return false;
        for (const TableRow& t : tables) {
          conn_.run("tb_add", {id, std::to_string(t.round), std::to_string(t.table), std::to_string(t.game), t.room,
                               t.players, t.result});
        }
        return true;
      });
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
  }

  std::variant<std::vector<TableRow>, std::string> tables(const std::string& id) override {
    try {
      ensure();
      const PgResult r = conn_.run("tb_list", {id});
      std::vector<TableRow> out;
      for (int i = 0; i < r.rows(); ++i) {
        out.push_back(TableRow{static_cast<int>(r.int64(i, 0)), static_cast<int>(r.int64(i, 1)),
                               static_cast<int>(r.int64(i, 2)), r.text(i, 3), r.text(i, 4), r.text(i, 5)});
      }
      return out;
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
  }

  std::variant<bool, std::string> set_room(const std::string& id, int round, int table, int game,
                                           const std::string& room) override {
    try {
      ensure();
      return conn_.run("tb_room", {id, std::to_string(round), std::to_string(table), std::to_string(game), room})
                 .affected() > 0;
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
  }

  Status set_targets(const std::string& id, const std::string& player, const std::string& targets) override {
    try {
      ensure();
      if (targets.empty()) check(conn_.run("n_forget", {id, player}));
      else check(conn_.run("n_set", {id, player, targets}));
      return Status::ok();
    } catch (const std::exception& e) {
      return Status::failed(e.what());
    }
  }

  std::variant<std::vector<std::pair<std::string, std::string>>, std::string> targets(const std::string& id) override {
    try {
      ensure();
      const PgResult r = conn_.run("n_list", {id});
      check(r);
      std::vector<std::pair<std::string, std::string>> out;
      for (int i = 0; i < r.rows(); ++i) out.emplace_back(r.text(i, 0), r.text(i, 1));
      return out;
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
  }

  std::variant<bool, std::string> set_result(const std::string& id, int round, int table, int game,
                                             const std::string& result) override {
    try {
      ensure();
      return conn_.run("tb_result", {id, std::to_string(round), std::to_string(table), std::to_string(game), result})
                 .affected() > 0;
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
  }

 private:
  static void check(const PgResult& r) {
    if (!r.ok()) throw PgError(r.error());
  }
  template <class F>
  std::invoke_result_t<F> in_transaction(F&& body) {
    check(conn_.exec("BEGIN"));
    try {
      auto out = body();
      check(conn_.exec("COMMIT"));
      return out;
    } catch (...) {
      if (conn_.healthy()) conn_.exec("ROLLBACK");
      throw;
    }
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

std::unique_ptr<TournamentStore> TournamentStore::postgres(const std::string& url) {
  try {
    return std::make_unique<PgTournaments>(url);
  } catch (const std::exception& e) {
    throw StorageError(std::string("cannot open the tournaments' tables in PostgreSQL: ") + e.what());
  }
}

}  // namespace carc::server
