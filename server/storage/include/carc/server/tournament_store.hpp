// Tournaments' rows (docs/tournaments.md#storage): the tournament with its settings and where
// it stands (state, round), its entrants, and each round's tables with their rooms and
// results. Everything a tournament decides is computed again from these rows.
//
// A round moves on exactly once: `advance` is a compare-and-set on (state, round), and the
// round's tables are inserted in the same transaction, so of two nodes (or a node and itself
// after a restart) that both decide the next round, one stores it and the other is told it
// lost. Registration takes the tournament's row lock (PostgreSQL) or the file's write lock
// (SQLite) too, so nobody registers after the start and a tournament never overfills.
//
// Its own connection (SQLite: the rooms' file, or ":memory:"; PostgreSQL: the same database),
// used from one thread (a Worker).
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "carc/server/room_store.hpp"

namespace carc::server {

struct TournamentRow {
  std::string id;
  std::string settings;   // JSON text (tournaments/settings.hpp)
  std::string organiser;  // the organiser's public player id
  std::int64_t created_ms = 0;
  std::string state = "registering";  // "registering" | "running" | "finished"
  int round = 0;                      // the round being played (0: not started)
  std::int64_t round_started_ms = 0;
  std::string seeds;  // JSON text: the players in seed order with their ratings, from the start on
  std::string secret;  // the seats' tokens are derived from it (docs/tournaments.md#seats); never sent
  bool operator==(const TournamentRow&) const = default;
};

struct EntrantRow {
  std::string player;
  std::string name;
  std::int64_t registered_ms = 0;
  int dropped_after = 0;  // 0: still in; n: dropped after round n; kRemoved: removed before the start
  bool operator==(const EntrantRow&) const = default;
};

// One game of a round: `players` (JSON list of ids, seat order) seated in `room`; `result`
// (JSON text of the seats' scores) once the game ended, "" before.
struct TableRow {
  int round = 1;
  int table = 0;
  int game = 0;
  std::string room;
  std::string players;
  std::string result;
  bool operator==(const TableRow&) const = default;
};

// An entrant the organiser removed before the start keeps its row, so it cannot register again.
inline constexpr int kRemoved = -1;

enum class Entry { registered, already, removed, full, closed, unknown };

class TournamentStore {
 public:
  virtual ~TournamentStore() = default;
  virtual Status create(const TournamentRow& t) = 0;
  virtual std::variant<std::optional<TournamentRow>, std::string> tournament(const std::string& id) = 0;
  // Newest first; `state` "" for every state.
  virtual std::variant<std::vector<TournamentRow>, std::string> tournaments(const std::string& state, std::size_t max) = 0;
  // In registration order, the removed too.
  virtual std::variant<std::vector<EntrantRow>, std::string> entrants(const std::string& id) = 0;
  // Registers `e` while the tournament is registering and has fewer than `seats` entrants
  // (the removed do not count).
  virtual std::variant<Entry, std::string> enter(const std::string& id, const EntrantRow& e, int seats) = 0;
  // Removes an entrant before the start (its row stays, marked kRemoved): false when it was
  // not an entrant, was removed already, or the tournament started.
  virtual std::variant<bool, std::string> withdraw(const std::string& id, const std::string& player) = 0;
  // Drops an entrant of a running tournament after `round`: false when not an entrant, dropped
  // already, or the tournament is not running.
  virtual std::variant<bool, std::string> drop(const std::string& id, const std::string& player, int round) = 0;
  // Moves the tournament from `from` (its state, round and round_started_ms as read) to
  // (to_state, to_round, started_ms) with `tables` (and `seeds` when not empty), all or
  // nothing; false when it was not at `from` any more. `started_ms` must differ from
  // from.round_started_ms (a knockout's extra games stay in the same round).
  virtual std::variant<bool, std::string> advance(const TournamentRow& from, const std::string& to_state, int to_round,
                                                  const std::string& seeds, std::int64_t started_ms,
                                                  const std::vector<TableRow>& tables) = 0;
  virtual std::variant<std::vector<TableRow>, std::string> tables(const std::string& id) = 0;
  // Stores the room made for a table once: false when it had one already (another node made
  // it first; the caller's room is left unused).
  virtual std::variant<bool, std::string> set_room(const std::string& id, int round, int table, int game,
                                                   const std::string& room) = 0;
  // Stores a table's result once: false when it had one already (or there is no such table).
  virtual std::variant<bool, std::string> set_result(const std::string& id, int round, int table, int game,
                                                     const std::string& result) = 0;

  // Where an entrant's notices go (docs/tournaments.md#notifications): JSON text, kept secret
  // (never in a view); "" forgets them.
  virtual Status set_targets(const std::string& id, const std::string& player, const std::string& targets) = 0;
  // Every entrant's targets: (player, JSON text).
  virtual std::variant<std::vector<std::pair<std::string, std::string>>, std::string> targets(const std::string& id) = 0;

  static std::unique_ptr<TournamentStore> sqlite(const std::filesystem::path& file);  // ":memory:" too; throws StorageError
  static std::unique_ptr<TournamentStore> postgres(const std::string& url);            // throws StorageError
};

}  // namespace carc::server
