// From results to ratings (docs/community.md#ratings): what one rated game changes, and every
// rating again from the stored results in their order. The live path (Ratings) and the
// recompute check call the same functions, so both give the same numbers. Pure: no I/O.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "carc/server/rating_store.hpp"
#include "community/game_result.hpp"
#include "community/rating.hpp"

namespace carc::server::community {

// A rating is provisional until its player has this many rated games in its pace and its
// sigma has come down to this (from 25/3; about 9 two-player games, 13 four-player ones).
inline constexpr std::int64_t kSettledGames = 5;
inline constexpr double kSettledSigma = 6.5;
bool provisional(const StoredRating& r);
double shown(const StoredRating& r);  // the rating shown: mu - 3 sigma (openskill's ordinal)

// The stored form of a result (rated or not, as unrated_reason() says).
StoredResult stored_result(const GameResult& g);

// The new ratings and chart points of a rated result, from its players' current ratings
// (absent: a new player, openskill's defaults).
RatedResult rate_result(const GameResult& g, const std::vector<StoredRating>& current, const RatingModel& model = {});

// Every rating again from the stored results in their order: (player, pace) -> rating.
// A result whose seats cannot be read rates nobody (as when it was stored).
std::map<std::pair<std::string, std::string>, StoredRating> recompute(const std::vector<StoredResult>& results);

}  // namespace carc::server::community
