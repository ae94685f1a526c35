// The rule options (docs/options.md) in the engine: the worked example of `small_city`, a
// two-tile city left open at the end, `no_fields`' refused field ports and its absent
// farmer-only figure, no field scored at the end, and both options with every set of
// expansions (the Princess & the Dragon's portal included) in random games.
#include <doctest/doctest.h>

#include <vector>

#include "carc/core/expansions/inns/inns.hpp"
#include "carc/core/expansions/traders/traders.hpp"
#include "carc/core/random_player.hpp"
#include "support.hpp"

namespace carc::test {
namespace {

const OptionSet kNoFields = OptionSet{}.with(Option::NoFields);
const OptionSet kSmallCity = OptionSet{}.with(Option::SmallCity);
const OptionSet kBoth = kNoFields.with(Option::SmallCity);
const ExpansionSet kTraders = ExpansionSet{}.with(Expansion::Traders);
const ExpansionSet kInns = ExpansionSet{}.with(Expansion::Inns);

int kind_scored(const std::vector<Event>& events, Kind kind) {
  int n = 0;
  for (const Event& e : events) {
    if (const auto* f = std::get_if<FeatureScored>(&e); f != nullptr && f->kind == kind && !f->winners.empty()) ++n;
  }
  return n;
}

// The kind of feature at a port given in board orientation.
Kind kind_at(Tile t, Rotation r, Port board_port) {
  const auto bit = 1u << static_cast<int>(unrotate(board_port, r));
  const TileDef& d = tile_def(t);
  for (int s = 0; s < d.segment_count; ++s) {
    if ((d.segments[static_cast<std::size_t>(s)].ports & bit) != 0) return d.segments[static_cast<std::size_t>(s)].kind;
  }
  FAIL("no segment at that port");
  return Kind::Unscored;
}

bool offers_field(const Game& g, Tile t, Placement p, Figure f) {
  for (const Port port : g.figure_targets(t, p, g.current_seat(), f)) {
    if (kind_at(t, p.rotation, port) == Kind::Field) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("option names: no_fields and small_city, each one bit; unknown names are none") {
  CHECK(option_name(Option::NoFields) == "no_fields");
  CHECK(option_name(Option::SmallCity) == "small_city");
  CHECK(option_from_name("small_city") == Option::SmallCity);
  CHECK_FALSE(option_from_name("fields").has_value());
  CHECK(kBoth.bits() == 3);
  // The ruleset carries its options, and a game its ruleset's.
  CHECK(ruleset({}, kBoth).options == kBoth);
  CHECK(ruleset({}).options.empty());
  CHECK(Game::seeded(2, 1, {}, kSmallCity).options() == kSmallCity);
  CHECK(Game::replay(2, kTraders, kNoFields).options() == kNoFields);
  // Options change no tile: the same seed draws the same bag.
  CHECK(Game::seeded(3, 9, kTraders, kBoth).bag_counts() == Game::seeded(3, 9, kTraders).bag_counts());
  CHECK(Game::seeded(3, 9, kTraders, kBoth).held(0) == Game::seeded(3, 9, kTraders).held(0));
}

TEST_CASE("small_city worked example: E closes the start tile's city, 4 without the option, 2 with it") {
  for (const bool on : {false, true}) {
    CAPTURE(on);
    Game g = Game::replay(2, {}, on ? kSmallCity : OptionSet{});
    std::vector<Event> events;
    REQUIRE_FALSE(g.play(place('E', 0, -1, 180, "S"), &events));
    CHECK(g.score(0) == (on ? 2 : 4));
    CHECK(g.meeples(0) == kMeeplesPerPlayer);  // the city is complete: the meeple is back
    g.finish(&events);
    CHECK(g.score(0) == (on ? 2 : 4));
  }
}

TEST_CASE("small_city: a two-tile city left open scores as usual at the end, pennant included") {
  // M (a corner city with a pennant) turned to face the start tile's city: two tiles, open.
  for (const bool on : {false, true}) {
    CAPTURE(on);
    Game g = Game::replay(2, {}, on ? kSmallCity : OptionSet{});
    REQUIRE_FALSE(g.play(place('M', 0, -1, 180, "S")));
    CHECK(g.score(0) == 0);
    g.finish();
    CHECK(g.score(0) == 3);  // 2 tiles + 1 pennant
  }
}

TEST_CASE("small_city changes only two-tile cities completed during the game (same moves, both rulesets)") {
  int changed = 0, kept = 0;
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    CAPTURE(seed);
    const ExpansionSet set = ExpansionSet::from_bits(static_cast<std::uint8_t>(seed % 32));
    Game plain = Game::seeded(3, seed, set);
    Game small = Game::seeded(3, seed, set, kSmallCity);
    RandomPlayer player(seed);
    std::vector<Event> a, b;
    while (!plain.finished()) {
      const Move m = player.choose(plain);
      REQUIRE_FALSE(plain.play(m, &a));
      REQUIRE_FALSE(small.play(m, &b));
    }
    REQUIRE(small.finished());
    REQUIRE(a.size() == b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
      const auto* fa = std::get_if<FeatureScored>(&a[i]);
      const auto* fb = std::get_if<FeatureScored>(&b[i]);
      if (fa == nullptr) continue;
      REQUIRE(fb != nullptr);
      if (fa->kind == Kind::City && !fa->end_of_game && fa->tiles == 2 && !fa->winners.empty()) {
        CHECK(fb->points == 2);
        ++changed;
      } else {
        CHECK(fb->points == fa->points);
        if (fa->kind == Kind::City && !fa->winners.empty()) ++kept;
      }
    }
  }
  CHECK(changed > 0);
  CHECK(kept > 0);
}

TEST_CASE("no_fields: no field port is offered, a meeple on a field is refused as illegal_meeple") {
  Game g = Game::replay(2, {}, kNoFields);
  const Placement p{Cell{0, -1}, *Rotation::from_degrees(180)};
  CHECK_FALSE(offers_field(g, tile('E'), p, Figure::Meeple));
  CHECK(g.meeple_targets(tile('E'), p, 0).size == 1);  // the city only
  CHECK(error_name(g.play(place('E', 0, -1, 180, "NL"))) == "illegal_meeple");
  CHECK(g.moves_played() == 0);  // nothing changed
  // The same placement is legal without the option.
  Game plain = Game::replay(2);
  CHECK(offers_field(plain, tile('E'), p, Figure::Meeple));
  CHECK(error_name(plain.play(place('E', 0, -1, 180, "NL"))) == "ok");
  // Every legal move of a seeded game lists no field port.
  Game s = Game::seeded(2, 4, {}, kNoFields);
  std::vector<LegalMove> moves;
  s.legal_moves(moves);
  REQUIRE_FALSE(moves.empty());
  for (const LegalMove& lm : moves) CHECK_FALSE(offers_field(s, *s.held(0), lm.placement, Figure::Meeple));
}

TEST_CASE("no_fields: the farmer-only figure is out of the game, the others keep every other kind") {
  const Ruleset& r = ruleset(kTraders.with(Expansion::Inns), kNoFields);
  CHECK(r.figures[static_cast<std::size_t>(traders::kPig)] == 0);
  CHECK(r.figures[static_cast<std::size_t>(traders::kBuilder)] == 1);
  CHECK(r.figures[static_cast<std::size_t>(inns::kBig)] == 1);
  CHECK(r.figures[static_cast<std::size_t>(Figure::Meeple)] == kMeeplesPerPlayer);
  const auto field = 1u << static_cast<int>(Kind::Field);
  for (const std::uint8_t kinds : r.figure_kinds) CHECK((kinds & field) == 0);
  CHECK((r.figure_kinds[static_cast<std::size_t>(inns::kBig)] & (1u << static_cast<int>(Kind::City))) != 0);
  // Without the option the pig is there.
  CHECK(ruleset(kTraders).figures[static_cast<std::size_t>(traders::kPig)] == 1);
  const Game g = Game::seeded(3, 2, kTraders, kNoFields);
  for (Seat s = 0; s < 3; ++s) CHECK(g.figures(s, traders::kPig) == 0);
  // The big meeple on a field is refused too.
  Game big = Game::replay(2, kInns, kNoFields);
  CHECK(error_name(big.play(Move::place(tile('E'), Cell{0, -1}, *Rotation::from_degrees(180), port_from_name("NL"),
                                        inns::kBig))) == "illegal_meeple");
  CHECK(error_name(big.play(Move::place(tile('E'), Cell{0, -1}, *Rotation::from_degrees(180), port_from_name("S"),
                                        inns::kBig))) == "ok");
}

TEST_CASE("no_fields: no field is scored at the end; without it the same seeds score fields") {
  int plain_fields = 0;
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    for (const bool on : {false, true}) {
      std::vector<Event> events;
      Game g = Game::seeded(2 + static_cast<int>(seed % 4), seed, {}, on ? kNoFields : OptionSet{}, &events);
      RandomPlayer player(seed);
      while (!g.finished()) REQUIRE_FALSE(g.play(player.choose(g), &events));
      if (on) CHECK(kind_scored(events, Kind::Field) == 0);
      else plain_fields += kind_scored(events, Kind::Field);
    }
  }
  CHECK(plain_fields > 0);
}

TEST_CASE("both options with every set of expansions, princess included: random games end, no figure on a field") {
  std::vector<Game::Standing> standing;
  int games = 0;
  for (int bits = 0; bits < (1 << kExpansionKinds); ++bits) {
    const ExpansionSet set = ExpansionSet::from_bits(static_cast<std::uint8_t>(bits));
    for (const OptionSet opts : {kNoFields, kSmallCity, kBoth}) {
      const std::uint64_t seed = static_cast<std::uint64_t>(bits * 4 + opts.bits());
      CAPTURE(bits);
      CAPTURE(static_cast<int>(opts.bits()));
      std::vector<Event> events;
      Game g = Game::seeded(2 + static_cast<int>(seed % 3), seed, set, opts, &events);
      RandomPlayer player(seed);
      while (!g.finished()) {
        const Move m = player.choose(g);
        REQUIRE_FALSE(g.play(m, &events));
        if (!opts.has(Option::NoFields)) continue;
        g.standing(standing);
        const std::vector<BoardTile> board = g.board();
        for (const Game::Standing& f : standing) {
          const BoardTile& b = board[static_cast<std::size_t>(f.tile)];
          CHECK(kind_at(b.tile, b.rotation, f.port) != Kind::Field);
        }
      }
      if (opts.has(Option::NoFields)) CHECK(kind_scored(events, Kind::Field) == 0);
      ++games;
    }
  }
  CHECK(games == 3 * (1 << kExpansionKinds));
}

}  // namespace carc::test
