// A room's game between moves, packed (carc/core/packed_game.hpp): a few KB instead of a
// whole Game (docs/hot-path.md#memory). Reading it unpacks it into a working copy each
// thread keeps for the last game it unpacked, so the reads of one change unpack it at most
// once. A reference it gives stays valid until this thread reads another room's game: a
// room reads only its own, on its strand.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "carc/core/game.hpp"
#include "carc/core/packed_game.hpp"

namespace carc::server {

class RoomGame {
 public:
  explicit operator bool() const { return packed_.has_value(); }
  const Game& get() const;
  const Game& operator*() const { return get(); }
  const Game* operator->() const { return &get(); }

  // The game becomes `g` (which this thread's working copy then holds).
  void set(const Game& g);
  // The game becomes a packed one (a move checked on a copy, once it is stored).
  void set(PackedGame p);
  void reset() { packed_.reset(); }

  // The heap it holds.
  std::size_t memory_bytes() const { return packed_ ? packed_->memory_bytes() : 0; }

  // This thread's scratch game for checking a move on a copy (try_move), beside the working
  // copy: `g` copied into it.
  static Game& scratch_copy(const Game& g);

 private:
  std::optional<PackedGame> packed_;
  std::uint64_t serial_ = 0;  // which state this is, for the working copies
};

}  // namespace carc::server
