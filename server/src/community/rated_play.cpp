#include "community/rated_play.hpp"

namespace carc::server {

std::optional<RatedPlay> rated_play_from(std::string_view s) {
  if (s == "open") return RatedPlay::Open;
  if (s == "signed-in") return RatedPlay::SignedIn;
  if (s == "invite") return RatedPlay::Invite;
  return std::nullopt;
}

std::string_view to_string(RatedPlay r) {
  switch (r) {
    case RatedPlay::Open: return "open";
    case RatedPlay::SignedIn: return "signed-in";
    case RatedPlay::Invite: return "invite";
  }
  return "open";
}

}  // namespace carc::server
