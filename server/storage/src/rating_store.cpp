// The results and ratings in memory (rating_store.hpp, docs/community.md#ratings): for
// --data-dir :memory: and tests. SQLite and PostgreSQL: rating_store_sqlite.cpp, rating_store_pg.cpp.
#include "carc/server/rating_store.hpp"

#include <algorithm>
#include <map>
#include <mutex>

#include "rating_text.hpp"

namespace carc::server {

namespace {

using namespace rating_text;

// ---- memory ----
class MemoryRatings final : public RatingStore {
 public:
  std::variant<bool, std::string> record(const StoredResult& result, const std::vector<std::string>& players,
                                         const Rate& rate) override {
    std::lock_guard lock(mu_);
    for (const StoredResult& r : results_) {
      if (r.room == result.room) return false;
    }
    StoredResult stored = result;
    stored.seq = static_cast<std::int64_t>(results_.size()) + 1;
    results_.push_back(stored);
    if (!result.rated) return true;
    std::vector<StoredRating> current;
    for (const std::string& p : players) {
      if (auto it = ratings_.find({p, result.pace}); it != ratings_.end()) current.push_back(it->second);
    }
    const RatedResult rated = rate(stored.seq, current);
    for (const StoredRating& r : rated.ratings) ratings_[{r.player, r.pace}] = r;
    for (StoredRatingPoint p : rated.points) {
      p.seq = stored.seq;
      points_.push_back(p);
    }
    return true;
  }
  std::variant<std::vector<StoredResult>, std::string> results() override {
    std::lock_guard lock(mu_);
    return results_;
  }
  std::variant<std::vector<StoredRating>, std::string> ratings(const std::string& player) override {
    std::lock_guard lock(mu_);
    std::vector<StoredRating> out;
    for (const auto& [k, r] : ratings_) {
      if (k.first == player) out.push_back(r);
    }
    return out;
  }
  std::variant<std::vector<StoredRatingPoint>, std::string> points(const std::string& player, const std::string& pace,
                                                                   int limit) override {
    std::lock_guard lock(mu_);
    std::vector<StoredRatingPoint> out;
    for (auto it = points_.rbegin(); it != points_.rend() && static_cast<int>(out.size()) < limit; ++it) {
      if (it->player == player && it->pace == pace) out.push_back(*it);
    }
    return out;
  }
  std::variant<std::vector<LeaderRow>, std::string> leaderboard(const std::string& pace,
                                                                const std::optional<std::string>& expansions,
                                                                int limit) override {
    std::lock_guard lock(mu_);
    std::vector<LeaderRow> out;
    for (const auto& [k, r] : ratings_) {
      if (k.second != pace) continue;
      std::int64_t games = r.games;
      if (expansions) {
        games = 0;
        for (const StoredRatingPoint& p : points_) {
          if (p.player == r.player && p.pace == pace && results_[static_cast<std::size_t>(p.seq - 1)].expansions == *expansions) ++games;
        }
        if (games == 0) continue;
      }
      out.push_back({r, games});
    }
    std::sort(out.begin(), out.end(), [](const LeaderRow& a, const LeaderRow& b) {
      const double oa = ordinal(a.rating), ob = ordinal(b.rating);
      return oa != ob ? oa > ob : a.rating.player < b.rating.player;
    });
    if (static_cast<int>(out.size()) > limit) out.resize(static_cast<std::size_t>(limit));
    return out;
  }
  std::variant<std::vector<PlayerGame>, std::string> games(const std::string& player, int limit) override {
    std::lock_guard lock(mu_);
    std::vector<PlayerGame> out;
    for (auto it = points_.rbegin(); it != points_.rend() && static_cast<int>(out.size()) < limit; ++it) {
      if (it->player != player) continue;
      const StoredResult& r = results_[static_cast<std::size_t>(it->seq - 1)];
      out.push_back({it->seq, r.room, r.pace, r.expansions, r.finished_ms, it->seat, it->rank, r.seats, {}});  // no analyses here
    }
    return out;
  }
  std::variant<std::vector<RoomRatingPoint>, std::string> room_points(const std::string& room) override {
    std::lock_guard lock(mu_);
    std::vector<RoomRatingPoint> out;
    for (const StoredRatingPoint& p : points_) {
      if (p.room != room) continue;
      std::int64_t games = 0;
      for (const StoredRatingPoint& q : points_) games += q.player == p.player && q.pace == p.pace && q.seq <= p.seq;
      out.push_back({p, games});
    }
    std::sort(out.begin(), out.end(), [](const RoomRatingPoint& a, const RoomRatingPoint& b) { return a.point.seat < b.point.seat; });
    return out;
  }
  std::variant<std::vector<std::string>, std::string> unrecorded_rooms() override { return std::vector<std::string>{}; }

 private:
  std::mutex mu_;
  std::vector<StoredResult> results_;
  std::map<std::pair<std::string, std::string>, StoredRating> ratings_;
  std::vector<StoredRatingPoint> points_;
};


}  // namespace

std::unique_ptr<RatingStore> RatingStore::memory() { return std::make_unique<MemoryRatings>(); }

}  // namespace carc::server
