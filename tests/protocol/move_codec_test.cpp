// The compact stored form of a move, checked against the record entry (JSON) form on every
// move of many random games, plus the inputs it must refuse.
#include <doctest/doctest.h>

#include "carc/core/random_player.hpp"
#include "carc/protocol/move_codec.hpp"
#include "carc/protocol/record.hpp"

using namespace carc;
using namespace carc::protocol;
using nlohmann::json;

namespace {

bool same(const Move& a, const Move& b) {
  return a.type == b.type && a.tile == b.tile && a.meeple == b.meeple &&
         (a.type == Move::Type::Discard || a.placement == b.placement);
}

}  // namespace

TEST_CASE("move codec: every move of random games round-trips, in both forms") {
  int moves = 0, with_meeple = 0;
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    Game g = Game::seeded(2 + static_cast<int>(seed % 4), seed * 7919);
    RandomPlayer player(seed);
    while (g.anyone_holds()) {
      const Move m = player.choose(g);
      std::string why;
      const auto text = parse_move_text(move_text(m), &why);
      REQUIRE_MESSAGE(text, why);
      CHECK(same(*text, m));
      const auto entry = parse_move(move_json(m), &why);
      REQUIRE_MESSAGE(entry, why);
      CHECK(same(*entry, m));
      ++moves;
      with_meeple += m.meeple ? 1 : 0;
      REQUIRE_FALSE(g.play(m).has_value());
    }
  }
  CHECK(moves > 1000);
  CHECK(with_meeple > 100);
  const Move d = Move::discard(Tile::X);
  CHECK(move_text(d) == "X,discard");
  CHECK(move_text(Move::place(Tile::D, Cell{2, -1}, Rotation::quarters(1), Port::N)) == "D,2,-1,90,N");
  CHECK(move_text(Move::place(Tile::V, Cell{-1000000, 7}, Rotation::quarters(0))) == "V,-1000000,7,0");
  std::string why;
  CHECK(same(*parse_move_text("X,discard", &why), d));
  CHECK(same(*parse_move(json{{"tile", "X"}, {"discard", true}}, &why), d));
}

TEST_CASE("move codec: malformed text is refused with a reason, never a throw") {
  for (const char* bad : {"", ",", "Z,1,2,0", "DD,1,2,0", "D", "D,", "D,1", "D,1,2", "D,1,2,45", "D,1,2,360",
                          "D,1,2,-90", "D,x,2,0", "D,1,2,0,", "D,1,2,0,Q", "D,1,2,0,N,N", "D,1 ,2,0",
                          "D,99999999999,2,0", "D,1,2,0x5a", "D,discard,1", "d,1,2,0"}) {
    CAPTURE(bad);
    std::string why;
    CHECK_FALSE(parse_move_text(bad, &why));
    CHECK_FALSE(why.empty());
  }
  std::string why;
  CHECK_FALSE(parse_move(json::array(), &why));
  CHECK(why == "a move must be an object");
  CHECK_FALSE(parse_move(json{{"tile", "D"}, {"x", 1}, {"y", 2}, {"rotation", 45}}, &why));
}
