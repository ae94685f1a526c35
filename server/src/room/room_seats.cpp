#include "room/room_seats.hpp"

#include <algorithm>

#include "base/random.hpp"

namespace carc::server {

SeatState& RoomSeats::take(SeatState s, bool host) {
  seats_.push_back(std::move(s));
  if (host) host_ = count() - 1;
  return seats_.back();
}

void RoomSeats::free(int seat) {
  seats_.erase(seats_.begin() + seat);
  if (host_ == seat) host_ = first_human_from(seat);
  else if (host_ > seat) --host_;
}

int RoomSeats::first_human_from(int seat) const {
  const int n = count();
  for (int i = 0; i < n; ++i) {
    const int s = (std::max(seat, 0) + i) % n;
    if (!seats_[static_cast<std::size_t>(s)].bot) return s;
  }
  return -1;
}

int RoomSeats::by_token_hash(std::string_view hash) const {
  const auto it = std::find_if(seats_.begin(), seats_.end(),
                               [&](const SeatState& s) { return !s.bot && constant_time_equal(s.token_hash, hash); });
  return it == seats_.end() ? -1 : static_cast<int>(it - seats_.begin());
}

std::vector<protocol::SeatFacts> RoomSeats::facts(bool banks) const {
  std::vector<protocol::SeatFacts> out;
  out.reserve(seats_.size());
  for (const auto& s : seats_) {
    out.push_back(protocol::SeatFacts{s.name, s.holder != nullptr, s.bot, s.away,
                                      banks ? std::optional<std::int64_t>(s.bank_ms) : std::nullopt, s.hints});
  }
  return out;
}

}  // namespace carc::server
