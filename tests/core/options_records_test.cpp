// The rule options in records (docs/options.md, docs/record-format.md): "options" read and
// written, unknown or repeated ids refused, a figure on a field refused at its move in a
// no_fields record, the breakdown without its fields row, and random games with options
// replaying from their records.
#include <doctest/doctest.h>

#include <vector>

#include "carc/core/random_player.hpp"
#include "carc/protocol/record.hpp"
#include "support.hpp"

namespace carc::test {
namespace {

using nlohmann::json;

json record(const char* options, const char* moves, const char* extra = "") {
  return json::parse(std::string(R"({"format":"carcassonne-record/1","players":2)") + extra +
                     (options != nullptr ? std::string(R"(,"options":)") + options : std::string()) +
                     R"(,"moves":)" + moves + "}");
}

// The replay's result, or the refusal's message and move (null: the record as a whole).
std::variant<json, protocol::RecordError> run(const json& r) {
  auto parsed = protocol::parse_record(r);
  if (auto* e = std::get_if<protocol::RecordError>(&parsed)) return *e;
  return protocol::replay(std::get<protocol::Record>(parsed));
}

const char* kCloseCity = R"([{"tile":"E","x":0,"y":-1,"rotation":180,"meeple":"S"}])";

}  // namespace

TEST_CASE("records: the worked example with and without small_city; absent, null and [] are none") {
  for (const char* none : {static_cast<const char*>(nullptr), "null", "[]"}) {
    const auto r = run(record(none, kCloseCity));
    REQUIRE(std::holds_alternative<json>(r));
    CHECK(std::get<json>(r)["final_scores"] == json::parse("[4,0]"));
  }
  const auto r = run(record(R"(["small_city"])", kCloseCity));
  REQUIRE(std::holds_alternative<json>(r));
  CHECK(std::get<json>(r)["scores_after_move"] == json::parse("[[2,0]]"));
  CHECK(std::get<json>(r)["final_scores"] == json::parse("[2,0]"));
  const auto both = run(record(R"(["small_city","no_fields"])", kCloseCity));
  REQUIRE(std::holds_alternative<json>(both));
  CHECK(std::get<json>(both)["final_scores"] == json::parse("[2,0]"));
}

TEST_CASE("records: an unknown or repeated option, or a malformed list, is refused with move null") {
  for (const char* bad : {R"(["tiny_city"])", R"(["no_fields","no_fields"])", R"("no_fields")", "[1]", "{}"}) {
    CAPTURE(bad);
    const auto r = run(record(bad, kCloseCity));
    REQUIRE(std::holds_alternative<protocol::RecordError>(r));
    CHECK_FALSE(std::get<protocol::RecordError>(r).move.has_value());
  }
  const auto r = run(record(R"(["tiny_city"])", kCloseCity));
  CHECK(std::get<protocol::RecordError>(r).message.find("tiny_city") != std::string::npos);
}

TEST_CASE("records: a figure on a field in a no_fields game is refused at that move") {
  const char* moves = R"([{"tile":"E","x":0,"y":-1,"rotation":180,"meeple":"S"},
                          {"tile":"V","x":1,"y":0,"rotation":90,"meeple":"NL"}])";
  REQUIRE(std::holds_alternative<json>(run(record(nullptr, moves))));
  const auto r = run(record(R"(["no_fields"])", moves));
  REQUIRE(std::holds_alternative<protocol::RecordError>(r));
  CHECK(std::get<protocol::RecordError>(r).move == 1);
  CHECK(std::get<protocol::RecordError>(r).message.find("illegal_meeple") != std::string::npos);
  // The farmer-only figure of traders is not in a no_fields game: refused at its move too.
  const char* pig = R"([{"tile":"E","x":0,"y":-1,"rotation":180},
                        {"tile":"V","x":1,"y":0,"rotation":90,"meeple":"NL","figure":"pig"}])";
  const auto p = run(record(R"(["no_fields"])", pig, R"(,"expansions":["traders"])"));
  REQUIRE(std::holds_alternative<protocol::RecordError>(p));
  CHECK(std::get<protocol::RecordError>(p).move == 1);
}

TEST_CASE("records: under no_fields the breakdown has no fields row and the supply no farmer-only figure") {
  const auto plain = run(record(nullptr, kCloseCity, R"(,"expansions":["traders"])"));
  REQUIRE(std::holds_alternative<json>(plain));
  CHECK(std::get<json>(plain)["breakdown"][0]["end"].contains("field"));
  CHECK(std::get<json>(plain)["figures_in_supply"][0].contains("pig"));
  const auto r = run(record(R"(["no_fields"])", kCloseCity, R"(,"expansions":["traders"])"));
  REQUIRE(std::holds_alternative<json>(r));
  const json& res = std::get<json>(r);
  for (const json& line : res["breakdown"]) {
    CHECK_FALSE(line["end"].contains("field"));
    CHECK(line["end"].contains("city"));
  }
  CHECK(res["figures_in_supply"] == json::parse(R"([{"builder":1},{"builder":1}])"));
}

TEST_CASE("records: random games with options write \"options\" and replay from their records") {
  for (std::uint64_t seed = 1; seed <= 8; ++seed) {
    const ExpansionSet set = ExpansionSet::from_bits(static_cast<std::uint8_t>((seed * 5) % 32));
    const OptionSet opts = OptionSet::from_bits(static_cast<std::uint8_t>(1 + seed % 3));
    CAPTURE(seed);
    std::vector<Event> events;
    Game g = Game::seeded(2, seed, set, opts, &events);
    RandomPlayer player(seed);
    std::vector<Move> moves;
    while (!g.finished()) {
      const Move m = player.choose(g);
      const std::size_t before = events.size();
      REQUIRE_FALSE(g.play(m, &events));
      if (m.type == Move::Type::Step) moves.push_back(m);  // a step follows its placement's entry
      for (std::size_t i = before; i < events.size(); ++i) {
        if (const auto* p = std::get_if<TilePlaced>(&events[i])) moves.push_back(move_of(*p));
        if (const auto* d = std::get_if<TileDiscarded>(&events[i])) {
          Move dm = Move::discard(d->tile);
          dm.extra = d->extra;
          moves.push_back(dm);
        }
      }
    }
    const json rec = protocol::record_json(2, moves, true, set, opts);
    CHECK(rec["options"] == protocol::options_json(opts));
    const auto r = run(rec);
    REQUIRE(std::holds_alternative<json>(r));
    std::vector<int> finals;
    for (Seat s = 0; s < 2; ++s) finals.push_back(g.score(s));
    CHECK(std::get<json>(r)["final_scores"] == json(finals));
  }
  CHECK_FALSE(protocol::record_json(2, {}, true).contains("options"));
}

}  // namespace carc::test
