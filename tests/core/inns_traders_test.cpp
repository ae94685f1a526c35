// Inns & Cathedrals and Traders & Builders in the engine, beyond the worked examples and
// scenarios of tests/core/data (inns_*, traders_*): the tile sets of every combination of
// the four expansions, random games of all 16 sets replaying from their records (the
// builder's extra parts and their "extra" marks included), six players only with inns,
// where each new figure may go. The bots with these expansions: bots_expansions_test.cpp.
#include <doctest/doctest.h>

#include <array>
#include <vector>

#include "carc/core/expansions/inns/inns.hpp"
#include "carc/core/expansions/traders/traders.hpp"
#include "carc/core/random_player.hpp"
#include "support.hpp"

namespace carc::test {
namespace {

const ExpansionSet kInns = ExpansionSet{}.with(Expansion::Inns);
const ExpansionSet kTraders = ExpansionSet{}.with(Expansion::Traders);

int count(ExpansionSet set, Tile t) { return ruleset(set).counts[static_cast<std::size_t>(t)]; }

Move place_fig(Tile t, int x, int y, int degrees, const char* port, Figure f) {
  return Move::place(t, Cell{x, y}, *Rotation::from_degrees(degrees), port_from_name(port), f);
}

}  // namespace

TEST_CASE("tile sets of the big boxes: 89 with inns, 95 with traders, gardens replace their plain copies") {
  CHECK(ruleset(kInns).bag_size == 89);
  CHECK(ruleset(kTraders).bag_size == 95);
  CHECK(ruleset(kInns.with(Expansion::Traders)).bag_size == 71 + 18 + 24);
  CHECK(ruleset(kFour).bag_size == 82 + 18 + 24);
  CHECK(count(kInns, Tile::I1) == 2);
  CHECK(count(kInns, Tile::I3) == 1);
  CHECK(count(kInns, Tile::I3g) == 0);
  CHECK(count(kInns.with(Expansion::Abbot), Tile::I3) == 0);
  CHECK(count(kInns.with(Expansion::Abbot), Tile::I3g) == 1);
  CHECK(count(kInns.with(Expansion::Abbot), Tile::I15g) == 1);
  CHECK(count(kTraders.with(Expansion::Abbot), Tile::T8) == 0);
  CHECK(count(kTraders.with(Expansion::Abbot), Tile::T11g) == 1);
  CHECK(count(ExpansionSet{}.with(Expansion::Abbot), Tile::T8g) == 0);  // only with traders
  CHECK(count({}, Tile::I1) == 0);
  CHECK(count({}, Tile::T1) == 0);
  // Six seats only with inns; special figures as each expansion's page gives them.
  for (int bits = 0; bits < 16; ++bits) {
    const ExpansionSet set = ExpansionSet::from_bits(static_cast<std::uint8_t>(bits));
    CAPTURE(bits);
    const Ruleset& r = ruleset(set);
    CHECK(r.part_count == __builtin_popcount(static_cast<unsigned>(bits)));
    CHECK(r.max_players == (set.has(Expansion::Inns) ? 6 : 5));
    CHECK(r.figures[static_cast<std::size_t>(inns::kBig)] == (set.has(Expansion::Inns) ? 1 : 0));
    CHECK(r.figures[static_cast<std::size_t>(traders::kBuilder)] == (set.has(Expansion::Traders) ? 1 : 0));
    CHECK(r.figures[static_cast<std::size_t>(traders::kPig)] == (set.has(Expansion::Traders) ? 1 : 0));
    CHECK(Game::seeded(6, 1, set).players() == r.max_players);
  }
}

TEST_CASE("random games of all 16 sets replay from their records, extra parts and their marks included") {
  int extras = 0;
  int extra_discards = 0;
  std::array<int, kFigureKinds> used{};
  for (int bits = 0; bits < 16; ++bits) {
    const ExpansionSet set = ExpansionSet::from_bits(static_cast<std::uint8_t>(bits));
    const int games = set.has(Expansion::Traders) ? 40 : 8;
    for (std::uint64_t seed = 1; seed <= static_cast<std::uint64_t>(games); ++seed) {
      const int players = 2 + static_cast<int>(seed % static_cast<std::uint64_t>(ruleset(set).max_players - 1));
      CAPTURE(bits);
      CAPTURE(seed);
      std::vector<Event> events;
      Game g = Game::seeded(players, seed, set, &events);
      RandomPlayer player(seed * 7 + static_cast<std::uint64_t>(bits));
      while (!g.finished()) {
        const Seat before = g.current_seat();
        const Move m = player.choose(g);
        REQUIRE_FALSE(g.play(m, &events));
        // An extra part keeps the seat; it happens only with traders.
        if (g.in_extra_part()) {
          CHECK(set.has(Expansion::Traders));
          CHECK(g.current_seat() == before);
        }
      }
      std::vector<Move> moves;
      Seat last_placer = -1;
      for (const Event& e : events) {
        if (const auto* p = std::get_if<TilePlaced>(&e)) {
          moves.push_back(move_of(*p));
          if (p->meeple) ++used[static_cast<std::size_t>(p->figure)];
          if (p->extra) {
            ++extras;
            CHECK(p->seat == last_placer);  // the same seat as part 1
          }
          last_placer = p->seat;
        } else if (const auto* d = std::get_if<TileDiscarded>(&e)) {
          Move m = Move::discard(d->tile);
          m.extra = d->extra;
          if (d->extra) ++extra_discards;
          moves.push_back(m);
        } else if (const auto* dr = std::get_if<TileDrawn>(&e)) {
          if (dr->extra) CHECK(dr->seat == last_placer);
        }
      }
      CHECK(static_cast<int>(moves.size()) == ruleset(set).bag_size);
      const auto out = protocol::replay(protocol::Record{players, set, {}, moves, true});
      REQUIRE(std::holds_alternative<nlohmann::json>(out));
      const auto& res = std::get<nlohmann::json>(out);
      for (Seat s = 0; s < players; ++s) CHECK(res["final_scores"][static_cast<std::size_t>(s)] == g.score(s));
      CHECK(res.contains("goods") == set.has(Expansion::Traders));
    }
  }
  MESSAGE("extra parts: ", extras, " (discards inside them: ", extra_discards, "); figures placed: meeple ", used[0],
          ", abbot ", used[1], ", big ", used[2], ", builder ", used[3], ", pig ", used[4]);
  CHECK(extras > 0);
  for (int f = 0; f < kFigureKinds; ++f) CHECK(used[static_cast<std::size_t>(f)] > 0);
}

TEST_CASE("where the new figures may go: the big meeple as a meeple, builder and pig beside their owner's follower") {
  // tests/core/data/traders_worked_example.json up to move 4: seat 0 holds U for (2,0).
  Game g = Game::replay(2, kTraders);
  const std::vector<Move> opening = {
      place_fig(Tile::T15, 0, -1, 90, "N", Figure::Meeple), Move::place(Tile::E, {0, -2}, Rotation::quarters(2)),
      place_fig(Tile::U, 1, 0, 0, "E", Figure::Meeple), place_fig(Tile::B, 1, -1, 0, "SL", Figure::Meeple)};
  for (const Move& m : opening) REQUIRE_FALSE(g.play(m));
  const Placement at{{2, 0}, Rotation{}};
  // The road (2,0) joins holds seat 0's meeple: a meeple or the big meeple cannot go there,
  // the builder can; the fields hold seat 1's farmer north of the road, nothing south.
  const PortList builder = g.figure_targets(Tile::U, at, 0, traders::kBuilder);
  REQUIRE(builder.size == 1);
  CHECK(builder.ports[0] == Port::E);
  CHECK(g.figure_targets(Tile::U, at, 0, traders::kPig).size == 0);      // seat 0 has no farmer
  CHECK(g.figure_targets(Tile::U, at, 0, inns::kBig).size == 0);      // not in this game
  const PortList meeples = g.meeple_targets(Tile::U, at, 0);
  REQUIRE(meeples.size == 1);
  CHECK(meeples.ports[0] == Port::ER);  // the south field only
  // A builder where a pig would go, and one on a field: refused.
  CHECK(error_name(g.play(place_fig(Tile::U, 2, 0, 0, "WR", traders::kBuilder))) == "illegal_meeple");
  CHECK(error_name(g.play(place_fig(Tile::U, 2, 0, 0, "ER", traders::kPig))) == "illegal_meeple");
  REQUIRE_FALSE(g.play(place_fig(Tile::U, 2, 0, 0, "E", traders::kBuilder)));
  CHECK(g.figures(0, traders::kBuilder) == 0);
  CHECK(g.meeples(0) == 6);
  // Seat 1: the pig goes only into the field holding its farmer.
  const Placement b{{2, -1}, Rotation{}};
  const PortList pig = g.figure_targets(Tile::B, b, 1, traders::kPig);
  REQUIRE(pig.size == 1);
  CHECK(g.figure_targets(Tile::B, b, 0, traders::kPig).size == 0);
}

TEST_CASE("six players with inns: every seat plays, and the sixth seat scores") {
  Game g = Game::seeded(6, 11, kInns);
  REQUIRE(g.players() == 6);
  RandomPlayer player(3);
  std::array<int, 6> turns{};
  while (!g.finished()) {
    ++turns[static_cast<std::size_t>(g.current_seat())];
    REQUIRE_FALSE(g.play(player.choose(g)));
  }
  for (int s = 0; s < 6; ++s) CHECK(turns[static_cast<std::size_t>(s)] >= 13);
  CHECK(Game::seeded(6, 11, {}).players() == 5);  // the base game seats 5 at most
}

}  // namespace carc::test
