// Who may play rated games (--rated-play, docs/community.md "Rated play"): anyone (open),
// only players signed in with the host's provider, or those and players who redeemed an
// invite code the admin made.
#pragma once

#include <optional>
#include <string_view>

namespace carc::server {

enum class RatedPlay { Open, SignedIn, Invite };

std::optional<RatedPlay> rated_play_from(std::string_view s);
std::string_view to_string(RatedPlay r);

}  // namespace carc::server
