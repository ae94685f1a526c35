// The records in tests/core/data replayed through carc::protocol: each carries what it must
// give under "expect" (a result, or the refused move and why), and some the number of legal
// placements of some letters on the board they build ("perft"). The reference implementation
// in tests/reference checks the same files.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "carc/core/game.hpp"
#include "carc/protocol/record.hpp"
#include "support.hpp"

namespace carc::test {
namespace {

std::vector<std::string> data_files() {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(CARC_TEST_DATA_DIR)) {
    if (e.path().extension() == ".json") out.push_back(e.path().filename().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The game a record's moves build (the record must be legal).
Game board_of(const nlohmann::json& j) {
  auto parsed = protocol::parse_record(j);
  REQUIRE(std::holds_alternative<protocol::Record>(parsed));
  const auto& r = std::get<protocol::Record>(parsed);
  Game g = Game::replay(r.players, r.expansions);
  for (const Move& m : r.moves) REQUIRE_FALSE(g.play(m));
  return g;
}

int count_placements(const Game& g, Tile t) {
  std::vector<Placement> ps;
  g.legal_placements(t, ps);
  return static_cast<int>(ps.size());
}

}  // namespace

TEST_CASE("every record in tests/core/data gives what it expects") {
  const auto files = data_files();
  REQUIRE(files.size() > 20);
  int errors = 0;
  int results = 0;
  for (const std::string& f : files) {
    CAPTURE(f);
    const auto j = nlohmann::json::parse(read_text(data_path(f)));
    REQUIRE(j.contains("expect"));
    const auto& expect = j["expect"];
    const auto out = replay_json(j);
    if (expect.contains("error")) {
      ++errors;
      REQUIRE_MESSAGE(std::holds_alternative<protocol::RecordError>(out), "accepted, expected " << expect.dump());
      const auto& e = std::get<protocol::RecordError>(out);
      CAPTURE(e.message);
      if (expect["move"].is_null()) {
        CHECK_FALSE(e.move.has_value());
      } else {
        REQUIRE(e.move.has_value());
        CHECK(*e.move == expect["move"].get<int>());
      }
      const auto code = expect["error"].get<std::string>();
      // Rule refusals name their code; "record" marks a record that is not well formed.
      if (code != "record") CHECK(e.message.find("(" + code + ")") != std::string::npos);
      continue;
    }
    ++results;
    if (const auto* e = std::get_if<protocol::RecordError>(&out)) {
      FAIL("refused at move " << (e->move ? *e->move : -1) << ": " << e->message);
    }
    const auto& res = std::get<nlohmann::json>(out);
    for (const char* key : {"scores_after_move", "final_scores", "meeples_in_supply", "figures_in_supply", "goods", "winners"}) {
      if (expect.contains(key)) CHECK_MESSAGE(res[key] == expect[key], key << ": " << res[key].dump());
    }
    if (!j.value("final", true) && !res["scores_after_move"].empty()) {
      CHECK(res["final_scores"] == res["scores_after_move"].back());  // no end-of-game scoring
    }
    if (expect.contains("legal_placements")) {
      const Game g = board_of(j);
      for (const auto& [letter, n] : expect["legal_placements"].items()) {
        CAPTURE(letter);
        CHECK(count_placements(g, tile(letter[0])) == n.get<int>());
      }
    }
    if (expect.contains("legal_placements_after")) {  // by tile id, expansions' tiles too
      const Game g = board_of(j);
      for (const auto& [id, n] : expect["legal_placements_after"].items()) {
        CAPTURE(id);
        REQUIRE(tile_from_name(id).has_value());
        CHECK(count_placements(g, *tile_from_name(id)) == n.get<int>());
      }
    }
    if (expect.contains("discard_at")) {
      const auto k = expect["discard_at"].get<std::size_t>();
      CHECK(j["moves"][k].value("discard", false));
    }
  }
  MESSAGE(files.size(), " records: ", errors, " refused as expected, ", results, " results as expected");
}

TEST_CASE("perft: legal placements next to the start tile alone, by hand") {
  // Each of the 4 open cells constrains one side: north cell (S must be city), east cell (W
  // road), south cell (N field), west cell (E road). Each rotation puts a different catalog
  // side on the constrained side, so a tile fits (#city sides + #field sides + 2 #road sides).
  const Game g = Game::replay(2);
  for (const TileDef& d : catalog()) {
    if (d.expansion) continue;  // base tiles only: an expansion's tiles are not in the base game
    CAPTURE(tile_name(d.tile));
    int c = 0;
    int f = 0;
    int r = 0;
    for (Terrain t : d.sides) (t == Terrain::City ? c : t == Terrain::Field ? f : r)++;
    CHECK(count_placements(g, d.tile) == c + f + 2 * r);
  }
  CHECK(count_placements(g, Tile::X) == 8);
  CHECK(count_placements(g, Tile::C) == 4);
  CHECK(count_placements(g, Tile::B) == 4);
  CHECK(count_placements(g, Tile::A) == 5);
  CHECK(count_placements(g, Tile::U) == 6);
}

TEST_CASE("perft: the board of record-format.md's example, by hand") {
  // D (0,0); E (0,-1) at 180; V (1,0) at 90; U (-1,0). Open cells and what they demand:
  //   (0,-2) S field | (2,0) W field | (1,1) N field | (0,1) N field | (-1,1) N field
  //   (-2,0) E road  | (1,-1) W field + S road | (-1,-1) E field + S field
  // U (f r f r): 5 field cells x 2 + road cell x 2 + (1,-1) at 90 and 270 + (-1,-1) never = 14.
  // V (f f r r): 5 x 2 + 2 + (1,-1) at 270 only + (-1,-1) at 90 only = 14.
  // B (all field): 5 x 4 + (-1,-1) x 4 = 24. C (all city): nowhere.
  Table t(3);
  t.play('E', 0, -1, 180, "S").discard('C').play('V', 1, 0, 90).play('U', -1, 0, 0, "W");
  CHECK(t.legal_count('U') == 14);
  CHECK(t.legal_count('V') == 14);
  CHECK(t.legal_count('B') == 24);
  CHECK(t.legal_count('C') == 0);
  CHECK_FALSE(t.game().has_legal_placement(Tile::C));
  // Each listed placement is legal and each is listed once.
  for (const TileDef& d : catalog()) {
    std::vector<Placement> ps;
    t.game().legal_placements(d.tile, ps);
    for (const Placement& p : ps) CHECK(t.game().is_legal_placement(d.tile, p));
    for (std::size_t i = 0; i < ps.size(); ++i) {
      for (std::size_t k = i + 1; k < ps.size(); ++k) CHECK_FALSE(ps[i] == ps[k]);
    }
    CHECK(t.game().has_legal_placement(d.tile) == !ps.empty());
  }
}

TEST_CASE("a discard with the bag empty passes the turn, and that player is done") {
  const auto j = nlohmann::json::parse(read_text(data_path("late_discard_empty_bag_3.json")));
  auto parsed = protocol::parse_record(j);
  REQUIRE(std::holds_alternative<protocol::Record>(parsed));
  const auto& r = std::get<protocol::Record>(parsed);
  REQUIRE(r.moves.size() == 71);
  const auto k = j["expect"]["discard_at"].get<std::size_t>();
  REQUIRE(k == 68);
  Game g = Game::replay(3);
  for (std::size_t i = 0; i < r.moves.size(); ++i) {
    CAPTURE(i);
    // No discard before: move i is seat i mod 3's.
    CHECK(g.current_seat() == static_cast<Seat>(i % 3));
    REQUIRE_FALSE(g.play(r.moves[i]));
    if (i == k) {
      // Seat 2 discarded C with nothing left to draw: it holds nothing, seat 0 plays next.
      CHECK(r.moves[i].type == Move::Type::Discard);
      CHECK_FALSE(g.holds(2));
      CHECK(g.holds(0));
      CHECK(g.holds(1));
      CHECK(g.current_seat() == 0);
      CHECK(g.bag_left() == 0);
    }
  }
  CHECK_FALSE(g.anyone_holds());
  CHECK(g.play(Move::place(Tile::U, Cell{100, 100}, Rotation{})) == RuleError::GameOver);
  // A discard earlier, with tiles still to draw, keeps the turn instead (docs/record-format.md).
}

}  // namespace carc::test

namespace carc::test {

TEST_CASE("perft: legal placement counts on 60 boards of tests/core/data/perft/boards.json") {
  const auto j = nlohmann::json::parse(read_text(data_path("perft/boards.json")));
  const auto& boards = j["boards"];
  REQUIRE(boards.size() >= 60);
  long long total = 0;
  for (std::size_t b = 0; b < boards.size(); ++b) {
    CAPTURE(b);
    const auto& board = boards[b];
    nlohmann::json record{{"players", board["players"]}, {"moves", board["moves"]}};
    const Game g = board_of(record);
    const auto letters = board["letters"].get<std::string>();
    for (std::size_t i = 0; i < letters.size(); ++i) {
      CAPTURE(letters[i]);
      const int n = count_placements(g, tile(letters[i]));
      CHECK(n == board["counts"][i].get<int>());
      total += n;
    }
  }
  MESSAGE("perft: ", boards.size(), " boards, ", total, " placements in all");
}

}  // namespace carc::test
