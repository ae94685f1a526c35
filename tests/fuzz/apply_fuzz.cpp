// The rules engine's apply() on arbitrary move sequences of a seeded game. The input picks
// legal moves (which must be accepted) and arbitrary ones (accepted only if the generator
// lists them), for the current seat or another; the pure apply() and the in-place play()
// must agree, and a refused move changes nothing.
#include <cstring>
#include <vector>

#include "carc/core/game.hpp"
#include "fuzz_check.hpp"
#include "fuzz_input.hpp"

using namespace carc;

namespace {

using carc_fuzz::Input;

int total_score(const Game& g) {
  int s = 0;
  for (int i = 0; i < g.players(); ++i) s += g.score(static_cast<Seat>(i));
  return s;
}

// Applies `m` for `seat` both ways and checks that they agree; returns whether it was accepted.
bool try_move(Game& g, Seat seat, const Move& m) {
  const auto applied = apply(g, seat, m);
  Game copy = g;
  const int moves_before = copy.moves_played();
  const int score_before = total_score(copy);
  const int bag_before = copy.bag_left();
  if (const auto* err = std::get_if<RuleError>(&applied)) {
    FUZZ_CHECK(!rule_error_name(*err).empty());
    if (seat == g.current_seat()) {
      std::vector<Event> events;
      const auto refused = copy.play(m, &events);
      FUZZ_CHECK(refused.has_value() && *refused == *err);
      FUZZ_CHECK(events.empty());
      FUZZ_CHECK(copy.moves_played() == moves_before && total_score(copy) == score_before && copy.bag_left() == bag_before);
    }
    return false;
  }
  const auto& next = std::get<Applied>(applied);
  FUZZ_CHECK(seat == g.current_seat());
  FUZZ_CHECK(g.held(seat) == m.tile);
  if (m.type == Move::Type::Place) {
    FUZZ_CHECK(g.is_legal_placement(m.tile, m.placement));
  } else {
    FUZZ_CHECK(!g.has_legal_placement(m.tile));
  }
  std::vector<Event> events;
  FUZZ_CHECK(!copy.play(m, &events).has_value());
  FUZZ_CHECK(events.size() == next.events.size());
  FUZZ_CHECK(copy.moves_played() == next.game.moves_played());
  FUZZ_CHECK(total_score(copy) == total_score(next.game));
  FUZZ_CHECK(next.game.moves_played() > moves_before);
  FUZZ_CHECK(total_score(next.game) >= score_before);
  g = next.game;
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Input in{data, size};
  const int players = 2 + in.byte() % 4;
  std::uint64_t seed = 0;
  for (int i = 0; i < 8; ++i) seed = (seed << 8) | in.byte();
  Game g = Game::seeded(players, seed);
  std::vector<LegalMove> legal;
  while (!in.empty()) {
    const std::uint8_t op = in.byte();
    const Seat current = g.current_seat();
    const auto held = g.held(current);
    if (g.finished() || !g.anyone_holds()) {
      // Nothing can be played any more.
      FUZZ_CHECK(!try_move(g, current, Move::discard(static_cast<Tile>(op % kTileKinds))));
      break;
    }
    FUZZ_CHECK(held.has_value());
    if (op % 4 != 3) {
      // A legal move: must be accepted.
      g.legal_moves(legal);
      const std::uint8_t a = in.byte();
      const std::uint8_t b = in.byte();
      if (legal.empty()) {
        FUZZ_CHECK(try_move(g, current, Move::discard(*held)));
        continue;
      }
      const LegalMove& lm = legal[a % legal.size()];
      std::optional<Port> meeple;
      if (b % 3 != 0 && lm.meeples.size > 0) meeple = lm.meeples.ports[b % lm.meeples.size];
      FUZZ_CHECK(try_move(g, current, Move::place(*held, lm.placement.cell, lm.placement.rotation, meeple)));
    } else {
      // Anything: another seat, another tile, any cell near the board, any meeple.
      const std::uint8_t who = in.byte();
      const std::uint8_t t = in.byte();
      const auto x = static_cast<std::int8_t>(in.byte());
      const auto y = static_cast<std::int8_t>(in.byte());
      const std::uint8_t r = in.byte();
      const std::uint8_t port = in.byte();
      const Seat seat = who % 4 == 0 ? static_cast<Seat>((who >> 2) % 7) - 1 : current;  // -1..5
      const Tile tile = t % 8 == 0 ? static_cast<Tile>((t >> 3) % kTileKinds) : *held;
      std::optional<Port> meeple;
      if (port % 14 < 13) meeple = static_cast<Port>(port % 14);
      // Mostly near the board; sometimes as far as an int goes.
      const Cell cell = r & 0x40 ? Cell{x * 16'777'216, y * 16'777'216} : Cell{x / 8, y / 8};
      const Move m = r & 0x80 ? Move::discard(tile) : Move::place(tile, cell, Rotation::quarters(r % 4), meeple);
      try_move(g, seat, m);
    }
  }
  return 0;
}
