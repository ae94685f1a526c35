// The server's ratings (docs/community.md#ratings): results stored once, ratings derived from
// them, and the JSON of the players' pages and the leaderboard. Everything touching storage
// runs on the ratings' own worker thread: never on an I/O thread or a room's strand.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "base/worker.hpp"
#include "carc/server/rating_store.hpp"
#include "community/game_result.hpp"

namespace carc::server {
class OpenGames;
}

namespace carc::server::community {

class Ratings {
 public:
  struct Answer {
    int status = 200;
    std::string body;  // JSON
  };

  explicit Ratings(std::unique_ptr<RatingStore> store);

  // Stores the finished game's result unless its room has one (then nothing), and rates it
  // when it is rated. `rated` (on the worker) gets the `rated` message for the room's
  // connections when this call rated it; it is not called otherwise.
  void record(GameResult g, std::function<void(std::string frame)> rated);
  // GET /api/players/<id> and GET /api/leaderboard?pace=...[&expansions=...]; `done` on the worker.
  void player(std::string id, std::function<void(Answer)> done);
  void leaderboard(std::string query, std::function<void(Answer)> done);
  // GET /api/rooms/<id>/rated: the room's `rated` message again, from the stored result (the
  // end screen after a reload); 404 while the room has no rated result. The caller checks the
  // id's form (valid_room_id). `done` on the worker.
  void room(std::string id, std::function<void(Answer)> done);

  // The open games' rater (docs/community.md, "Open games and quick play"): the shown rating
  // of `player` in `pace` ("live" | "turn-based") as last read, never waiting: a player not
  // read yet, or read more than 30 s ago, is read again on the worker (none meanwhile, or the
  // old value). None: the player has no rated game in that pace.
  std::optional<double> cached(const std::string& player, const std::string& pace);
  // The same read now, on the worker (quick play's asker); `done` on the worker.
  void current(std::string player, std::string pace, std::function<void(std::optional<double>)> done);

  // Blocks until everything queued so far has run (tests, shutdown order).
  void drain();

 private:
  struct Cached {
    std::optional<double> rating;
    std::int64_t read_ms = 0;
    bool reading = false;
  };
  void remember(const std::string& player, const std::string& pace, std::optional<double> rating);
  std::optional<double> read_rating(const std::string& player, const std::string& pace);  // on the worker

  std::shared_ptr<RatingStore> store_;
  std::mutex cache_mu_;
  std::map<std::pair<std::string, std::string>, Cached> cache_;
  Worker worker_;  // last: stops first
};

// The `rated` message (docs/protocol-details.md#ratings) of a rated game's seats.
std::string rated_message(const std::string& pace, const std::vector<RoomRatingPoint>& seats);

// Sets `games`' rater (OpenGames::set_rater): each listing's host rating, from `ratings`' cache.
void rate_open_games(OpenGames& games, std::shared_ptr<Ratings> ratings);

// The leaderboard's query: pace ("live" | "turn-based", also "turn_based") and the optional
// expansions; nullopt with `why` when it is not one.
struct BoardQuery {
  std::string pace;
  std::optional<std::string> expansions;
};
std::optional<BoardQuery> parse_board_query(std::string_view query, std::string* why);

}  // namespace carc::server::community
