// The Princess & the Dragon's worked example (docs/expansions/princess-dragon.md), entries
// 0-6 (6: the dragon tile P12, before its steps), as a seeded game whose draws are its tiles:
// shared by the tests of the engine, the computer players and the public state. Header only:
// it checks with doctest's REQUIRE, so it is included by test files alone.
#pragma once

#include <array>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "carc/core/game.hpp"
#include "carc/protocol/record.hpp"

namespace carc::example {

inline const ExpansionSet kPrincessOnly = ExpansionSet{}.with(Expansion::Princess);

inline constexpr const char* kPrincessOpening = R"([
  {"tile": "P5", "x": -1, "y": 0, "rotation": 0},
  {"tile": "U", "x": 1, "y": 0, "rotation": 0, "meeple": "E"},
  {"tile": "P18", "x": 2, "y": 0, "rotation": 0, "meeple": "N", "portal": {"x": 0, "y": 0}},
  {"tile": "P26", "x": 0, "y": -1, "rotation": 180, "princess": {"x": 0, "y": 0, "at": "N"}},
  {"tile": "B", "x": 0, "y": 1, "rotation": 0, "meeple": "C"},
  {"tile": "E", "x": 1, "y": -1, "rotation": 270, "fairy": {"x": 1, "y": 0, "at": "E"}},
  {"tile": "P12", "x": 3, "y": 0, "rotation": 0}])";

// Two players, Princess & the Dragon alone; the draws are the example's, then the rest of
// the tiles in catalogue order; the first `entries` moves of the example played.
inline Game princess_opening(int entries) {
  std::vector<Tile> order = {Tile::P5, Tile::U, Tile::P18, Tile::P26, Tile::B, Tile::E, Tile::P12, Tile::A, Tile::A};
  const Ruleset& rules = ruleset(kPrincessOnly);
  std::array<int, kTileKinds> left{};
  for (int k = 0; k < kTileKinds; ++k) left[static_cast<std::size_t>(k)] = rules.counts[static_cast<std::size_t>(k)];
  left[static_cast<std::size_t>(rules.start)]--;
  for (const Tile t : order) left[static_cast<std::size_t>(t)]--;
  for (int k = 0; k < kTileKinds; ++k) {
    for (int i = 0; i < left[static_cast<std::size_t>(k)]; ++i) order.push_back(static_cast<Tile>(k));
  }
  auto made = Game::with_bag(2, kPrincessOnly, order);
  REQUIRE(made.has_value());
  Game g = *made;
  const nlohmann::json moves = nlohmann::json::parse(kPrincessOpening);
  for (int i = 0; i < entries; ++i) {
    std::string why;
    const auto m = protocol::parse_move(moves[static_cast<std::size_t>(i)], &why, kPrincessOnly, nullptr);
    REQUIRE_MESSAGE(m.has_value(), why);
    REQUIRE_FALSE(g.play(*m));
  }
  return g;
}

}  // namespace carc::example
