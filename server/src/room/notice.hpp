// What a room asks to tell the world outside its page (docs/turn-based.md): "your turn" in a
// turn-based room and "game over", to the room's webhook and to a seat's Web Push
// subscription; and what a tournament tells an entrant whose table is ready
// (docs/tournaments.md#notifications). Plain values, sent elsewhere (server/push).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "carc/protocol/messages.hpp"

namespace carc::server {

struct PushTarget {
  std::string endpoint;
  std::string p256dh;  // base64url
  std::string auth;    // base64url
  bool operator==(const PushTarget&) const = default;
};

struct Notice {
  enum class Event : std::uint8_t { YourTurn, GameOver, NewTable };
  Event event = Event::YourTurn;
  // Unique per notification and the same when it is sent again (after a restart): the
  // receiver drops what it has seen.
  std::string id;
  std::string room;
  std::optional<int> seat;  // your_turn: the seat; game_over: the pushed seat (webhook: none)
  std::string name;         // that seat's player
  std::optional<protocol::WebhookSetting> hook;  // send to the room's webhook
  std::optional<PushTarget> push;                // send to this subscription
  // NewTable: the tournament (its id and name) and the round whose table is ready.
  std::string tournament;
  std::string tournament_name;
  int round = 0;
  // Derived again from the stored log when the room was restored (the process may have died
  // between storing the move and sending): sent only if not delivered before.
  bool replayed = false;
};

inline const char* notice_event_name(Notice::Event e) {
  switch (e) {
    case Notice::Event::YourTurn: return "your_turn";
    case Notice::Event::GameOver: return "game_over";
    case Notice::Event::NewTable: return "new_table";
  }
  return "";
}

}  // namespace carc::server
