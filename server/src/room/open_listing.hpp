// What the list of open games shows of one lobby (docs/community.md, "Open games and quick
// play"): plain data the room hands out on its strand, read by the directory of open games.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "carc/core/tiles.hpp"
#include "carc/protocol/messages.hpp"

namespace carc::server {

struct OpenListing {
  std::string room;
  int seated = 0;  // seats taken, humans and computer players
  int seats = 0;   // how many the room's expansions allow
  ExpansionSet expansions;
  protocol::Pace pace = protocol::Pace::Live;
  std::optional<int> turn_seconds;  // a live room's turn clock, none: no clock
  int bank_seconds = 0;             // turn-based rooms: the bank and what each move adds
  int increment_seconds = 0;
  std::string host;                 // the host's seat name (a chat-checked name)
  int host_seat = 0;                // for the ratings: (room, host_seat) names the host's player
  std::string host_player;          // the public id bound to the host's seat; empty until bound
  std::int64_t opened_ms = 0;       // when the host opened it: the oldest is offered first
  // Ratings (docs/community.md): the host's rating once players are rated; none until then.
  std::optional<double> rating;
  bool operator==(const OpenListing&) const = default;
};

}  // namespace carc::server
