// Test-only fault injection for the ratings (CARC_CRASH_RATINGS=<point>), as a decorator of
// the rating store: the process _exits with 86 at one step between a game's end and its
// rating (docs/community.md#ratings), so tests/community/ratings-crash.test.mjs can restart
// it and check that nothing is lost or counted twice. Points:
//   before_result        when the result reaches the store, before its transaction
//   before_result_late   the same, 300 ms later (the room's "finished" phase is stored by then)
//   in_result            inside the transaction, after the ratings are computed, before the commit
//   after_result         right after the commit, before the `rated` message
// Compiled only into the test build of the server (carcassonne-server-test, CARC_TEST_HOOKS).
#pragma once

#include <unistd.h>

#include <chrono>
#include <memory>
#include <string>
#include <thread>

#include <spdlog/spdlog.h>

#include "carc/server/rating_store.hpp"

namespace carc::server {

class CrashRatings final : public RatingStore {
 public:
  CrashRatings(std::unique_ptr<RatingStore> inner, std::string point) : inner_(std::move(inner)), point_(std::move(point)) {}

  std::variant<bool, std::string> record(const StoredResult& result, const std::vector<std::string>& players,
                                         const Rate& rate) override {
    if (point_ == "before_result_late") std::this_thread::sleep_for(std::chrono::milliseconds(300));
    if (point_ == "before_result" || point_ == "before_result_late") crash();
    auto r = inner_->record(result, players, [&](std::int64_t seq, const std::vector<StoredRating>& current) {
      RatedResult out = rate(seq, current);
      if (point_ == "in_result") crash();
      return out;
    });
    if (point_ == "after_result") crash();
    return r;
  }
  std::variant<std::vector<StoredResult>, std::string> results() override { return inner_->results(); }
  std::variant<std::vector<StoredRating>, std::string> ratings(const std::string& p) override { return inner_->ratings(p); }
  std::variant<std::vector<StoredRatingPoint>, std::string> points(const std::string& p, const std::string& pace,
                                                                   int limit) override {
    return inner_->points(p, pace, limit);
  }
  std::variant<std::vector<LeaderRow>, std::string> leaderboard(const std::string& pace,
                                                                const std::optional<std::string>& expansions,
                                                                int limit) override {
    return inner_->leaderboard(pace, expansions, limit);
  }
  std::variant<std::vector<PlayerGame>, std::string> games(const std::string& p, int limit) override {
    return inner_->games(p, limit);
  }
  std::variant<std::vector<RoomRatingPoint>, std::string> room_points(const std::string& room) override {
    return inner_->room_points(room);
  }
  std::variant<std::vector<std::string>, std::string> unrecorded_rooms() override { return inner_->unrecorded_rooms(); }

 private:
  [[noreturn]] void crash() {
    spdlog::warn("CARC_CRASH_RATINGS={}: exiting", point_);
    spdlog::default_logger()->flush();
    ::_exit(86);
  }
  std::unique_ptr<RatingStore> inner_;
  std::string point_;
};

}  // namespace carc::server
