// Game results and ratings (docs/community.md#ratings). A result is stored once per room; the
// ratings are derived from the results in the order they were stored, and written in the same
// transaction as the result that changed them. So a result is either stored with its ratings
// or not at all: a crash before the commit loses nothing (the room's log derives the result
// again), and a result recorded again is refused by its room's key (nothing counts twice).
//
// Its own connection (SQLite: the same file as the rooms; PostgreSQL: the same database),
// used from one thread (Ratings' worker). Its tables are made by the store itself
// (CREATE TABLE IF NOT EXISTS).
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "carc/server/room_store.hpp"

namespace carc::server {

// One finished game as the ratings saw it. `seats` is the game's seats as JSON text (the
// server's community/game_result.hpp reads and writes it; opaque here).
struct StoredResult {
  std::int64_t seq = 0;  // the order results were stored in (given by the store)
  std::string room;
  std::string pace;        // "live" | "turn-based"
  std::string expansions;  // the expansions' ids, comma-separated ("" for the base game)
  std::int64_t finished_ms = 0;
  bool rated = false;      // false: kept so that it is not derived again, but rates nobody
  std::string seats;
  bool operator==(const StoredResult&) const = default;
};

// A player's rating in one pace, after its last rated game.
struct StoredRating {
  std::string player;  // public id (keys/player_id.hpp)
  std::string pace;
  double mu = 0;
  double sigma = 0;
  std::int64_t games = 0;
  std::string name;  // the name in the seat of its last rated game
  std::int64_t updated_ms = 0;
  bool operator==(const StoredRating&) const = default;
};

// One rated game of one player: its rating before and after (a point of its chart).
struct StoredRatingPoint {
  std::string player;
  std::string pace;
  std::int64_t seq = 0;  // the result's
  std::string room;
  int seat = 0;
  int rank = 0;  // 1 = first
  double mu_before = 0, sigma_before = 0, mu = 0, sigma = 0;
  std::int64_t finished_ms = 0;
  bool operator==(const StoredRatingPoint&) const = default;
};

// What one rated result changes: the players' new ratings and their chart points.
struct RatedResult {
  std::vector<StoredRating> ratings;
  std::vector<StoredRatingPoint> points;  // seq is filled in by the store
};

// One seat of a rated game as its end screen shows it again (docs/community.md, "The end of a
// rated game"): its chart point and how many rated games its player had in that pace with it.
struct RoomRatingPoint {
  StoredRatingPoint point;
  std::int64_t games = 0;
  bool operator==(const RoomRatingPoint&) const = default;
};

struct LeaderRow {
  StoredRating rating;
  std::int64_t games = 0;  // rated games counted by the board (all, or those with the expansions asked)
};

// One rated game of one player with what its page's statistics read (docs/community.md,
// "A player's page"): the result's set and seats, the player's seat and place, and the
// game's analysis when it is done (its moves' JSON text; empty: none).
struct PlayerGame {
  std::int64_t seq = 0;
  std::string room;
  std::string pace;
  std::string expansions;
  std::int64_t finished_ms = 0;
  int seat = 0;
  int rank = 0;
  std::string seats;     // the result's seats (JSON text)
  std::string analysis;  // the moves of its finished analysis (JSON text), or empty
  bool operator==(const PlayerGame&) const = default;
};

class RatingStore {
 public:
  virtual ~RatingStore() = default;
  // In one transaction: if `result.room` has a result already, nothing (answers false).
  // Else stores it (its seq is the next), and when it is rated, hands `rate` the current
  // ratings of `players` in its pace (those without one are absent) and stores what it
  // answers. `rate` runs inside the transaction and must not throw.
  using Rate = std::function<RatedResult(std::int64_t seq, const std::vector<StoredRating>& current)>;
  virtual std::variant<bool, std::string> record(const StoredResult& result, const std::vector<std::string>& players,
                                                 const Rate& rate) = 0;
  // Every stored result, in order (the recompute test; tools).
  virtual std::variant<std::vector<StoredResult>, std::string> results() = 0;
  virtual std::variant<std::vector<StoredRating>, std::string> ratings(const std::string& player) = 0;
  // The player's newest chart points in `pace` (newest first), at most `limit`.
  virtual std::variant<std::vector<StoredRatingPoint>, std::string> points(const std::string& player,
                                                                           const std::string& pace, int limit) = 0;
  // The best ratings of `pace` by mu - 3 sigma; with `expansions`, only players with rated
  // games of exactly that set, and `games` counts those.
  virtual std::variant<std::vector<LeaderRow>, std::string> leaderboard(const std::string& pace,
                                                                        const std::optional<std::string>& expansions,
                                                                        int limit) = 0;
  // The player's newest rated games of both paces (newest first), at most `limit`.
  virtual std::variant<std::vector<PlayerGame>, std::string> games(const std::string& player, int limit) = 0;
  // The seats of `room`'s rated result, by seat; empty when the room has none (not rated, or
  // not yet).
  virtual std::variant<std::vector<RoomRatingPoint>, std::string> room_points(const std::string& room) = 0;
  // Finished rooms of the rooms' store that have no result yet (a crash came between a
  // game's end and its result): the server loads them once at start-up, which derives their
  // results again. The memory store has no rooms to look at.
  virtual std::variant<std::vector<std::string>, std::string> unrecorded_rooms() = 0;

  static std::unique_ptr<RatingStore> sqlite(const std::filesystem::path& file);  // throws StorageError
  static std::unique_ptr<RatingStore> memory();
  static std::unique_ptr<RatingStore> postgres(const std::string& url);  // throws StorageError
};

}  // namespace carc::server
