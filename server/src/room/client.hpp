// What a room sees of a connection: somewhere to send frames. The WebSocket session
// implements it; the room never touches a socket (and never includes Beast).
#pragma once

#include <memory>
#include <string>

namespace carc::server {

enum class CloseReason {
  GoingAway,  // the server shuts down
  Replaced,   // the seat was taken back from another connection
  RoomClosed, // the room expired
  Moved,      // several nodes: the room left this node; reconnect (through the front) to reach it
  Internal    // handling this connection's message threw (logged): the connection ends, the room goes on
};

class Client {
 public:
  virtual ~Client() = default;
  // Thread-safe; frames arrive in the order of the calls from one strand.
  virtual void send(std::shared_ptr<const std::string> frame) = 0;
  virtual void close(CloseReason why) = 0;
  // Room creation's budget of the connection's client address, the one POST /api/rooms
  // spends (a rematch makes a room too): 0 when a room may be made now (it is counted), else
  // the seconds until one may. Connections that are no socket are not limited.
  virtual double take_room_token() { return 0; }
  // The client address per-address limits count (limits/address.hpp), empty when unknown:
  // open games are capped per address (docs/community.md).
  virtual std::string address_key() const { return {}; }
};

using ClientPtr = std::shared_ptr<Client>;

}  // namespace carc::server
