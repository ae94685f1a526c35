// The tournaments' tables, the same in SQLite and PostgreSQL (docs/tournaments.md#storage).
#pragma once

namespace carc::server {

inline constexpr const char* kTournamentSchema =
    "CREATE TABLE IF NOT EXISTS tournaments(id TEXT PRIMARY KEY, settings TEXT NOT NULL, organiser TEXT NOT NULL, "
    "created_ms BIGINT NOT NULL, state TEXT NOT NULL, round INTEGER NOT NULL, round_started_ms BIGINT NOT NULL, "
    "seeds TEXT NOT NULL, secret TEXT NOT NULL);"
    "CREATE TABLE IF NOT EXISTS tournament_entrants(tournament TEXT NOT NULL, player TEXT NOT NULL, name TEXT NOT NULL, "
    "registered_ms BIGINT NOT NULL, dropped_after INTEGER NOT NULL, seq INTEGER NOT NULL, "
    "PRIMARY KEY(tournament, player));"
    "CREATE TABLE IF NOT EXISTS tournament_tables(tournament TEXT NOT NULL, round INTEGER NOT NULL, tbl INTEGER NOT NULL, "
    "game INTEGER NOT NULL, room TEXT NOT NULL, players TEXT NOT NULL, result TEXT NOT NULL, "
    "PRIMARY KEY(tournament, round, tbl, game));"
    "CREATE TABLE IF NOT EXISTS tournament_notify(tournament TEXT NOT NULL, player TEXT NOT NULL, targets TEXT NOT NULL, "
    "PRIMARY KEY(tournament, player));";

}  // namespace carc::server
