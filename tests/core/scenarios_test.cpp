// The rules of docs/rules.md, one short game each. The start tile D is at (0,0): city north, road
// west-east, field south. Moves alternate seat 0, seat 1, ... unless a discard keeps the turn.
// Coordinates: x grows east, y grows SOUTH. Rotations are clockwise.
#include <doctest/doctest.h>

#include <vector>

#include "carc/core/game.hpp"
#include "support.hpp"

namespace carc::test {

using V = std::vector<int>;

// ---------------------------------------------------------------- roads

TEST_CASE("a road ends at a monastery and at a city: 1 point per tile") {
  Table t(2);
  t.play('A', -1, 0, 270, "E");  // seat 0: monastery west of the start, its road runs east into the start road
  CHECK(t.scores() == V{0, 0});
  t.play('S', 1, 0, 90);         // seat 1: the road ends at S's city: A + D + S
  CHECK(t.scores() == V{3, 0});
  CHECK(t.supply() == V{7, 7});
  const auto roads = t.scored(Kind::Road);
  REQUIRE(roads.size() == 1);
  CHECK(roads[0].tiles == 3);
  CHECK(roads[0].winners == std::vector<Seat>{0});
  CHECK_FALSE(roads[0].end_of_game);
}

TEST_CASE("a road ends at junctions; a junction's other roads are separate features") {
  Table t(2);
  t.play('W', -1, 0, 0, "E");  // seat 0: junction west; its east road joins the start road
  // Seat 1's X east of the start: its west road would join seat 0's road, its north road is free.
  t.refuses('X', 1, 0, 0, "W", "illegal_meeple");
  t.play('X', 1, 0, 0, "N");
  CHECK(t.scores() == V{3, 0});  // W + D + X, closed at both junctions
  CHECK(t.supply() == V{7, 6});
  CHECK(t.finish() == V{3, 1});  // X's north road: 1 tile, unfinished
}

TEST_CASE("a loop of four curves is complete: 4 points, each tile once") {
  Table t(2);
  t.play('V', 0, 1, 270, "E");  // seat 0: curve E-S under the start
  t.play('V', 1, 1, 0);         // seat 1: curve W-S
  t.play('V', 1, 2, 90);        // seat 0: curve N-W
  CHECK(t.scores() == V{0, 0});
  t.play('V', 0, 2, 180);       // seat 1: curve N-E closes the loop
  CHECK(t.scores() == V{4, 0});
  CHECK(t.supply() == V{7, 7});
  REQUIRE(t.scored(Kind::Road).size() == 1);
  CHECK(t.scored(Kind::Road)[0].tiles == 4);
  CHECK(t.finish() == V{4, 0});
}

TEST_CASE("a meeple placed on the closing tile scores and returns in the same turn") {
  Table t(2);
  t.play('A', -1, 0, 270);     // seat 0, no meeple
  t.play('S', 1, 0, 90, "W");  // seat 1 closes the road with its meeple on it
  CHECK(t.scores() == V{0, 3});
  CHECK(t.supply() == V{7, 7});
  CHECK_FALSE(t.game().tile_at({1, 0})->meeple_seat.has_value());
}

// ---------------------------------------------------------------- cities

TEST_CASE("a meeple closing the start city scores 4 at once (record-format.md's first move)") {
  Table t(3);
  t.play('E', 0, -1, 180, "S");
  CHECK(t.scores() == V{4, 0, 0});
  CHECK(t.supply() == V{7, 7, 7});
  REQUIRE(t.scored(Kind::City).size() == 1);
  CHECK(t.scored(Kind::City)[0].tiles == 2);
}

TEST_CASE("two pieces of one city on one tile are separate until they join; the tile counts once") {
  Table t(2);
  t.play('N', 0, 1, 180, "E");  // seat 0: city E-S under the start
  t.play('N', 0, 2, 90);        // seat 1: city N-E, joins it
  // Seat 0's I: its west city joins seat 0's own city (occupied), its north city is separate.
  t.refuses('I', 1, 2, 0, "W", "illegal_meeple");
  t.play('I', 1, 2, 0, "N");
  CHECK(t.supply() == V{5, 7});
  CHECK(t.scores() == V{0, 0});
  t.play('N', 1, 1, 270);       // seat 1: city W-S joins both pieces of I: the ring closes
  // 4 distinct tiles (I once, though two of its pieces are in the city): 8 points.
  CHECK(t.scores() == V{8, 0});
  CHECK(t.supply() == V{7, 7});
  const auto cities = t.scored(Kind::City);
  REQUIRE(cities.size() == 1);
  CHECK(cities[0].tiles == 4);
  CHECK(cities[0].meeples[0] == 2);
}

TEST_CASE("coats of arms: +2 each in a completed city") {
  Table t(2);
  t.play('F', 0, -1, 90, "N");  // seat 0: F (arms), city N-S on top of the start city
  t.play('E', 0, -2, 180);      // seat 1 closes it
  CHECK(t.scores() == V{8, 0});  // 3 tiles x2 + 1 arms x2
  REQUIRE(t.scored(Kind::City).size() == 1);
  CHECK(t.scored(Kind::City)[0].pennants == 1);
}

TEST_CASE("coats of arms: +1 each in a city left open at the end") {
  Table t(2);
  t.play('F', 0, -1, 90, "N");   // seat 0: arms
  t.play('M', 0, -2, 180);       // seat 1: M (arms), city S-E, still open to the east
  CHECK(t.scores() == V{0, 0});
  CHECK(t.finish() == V{5, 0});  // 3 tiles + 2 arms
}

TEST_CASE("majority: two meeples beat one, and the loser scores nothing") {
  Table t(2);
  t.play('F', 0, -1, 90, "N");   // seat 0: city D-F, open north
  t.play('E', 1, -1, 0, "N");    // seat 1: its own city, open north
  t.play('E', -1, -1, 0, "N");   // seat 0: a third city, open north
  t.play('N', -1, -2, 180);      // seat 1: joins seat 0's west city, open east
  t.play('N', 1, -2, 270);       // seat 0: joins seat 1's city, open west
  CHECK(t.scores() == V{0, 0});
  // Seat 1's R joins all three: 7 tiles + F's arms = 16, seat 0 has two meeples, seat 1 one.
  t.refuses('R', 0, -2, 180, "S", "illegal_meeple");
  t.play('R', 0, -2, 180);
  CHECK(t.scores() == V{16, 0});
  CHECK(t.supply() == V{7, 7});  // every meeple of the city comes back, the loser's too
  const auto cities = t.scored(Kind::City);
  REQUIRE(cities.size() == 1);
  CHECK(cities[0].tiles == 7);
  CHECK(cities[0].winners == std::vector<Seat>{0});
}

TEST_CASE("a tie for most meeples: each tied player scores the full points") {
  Table t(3);
  t.play('F', 0, -1, 90, "N");  // seat 0: city D-F, open north
  t.play('E', 1, -1, 0, "N");   // seat 1: its own city east of it
  // Seat 2 joins seat 0's city; its own meeple there would be refused (occupied), even its own
  // would be: a player's own meeple occupies a feature just the same.
  t.refuses('N', 0, -2, 180, "S", "illegal_meeple");
  t.play('N', 0, -2, 180);
  t.refuses('N', 1, -2, 270, "W", "illegal_meeple");  // seat 0: joins both occupied cities
  t.play('N', 1, -2, 270);      // seat 0 closes D, F, N, N, E: 5 tiles + 1 arms = 12
  CHECK(t.scores() == V{12, 12, 0});
  CHECK(t.supply() == V{7, 7, 7});
  REQUIRE(t.scored(Kind::City).size() == 1);
  CHECK(t.scored(Kind::City)[0].winners == std::vector<Seat>{0, 1});
}

TEST_CASE("a feature with no meeple scores nothing when completed") {
  Table t(2);
  t.play('E', 0, -1, 180);
  CHECK(t.scores() == V{0, 0});
  CHECK(t.scored().empty());
}

TEST_CASE("one tile completes a road and a city at once: each is scored") {
  Table t(2);
  t.play('A', -1, 0, 270, "E");  // seat 0: road from the monastery into the start road
  t.play('F', 0, -1, 90);        // seat 1: the start city goes on north (open)
  t.play('E', 1, -1, 180, "S");  // seat 0: a one-edge city facing south, onto (1,0)
  CHECK(t.scores() == V{0, 0});
  CHECK(t.supply() == V{5, 7});
  t.play('L', 1, 0, 0);          // seat 1: L's west road ends the start road at its junction,
                                 // its north city closes E's city
  CHECK(t.scores() == V{3 + 4, 0});
  CHECK(t.supply() == V{7, 7});
  CHECK(t.scored(Kind::Road).size() == 1);
  CHECK(t.scored(Kind::City).size() == 1);
}

// ---------------------------------------------------------------- monasteries

namespace {
// Seat 0's monastery under the start tile, then the 7 cells around it filled one by one.
Table monastery_game(int filled_after) {
  Table t(2);
  t.play('B', 0, 1, 0, "C");
  const struct { char tile; int x, y, rot; } around[] = {
      {'U', -1, 0, 0}, {'U', 1, 0, 0}, {'V', -1, 1, 0}, {'V', 1, 1, 270},
      {'U', 0, 2, 0},  {'V', -1, 2, 180}, {'V', 1, 2, 90}};
  for (int i = 0; i < filled_after; ++i) t.play(around[i].tile, around[i].x, around[i].y, around[i].rot);
  return t;
}
}  // namespace

TEST_CASE("a monastery completes when its 8 neighbours are filled: 9 points, meeple back") {
  Table t = monastery_game(6);
  CHECK(t.scores() == V{0, 0});
  CHECK(t.supply() == V{6, 7});
  t.play('V', 1, 2, 90);  // seat 1 fills the last cell
  CHECK(t.scores() == V{9, 0});
  CHECK(t.supply() == V{7, 7});
  REQUIRE(t.scored(Kind::Monastery).size() == 1);
  CHECK(t.finish() == V{9, 0});  // nothing left to score at the end
}

TEST_CASE("an unfinished monastery scores 1 for its tile plus 1 per neighbour at the end") {
  for (int filled = 0; filled <= 6; ++filled) {
    CAPTURE(filled);
    Table t = monastery_game(filled);
    // The start tile is one neighbour already.
    CHECK(t.finish() == V{1 + 1 + filled, 0});
  }
}

TEST_CASE("a monastery counts diagonal neighbours; a road may end at it") {
  Table t(2);
  t.play('A', -1, 0, 270, "C");  // seat 0: monk; A's road runs east into the start road
  t.play('U', 1, 0, 0, "E");     // seat 1: road A-D-U, ends at the monastery, open east
  t.play('V', 0, 1, 270);        // seat 0: south-east of the monastery, a diagonal neighbour
  CHECK(t.finish() == V{1 + 2, 3});  // monastery: its tile + D + V; road: 3 tiles
}

// ---------------------------------------------------------------- end of the game

TEST_CASE("end of the game: an open road, city and monastery score what they have") {
  Table t(2);
  t.play('B', 0, 1, 0, "C");    // seat 0: monastery under the start
  t.play('U', 1, 0, 0, "E");    // seat 1: road D-U, open both ways
  t.play('M', 0, -1, 180, "S"); // seat 0: city D-M (arms), open to the east
  CHECK(t.scores() == V{0, 0});
  CHECK(t.supply() == V{5, 6});
  // Monastery: its tile + D + U = 3; city: 2 tiles + 1 arms = 3; road: 2 tiles.
  CHECK(t.finish() == V{6, 2});
  const auto end = t.scored();
  for (const auto& s : end) CHECK(s.end_of_game);
  CHECK(t.supply() == V{5, 6});  // end-of-game scoring returns nobody's meeples
}

// ---------------------------------------------------------------- farmers

TEST_CASE("farmers: the road splits the start's field; only the side touching the closed city scores") {
  Table t(2);
  t.play('E', 0, -1, 180);        // seat 0 closes the start city (no meeple)
  t.play('U', 1, 0, 0, "NL");     // seat 1: farmer north of the road, the field touching the city
  t.play('U', -1, 0, 0, "SL");    // seat 0: farmer south of the road: no city there
  CHECK(t.finish() == V{0, 3});
  const auto fields = t.scored(Kind::Field);
  REQUIRE(fields.size() == 2);
  for (const auto& f : fields) CHECK(f.points == 3 * f.cities);
}

TEST_CASE("farmers: one city touching two fields scores for each field") {
  Table t(2);
  t.play('E', 0, -1, 180);        // the start city closed by E; E's own field lies beyond it
  t.play('U', 1, 0, 0, "NL");     // seat 1: the field between the city and the road
  t.play('U', -1, -1, 90, "EL");  // seat 0: E's outer field, west of E
  CHECK(t.finish() == V{3, 3});
}

TEST_CASE("farmers: a field touching one city through two tiles counts it once") {
  Table t(2);
  t.play('E', 0, -1, 180);        // city D-E, complete
  t.play('U', 1, 0, 0);           // field north of the road, along D's city
  t.play('V', 1, -1, 180, "SL");  // seat 0: V joins that field with E's outer field
  CHECK(t.finish() == V{3, 0});   // the city touches the field on D and on E: 3 points, not 6
  REQUIRE(t.scored(Kind::Field).size() == 1);
  CHECK(t.scored(Kind::Field)[0].cities == 1);
}

TEST_CASE("farmers: a field touching two completed cities scores 3 for each") {
  Table t(2);
  t.play('E', 0, -1, 180);      // city 1: D + E, complete
  t.play('U', 1, 0, 0, "NL");   // seat 1: the field north of the road, along city 1
  t.play('E', 1, -1, 0);        // seat 0: city 2 starts; E's field joins seat 1's field
  t.play('E', 1, -2, 180);      // seat 1: city 2 complete
  CHECK(t.scores() == V{0, 0});
  CHECK(t.finish() == V{0, 6});
  REQUIRE(t.scored(Kind::Field).size() == 1);
  CHECK(t.scored(Kind::Field)[0].cities == 2);
}

TEST_CASE("farmers: incomplete cities give farmers nothing") {
  Table t(2);
  t.play('U', 1, 0, 0, "NL");    // seat 0: farmer on the field along the open start city
  t.play('F', 0, -1, 90, "N");   // seat 1: the city, still open
  CHECK(t.finish() == V{0, 3});  // city: 2 tiles + 1 arms to seat 1; the farmer: 0
  REQUIRE(t.scored(Kind::Field).size() == 1);
  CHECK(t.scored(Kind::Field)[0].points == 0);
}

TEST_CASE("farmers: two fields with a farmer each join; tied farmers both score") {
  Table t(3);
  t.play('U', 1, 0, 0, "NL");     // seat 0: the field along the start city
  t.play('E', 0, -1, 180, "NL");  // seat 1: closes the city; farmer on E's outer field (separate)
  t.refuses('V', 1, -1, 180, "SL", "illegal_meeple");
  t.play('V', 1, -1, 180);        // seat 2: joins the two fields
  CHECK(t.finish() == V{3, 3, 0});
  const auto fields = t.scored(Kind::Field);
  REQUIRE(fields.size() == 1);
  CHECK(fields[0].winners == std::vector<Seat>{0, 1});
}

TEST_CASE("farmers: a meeple may not go on a field that the new tile joins to an occupied one") {
  // The V's two fields both reach A's field; only its inner field touches P's farmer, yet its
  // outer field joins the same field through A once V is down.
  Table t(2);
  t.play('A', 0, 1, 0);
  t.play('E', -1, 1, 180);
  t.play('P', -1, 2, 0, "EL");
  t.refuses('V', 0, 2, 90, "NR", "illegal_meeple");
  t.refuses('V', 0, 2, 90, "WR", "illegal_meeple");
  t.play('V', 0, 2, 90, "W");  // the road is free
}

TEST_CASE("farmers stay on the board: their meeples never come back") {
  Table t(2);
  t.play('U', 1, 0, 0, "NL");
  t.play('E', 0, -1, 180);  // the city completes; the farmer does not score yet and stays
  CHECK(t.supply() == V{6, 7});
  CHECK(t.scores() == V{0, 0});
  CHECK(t.finish() == V{3, 0});
  CHECK(t.supply() == V{6, 7});
}

// ---------------------------------------------------------------- meeples and supply

TEST_CASE("the 8th meeple is refused: 7 in supply") {
  Table t(2);
  // Seat 0 lays E tiles (city facing south, each its own open city) and monasteries along
  // the row under the start, a meeple on each; seat 1 lays road tiles between them.
  int x = 0;
  for (int i = 0; i < 7; ++i) {
    if (i < 5) {
      t.play('E', x++, 1, 180, "S");
    } else {
      t.play('B', x++, 1, 0, "C");
    }
    t.play('U', x++, 1, 90);
  }
  CHECK(t.supply() == V{0, 7});
  CHECK(t.game().meeple_targets(Tile::B, Placement{{x, 1}, Rotation{}}, 0).size == 0);
  t.refuses('B', x, 1, 0, "C", "illegal_meeple");
  t.refuses('B', x, 1, 0, "NL", "illegal_meeple");
  t.play('B', x, 1, 0);  // without a meeple the same move is fine
  CHECK(t.finish() == V{5 * 1 + 2 * 3, 0});  // 5 open one-tile cities; 2 monasteries with 2 neighbours each
}

TEST_CASE("a meeple must name a feature of the tile just placed") {
  Table t(2);
  t.refuses('U', 1, 0, 0, "C", "illegal_meeple");   // U has no monastery
  t.refuses('U', 1, 0, 0, "N", "illegal_meeple");   // U's north side is field: no N feature
  t.refuses('E', 0, -1, 180, "N", "illegal_meeple");  // E at 180 has its city south, field north
  t.refuses('E', 0, -1, 180, "SL", "illegal_meeple");  // a city side has no field halves
  t.play('U', 1, 0, 0, "NR");
}

// ---------------------------------------------------------------- placement

TEST_CASE("placement: touch by a full edge, empty cell, every touching edge matches") {
  Table t(2);
  t.refuses('U', 0, 0, 0, nullptr, "illegal_placement");   // occupied
  t.refuses('U', 5, 5, 0, nullptr, "illegal_placement");   // touches nothing
  t.refuses('U', 1, 1, 0, nullptr, "illegal_placement");   // a corner only
  t.refuses('U', 0, -1, 0, nullptr, "illegal_placement");  // field against the start city
  t.refuses('U', 1, 0, 90, nullptr, "illegal_placement");  // field against the start road
  t.refuses('E', 0, -1, 0, nullptr, "illegal_placement");  // field (E's south) against the city
  t.play('E', 0, -1, 180);
  t.play('U', 1, 0, 0);
  // (1,-1) now touches E's east field (on its west) and U's north field (on its south).
  // K (city N, field E, road S-W) has no rotation with field on both: refused all four ways.
  for (int rot : {0, 90, 180, 270}) t.refuses('K', 1, -1, rot, nullptr, "illegal_placement");
  // E (city N, field elsewhere) fits at 0 and 90, not with its city west (270) or south (180).
  t.refuses('E', 1, -1, 180, nullptr, "illegal_placement");
  t.refuses('E', 1, -1, 270, nullptr, "illegal_placement");
  CHECK(t.game().is_legal_placement(Tile::E, Placement{{1, -1}, *rotation(90)}));
  t.play('E', 1, -1, 0);
}

// ---------------------------------------------------------------- tiles in the set

TEST_CASE("more copies of a letter than the set holds are refused as tile_exhausted") {
  Table t(2);
  t.play('C', 0, -1, 0);
  t.refuses('C', 1, -1, 0, nullptr, "tile_exhausted");
  // D: four in the set, the start tile is one of them.
  Table d(2);
  d.play('D', 1, 0, 0);
  d.play('D', 2, 0, 0);
  d.play('D', 3, 0, 0);
  d.refuses('D', 4, 0, 0, nullptr, "tile_exhausted");
  // A discarded tile is used up as well.
  Table x(3);
  x.play('E', 0, -1, 180, "S");
  x.discard('C');
  x.refuses('C', 0, -2, 0, nullptr, "tile_exhausted");
}

// ---------------------------------------------------------------- draw model

TEST_CASE("a discard keeps the turn while the bag has tiles; a placeable tile cannot be discarded") {
  Table t(3);
  t.refuses(Move::discard(Tile::U), "illegal_discard");
  t.play('E', 0, -1, 180, "S");
  CHECK(t.game().current_seat() == 1);
  t.discard('C');  // C fits nowhere: all four sides are city
  CHECK(t.game().current_seat() == 1);
  CHECK(t.game().holds(1));
  t.play('V', 1, 0, 90);
  CHECK(t.game().current_seat() == 2);
  t.play('U', -1, 0, 0, "W");
  CHECK(t.game().current_seat() == 0);
  CHECK(t.scores() == V{4, 0, 0});
  CHECK(t.finish() == V{4, 0, 3});
  CHECK(t.supply() == V{7, 7, 6});
}

TEST_CASE("seeded games discard unplaceable tiles by themselves, announced as events") {
  // Find seeded games whose random play meets an unplaceable tile; every discard event names
  // a tile that had no legal placement on the board at that moment.
  int discards = 0;
  for (std::uint64_t seed = 0; seed < 200 && discards < 3; ++seed) {
    std::vector<Event> ev;
    Game g = Game::seeded(2, seed, &ev);
    Game replay = Game::replay(2);
    for (std::size_t i = 0; i < ev.size() || !g.finished();) {
      if (i == ev.size()) {
        const auto legal = [&] {
          std::vector<LegalMove> moves;
          g.legal_moves(moves);
          return moves;
        }();
        REQUIRE_FALSE(legal.empty());
        REQUIRE_FALSE(g.play(Move::place(*g.held(g.current_seat()), legal[0].placement.cell, legal[0].placement.rotation), &ev));
        continue;
      }
      if (const auto* d = std::get_if<TileDiscarded>(&ev[i])) {
        CHECK_FALSE(replay.has_legal_placement(d->tile));
        REQUIRE_FALSE(replay.play(Move::discard(d->tile)));
        ++discards;
      } else if (const auto* p = std::get_if<TilePlaced>(&ev[i])) {
        REQUIRE_FALSE(replay.play(Move::place(p->tile, p->cell, p->rotation, p->meeple)));
      }
      ++i;
    }
  }
  CHECK(discards > 0);
}

}  // namespace carc::test
