// Open games (docs/community.md, "Open games and quick play"): the host lists the lobby, and
// what the list shows of it. The flag is not part of the room's log: it is a listing, kept in
// memory, and a lobby that leaves memory leaves the list.
#include <memory>

#include <spdlog/spdlog.h>

#include "room/room_logic.hpp"

namespace carc::server {

using protocol::ErrorCode;

void RoomLogic::on_open(Member& m, const protocol::OpenMsg& msg, std::int64_t now_ms) {
  if (!host_in_lobby(m, msg.open ? "open the game" : "close the game")) return;
  if (msg.open == open_) {
    m.client->send(std::make_shared<const std::string>(protocol::open_frame(open_)));
    return;
  }
  if (msg.open && open_gate_) {
    if (auto why = open_gate_(id_, *m.client)) return refuse(*m.client, ErrorCode::LimitReached, *why);
  }
  open_ = msg.open;
  if (open_) opened_ms_ = now_ms;
  spdlog::info("room {}: {} by the host", id_, open_ ? "opened" : "no longer open");
  // Every member hears it: a frame beside the state, which the flag is not part of.
  const auto frame = std::make_shared<const std::string>(protocol::open_frame(open_));
  for (auto& member : members_) member.client->send(frame);
}

std::optional<OpenListing> RoomLogic::listing() const {
  if (!open()) return std::nullopt;
  const int host = seats_.host();
  if (host < 0 || seats_.count() >= max_seats()) return std::nullopt;
  const SeatState& h = seats_[static_cast<std::size_t>(host)];
  if (h.holder == nullptr) return std::nullopt;  // the host is away: nobody would start it
  OpenListing l;
  l.room = id_;
  l.seated = seats_.count();
  l.seats = max_seats();
  l.expansions = settings_.expansions;
  l.pace = settings_.pace;
  l.turn_seconds = settings_.turn_seconds;
  l.bank_seconds = settings_.bank_seconds;
  l.increment_seconds = settings_.increment_seconds;
  l.host = h.name;
  l.host_seat = host;
  l.host_player = h.player;  // the ratings' rater reads the host's rating by it
  l.opened_ms = opened_ms_;
  return l;
}

}  // namespace carc::server
