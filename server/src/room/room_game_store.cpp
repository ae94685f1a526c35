#include "room/room_game_store.hpp"

#include <atomic>

namespace carc::server {

namespace {

std::atomic<std::uint64_t> next_serial{1};

// The game a thread last unpacked, and which one it is.
struct Working {
  std::uint64_t serial = 0;
  std::optional<Game> game;
};
thread_local Working working;
thread_local std::optional<Game> scratch;

}  // namespace

const Game& RoomGame::get() const {
  if (working.serial != serial_ || !working.game) {
    if (working.game) packed_->unpack(*working.game);
    else working.game.emplace(packed_->unpack());
    working.serial = serial_;
  }
  return *working.game;
}

void RoomGame::set(const Game& g) {
  packed_.emplace(g);
  serial_ = next_serial.fetch_add(1, std::memory_order_relaxed);
  if (working.game) {
    if (&*working.game != &g) *working.game = g;
  } else {
    working.game.emplace(g);
  }
  working.serial = serial_;
}

void RoomGame::set(PackedGame p) {
  packed_.emplace(std::move(p));
  serial_ = next_serial.fetch_add(1, std::memory_order_relaxed);
}

Game& RoomGame::scratch_copy(const Game& g) {
  if (scratch) *scratch = g;
  else scratch.emplace(g);
  return *scratch;
}

}  // namespace carc::server
