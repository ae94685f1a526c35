// A record played again as the seeded game it was: the bag rebuilt from the order in
// which the record's tiles were drawn (the pre-draw of docs/rules.md), so that the analysis can
// hand each position to a PlayerView like a live game's.
#include <array>

#include "carc/core/analysis.hpp"

namespace carc {

std::variant<Game, ReplayRefusal> seeded_replay(int players, ExpansionSet expansions, std::span<const Move> moves,
                                                std::size_t upto, OptionSet options) {
  Game check = Game::replay(players, expansions, options);
  const Ruleset& rules = check.rules();
  const int bag = rules.bag_size;
  std::array<int, kMaxTilesInGame> order{};
  order.fill(-1);
  // The draw model: every seat draws one at the start, in seat order; a seat draws again as
  // soon as its move (placement or discard) is done, so each draw is used by one move. Steps
  // inside a turn draw nothing. Tiles held back (Ruleset::held_back) are not drawn until a
  // part lets them in; then every other seat that holds nothing draws, in turn from the
  // placer's, before the placer draws again.
  std::array<int, kMaxPlayers> held{};
  int drawn = 0;
  const auto draw = [&](Seat s) {
    held[static_cast<std::size_t>(s)] = drawn < bag - check.held_back_waiting() ? drawn++ : -1;
  };
  for (Seat s = 0; s < check.players(); ++s) draw(s);
  for (std::size_t i = 0; i < moves.size(); ++i) {
    const Seat seat = check.current_seat();
    const bool step = check.in_stage();
    const int waiting = check.held_back_waiting();
    if (const auto e = check.play(moves[i])) return ReplayRefusal{static_cast<int>(i), *e};
    if (step) continue;
    int& h = held[static_cast<std::size_t>(seat)];
    if (h < 0) return ReplayRefusal{static_cast<int>(i), RuleError::GameOver};  // cannot happen: play() refuses it
    order[static_cast<std::size_t>(h)] = static_cast<int>(moves[i].tile);
    h = -1;
    if (waiting > 0 && check.held_back_waiting() == 0) {
      for (int k = 1; k < check.players(); ++k) {
        const Seat s = (seat + k) % check.players();
        if (held[static_cast<std::size_t>(s)] < 0) draw(s);
      }
    }
    draw(seat);
  }
  // Draws the record never names (it stops early): the tiles left, in catalog order.
  std::array<int, kTileKinds> left{};
  for (int k = 0; k < kTileKinds; ++k) {
    left[static_cast<std::size_t>(k)] = rules.counts[static_cast<std::size_t>(k)] - (static_cast<Tile>(k) == rules.start ? 1 : 0);
  }
  for (int d = 0; d < bag; ++d) {
    if (order[static_cast<std::size_t>(d)] >= 0) left[static_cast<std::size_t>(order[static_cast<std::size_t>(d)])]--;
  }
  std::array<Tile, kMaxTilesInGame> tiles{};
  for (int d = 0; d < bag; ++d) {
    int k = order[static_cast<std::size_t>(d)];
    if (k < 0) {
      const int pile = rules.pile_of_draw(d);
      for (k = 0; k < kTileKinds; ++k) {
        if (left[static_cast<std::size_t>(k)] > 0 && rules.pile[static_cast<std::size_t>(k)] == pile) break;
      }
      if (k == kTileKinds) return ReplayRefusal{0, RuleError::TileExhausted};  // cannot happen after a clean replay
      left[static_cast<std::size_t>(k)]--;
    }
    tiles[static_cast<std::size_t>(d)] = static_cast<Tile>(k);
  }
  std::optional<Game> g = Game::with_bag(players, expansions, options, std::span<const Tile>(tiles.data(), static_cast<std::size_t>(bag)));
  if (!g) return ReplayRefusal{0, RuleError::TileExhausted};  // cannot happen after a clean replay
  // The seeded game discards unplaceable tiles by itself: the record's discards are then
  // already done (moves_played() counts them).
  // Steps inside a turn are moves of the record but not of moves_played().
  int steps = 0;
  for (std::size_t i = 0; i < upto && i < moves.size(); ++i) {
    if (g->moves_played() + steps > static_cast<int>(i)) {
      if (moves[i].type != Move::Type::Discard) return ReplayRefusal{static_cast<int>(i), RuleError::IllegalPlacement};
      continue;
    }
    if (moves[i].type == Move::Type::Step) ++steps;
    if (const auto e = g->play(moves[i])) return ReplayRefusal{static_cast<int>(i), *e};
  }
  return std::move(*g);
}

}  // namespace carc
