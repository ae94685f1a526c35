// PackedGame (carc/core/packed_game.hpp): a game packed and unpacked at any point of a random
// game, of any set of expansions, is the same game (the same queries, and the same events
// and states for the same moves to the end), into a Game that held another game before;
// and it is a fraction of a Game's size. A game assigned over another is the same game too.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "carc/core/features.hpp"
#include "carc/core/game.hpp"
#include "carc/core/packed_game.hpp"
#include "carc/core/random_player.hpp"

namespace carc::test {
namespace {

void add(std::string& s, int v) {
  s += std::to_string(v);
  s += ',';
}

// What a game shows: its turn, scores, supplies, held tiles, bag, board, features and legal
// moves (with every figure's targets).
std::string fingerprint(const Game& g) {
  std::string s;
  add(s, g.current_seat());
  add(s, g.finished() ? 1 : 0);
  add(s, g.in_extra_part() ? 1 : 0);
  add(s, g.moves_played());
  add(s, g.bag_left());
  for (int p = 0; p < g.players(); ++p) {
    add(s, g.score(p));
    for (int f = 0; f < kFigureKinds; ++f) add(s, g.figures(p, static_cast<Figure>(f)));
    for (int k = 0; k < g.rules().token_kinds; ++k) add(s, g.tokens(p, k));
    add(s, g.held(p) ? static_cast<int>(*g.held(p)) : -1);
  }
  for (const int c : g.bag_counts()) add(s, c);
  s += '|';
  // A series of steps inside the turn, and every figure standing (figures on other tiles
  // than their own included).
  add(s, g.in_stage() ? 1 : 0);
  add(s, g.acting_seat());
  add(s, g.held_back_waiting());
  if (g.in_stage()) {
    std::vector<Cell> steps;
    g.step_options(steps);
    for (const Cell c : steps) {
      add(s, c.x);
      add(s, c.y);
    }
  }
  std::vector<Game::Standing> standing;
  g.standing(standing);
  for (const Game::Standing& f : standing) {
    add(s, f.seat);
    add(s, f.tile);
    add(s, static_cast<int>(f.port));
    add(s, static_cast<int>(f.figure));
  }
  s += '|';
  for (const BoardTile& t : g.board()) {
    add(s, static_cast<int>(t.tile));
    add(s, t.cell.x);
    add(s, t.cell.y);
    add(s, t.rotation.quarter_turns());
    add(s, t.meeple_seat.value_or(-1));
    add(s, t.meeple_port ? static_cast<int>(*t.meeple_port) : -1);
    add(s, static_cast<int>(t.figure));
  }
  s += '|';
  std::vector<FeatureInfo> features;
  list_features(g, features);
  for (const FeatureInfo& f : features) {
    add(s, static_cast<int>(f.kind));
    add(s, f.tiles);
    add(s, f.open);
    for (const auto m : f.meeples) add(s, m);
  }
  s += '|';
  if (!g.finished()) {
    std::vector<LegalMove> moves;
    g.legal_moves(moves);
    for (const LegalMove& m : moves) {
      add(s, m.placement.cell.x);
      add(s, m.placement.cell.y);
      add(s, m.placement.rotation.quarter_turns());
      for (const Port p : m.meeples) add(s, static_cast<int>(p));
      for (const PortList& f : m.figures) {
        for (const Port p : f) add(s, static_cast<int>(p));
        s += ';';
      }
      add(s, m.action ? m.action->x * 1000 + m.action->y : -1);
    }
  }
  return s;
}

constexpr std::uint8_t kSets[] = {0x00, 0x01, 0x02, 0x0E, 0x0F, 0x10, 0x1F};

}  // namespace

TEST_CASE("a packed game unpacks to the same game at every move, and plays on the same") {
  // The Game unpacked into: it held a game of all four expansions first, so whatever the
  // other game left in its grid and arrays must not show.
  Game into = Game::seeded(5, 99, ExpansionSet::from_bits(0x0F));
  {
    RandomPlayer filler(7);
    for (int i = 0; i < 60 && !into.finished(); ++i) REQUIRE_FALSE(into.play(filler.choose(into)));
  }
  for (const std::uint8_t bits : kSets) {
    for (std::uint64_t seed = 1; seed <= 4; ++seed) {
      CAPTURE(bits);
      CAPTURE(seed);
      const int players = 2 + static_cast<int>(seed % 4);
      Game g = Game::seeded(players, seed, ExpansionSet::from_bits(bits));
      RandomPlayer player(seed * 31);
      int guard = 0;
      while (!g.finished() && guard++ < 300) {
        const PackedGame packed(g);
        packed.unpack(into);
        REQUIRE(fingerprint(into) == fingerprint(g));
        const Move m = player.choose(g);
        std::vector<Event> ev_g, ev_into;
        REQUIRE_FALSE(g.play(m, &ev_g));
        REQUIRE_FALSE(into.play(m, &ev_into));
        REQUIRE(ev_into.size() == ev_g.size());
        REQUIRE(fingerprint(into) == fingerprint(g));
      }
      REQUIRE(g.finished());
      // A finished game too, and a copy of a packed game.
      const PackedGame packed(g);
      const PackedGame copy = packed;
      REQUIRE(fingerprint(copy.unpack()) == fingerprint(g));
    }
  }
}

TEST_CASE("a game assigned over another is the same game as a copy, and plays on the same") {
  // Game::operator= over a game of the same board layout rewrites only the cells either uses
  // (the search's scratch games: docs/bots.md). `into` plays on by other moves between the
  // assignments, so its board has cells the next game must not show.
  for (const std::uint8_t bits : kSets) {
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
      CAPTURE(bits);
      CAPTURE(seed);
      const int players = 2 + static_cast<int>(seed % 3);
      Game g = Game::seeded(players, seed, ExpansionSet::from_bits(bits));
      Game into = Game::seeded(players, seed + 100, ExpansionSet::from_bits(bits));
      RandomPlayer player(seed * 31);
      RandomPlayer other(seed * 57);
      for (int i = 0; i < 60 && !into.finished(); ++i) REQUIRE_FALSE(into.play(other.choose(into)));
      int guard = 0;
      while (!g.finished() && guard++ < 300) {
        into = g;
        REQUIRE(fingerprint(into) == fingerprint(g));
        const Move m = player.choose(g);
        std::vector<Event> ev_g, ev_into;
        REQUIRE_FALSE(g.play(m, &ev_g));
        REQUIRE_FALSE(into.play(m, &ev_into));
        REQUIRE(ev_into.size() == ev_g.size());
        REQUIRE(fingerprint(into) == fingerprint(g));
        for (int k = 0; k < 8 && !into.finished(); ++k) REQUIRE_FALSE(into.play(other.choose(into)));
      }
      REQUIRE(g.finished());
      into = g;
      REQUIRE(fingerprint(into) == fingerprint(g));
    }
  }
}

TEST_CASE("a packed game holds a fraction of a Game: no grid, only the parts of its arrays in use") {
  for (const std::uint8_t bits : kSets) {
    CAPTURE(bits);
    Game g = Game::seeded(4, 5, ExpansionSet::from_bits(bits));
    REQUIRE(PackedGame(g).memory_bytes() < 1024);  // the start tile and four held tiles
    RandomPlayer player(3);
    while (!g.finished()) REQUIRE_FALSE(g.play(player.choose(g)));
    // A finished game of every tile: its nodes, placed tiles and bag, about a quarter of a Game.
    CHECK(PackedGame(g).memory_bytes() < Game::memory_bytes() / 3);
  }
}

}  // namespace carc::test
