// A player's statistics on its page (docs/community.md, "A player's page"), computed from the
// stored results alone: the rated games' sets, places and seats, and their analyses. Pure.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "carc/server/rating_store.hpp"

namespace carc::server::community {

// {"games", "sets": [{"expansions", "games", "wins", "win_rate", "average_score"}],
//  "points": [{"kind", "total", "per_game"}], "analysis": {"games", "moves", "average_loss"}}
// over `games` (one player's rated games, as RatingStore::games reads them). A win is first
// place (a tie for first counts). Points by kind read the seats stored with each result;
// the analysis reads the player's own moves of each game whose analysis is done.
nlohmann::json player_stats(const std::vector<PlayerGame>& games);

}  // namespace carc::server::community
