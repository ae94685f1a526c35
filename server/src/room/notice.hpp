// What a room asks to tell the world outside its page (docs/turn-based.md): "your turn" in a
// turn-based room and "game over", to the room's webhook and to a seat's Web Push
// subscription. Plain values, made on the room's strand and sent elsewhere (server/push).
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
  enum class Event : std::uint8_t { YourTurn, GameOver };
  Event event = Event::YourTurn;
  // Unique per notification and the same when it is sent again (after a restart): the
  // receiver drops what it has seen.
  std::string id;
  std::string room;
  std::optional<int> seat;  // your_turn: the seat; game_over: the pushed seat (webhook: none)
  std::string name;         // that seat's player
  std::optional<protocol::WebhookSetting> hook;  // send to the room's webhook
  std::optional<PushTarget> push;                // send to this subscription
  // Derived again from the stored log when the room was restored (the process may have died
  // between storing the move and sending): sent only if not delivered before.
  bool replayed = false;
};

inline const char* notice_event_name(Notice::Event e) { return e == Notice::Event::YourTurn ? "your_turn" : "game_over"; }

}  // namespace carc::server
