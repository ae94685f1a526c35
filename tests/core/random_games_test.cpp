// Seeded random games: every game's record replays to the game's own scores, the same seed
// gives the same game, the state stays small, and no mangled record can crash a replay.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "carc/core/game.hpp"
#include "carc/core/random_player.hpp"
#include "carc/protocol/record.hpp"
#include "support.hpp"

namespace carc::test {
namespace {

struct Played {
  Game game;
  std::vector<Event> events;
  std::vector<Move> moves;                  // the record, as tools/carcassonne does it
  std::vector<std::vector<int>> rows;       // scores after each move, from the events
};

// Plays a seeded game with a random player, as `carcassonne random` does.
Played play_random(int players, std::uint64_t seed) {
  std::vector<Event> ev;
  Game g = Game::seeded(players, seed, &ev);
  RandomPlayer player(seed ^ 0x5DEECE66DULL);
  int guard = 0;
  while (!g.finished() && guard++ < 200) {
    const Move m = player.choose(g);
    const auto e = g.play(m, &ev);
    REQUIRE_MESSAGE(!e, "the generator's own move was refused: " << rule_error_name(*e));
  }
  REQUIRE(g.finished());
  Played p{g, ev, {}, {}};
  std::vector<int> running(static_cast<std::size_t>(players), 0);
  for (const Event& e : ev) {
    if (const auto* t = std::get_if<TilePlaced>(&e)) {
      p.moves.push_back(Move::place(t->tile, t->cell, t->rotation, t->meeple));
      p.rows.push_back(running);
    } else if (const auto* d = std::get_if<TileDiscarded>(&e)) {
      p.moves.push_back(Move::discard(d->tile));
      p.rows.push_back(running);
    } else if (const auto* s = std::get_if<FeatureScored>(&e); s != nullptr && !s->end_of_game) {
      for (Seat w : s->winners) {
        running[static_cast<std::size_t>(w)] += s->points;
        p.rows.back()[static_cast<std::size_t>(w)] += s->points;
      }
    }
  }
  return p;
}

std::vector<int> scores_of(const Game& g) {
  std::vector<int> out;
  for (int s = 0; s < g.players(); ++s) out.push_back(g.score(s));
  return out;
}

}  // namespace

TEST_CASE("every seeded random game replays from its record to its own scores") {
  int games = 0;
  int discards = 0;
  for (int players = 2; players <= 5; ++players) {
    for (std::uint64_t seed = 0; seed < 300; ++seed) {
      CAPTURE(players);
      CAPTURE(seed);
      const Played p = play_random(players, seed);
      const Game& seeded = p.game;
      REQUIRE(seeded.tiles_placed() + static_cast<int>(std::count_if(p.moves.begin(), p.moves.end(), [](const Move& m) {
                return m.type == Move::Type::Discard;
              })) == kTileCount);
      REQUIRE(static_cast<int>(p.moves.size()) == seeded.moves_played());

      Game r = Game::replay(players);
      std::vector<Event> rev;
      for (std::size_t i = 0; i < p.moves.size(); ++i) {
        CAPTURE(i);
        if (p.moves[i].type == Move::Type::Discard) ++discards;
        const auto e = r.play(p.moves[i], &rev);
        REQUIRE_MESSAGE(!e, "replay refused move " << i << ": " << rule_error_name(*e));
        REQUIRE(scores_of(r) == p.rows[i]);
      }
      CHECK_FALSE(r.anyone_holds());
      CHECK(r.play(p.moves.back()) == RuleError::GameOver);
      for (int s = 0; s < players; ++s) CHECK(r.meeples(s) == seeded.meeples(s));
      r.finish(&rev);
      REQUIRE(scores_of(r) == scores_of(seeded));

      // The replay reports the same scored features, in the same order, as the seeded game.
      std::vector<FeatureScored> a;
      std::vector<FeatureScored> b;
      for (const Event& e : p.events) {
        if (const auto* s = std::get_if<FeatureScored>(&e)) a.push_back(*s);
      }
      for (const Event& e : rev) {
        if (const auto* s = std::get_if<FeatureScored>(&e)) b.push_back(*s);
      }
      REQUIRE(a.size() == b.size());
      for (std::size_t i = 0; i < a.size(); ++i) {
        CHECK(a[i].kind == b[i].kind);
        CHECK(a[i].points == b[i].points);
        CHECK(a[i].winners == b[i].winners);
        CHECK(a[i].tiles == b[i].tiles);
      }
      ++games;
    }
  }
  CHECK(games == 1200);
  MESSAGE("replayed ", games, " random games, ", discards, " discards among them");
}

TEST_CASE("the protocol replay of a random game's record gives the same result object") {
  for (std::uint64_t seed = 1000; seed < 1040; ++seed) {
    const int players = 2 + static_cast<int>(seed % 4);
    const Played p = play_random(players, seed);
    const auto j = protocol::record_json(players, p.moves, true);
    auto r = replay_json(j);
    REQUIRE(std::holds_alternative<nlohmann::json>(r));
    const auto& res = std::get<nlohmann::json>(r);
    CHECK(res["final_scores"].get<std::vector<int>>() == scores_of(p.game));
    CHECK(res["scores_after_move"].get<std::vector<std::vector<int>>>() == p.rows);
    std::vector<int> supply;
    for (int s = 0; s < players; ++s) supply.push_back(p.game.meeples(s));
    CHECK(res["meeples_in_supply"].get<std::vector<int>>() == supply);
    const auto finals = scores_of(p.game);
    const int best = *std::max_element(finals.begin(), finals.end());
    std::vector<int> winners;
    for (int s = 0; s < players; ++s) {
      if (finals[static_cast<std::size_t>(s)] == best) winners.push_back(s);
    }
    CHECK(res["winners"].get<std::vector<int>>() == winners);
  }
}

TEST_CASE("the same seed gives the same game, another seed another one") {
  for (std::uint64_t seed : {0ULL, 1ULL, 42ULL, 0xFFFFFFFFFFFFFFFFULL}) {
    const Played a = play_random(4, seed);
    const Played b = play_random(4, seed);
    REQUIRE(a.moves.size() == b.moves.size());
    for (std::size_t i = 0; i < a.moves.size(); ++i) {
      CHECK(protocol::move_json(a.moves[i]) == protocol::move_json(b.moves[i]));
    }
    CHECK(scores_of(a.game) == scores_of(b.game));
    CHECK(a.game.seed() == seed);
  }
  // The bag order differs between seeds (the first held tiles of 5 players rarely agree).
  int same = 0;
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    const Game a = Game::seeded(5, seed);
    const Game b = Game::seeded(5, seed + 1);
    bool equal = true;
    for (int s = 0; s < 5; ++s) equal = equal && a.held(s) == b.held(s);
    same += equal ? 1 : 0;
  }
  CHECK(same < 3);
}

TEST_CASE("a game's state is a plain value under 64 KB") {
  CHECK(Game::memory_bytes() < 64 * 1024);
  CHECK(sizeof(Game) <= Game::memory_bytes());
  // A copy branches: playing on the copy leaves the original untouched.
  Game g = Game::seeded(3, 7);
  Game copy = g;
  RandomPlayer player(1);
  REQUIRE_FALSE(copy.play(player.choose(copy)));
  CHECK(g.tiles_placed() == 1);
  CHECK(copy.tiles_placed() == 2);
}

TEST_CASE("a seeded game deals every tile once: the bag is the 71 tiles of tiles.md") {
  for (std::uint64_t seed = 0; seed < 50; ++seed) {
    const Played p = play_random(2 + static_cast<int>(seed % 4), seed);
    std::array<int, kTileKinds> seen{};
    seen[static_cast<std::size_t>(Tile::D)] = 1;  // the start tile
    for (const Move& m : p.moves) seen[static_cast<std::size_t>(m.tile)]++;
    for (const TileDef& d : catalog()) {
      if (!d.expansion) CHECK(seen[static_cast<std::size_t>(d.tile)] == d.count);
      else CHECK(seen[static_cast<std::size_t>(d.tile)] == 0);
    }
  }
}

// ---- fuzz-ish: mangled records never crash and are refused with a move index in range ----

namespace {

void check_outcome(const nlohmann::json& j) {
  const auto r = replay_json(j);
  if (const auto* e = std::get_if<protocol::RecordError>(&r)) {
    CHECK_FALSE(e->message.empty());
    if (e->move) {
      REQUIRE(j.is_object());
      REQUIRE(j.contains("moves"));
      CHECK(*e->move >= 0);
      CHECK(*e->move < static_cast<int>(j["moves"].size()));
    }
    return;
  }
  const auto& res = std::get<nlohmann::json>(r);
  const int players = j["players"].get<int>();
  CHECK(res["scores_after_move"].size() == j["moves"].size());
  CHECK(static_cast<int>(res["final_scores"].size()) == players);
  CHECK(static_cast<int>(res["meeples_in_supply"].size()) == players);
  CHECK_FALSE(res["winners"].empty());
  for (const auto& m : res["meeples_in_supply"]) {
    CHECK(m.get<int>() >= 0);
    CHECK(m.get<int>() <= 7);
  }
}

nlohmann::json random_value(Rng& rng) {
  switch (rng.below(12)) {
    case 0: return nullptr;
    case 1: return true;
    case 2: return static_cast<int>(rng.below(400)) - 200;
    case 3: return std::string(1, static_cast<char>('A' + rng.below(30)));
    case 4: return nlohmann::json::array();
    case 5: return nlohmann::json::object();
    case 6: return 1e300;
    case 7: return -9223372036854775807LL;
    case 8: return 90 * static_cast<int>(rng.below(5));
    case 9: return std::string(kPortCount > 0 ? port_name(static_cast<Port>(rng.below(kPortCount))) : "N");
    case 10: return "";
    default: return 18446744073709551615ULL;
  }
}

}  // namespace

TEST_CASE("mangled records: no crash, a result or an error naming a move in range") {
  Rng rng(2024);
  static const char* keys[] = {"tile", "x", "y", "rotation", "meeple", "discard"};
  int refused = 0;
  int accepted = 0;
  for (std::uint64_t seed = 0; seed < 60; ++seed) {
    const int players = 2 + static_cast<int>(seed % 4);
    const Played p = play_random(players, seed);
    const auto base = protocol::record_json(players, p.moves, true);
    for (int variant = 0; variant < 40; ++variant) {
      nlohmann::json j = base;
      auto& moves = j["moves"];
      const int edits = 1 + static_cast<int>(rng.below(3));
      for (int k = 0; k < edits; ++k) {
        const auto i = rng.below(static_cast<std::uint32_t>(moves.size()));
        const auto what = rng.below(9);
        if (!moves[i].is_object() && (what <= 1 || what == 5 || what == 6)) continue;
        switch (what) {
          case 0: moves[i][keys[rng.below(6)]] = random_value(rng); break;
          case 1: moves[i].erase(keys[rng.below(6)]); break;
          case 2: moves.erase(i); break;
          case 3: std::swap(moves[i], moves[rng.below(static_cast<std::uint32_t>(moves.size()))]); break;
          case 4: moves[i] = random_value(rng); break;
          case 5: moves[i]["x"] = (moves[i]["x"].is_number_integer() ? moves[i]["x"].get<int>() : 0) + static_cast<int>(rng.below(3)) - 1; break;
          case 6: moves[i]["rotation"] = 90 * static_cast<int>(rng.below(4)); break;
          case 7: moves.insert(moves.begin() + static_cast<long>(i), moves[rng.below(static_cast<std::uint32_t>(moves.size()))]); break;
          default: j[rng.below(2) == 0 ? "players" : "final"] = random_value(rng); break;
        }
        if (moves.empty()) break;
      }
      // Cut the record short now and then (a scenario may stop early).
      if (rng.below(4) == 0 && !moves.empty()) {
        const auto keep = rng.below(static_cast<std::uint32_t>(moves.size()));
        moves.erase(moves.begin() + static_cast<long>(keep), moves.end());
      }
      const auto r = replay_json(j);
      (std::holds_alternative<protocol::RecordError>(r) ? refused : accepted)++;
      check_outcome(j);
    }
  }
  // Whole-record garbage.
  for (const char* text : {"", "null", "[]", "{}", "{\"players\":3}", "{\"players\":3,\"moves\":{}}",
                           "{\"players\":\"3\",\"moves\":[]}", "{\"players\":1,\"moves\":[]}",
                           "{\"players\":6,\"moves\":[]}", "{\"players\":3,\"moves\":[1,2]}",
                           "{\"players\":3,\"moves\":[],\"format\":\"other\"}", "{\"players\":3,\"moves\":[],\"final\":1}",
                           "{\"players\":2.5,\"moves\":[]}", "[1,2,3]", "\"text\"", "{\"players\":2,\"moves\":[{}]}"}) {
    CAPTURE(text);
    const auto r = replay_text(text);
    if (const auto* e = std::get_if<protocol::RecordError>(&r)) {
      CHECK_FALSE(e->message.empty());
    }
  }
  MESSAGE("mangled records: ", refused, " refused, ", accepted, " accepted");
  CHECK(refused > 0);
  CHECK(accepted > 0);
}

}  // namespace carc::test
