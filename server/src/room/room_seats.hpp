// A room's seats, in order, and which of them hosts: who sits where (a human with the hash
// of their seat token, or a computer player), which connection plays each seat, and who
// is away. Seats are taken at the end and freed anywhere (the seats after it move up).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "carc/protocol/room_state.hpp"
#include "room/client.hpp"
#include "room/notice.hpp"

namespace carc::server {

struct SeatState {
  std::string name;
  std::string token_hash;  // empty for a computer player
  std::optional<protocol::BotLevel> bot;
  Client* holder = nullptr;        // the connection playing this seat
  std::string token;               // its token, while a connection that knows it holds the seat
  std::int64_t gone_since_ms = 0;  // when the seat lost its connection
  bool away = false;
  std::int64_t bank_ms = 0;        // turn-based: the bank at the start of the current turn
  // The seat's Web Push subscription, on the heap: most seats have none, and a PushTarget
  // is 96 bytes (docs/hot-path.md#memory). Replaced whole, never changed in place.
  std::shared_ptr<const PushTarget> push;
  int hints = 0;                   // hints given this game (kept in memory only)
  std::string seal_key = {};       // what a rematch seals this seat's new token to (seat_seal.hpp)
  // Ratings (docs/community.md#ratings): the seat's player (PlayerBound; empty: none), and
  // the moves made for the seat, how many of them by a computer player, and whether its
  // last one was.
  std::string player = {};
  int turns = 0;
  int auto_turns = 0;
  bool last_auto = false;
};

class RoomSeats {
  std::vector<SeatState> seats_;
  int host_ = -1;

 public:
  std::size_t size() const { return seats_.size(); }
  int count() const { return static_cast<int>(seats_.size()); }
  SeatState& operator[](std::size_t i) { return seats_[i]; }
  const SeatState& operator[](std::size_t i) const { return seats_[i]; }
  SeatState& at(int seat) { return seats_[static_cast<std::size_t>(seat)]; }
  const SeatState& at(int seat) const { return seats_[static_cast<std::size_t>(seat)]; }
  auto begin() { return seats_.begin(); }
  auto end() { return seats_.end(); }
  auto begin() const { return seats_.begin(); }
  auto end() const { return seats_.end(); }

  int host() const { return host_; }
  // Rooms written before hosts were stored: the first human hosts.
  void ensure_host() {
    if (host_ < 0) host_ = first_human_from(0);
  }
  // A seat taken at the end of the list (`host`: it becomes the host).
  SeatState& take(SeatState s, bool host);
  // The seat goes: those after it move up; the host passes to the next human if it was theirs.
  void free(int seat);
  // The first human from `seat` on, going round; -1 if only computer players sit.
  int first_human_from(int seat) const;
  // The human seat whose token hashes to `hash` (compared in constant time), or -1.
  int by_token_hash(std::string_view hash) const;
  // The seats' public facts; `banks` (turn-based rooms): with what is left of each bank.
  std::vector<protocol::SeatFacts> facts(bool banks) const;
  std::size_t memory_bytes() const { return seats_.capacity() * sizeof(SeatState); }
};

}  // namespace carc::server
