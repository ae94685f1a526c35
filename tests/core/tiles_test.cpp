// Every tile of docs/tiles.md under every rotation: its sides, its features and the ports that
// name them, checked on a board against a table copied from docs/tiles.md by hand.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "carc/core/expansions/abbot/abbot.hpp"
#include "carc/core/expansions/inns/inns.hpp"
#include "carc/core/expansions/river/river.hpp"
#include "carc/core/expansions/traders/traders.hpp"
#include "carc/core/game.hpp"
#include "support.hpp"

namespace carc::test {
namespace {

struct FeatureSpec {
  Kind kind;
  std::vector<std::string> ports;  // catalog orientation
  bool arms = false;
  std::vector<int> touches;        // fields: indexes of the cities they touch
};
struct TileSpec {
  char letter;
  int count;
  std::string sides;  // N E S W: c r f
  std::vector<FeatureSpec> features;
};

std::vector<std::string> split(const std::string& s) {
  std::istringstream in(s);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}
FeatureSpec city(const char* ports, bool arms = false) { return {Kind::City, split(ports), arms, {}}; }
FeatureSpec road(const char* ports) { return {Kind::Road, split(ports), false, {}}; }
FeatureSpec field(const char* ports, std::vector<int> touches = {}) { return {Kind::Field, split(ports), false, std::move(touches)}; }
FeatureSpec cloister() { return {Kind::Monastery, {"C"}, false, {}}; }
const char* kEveryFieldPort = "NL NR EL ER SL SR WL WR";

// The catalog table of docs/tiles.md, row by row.
const std::vector<TileSpec>& specs() {
  static const std::vector<TileSpec> s = {
      {'A', 2, "ffrf", {cloister(), road("S"), field(kEveryFieldPort)}},
      {'B', 4, "ffff", {cloister(), field(kEveryFieldPort)}},
      {'C', 1, "cccc", {city("N E S W", true)}},
      {'D', 4, "crfr", {city("N"), road("E W"), field("EL WR", {0}), field("ER SL SR WL")}},
      {'E', 5, "cfff", {city("N"), field("EL ER SL SR WL WR", {0})}},
      {'F', 2, "fcfc", {city("E W", true), field("NL NR", {0}), field("SL SR", {0})}},
      {'G', 1, "fcfc", {city("E W"), field("NL NR", {0}), field("SL SR", {0})}},
      {'H', 3, "cfcf", {city("N"), city("S"), field("EL ER WL WR", {0, 1})}},
      {'I', 2, "cffc", {city("N"), city("W"), field("EL ER SL SR", {0, 1})}},
      {'J', 3, "crrf", {city("N"), road("E S"), field("ER SL"), field("EL SR WL WR", {0})}},
      {'K', 3, "cfrr", {city("N"), road("S W"), field("SR WL"), field("EL ER SL WR", {0})}},
      {'L', 3, "crrr", {city("N"), road("E"), road("S"), road("W"), field("EL WR", {0}), field("ER SL"), field("SR WL")}},
      {'M', 2, "cffc", {city("N W", true), field("EL ER SL SR", {0})}},
      {'N', 3, "cffc", {city("N W"), field("EL ER SL SR", {0})}},
      {'O', 2, "crrc", {city("N W", true), road("E S"), field("ER SL"), field("EL SR", {0})}},
      {'P', 3, "crrc", {city("N W"), road("E S"), field("ER SL"), field("EL SR", {0})}},
      {'Q', 1, "ccfc", {city("N E W", true), field("SL SR", {0})}},
      {'R', 3, "ccfc", {city("N E W"), field("SL SR", {0})}},
      {'S', 2, "ccrc", {city("N E W", true), road("S"), field("SL", {0}), field("SR", {0})}},
      {'T', 1, "ccrc", {city("N E W"), road("S"), field("SL", {0}), field("SR", {0})}},
      {'U', 8, "frfr", {road("E W"), field("WR NL NR EL"), field("ER SL SR WL")}},
      {'V', 9, "ffrr", {road("S W"), field("SR WL"), field("NL NR EL ER SL WR")}},
      {'W', 4, "frrr", {road("E"), road("S"), road("W"), field("NL NR EL WR"), field("ER SL"), field("SR WL")}},
      {'X', 1, "rrrr",
       {road("N"), road("E"), road("S"), road("W"), field("NR EL"), field("ER SL"), field("SR WL"), field("WR NL")}},
  };
  return s;
}

const std::string kSides = "NESW";

// Clockwise by q quarter turns: the side letter turns, the half (L/R) stays.
std::string turn(const std::string& port, int q) {
  if (port == "C") return port;
  const auto i = kSides.find(port[0]);
  return std::string(1, kSides[(i + static_cast<std::size_t>(q)) % 4]) + port.substr(1);
}

Terrain terrain(char c) { return c == 'c' ? Terrain::City : c == 'r' ? Terrain::Road : Terrain::Field; }

// A board with three open cells side by side, each constrained on its north side only:
// (-1,1) wants a city there, (0,1) a field, (1,1) a road. Any turned tile fits exactly one.
Table three_spots() {
  Table t(2);
  // P at 270: road N-E (east meets the start road), city S-W (open to the west, so no tile
  // on (-1,1) can close it and send a meeple home).
  t.play('P', -1, 0, 270);
  t.play('V', 1, 0, 0);     // road west meets the start road, road faces south
  return t;
}
Cell spot_for(char north) {
  switch (north) {
    case 'c': return {-1, 1};
    case 'f': return {0, 1};
    default: return {1, 1};
  }
}

}  // namespace

TEST_CASE("the catalog holds the tiles of tiles.md: counts, sides, features, coats of arms, city contacts") {
  int total = 0;
  int arms = 0;
  REQUIRE(specs().size() == static_cast<std::size_t>(kBaseTileKinds));
  for (const TileSpec& spec : specs()) {
    CAPTURE(spec.letter);
    const TileDef& d = tile_def(tile(spec.letter));
    CHECK(tile_name(d.tile) == std::string(1, spec.letter));
    CHECK(d.count == spec.count);
    total += d.count;
    for (int side = 0; side < 4; ++side) CHECK(d.sides[static_cast<std::size_t>(side)] == terrain(spec.sides[static_cast<std::size_t>(side)]));
    REQUIRE(d.segment_count == static_cast<int>(spec.features.size()));
    // Match features by their ports (the catalog's order is its own business).
    std::map<int, int> seg_of_feature;
    for (std::size_t f = 0; f < spec.features.size(); ++f) {
      std::uint16_t want = 0;
      for (const auto& p : spec.features[f].ports) want = static_cast<std::uint16_t>(want | (1u << static_cast<int>(*port(p.c_str()))));
      int found = -1;
      for (int s = 0; s < d.segment_count; ++s) {
        if (d.segments[static_cast<std::size_t>(s)].ports == want) found = s;
      }
      CAPTURE(f);
      REQUIRE(found >= 0);
      seg_of_feature[static_cast<int>(f)] = found;
      const Segment& seg = d.segments[static_cast<std::size_t>(found)];
      CHECK(seg.kind == spec.features[f].kind);
      CHECK(seg.pennant == spec.features[f].arms);
      if (seg.pennant) arms += d.count;
    }
    for (std::size_t f = 0; f < spec.features.size(); ++f) {
      if (spec.features[f].kind != Kind::Field) continue;
      std::uint8_t want = 0;
      for (int c : spec.features[f].touches) want = static_cast<std::uint8_t>(want | (1u << seg_of_feature[c]));
      CHECK(d.segments[static_cast<std::size_t>(seg_of_feature[static_cast<int>(f)])].cities == want);
    }
  }
  CHECK(total == 72);
  CHECK(arms == 10);
}

TEST_CASE("every tile under every rotation: sides on the board, features and the ports that name them") {
  const Table board = three_spots();
  int checked = 0;
  for (const TileSpec& spec : specs()) {
    for (int q = 0; q < 4; ++q) {
      CAPTURE(spec.letter);
      CAPTURE(q * 90);
      const Tile t = tile(spec.letter);
      const Rotation r = *rotation(q * 90);
      // Board side s shows catalog side s - q.
      std::string sides;
      for (int s = 0; s < 4; ++s) sides += spec.sides[static_cast<std::size_t>((s - q + 4) % 4)];
      // Only the north side is constrained on the three spots: it picks the one spot.
      const Cell spot = spot_for(sides[0]);
      for (char north : {'c', 'f', 'r'}) {
        CHECK(board.game().is_legal_placement(t, Placement{spot_for(north), r}) == (north == sides[0]));
      }
      // The features in board orientation, and which feature each port names.
      std::map<std::string, int> feature_of;
      for (std::size_t f = 0; f < spec.features.size(); ++f) {
        for (const auto& p : spec.features[f].ports) feature_of[turn(p, q)] = static_cast<int>(f);
      }
      // Every port of a feature takes a meeple, and the tile keeps it as given.
      for (const auto& [name, f] : feature_of) {
        Table copy = board;
        copy.play(spec.letter, spot.x, spot.y, q * 90, name.c_str());
        const auto placed = copy.game().tile_at(spot);
        REQUIRE(placed.has_value());
        CHECK(placed->meeple_port == port(name.c_str()));
        CHECK(placed->meeple_seat == 0);
        CHECK(copy.game().meeples(0) == 6);
      }
      // Ports that no feature of the turned tile has are refused.
      for (int p = 0; p < kPortCount; ++p) {
        const std::string name(port_name(static_cast<Port>(p)));
        if (feature_of.count(name) != 0) continue;
        Table copy = board;
        copy.refuses(place(spec.letter, spot.x, spot.y, q * 90, name.c_str()), "illegal_meeple");
      }
      // One meeple target per feature (the spots' neighbours hold no meeple).
      const PortList targets = board.game().meeple_targets(t, Placement{spot, r}, 0);
      CHECK(targets.size == spec.features.size());
      std::set<int> features;
      for (Port p : targets) {
        const auto it = feature_of.find(std::string(port_name(p)));
        REQUIRE(it != feature_of.end());
        features.insert(it->second);
      }
      CHECK(features.size() == spec.features.size());
      ++checked;
    }
  }
  CHECK(checked == 96);
}

TEST_CASE("tiles.md's example: J at 90 has its city east, its road S-W and the inner field SR/WL") {
  // J at (0,1), 90: city east, road south-west... its north side (catalog west) is field,
  // which meets the start tile's southern field.
  Table t(2);
  t.play('J', 0, 1, 90, "E");
  CHECK(t.game().tile_at({0, 1})->meeple_port == Port::E);
  for (const char* p : {"S", "W"}) {
    Table u(2);
    u.play('J', 0, 1, 90, p);
  }
  // The inner field: SR and WL name one feature, and not the outer one (WR, NL, NR, EL, ER, SL).
  Table inner(2);
  inner.play('J', 0, 1, 90, "SR");
  // Seat 1 extends west with V at 270 (road E-S, inner curve field ER/SL): its ER meets J's
  // WL, the inner field where seat 0's farmer stands; its EL meets J's free outer field.
  inner.refuses('V', -1, 1, 270, "ER", "illegal_meeple");
  inner.refuses('V', -1, 1, 270, "SL", "illegal_meeple");
  inner.play('V', -1, 1, 270, "EL");
  for (const char* outer : {"WR", "NL", "NR", "SL"}) {
    Table u(2);
    u.play('J', 0, 1, 90, outer);
  }
  CHECK(port_name(rotate(Port::N, Rotation::quarters(1))) == "E");
  CHECK(port_name(rotate(Port::SR, Rotation::quarters(1))) == "WR");
  CHECK(port_name(rotate(Port::WL, Rotation::quarters(1))) == "NL");
  CHECK(port_name(across(Port::NL)) == "SR");
  CHECK(port_name(across(Port::NR)) == "SL");
  CHECK(port_name(across(Port::EL)) == "WR");
  CHECK(port_name(across(Port::ER)) == "WL");
}

// The expansions name the base game's generic figures, kinds and terrains in their own
// headers, and their parts give the names records use (docs/expansions.md, "Tiles are data").
TEST_CASE("the expansions' figures, kinds, terrains and names: their values and the names records use") {
  CHECK(static_cast<int>(abbot::kAbbot) == 1);
  CHECK(static_cast<int>(inns::kBig) == 2);
  CHECK(static_cast<int>(traders::kBuilder) == 3);
  CHECK(static_cast<int>(traders::kPig) == 4);
  const std::vector<std::string> figures = {"meeple", "abbot", "big", "builder", "pig"};
  for (int f = 0; f < kFigureKinds; ++f) {
    CHECK(figure_name(static_cast<Figure>(f)) == figures[static_cast<std::size_t>(f)]);
    CHECK(figure_from_name(figures[static_cast<std::size_t>(f)]) == static_cast<Figure>(f));
  }
  CHECK(figure_name(static_cast<Figure>(kFigureKinds)) == "?");
  CHECK_FALSE(figure_from_name("?"));
  CHECK(kind_name(abbot::kGarden) == "garden");
  CHECK(kind_name(river::kRiverKind) == "river");
  CHECK(kind_name(Kind::Field) == "field");
  CHECK(terrain_name(river::kRiverSide) == "river");
  CHECK(terrain_name(Terrain::City) == "city");
  CHECK(is_cloister(abbot::kGarden));
  const std::vector<std::string> expansions = {"river", "abbot", "inns", "traders", "princess"};
  REQUIRE(kExpansionKinds == 5);
  for (int e = 0; e < kExpansionKinds; ++e) {
    CHECK(expansion_name(static_cast<Expansion>(e)) == expansions[static_cast<std::size_t>(e)]);
    CHECK(expansion_from_name(expansions[static_cast<std::size_t>(e)]) == static_cast<Expansion>(e));
  }
  CHECK(traders::good_name(traders::Good::Cloth) == "cloth");
  CHECK(traders::good_of_marks(traders::mark_of(traders::Good::Grain)) == 1);
}

// A copy (the Abbot's garden copies) is its plain row plus its own segments, in its own set.
TEST_CASE("a garden copy is its plain tile with a garden added at G") {
  for (const auto& [copy, plain] : {std::pair{Tile::Eg, Tile::E}, std::pair{Tile::R6g, Tile::R6}, std::pair{Tile::T11g, Tile::T11}}) {
    const TileDef& c = tile_def(copy);
    const TileDef& p = tile_def(plain);
    CAPTURE(c.name);
    CHECK(c.is_copy());
    CHECK(c.plain == plain);
    CHECK(c.expansion == Expansion::Abbot);
    CHECK(c.count == 1);
    CHECK(c.sides == p.sides);
    REQUIRE(c.segment_count == p.segment_count + 1);
    for (int i = 0; i < p.segment_count; ++i) {
      CHECK(c.segments[static_cast<std::size_t>(i)].ports == p.segments[static_cast<std::size_t>(i)].ports);
      CHECK(c.segments[static_cast<std::size_t>(i)].kind == p.segments[static_cast<std::size_t>(i)].kind);
    }
    const Segment& g = c.segments[static_cast<std::size_t>(p.segment_count)];
    CHECK(g.kind == abbot::kGarden);
    CHECK(g.ports == (1u << static_cast<int>(Port::G)));
  }
}

}  // namespace carc::test
