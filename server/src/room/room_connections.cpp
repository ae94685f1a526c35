// The room's connections (RoomLogic, room_logic.hpp): sockets attached and detached,
// client messages taken in (or held while a change is being stored), closing, and memory.
#include <algorithm>

#include <spdlog/spdlog.h>

#include "room/room_logic.hpp"

namespace carc::server {

using protocol::ErrorCode;

void RoomLogic::attach(const ClientPtr& c) { members_.push_back(Member{c, Role::None, -1, {}}); }

void RoomLogic::detach(const ClientPtr& c, std::int64_t now_ms, Effects& fx) {
  if (changes_.busy()) return defer(DeferredDetach{c});
  const auto it = std::find_if(members_.begin(), members_.end(), [&](const Member& m) { return m.client == c; });
  if (it == members_.end()) return;
  const Role role = it->role;
  const int seat = it->seat;
  members_.erase(it);
  if (role == Role::Player && seats_[static_cast<std::size_t>(seat)].holder == c.get()) {
    SeatState& s = seats_[static_cast<std::size_t>(seat)];
    s.holder = nullptr;
    s.token.clear();
    s.gone_since_ms = now_ms;
    spdlog::info("room {}: seat {} disconnected", id_, seat);
    begin_change();
    publish(nullptr, fx);
  } else if (role == Role::Spectator) {
    --spectators_;
    begin_change();
    publish(nullptr, fx);
  }
}

void RoomLogic::handle(const ClientPtr& c, const protocol::ClientMessage& msg, std::int64_t now_ms,
                       SteadyClock::time_point received, Effects& fx) {
  // One change at a time: what arrives while a change is being stored waits its turn.
  if (changes_.busy()) {
    // Past the cap storage is stalled (or this room flooded): say so now, not queue forever.
    if (!changes_.hold(DeferredMessage{c, msg, received})) {
      refuse(*c, ErrorCode::Unavailable, "the server cannot store changes right now; try again");
    }
    return;
  }
  Member* m = find(c.get());
  if (m == nullptr) return;  // already detached
  on_message(*m, msg, now_ms, received, fx);
}

void RoomLogic::close_all(CloseReason why) {
  for (auto& m : members_) m.client->close(why);
}

void RoomLogic::forget_clients() {
  members_.clear();
  for (auto& seat : seats_) seat.holder = nullptr;
  changes_.forget_clients();
}

RoomLogic::Memory RoomLogic::memory() const {
  Memory m;
  m.engine = game_.memory_bytes() + changes_.pending_game_bytes();
  m.history = events_.memory_bytes() + record_.memory_bytes();
  m.view = state_cache_.capacity() + patcher_.memory_bytes();
  m.other = sizeof(RoomLogic) + seats_.memory_bytes() + members_.capacity() * sizeof(Member);
  for (const auto& c : chat_) m.other += sizeof(c) + c.name.capacity() + c.text.capacity();
  return m;
}

}  // namespace carc::server
