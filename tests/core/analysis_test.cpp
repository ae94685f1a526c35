// The game analysis (carc/core/analysis.hpp): a record played again as the seeded game it
// was, and labels that are right where the answer is clear.
#include <doctest/doctest.h>

#include <optional>
#include <vector>

#include "carc/core/analysis.hpp"
#include "carc/core/projection.hpp"
#include "carc/core/random_player.hpp"
#include "support.hpp"

namespace carc::test {
namespace {

BotSpec budget(int iterations) {
  BotSpec s;
  s.kind = BotKind::Mcts;
  s.iterations = iterations;
  return s;
}

// The analysis of the last move of `moves` (the moves before it set up the position).
MoveAnalysis analyse_last(int players, const std::vector<Move>& moves, int iterations = 6000, std::uint64_t seed = 1) {
  auto before = seeded_replay(players, {}, moves, moves.size() - 1);
  REQUIRE(std::holds_alternative<Game>(before));
  const auto a = analyse_move(std::get<Game>(before), moves.back(), static_cast<int>(moves.size() - 1), budget(iterations), seed);
  REQUIRE(a.has_value());
  return *a;
}

bool at_least(MoveLabel l, MoveLabel floor) { return static_cast<int>(l) >= static_cast<int>(floor); }

}  // namespace

TEST_CASE("a record's seeded replay is the game it was: same scores, same held tiles, same discards") {
  for (std::uint64_t seed = 0; seed < 6; ++seed) {
    CAPTURE(seed);
    std::vector<Event> events;
    Game g = Game::seeded(2 + static_cast<int>(seed % 4), 40 + seed, &events);
    RandomPlayer player(seed);
    while (!g.finished()) REQUIRE(!g.play(player.choose(g), &events));
    std::vector<Move> moves;
    for (const Event& e : events) {
      if (const auto* p = std::get_if<TilePlaced>(&e)) moves.push_back(move_of(*p));
      if (const auto* d = std::get_if<TileDiscarded>(&e)) moves.push_back(Move::discard(d->tile));
    }
    auto again = seeded_replay(g.players(), {}, moves, moves.size());
    REQUIRE(std::holds_alternative<Game>(again));
    const Game& h = std::get<Game>(again);
    CHECK(h.finished());
    CHECK(h.moves_played() == g.moves_played());
    for (Seat s = 0; s < g.players(); ++s) CHECK(h.score(s) == g.score(s));
    // Half way: every seat holds what it held in the game.
    auto mid = seeded_replay(g.players(), {}, moves, moves.size() / 2);
    REQUIRE(std::holds_alternative<Game>(mid));
    Game live = Game::seeded(g.players(), 40 + seed);
    RandomPlayer again_player(seed);
    while (live.moves_played() < static_cast<int>(moves.size() / 2)) REQUIRE(!live.play(again_player.choose(live)));
    if (live.moves_played() == static_cast<int>(moves.size() / 2)) {
      for (Seat s = 0; s < g.players(); ++s) CHECK(std::get<Game>(mid).held(s) == live.held(s));
      CHECK(std::get<Game>(mid).current_seat() == live.current_seat());
    }
  }
}

TEST_CASE("a Princess & the Dragon record's seeded replay is the game it was: steps draw nothing") {
  // docs/analysis.md: the record's steps inside a turn are moves that draw no tile; the dragon
  // tiles wait beside the bag until the first volcano.
  const ExpansionSet kP = ExpansionSet{}.with(Expansion::Princess);
  const ExpansionSet kAll = kP.with(Expansion::River).with(Expansion::Abbot).with(Expansion::Inns).with(Expansion::Traders);
  int steps = 0;
  for (std::uint64_t seed = 0; seed < 6; ++seed) {
    CAPTURE(seed);
    const ExpansionSet set = seed % 2 == 0 ? kP : kAll;
    const int players = 2 + static_cast<int>(seed % 3);
    std::vector<Event> events;
    Game g = Game::seeded(players, 70 + seed, set, &events);
    RandomPlayer player(seed);
    std::vector<Move> moves;
    std::size_t seen = 0;
    const auto take = [&] {
      for (; seen < events.size(); ++seen) {
        if (const auto* p = std::get_if<TilePlaced>(&events[seen])) moves.push_back(move_of(*p));
        if (const auto* d = std::get_if<TileDiscarded>(&events[seen])) moves.push_back(Move::discard(d->tile));
      }
    };
    take();
    std::vector<std::size_t> marks;  // record lengths at some turns, with what the seats held then
    std::vector<std::vector<std::optional<Tile>>> held_then;
    while (!g.finished()) {
      if (!g.in_stage() && g.moves_played() % 17 == 5) {
        marks.push_back(moves.size());
        std::vector<std::optional<Tile>> h;
        for (Seat s = 0; s < players; ++s) h.push_back(g.held(s));
        held_then.push_back(h);
      }
      const Move m = player.choose(g);
      REQUIRE(!g.play(m, &events));
      if (m.type == Move::Type::Step) {
        moves.push_back(m);
        ++steps;
      }
      take();
    }
    auto again = seeded_replay(players, set, moves, moves.size());
    REQUIRE(std::holds_alternative<Game>(again));
    const Game& h = std::get<Game>(again);
    CHECK(h.finished());
    for (Seat s = 0; s < players; ++s) CHECK(h.score(s) == g.score(s));
    for (std::size_t k = 0; k < marks.size(); ++k) {
      auto mid = seeded_replay(players, set, moves, marks[k]);
      REQUIRE(std::holds_alternative<Game>(mid));
      for (Seat s = 0; s < players; ++s) CHECK(std::get<Game>(mid).held(s) == held_then[k][static_cast<std::size_t>(s)]);
    }
  }
  CHECK(steps > 0);
}

TEST_CASE("a record that breaks a rule is refused at that move") {
  std::vector<Move> moves{place('E', 0, -1, 180, "S"), place('E', 0, -1, 0)};  // the same cell twice
  const auto r = seeded_replay(2, {}, moves, moves.size());
  REQUIRE(std::holds_alternative<ReplayRefusal>(r));
  CHECK(std::get<ReplayRefusal>(r).move == 1);
  CHECK(rule_error_name(std::get<ReplayRefusal>(r).error) == "illegal_placement");
}

TEST_CASE("labels: thresholds, and nothing is held against a move within the spread") {
  CHECK(label_for(0.0, 0.5) == MoveLabel::Best);
  CHECK(label_for(20.0, 25.0) == MoveLabel::Best);
  CHECK(label_for(1.0, 0.5) == MoveLabel::Good);
  CHECK(label_for(LabelThresholds::kInaccuracy, 1.0) == MoveLabel::Inaccuracy);
  CHECK(label_for(LabelThresholds::kMistake, 1.0) == MoveLabel::Mistake);
  CHECK(label_for(LabelThresholds::kBlunder + 5, 1.0) == MoveLabel::Blunder);
  CHECK(move_label_name(MoveLabel::Inaccuracy) == "inaccuracy");
}

// Seat 0's city: the start tile's city, F and G northwards (4 tiles and a coat of arms once
// closed: 10 points); seat 0 holds E, which closes it at (0,-3).
std::vector<Move> own_city_setup() {
  return {place('F', 0, -1, 90, "N"), place('U', 1, 0, 0), place('G', 0, -2, 90), place('U', 2, 0, 0)};
}

TEST_CASE("closing one's own large city is the best move; leaving it open is labelled and corrected") {
  auto closing = own_city_setup();
  closing.push_back(place('E', 0, -3, 180));
  const MoveAnalysis good = analyse_last(2, closing);
  CHECK(good.seat == 0);
  // Closing it is right; a farmer on the new tile may be worth a point or two more.
  CHECK((good.label == MoveLabel::Best || good.label == MoveLabel::Good));
  CHECK(good.loss < LabelThresholds::kInaccuracy);
  CHECK(good.best.placement.cell == Cell{0, -3});

  auto elsewhere = own_city_setup();
  elsewhere.push_back(place('E', 1, -1, 0));
  const MoveAnalysis bad = analyse_last(2, elsewhere);
  INFO("loss ", bad.loss, " spread ", bad.spread, " played ", bad.played_value, " best ", bad.best_value);
  CHECK(at_least(bad.label, MoveLabel::Inaccuracy));
  CHECK(bad.loss > bad.spread);
  CHECK(bad.best.placement.cell == Cell{0, -3});
  CHECK(bad.best.placement.rotation.degrees() == 180);
}

// Seat 1's city, the same shape; seat 0 holds E, which would close it for seat 1.
std::vector<Move> their_city_setup() {
  return {place('U', 1, 0, 0), place('F', 0, -1, 90, "N"), place('U', 2, 0, 0), place('G', 0, -2, 90)};
}

TEST_CASE("feeding an opponent's city is labelled; the suggested move keeps away from it") {
  auto feeding = their_city_setup();
  feeding.push_back(place('E', 0, -3, 180));
  const MoveAnalysis bad = analyse_last(2, feeding);
  INFO("loss ", bad.loss, " spread ", bad.spread, " played ", bad.played_value, " best ", bad.best_value);
  CHECK(bad.seat == 0);
  CHECK(at_least(bad.label, MoveLabel::Inaccuracy));
  CHECK_FALSE(bad.best.placement.cell == Cell{0, -3});
}

// Three closed cities (the start tile's, and two of E tiles) around the field north of
// the road: 9 points at the end for whoever puts a farmer on it, and nobody has yet. Seat 1
// holds U, which extends the road and may take the field.
std::vector<Move> farm_setup() {
  return {place('E', 0, -1, 180), place('U', 1, 0, 0),    place('U', -1, 0, 0), place('E', 1, -1, 0),
          place('E', 1, -2, 180), place('E', -1, -1, 0), place('E', -1, -2, 180)};
}

TEST_CASE("taking a farm of three closed cities is the best move; letting it go is labelled") {
  auto take = farm_setup();
  take.push_back(place('U', 2, 0, 0, "NL"));
  const MoveAnalysis good = analyse_last(2, take);
  CHECK(good.seat == 1);
  CHECK((good.label == MoveLabel::Best || good.label == MoveLabel::Good));

  auto leave = farm_setup();
  leave.push_back(place('U', 2, 0, 0));
  const MoveAnalysis bad = analyse_last(2, leave);
  INFO("loss ", bad.loss, " spread ", bad.spread, " played ", bad.played_value, " best ", bad.best_value);
  CHECK(at_least(bad.label, MoveLabel::Inaccuracy));
  REQUIRE(bad.best.meeple.has_value());
  // The suggested farmer stands in the big field: with it, the end of the game pays 9.
  auto before = seeded_replay(2, {}, leave, leave.size() - 1);
  Game g = std::get<Game>(before);
  REQUIRE(!g.play(bad.best));
  const int score = g.score(1);
  g.finish();
  CHECK(g.score(1) - score >= 9);
}

TEST_CASE("equally good moves: no rotation of a symmetric tile is held against the player") {
  // B (a monastery in a field) fits only south of the start tile; its four rotations are
  // one and the same move, with the monk on it.
  for (int degrees : {0, 90, 180, 270}) {
    CAPTURE(degrees);
    const MoveAnalysis a = analyse_last(2, {place('B', 0, 1, degrees, "C")}, 4000, 7);
    INFO("loss ", a.loss, " spread ", a.spread);
    CHECK(a.loss < LabelThresholds::kInaccuracy);
    CHECK((a.label == MoveLabel::Best || a.label == MoveLabel::Good));
    CHECK(a.best.placement.cell == Cell{0, 1});
  }
}

TEST_CASE("the analysis is the same for the same seed and iteration budget, and blind to the bag's order") {
  auto moves = own_city_setup();
  moves.push_back(place('E', 1, -1, 0));
  const MoveAnalysis a = analyse_last(2, moves, 1500, 3);
  const MoveAnalysis b = analyse_last(2, moves, 1500, 3);
  CHECK(a.played_value == b.played_value);
  CHECK(a.best_value == b.best_value);
  CHECK(a.best.placement == b.best.placement);
  CHECK(a.playouts == 1500);
}

}  // namespace carc::test

namespace carc::test {

TEST_CASE("projected points: what the end scoring would add now, by the engine's own end scoring") {
  Table t(2);
  t.play('F', 0, -1, 90, "N");  // seat 0: the start's city and F, open, a coat of arms: 3 at the end
  t.play('U', 1, 0, 0, "E");     // seat 1: the road D-U, open: 2 at the end
  auto p = projected_points(t.game());
  CHECK(p[0] == 3);
  CHECK(p[1] == 2);
  CHECK(p[2] == 0);
  Game end = t.game();
  end.finish();
  CHECK(end.score(0) == t.game().score(0) + p[0]);
  CHECK(end.score(1) == t.game().score(1) + p[1]);
  // Once the game is over there is nothing left to add.
  CHECK(projected_points(end) == std::array<int, kMaxPlayers>{});
}

}  // namespace carc::test
