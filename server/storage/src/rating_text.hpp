// What the three rating stores share (rating_store.hpp, docs/community.md#ratings): mu and
// sigma as text in their shortest exact form, so a rating read back is the very double that
// was computed; the tables; and the games from before the ratings, recorded unrated.
// Internal to carc_storage.
#pragma once

#include <charconv>
#include <stdexcept>
#include <string>
#include <system_error>

#include "carc/server/rating_store.hpp"

namespace carc::server::rating_text {

inline std::string exact(double v) {
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

inline double number(const std::string& s) {
  double v = 0;
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  if (r.ec != std::errc{}) throw std::runtime_error("a stored rating is not a number: " + s);
  return v;
}

inline double ordinal(const StoredRating& r) { return r.mu - 3 * r.sigma; }

inline constexpr const char* kSqliteSchema =
    "CREATE TABLE IF NOT EXISTS results(seq INTEGER PRIMARY KEY, room TEXT NOT NULL UNIQUE, pace TEXT NOT NULL,"
    "  expansions TEXT NOT NULL, finished_ms INTEGER NOT NULL, rated INTEGER NOT NULL, seats TEXT NOT NULL);"
    "CREATE TABLE IF NOT EXISTS ratings(player TEXT NOT NULL, pace TEXT NOT NULL, mu TEXT NOT NULL,"
    "  sigma TEXT NOT NULL, ordinal REAL NOT NULL, games INTEGER NOT NULL, name TEXT NOT NULL,"
    "  updated_ms INTEGER NOT NULL, PRIMARY KEY(player, pace)) WITHOUT ROWID;"
    "CREATE INDEX IF NOT EXISTS ratings_by_ordinal ON ratings(pace, ordinal);"
    "CREATE TABLE IF NOT EXISTS rating_points(player TEXT NOT NULL, pace TEXT NOT NULL, seq INTEGER NOT NULL,"
    "  room TEXT NOT NULL, seat INTEGER NOT NULL, rank INTEGER NOT NULL, mu_before TEXT NOT NULL,"
    "  sigma_before TEXT NOT NULL, mu TEXT NOT NULL, sigma TEXT NOT NULL, finished_ms INTEGER NOT NULL,"
    "  PRIMARY KEY(player, pace, seq)) WITHOUT ROWID;"
    "CREATE INDEX IF NOT EXISTS rating_points_by_room ON rating_points(room);";

inline constexpr const char* kPgSchema =
    "CREATE TABLE IF NOT EXISTS results(seq BIGINT PRIMARY KEY, room TEXT NOT NULL UNIQUE, pace TEXT NOT NULL,"
    "  expansions TEXT NOT NULL, finished_ms BIGINT NOT NULL, rated BOOLEAN NOT NULL, seats TEXT NOT NULL);"
    "CREATE TABLE IF NOT EXISTS ratings(player TEXT NOT NULL, pace TEXT NOT NULL, mu TEXT NOT NULL,"
    "  sigma TEXT NOT NULL, ordinal DOUBLE PRECISION NOT NULL, games BIGINT NOT NULL, name TEXT NOT NULL,"
    "  updated_ms BIGINT NOT NULL, PRIMARY KEY(player, pace));"
    "CREATE INDEX IF NOT EXISTS ratings_by_ordinal ON ratings(pace, ordinal);"
    "CREATE TABLE IF NOT EXISTS rating_points(player TEXT NOT NULL, pace TEXT NOT NULL, seq BIGINT NOT NULL,"
    "  room TEXT NOT NULL, seat INTEGER NOT NULL, rank INTEGER NOT NULL, mu_before TEXT NOT NULL,"
    "  sigma_before TEXT NOT NULL, mu TEXT NOT NULL, sigma TEXT NOT NULL, finished_ms BIGINT NOT NULL,"
    "  PRIMARY KEY(player, pace, seq));"
    "CREATE INDEX IF NOT EXISTS rating_points_by_room ON rating_points(room);";

// The games finished before the ratings existed have no player bound to any seat: when the
// tables are made, they are recorded at once as unrated, so the first start does not load
// every finished game of the keep time to find that out (unrecorded_rooms).
inline constexpr const char* kBackfill =
    "INSERT INTO results(seq, room, pace, expansions, finished_ms, rated, seats) "
    "SELECT ROW_NUMBER() OVER (ORDER BY updated_ms, id), id, '', '', updated_ms, 0, '[]' FROM rooms "
    "WHERE phase = 'finished'";
inline constexpr const char* kPgBackfill =
    "INSERT INTO results(seq, room, pace, expansions, finished_ms, rated, seats) "
    "SELECT ROW_NUMBER() OVER (ORDER BY updated_ms, id), id, '', '', updated_ms, false, '[]' FROM rooms "
    "WHERE phase = 'finished'";

}  // namespace carc::server::rating_text
