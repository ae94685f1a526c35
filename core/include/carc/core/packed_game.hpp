// A game at rest in a few KB: what a server keeps for a game in memory between moves
// (docs/hot-path.md#memory). A Game is a plain value sized for every ruleset at once (its
// grid alone is 32 KB, of which a base game uses a quarter); a PackedGame holds only the parts
// of its arrays in use (the frontier, the bag, the placed tiles, the feature nodes) and no
// grid, which unpack() rebuilds from the placed tiles and the frontier. Unpacking gives back
// the same game: the same queries, the same events for the same moves.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "carc/core/game.hpp"

namespace carc {

class PackedGame {
 public:
  explicit PackedGame(const Game& g);
  PackedGame(const PackedGame& o);
  PackedGame& operator=(const PackedGame& o);
  PackedGame(PackedGame&&) noexcept = default;
  PackedGame& operator=(PackedGame&&) noexcept = default;

  // Replaces `out`'s state by this game (`out` may hold any other game).
  void unpack(Game& out) const;
  Game unpack() const;

  // The heap this game holds.
  std::size_t memory_bytes() const { return size_; }

 private:
  std::unique_ptr<std::uint8_t[]> bytes_;
  std::size_t size_ = 0;
};

}  // namespace carc
