// The server's ratings (docs/community.md#ratings): results stored once, ratings derived from
// them, and the JSON of the players' pages and the leaderboard. Everything touching storage
// runs on the ratings' own worker thread: never on an I/O thread or a room's strand.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/worker.hpp"
#include "carc/server/rating_store.hpp"
#include "community/game_result.hpp"

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

  // Blocks until everything queued so far has run (tests, shutdown order).
  void drain();

 private:
  std::shared_ptr<RatingStore> store_;
  Worker worker_;  // last: stops first
};

// The leaderboard's query: pace ("live" | "turn-based", also "turn_based") and the optional
// expansions; nullopt with `why` when it is not one.
struct BoardQuery {
  std::string pace;
  std::optional<std::string> expansions;
};
std::optional<BoardQuery> parse_board_query(std::string_view query, std::string* why);

}  // namespace carc::server::community
