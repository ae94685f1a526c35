// The Princess & the Dragon (docs/expansions/princess-dragon.md): its tile sets, the
// contract's worked example and its refused variants, the dragon's stage (whose step it
// is, who may move), the volcano, the held-back dragon tiles, the fairy, the princess and
// the portal, random games of every set with princess replayed from their records, pins of
// whole games, and the bots playing it.
#include <doctest/doctest.h>

#include <array>
#include <fstream>
#include <string>
#include <vector>

#include "carc/core/bot.hpp"
#include "carc/core/expansions/princess/princess.hpp"
#include "carc/core/player_view.hpp"
#include "carc/core/random_player.hpp"
#include "carc/protocol/record.hpp"
#include "support.hpp"

namespace carc::test {
namespace {

using nlohmann::json;

json worked_example() {
  std::ifstream in(std::string(CARC_TEST_DATA_DIR) + "/princess/worked_example.json");
  REQUIRE(in.good());
  return json::parse(in);
}

// The replay's result, or the index of the refused entry (as a negative - 1).
std::variant<json, int> princess_replay(const json& record) {
  auto parsed = protocol::parse_record(record);
  if (auto* e = std::get_if<protocol::RecordError>(&parsed)) return e->move.value_or(-100);
  auto out = protocol::replay(std::get<protocol::Record>(parsed));
  if (auto* e = std::get_if<protocol::RecordError>(&out)) return e->move.value_or(-100);
  return std::get<json>(out);
}

int refused_at(const json& record) {
  const auto r = princess_replay(record);
  return std::holds_alternative<int>(r) ? std::get<int>(r) : -1;
}

json cells(std::initializer_list<std::pair<int, int>> list) {
  json out = json::array();
  for (const auto& [x, y] : list) out.push_back(json{{"x", x}, {"y", y}});
  return out;
}

// A seeded game played by a random player, in record order (steps after their placement),
// as `carcassonne random` writes it.
std::vector<Move> random_moves(Game& g, std::uint64_t seed, std::vector<Event>& events) {
  RandomPlayer player(seed);
  std::vector<Move> moves;
  const auto take = [&](std::size_t from) {
    for (std::size_t i = from; i < events.size(); ++i) {
      if (const auto* p = std::get_if<TilePlaced>(&events[i])) {
        moves.push_back(move_of(*p));
      } else if (const auto* d = std::get_if<TileDiscarded>(&events[i])) {
        Move m = Move::discard(d->tile);
        m.extra = d->extra;
        moves.push_back(m);
      }
    }
  };
  take(0);
  while (!g.finished()) {
    const Move m = player.choose(g);
    const std::size_t before = events.size();
    REQUIRE_FALSE(g.play(m, &events));
    if (m.type == Move::Type::Step) moves.push_back(m);
    take(before);
  }
  return moves;
}

}  // namespace

TEST_CASE("princess tile sets: 30 tiles, 12 wait beside the bag, gardens with abbot, 156 with all five") {
  const Ruleset& p = ruleset(kPrincessOnly);
  CHECK(p.bag_size == 101);
  CHECK(p.held_back_count == 12);
  CHECK(p.counts[static_cast<std::size_t>(Tile::P11)] == 2);
  CHECK(p.counts[static_cast<std::size_t>(Tile::P7g)] == 0);
  const Game g = Game::seeded(3, 5, kPrincessOnly);
  CHECK(g.bag_left() == 89 - 3);
  CHECK(g.held_back_waiting() == 12);
  CHECK(g.bag_counts()[static_cast<std::size_t>(Tile::P11)] == 0);
  const Ruleset& pa = ruleset(kPrincessOnly.with(Expansion::Abbot));
  CHECK(pa.counts[static_cast<std::size_t>(Tile::P7)] == 0);
  CHECK(pa.counts[static_cast<std::size_t>(Tile::P7g)] == 1);
  CHECK(pa.counts[static_cast<std::size_t>(Tile::P28)] == 0);
  CHECK(pa.counts[static_cast<std::size_t>(Tile::P28g)] == 1);
  CHECK(pa.held_back_count == 12);  // P7g is a dragon tile
  CHECK(princess::symbol_of(Tile::P7g) == princess::Symbol::Dragon);
  CHECK(ruleset(kAllFive).bag_size == 154);  // 156 tiles: the spring starts, D is out
  CHECK(ruleset(kAllFive).bag_size + 1 <= Game::kGridLayouts.back().max_tiles);
  // A base game is as it was: nothing held back.
  CHECK(ruleset({}).held_back_count == 0);
  CHECK(Game::seeded(2, 1).bag_left() == 69);
}

TEST_CASE("the worked example of princess-dragon.md replays to its result") {
  const auto r = princess_replay(worked_example());
  REQUIRE(std::holds_alternative<json>(r));
  const json& res = std::get<json>(r);
  CHECK(res["scores_after_move"] == json::parse("[[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,1],[0,10]]"));
  CHECK(res["final_scores"] == json::parse("[2, 15]"));
  CHECK(res["meeples_in_supply"] == json::parse("[6, 6]"));
  CHECK(res["winners"] == json::parse("[1]"));
  CHECK(res["dragon"] == json::parse(R"({"x": 0, "y": 1})"));
  CHECK(res["fairy"] == json::parse(R"({"x": 1, "y": 0, "next_to": null})"));
  CHECK_FALSE(res.contains("figures_in_supply"));
  // The fairy's points have a row of the breakdown, and every total is the final score.
  CHECK(res["breakdown"][1]["game"]["fairy"] == 4);
  for (std::size_t s = 0; s < 2; ++s) CHECK(res["breakdown"][s]["total"] == res["final_scores"][s]);
}

TEST_CASE("the worked example's refused variants are refused at their move") {
  const json base = worked_example();
  auto variant = [&](int move, auto&& change) {
    json r = base;
    change(r["moves"][static_cast<std::size_t>(move)]);
    return refused_at(r);
  };
  CHECK(refused_at(base) == -1);
  CHECK(variant(0, [](json& m) { m["meeple"] = "NL"; }) == 0);                          // a figure on a volcano
  CHECK(variant(1, [](json& m) { m["tile"] = "P11"; }) == 1);                           // drawn before the volcano
  CHECK(variant(3, [](json& m) { m["meeple"] = "S"; }) == 3);                           // princess and a figure
  CHECK(variant(5, [](json& m) { m["fairy"] = json{{"x", 0}, {"y", 1}, {"at", "C"}}; }) == 5);  // seat 0's monk
  CHECK(variant(6, [](json& m) { m["dragon"] = cells({{0, 0}, {1, 0}}); }) == 6);      // the fairy's tile
  CHECK(variant(6, [](json& m) { m["dragon"] = cells({{0, 0}}); }) == 6);              // too few steps
  CHECK(variant(6, [](json& m) { m["dragon"] = cells({{0, 0}, {0, 1}, {0, 2}}); }) == 6);  // a third step
  CHECK(variant(6, [](json& m) { m["dragon"] = json::array(); }) == 6);                 // none though it can move
  CHECK(variant(7, [](json& m) { m["portal"] = json{{"x", 0}, {"y", 0}}; }) == 7);      // A has no portal
  // More refusals of the contract's list.
  CHECK(variant(1, [](json& m) { m["dragon"] = cells({{-1, 0}}); }) == 1);              // not a dragon tile
  CHECK(variant(2, [](json& m) { m["portal"] = json{{"x", 2}, {"y", 0}}; }) == 2);      // the placed tile
  CHECK(variant(2, [](json& m) { m["portal"] = json{{"x", 5}, {"y", 5}}; }) == 2);      // an empty cell
  CHECK(variant(2, [](json& m) { m["portal"] = json{{"x", -1}, {"y", 0}}; m["meeple"] = "NL"; }) == 2);  // the dragon's tile
  CHECK(variant(2, [](json& m) { m["portal"] = json{{"x", 1}, {"y", 0}}; m["meeple"] = "E"; }) == 2);    // an occupied road
  CHECK(variant(2, [](json& m) { m.erase("meeple"); }) == 2);                           // portal without meeple
  CHECK(variant(2, [](json& m) { m["portal"] = 3; }) == 2);                             // malformed
  CHECK(variant(3, [](json& m) { m["princess"] = json{{"x", 1}, {"y", 0}, {"at", "E"}}; }) == 3);  // not in the city
  CHECK(variant(4, [](json& m) { m.erase("meeple"); m["princess"] = json{{"x", 0}, {"y", 0}, {"at", "N"}}; }) == 4);  // B
  CHECK(variant(5, [](json& m) { m["fairy"] = json{{"x", 1}, {"y", 0}}; }) == 5);       // no "at"
  // The fairy next to the follower it already stands by.
  json again = base;
  again["moves"][7]["fairy"] = json{{"x", 1}, {"y", 0}, {"at", "E"}};
  again["moves"][7].erase("meeple");
  CHECK(refused_at(again) == 7);
}

TEST_CASE("princess keys are ignored in games without princess") {
  json r = json::parse(R"({"players": 2, "moves": [
    {"tile": "U", "x": 1, "y": 0, "rotation": 0, "meeple": "E", "portal": {"x": 0, "y": 0}, "dragon": [{"x": 0, "y": 0}]}]})");
  const auto out = princess_replay(r);
  REQUIRE(std::holds_alternative<json>(out));
  CHECK_FALSE(std::get<json>(out).contains("dragon"));
}

TEST_CASE("the dragon's stage: the seat whose step it is, its options, and nobody else moves") {
  auto parsed = protocol::parse_record(worked_example());
  REQUIRE(std::holds_alternative<protocol::Record>(parsed));
  const auto& record = std::get<protocol::Record>(parsed);
  Game g = Game::replay(2, kPrincessOnly);
  std::size_t i = 0;
  for (; record.moves[i].tile != Tile::P12; ++i) REQUIRE_FALSE(g.play(record.moves[i]));
  REQUIRE_FALSE(g.play(record.moves[i]));  // P12: the stage begins
  REQUIRE(g.in_stage());
  CHECK(g.current_seat() == 0);
  CHECK(g.acting_seat() == 0);
  CHECK(g.stage_step() == 1);
  std::vector<Cell> options;
  g.step_options(options);
  CHECK(options == std::vector<Cell>{{0, 0}});
  // A placement during the stage, and a step by the wrong seat, are not that seat's turn.
  CHECK(std::get<RuleError>(apply(g, 0, Move::place(Tile::A, {2, -1}, Rotation{}))) == RuleError::NotYourTurn);
  CHECK(std::get<RuleError>(apply(g, 1, Move::step({0, 0}))) == RuleError::NotYourTurn);
  CHECK(error_name(g.play(Move::step({5, 5}))) == "illegal_step");
  REQUIRE_FALSE(g.play(Move::step({0, 0})));
  CHECK(g.acting_seat() == 1);
  CHECK(g.stage_step() == 2);
  g.step_options(options);
  CHECK(options == std::vector<Cell>{{0, -1}, {0, 1}});  // not (1,0): the fairy's tile; not (-1,0): visited
  std::vector<Event> events;
  REQUIRE(std::holds_alternative<Applied>(apply(g, 1, Move::step({0, 1}))));
  REQUIRE_FALSE(g.play(Move::step({0, 1}), &events));
  CHECK_FALSE(g.in_stage());  // a dead end: the move ends after 2 steps
  CHECK(g.current_seat() == 1);
  CHECK(g.meeples(0) == 7);  // the monk was eaten
  int eaten = 0;
  for (const Event& e : events) {
    if (const auto* x = std::get_if<ExpansionEvent>(&e); x != nullptr && x->kind == static_cast<std::uint8_t>(princess::EventKind::Eaten)) ++eaten;
  }
  CHECK(eaten == 1);
  // A step outside a stage.
  CHECK(error_name(g.play(Move::step({0, 0}))) == "illegal_step");
}

TEST_CASE("the fairy's point counts in the row of the turn's first entry; its bonus on the follower's scoring") {
  auto parsed = protocol::parse_record(worked_example());
  const auto& record = std::get<protocol::Record>(parsed);
  Game g = Game::replay(2, kPrincessOnly);
  int checked = 0;
  bool after_stage = false;
  for (const Move& m : record.moves) {
    REQUIRE_FALSE(g.play(m));
    if (m.type == Move::Type::Step && !g.in_stage()) {
      CHECK(g.current_seat() == 1);
      CHECK(g.score(1) == 0);  // seat 1's turn is due but has not started
      after_stage = true;
      ++checked;
    } else if (after_stage) {
      CHECK(g.score(1) == 1);  // the point came with seat 1's entry (A, no road closed yet)
      after_stage = false;
      ++checked;
    }
  }
  CHECK(checked == 2);
  CHECK(g.score(1) == 10);  // 1 at the start of move 7, 6 for the road and 3 for the fairy
}

TEST_CASE("random princess games of every set with it replay from their records and round-trip, using every rule") {
  std::array<int, 9> kinds{};
  int portals = 0, fairies = 0, princesses = 0, steps = 0;
  for (int bits = 0; bits < 16; ++bits) {
    const ExpansionSet set = ExpansionSet::from_bits(static_cast<std::uint8_t>(bits)).with(Expansion::Princess);
    for (std::uint64_t seed = 1; seed <= 6; ++seed) {
      const int players = 2 + static_cast<int>(seed % static_cast<std::uint64_t>(ruleset(set).max_players - 1));
      CAPTURE(bits);
      CAPTURE(seed);
      std::vector<Event> events;
      Game g = Game::seeded(players, seed, set, &events);
      const std::vector<Move> moves = random_moves(g, seed * 13 + static_cast<std::uint64_t>(bits), events);
      for (const Move& m : moves) {
        portals += m.figure_cell ? 1 : 0;
        fairies += m.action_kind == princess::kFairyAction ? 1 : 0;
        princesses += m.action_kind == princess::kPrincessAction ? 1 : 0;
        steps += m.type == Move::Type::Step ? 1 : 0;
      }
      for (const Event& e : events) {
        if (const auto* x = std::get_if<ExpansionEvent>(&e); x != nullptr && x->expansion == Expansion::Princess) ++kinds[x->kind];
      }
      const json record = protocol::record_json(players, moves, true, set);
      const auto parsed = protocol::parse_record(record);
      REQUIRE(std::holds_alternative<protocol::Record>(parsed));
      const auto& back = std::get<protocol::Record>(parsed);
      CHECK(protocol::record_json(players, back.moves, true, set) == record);  // round trip
      const auto out = protocol::replay(back);
      REQUIRE(std::holds_alternative<json>(out));
      const json& res = std::get<json>(out);
      for (Seat s = 0; s < players; ++s) {
        CHECK(res["final_scores"][static_cast<std::size_t>(s)] == g.score(s));
        CHECK(res["breakdown"][static_cast<std::size_t>(s)]["total"] == g.score(s));
      }
      CHECK(res["scores_after_move"].size() == record["moves"].size());
    }
  }
  MESSAGE("portal ", portals, ", fairy ", fairies, ", princess ", princesses, ", dragon steps ", steps, "; eaten ",
          kinds[3], ", fairy points ", kinds[5], ", fairy bonuses ", kinds[6]);
  CHECK(portals > 0);
  CHECK(fairies > 0);
  CHECK(princesses > 0);
  CHECK(steps > 0);
  for (std::size_t k = 0; k < 8; ++k) CHECK(kinds[k] > 0);
}

TEST_CASE("invariants along random games: nothing on the dragon's tile, builders and pigs beside their owner's follower") {
  int lonely_checked = 0;
  for (const ExpansionSet set : {kPrincessOnly.with(Expansion::Traders), kPrincessOnly.with(Expansion::Traders).with(Expansion::Abbot).with(Expansion::Inns)}) {
    for (std::uint64_t seed = 1; seed <= 12; ++seed) {
      CAPTURE(seed);
      Game g = Game::seeded(2 + static_cast<int>(seed % 3), seed, set);
      RandomPlayer player(seed * 101);
      std::vector<Game::Standing> all;
      while (!g.finished()) {
        REQUIRE_FALSE(g.play(player.choose(g)));
        if (g.in_stage()) continue;
        g.standing(all);
        const int dragon = g.part_state()[princess::kStateDragon] - 1;
        for (const Game::Standing& f : all) {
          CHECK(f.tile != dragon);
          if (g.rules().strength[static_cast<std::size_t>(f.figure)] == 0) {
            CHECK(g.node(g.root_of(f.tile, f.seg)).meeples[static_cast<std::size_t>(f.seat)] > 0);
            ++lonely_checked;
          }
        }
      }
    }
  }
  CHECK(lonely_checked > 0);
}

TEST_CASE("pins of whole random games: princess alone and with all five expansions") {
  // A perft-style pin: the legal placements, figure targets, portal and action targets and
  // dragon options met along fixed games, and their final scores. A change of the rules
  // changes them.
  struct Pin {
    ExpansionSet set;
    int players;
    std::uint64_t seed;
    long long choices;
    int score_sum;
  };
  for (const Pin& pin : {Pin{kPrincessOnly, 2, 1, 40722, 103}, Pin{kAllFive, 4, 2, 122659, 98}}) {
    Game g = Game::seeded(pin.players, pin.seed, pin.set);
    RandomPlayer player(pin.seed);
    long long choices = 0;
    std::vector<Placement> placements;
    std::vector<Spot> spots;
    std::vector<Cell> options;
    ElsewhereTargets all;  // every figure's portal targets at once (the bots' walk): the same lists
    long long all_spots = 0;
    while (!g.finished()) {
      if (g.in_stage()) {
        g.step_options(options);
        choices += static_cast<long long>(options.size());
      } else {
        const Seat seat = g.current_seat();
        const Tile t = *g.held(seat);
        g.legal_placements(t, placements);
        for (const Placement& p : placements) {
          ++choices;
          g.figure_targets_elsewhere(t, p, seat, all);
          for (int f = 0; f < kFigureKinds; ++f) {
            choices += g.figure_targets(t, p, seat, static_cast<Figure>(f)).size;
            g.figure_targets_elsewhere(t, p, seat, static_cast<Figure>(f), spots);
            choices += static_cast<long long>(spots.size());
            REQUIRE(all.by_figure[static_cast<std::size_t>(f)] == spots);
            all_spots += static_cast<long long>(spots.size());
          }
          for (std::uint8_t kind = 1; kind < 3; ++kind) {
            g.action_targets(t, p, seat, kind, spots);
            choices += static_cast<long long>(spots.size());
          }
        }
      }
      REQUIRE_FALSE(g.play(player.choose(g)));
    }
    int sum = 0;
    for (Seat s = 0; s < g.players(); ++s) sum += g.score(s);
    CAPTURE(pin.seed);
    CHECK(choices == pin.choices);
    CHECK(sum == pin.score_sum);
    CHECK(all_spots > 0);
  }
}

TEST_CASE("every bot level plays princess games to the end with legal moves, dragon steps included") {
  for (const BotKind kind : {BotKind::Random, BotKind::Greedy, BotKind::Mcts}) {
    BotSpec spec;
    spec.kind = kind;
    spec.iterations = 30;
    Game g = Game::seeded(3, 11 + static_cast<std::uint64_t>(kind), kPrincessOnly.with(Expansion::Abbot));
    int steps = 0;
    while (!g.finished()) {
      const BotChoice c = choose(PlayerView(g), spec, static_cast<std::uint64_t>(g.moves_played()));
      steps += c.move.type == Move::Type::Step ? 1 : 0;
      REQUIRE(std::holds_alternative<Applied>(apply(g, g.acting_seat(), c.move)));
      REQUIRE_FALSE(g.play(c.move));
    }
    CAPTURE(bot_kind_name(kind));
    CHECK(steps > 0);
  }
}

}  // namespace carc::test
