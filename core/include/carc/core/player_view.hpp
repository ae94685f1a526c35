// What a player sees of a game, and nothing more: the board with its meeples, every
// player's held tile (public in this game), scores, supplies, whose turn it is, and the
// multiset of tiles left in the bag. Never the bag's order or its seed. Held tiles are
// public, so every seat sees the same view (boardgame.io's playerView, without secrets
// that differ between seats).
//
// The bots take a PlayerView, never a Game. A view is a plain value (about as large as a
// Game, no heap): copy it into a worker. Its accessors are plain reads, so one view may
// be read (and determinize()d) from several threads at once.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "carc/core/game.hpp"

namespace carc {

class PlayerView {
 public:
  // `g` must be a seeded game (the server's are). A replay game has no bag to hide: its
  // view is the game itself, and its held tiles are unknown, so no bot can play it.
  explicit PlayerView(const Game& g);

  int players() const { return game_.players(); }
  bool finished() const { return game_.finished(); }
  Seat current_seat() const { return game_.current_seat(); }
  std::optional<Tile> held(Seat seat) const { return game_.held(seat); }
  int score(Seat seat) const { return game_.score(seat); }
  int meeples(Seat seat) const { return game_.meeples(seat); }
  int bag_left() const { return game_.bag_left(); }
  std::array<int, kTileKinds> bag_counts() const { return game_.bag_counts(); }
  int tiles_placed() const { return game_.tiles_placed(); }
  int moves_played() const { return game_.moves_played(); }
  std::vector<BoardTile> board() const { return game_.board(); }

  // A playable game that agrees with everything the view shows, its undrawn tiles in an
  // order shuffled from the bag's multiset with `rng` (a sample of what the real bag may
  // be). Its seed() is 0.
  Game determinize(Rng& rng) const;
  // The same into `out` (any game: a search's scratch, assigned over its last sample, which
  // rewrites only the board cells either uses instead of copying the whole board).
  void determinize(Rng& rng, Game& out) const;
  // The same with the undrawn tiles in catalog order (A first): a stand-in for when the
  // order does not matter (one-ply evaluations). Copy it before calling anything on it
  // from several threads (a const Game writes caches).
  const Game& canonical() const { return game_; }

 private:
  Game game_;  // the bag's undrawn part in catalog order, seed 0
  std::array<Tile, kMaxTilesInGame> undrawn_{};  // that order, which determinize() shuffles pile by pile ...
  std::array<std::uint8_t, 4> pile_end_{};       // ... where each pile ends in it
};

}  // namespace carc
