// The engine's calls around the rules: the pure apply(), refusals that only a live (seeded)
// game can meet, and the events a whole game reports.
#include <doctest/doctest.h>

#include <numeric>
#include <vector>

#include "carc/core/game.hpp"
#include "carc/core/random_player.hpp"
#include "support.hpp"

namespace carc::test {

TEST_CASE("apply() is pure: the next game and its events, the given game untouched") {
  const Game g = Game::seeded(3, 11);
  const Seat seat = g.current_seat();
  RandomPlayer player(3);
  Game scratch = g;
  const Move m = player.choose(scratch);
  const auto out = apply(g, seat, m);
  REQUIRE(std::holds_alternative<Applied>(out));
  const Applied& a = std::get<Applied>(out);
  CHECK(g.tiles_placed() == 1);
  CHECK(a.game.tiles_placed() == 2);
  REQUIRE_FALSE(a.events.empty());
  const auto* placed = std::get_if<TilePlaced>(&a.events.front());
  REQUIRE(placed != nullptr);
  CHECK(placed->seat == seat);
  CHECK(placed->tile == m.tile);
}

TEST_CASE("a seeded game refuses another seat's move and a tile the player does not hold") {
  const Game g = Game::seeded(4, 5);
  const Seat seat = g.current_seat();
  const Tile held = *g.held(seat);
  std::vector<Placement> ps;
  g.legal_placements(held, ps);
  REQUIRE_FALSE(ps.empty());
  const Move m = Move::place(held, ps[0].cell, ps[0].rotation);
  const auto other = apply(g, (seat + 1) % 4, m);
  REQUIRE(std::holds_alternative<RuleError>(other));
  CHECK(rule_error_name(std::get<RuleError>(other)) == "not_your_turn");
  // Another letter than the held one.
  const Tile wrong = held == Tile::U ? Tile::V : Tile::U;
  Game copy = g;
  CHECK(error_name(copy.play(Move::place(wrong, ps[0].cell, ps[0].rotation))) == "wrong_tile");
  CHECK(error_name(copy.play(m)) == "ok");
}

TEST_CASE("every player holds a tile from the start, visible to all; the bag shrinks by one a turn") {
  std::vector<Event> ev;
  Game g = Game::seeded(5, 99, &ev);
  int drawn = 0;
  for (const Event& e : ev) drawn += std::holds_alternative<TileDrawn>(e) ? 1 : 0;
  CHECK(drawn >= 5);
  for (Seat s = 0; s < 5; ++s) CHECK(g.held(s).has_value());
  // The public multiset of the bag: 71 tiles minus those drawn.
  const auto counts = g.bag_counts();
  CHECK(std::accumulate(counts.begin(), counts.end(), 0) == g.bag_left());
  CHECK(g.bag_left() == kBagSize - drawn);
}

TEST_CASE("a whole seeded game: 72 tiles accounted for, one GameEnded with the final scores and winners") {
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    const int players = 2 + static_cast<int>(seed % 4);
    std::vector<Event> ev;
    Game g = Game::seeded(players, seed, &ev);
    RandomPlayer player(seed);
    while (!g.finished()) REQUIRE_FALSE(g.play(player.choose(g), &ev));
    int placed = 0;
    int discarded = 0;
    int ended = 0;
    std::vector<int> sums(static_cast<std::size_t>(players), 0);
    for (const Event& e : ev) {
      placed += std::holds_alternative<TilePlaced>(e) ? 1 : 0;
      discarded += std::holds_alternative<TileDiscarded>(e) ? 1 : 0;
      if (const auto* s = std::get_if<FeatureScored>(&e)) {
        for (Seat w : s->winners) sums[static_cast<std::size_t>(w)] += s->points;
        CHECK(s->tiles == static_cast<int>(s->cells.size()));
      }
      if (const auto* end = std::get_if<GameEnded>(&e)) {
        ++ended;
        std::vector<int> finals;
        for (Seat s = 0; s < players; ++s) finals.push_back(g.score(s));
        CHECK(end->final_scores == finals);
        const int best = *std::max_element(finals.begin(), finals.end());
        std::vector<Seat> winners;
        for (Seat s = 0; s < players; ++s) {
          if (finals[static_cast<std::size_t>(s)] == best) winners.push_back(s);
        }
        CHECK(end->winners == winners);
      }
    }
    CHECK(placed + discarded == kBagSize);
    CHECK(g.tiles_placed() == placed + 1);
    CHECK(ended == 1);
    CHECK(std::holds_alternative<GameEnded>(ev.back()));
    // The scored features add up to the scores.
    for (Seat s = 0; s < players; ++s) CHECK(sums[static_cast<std::size_t>(s)] == g.score(s));
    CHECK(error_name(g.play(Move::discard(Tile::C))) == "game_over");
  }
}

}  // namespace carc::test

namespace carc::test {

TEST_CASE("every meeple that comes back during the game has its own MeepleReturned, right after its score") {
  for (std::uint64_t seed = 100; seed < 140; ++seed) {
    const int players = 2 + static_cast<int>(seed % 4);
    std::vector<Event> ev;
    Game g = Game::seeded(players, seed, &ev);
    RandomPlayer player(seed);
    // Where each seat's meeples stand, by board index, mirrored from the events alone.
    std::vector<std::optional<Seat>> on_board(1);
    std::vector<int> supply(static_cast<std::size_t>(players), kMeeplesPerPlayer);
    std::size_t seen = 0;
    const auto follow = [&] {
      int owed = 0;  // meeples the last in-game score still has to give back
      for (; seen < ev.size(); ++seen) {
        const Event& e = ev[seen];
        if (const auto* p = std::get_if<TilePlaced>(&e)) {
          CHECK(owed == 0);
          on_board.push_back(p->meeple ? std::optional<Seat>(p->seat) : std::nullopt);
          if (p->meeple) --supply[static_cast<std::size_t>(p->seat)];
        } else if (const auto* s = std::get_if<FeatureScored>(&e)) {
          CHECK(owed == 0);
          if (!s->end_of_game) owed = std::accumulate(s->meeples.begin(), s->meeples.end(), 0);
        } else if (const auto* r = std::get_if<MeepleReturned>(&e)) {
          REQUIRE(owed > 0);
          --owed;
          REQUIRE(r->tile_index < static_cast<int>(on_board.size()));
          CHECK(on_board[static_cast<std::size_t>(r->tile_index)] == r->seat);
          const auto bt = g.board()[static_cast<std::size_t>(r->tile_index)];
          CHECK(bt.cell == r->cell);
          on_board[static_cast<std::size_t>(r->tile_index)].reset();
          ++supply[static_cast<std::size_t>(r->seat)];
        } else {
          CHECK(owed == 0);
        }
      }
      CHECK(owed == 0);
    };
    while (!g.finished()) {
      REQUIRE_FALSE(g.play(player.choose(g), &ev));
      follow();
      for (Seat s = 0; s < players; ++s) CHECK(supply[static_cast<std::size_t>(s)] == g.meeples(s));
    }
    // Before end-of-game scoring the board's meeples are exactly the ones not returned.
    const auto board = g.board();
    for (std::size_t i = 0; i < board.size(); ++i) CHECK(board[i].meeple_seat == on_board[i]);
  }
}

}  // namespace carc::test

namespace carc::test {

TEST_CASE("no two cells the engine can look at in one game share a board slot") {
  // Any two cells within two cells of an n-tile board's bounding box differ by at most
  // n + 3 in |dx| + |dy| (the grid comment in game.hpp), for each layout's n.
  for (const auto& layout : Game::kGridLayouts) {
    CAPTURE(layout.slots);
    const int reach = layout.max_tiles + 3;
    for (int dy = 0; dy <= reach; ++dy) {
      for (int dx = -(reach - dy); dx <= reach - dy; ++dx) {
        if (dy == 0 && dx <= 0) continue;
        const Cell a{-40, -40};
        const Cell b{a.x + dx, a.y + dy};
        REQUIRE_MESSAGE(Game::grid_index(a, layout.stride, layout.slots) != Game::grid_index(b, layout.stride, layout.slots),
                        "dx " << dx << " dy " << dy);
      }
    }
    CHECK(layout.slots <= Game::kGridSlots);
  }
  // Every set of expansions finds a layout for its tiles.
  for (int bits = 0; bits < (1 << kExpansionKinds); ++bits) {
    CHECK(ruleset(ExpansionSet::from_bits(static_cast<std::uint8_t>(bits))).bag_size + 1 <= Game::kGridLayouts.back().max_tiles);
  }
  // 156 tiles and 600 nodes with every expansion; a copy takes only the parts in use.
  CHECK(Game::memory_bytes() < 52 * 1024);
}

}  // namespace carc::test
