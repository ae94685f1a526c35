// An expansion as a part of the engine: the fixed points where the rules ask the
// expansions in play (docs/expansions.md, "How several expansions combine"). A part fills
// in the hooks it needs and leaves the others null. Adding an expansion is a folder of
// its own under core/src/expansions/ (its part, its tiles.hpp) and one line in
// carc/core/expansions/list.hpp; registry.cpp finds the part as <id>_part().
//
// Hook points:
//   setup      the tile set, its piles, the start tile and the figures (Ruleset);
//   placement  the tiles this part places by its own rules (Ruleset::placer), listed,
//              checked and followed after placing;
//   action     what a placement may do instead of placing a figure (Ruleset::action_part);
//   scoring    a feature's points and a winner's, a completed feature's side effects, the
//              end of the game's own scoring (FeatureTally; ExpansionEvents for the rest);
//   turn       an extra part of the turn (Game::in_extra_part);
//   supply     tokens a seat holds besides its figures (Game::tokens), kept in the part's
//              state (Game::part_state(): each part owns a fixed byte range of it).
//   targets    actions instead of a figure that name a figure on the board (a cell and a
//              port; Move::action_kind > 0, Ruleset::target_part);
//   board      a hook for every placed tile, tiles no figure may take, a figure that goes
//              on another tile than the placed one, a figure leaving the board, a feature
//              scored, the start of a turn (before its discard or placement);
//   stage      a series of steps inside a turn (Ruleset::stage_part): after the placement's
//              figure or action and before its scoring, each seat in turn from the placer's
//              makes one step (Move::step; Game::acting_seat()), chosen among the part's
//              options, until it has none; then the placement is scored and the turn goes
//              on as after any placement.
// Tiles themselves are data (the expansion's tiles.hpp, assembled into the catalog by
// tiles.cpp); which tiles a game holds follows from the catalog's `expansion` and its copies
// of other tiles without a hook.
#pragma once

#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "carc/core/game.hpp"

namespace carc::detail {

// A figure, feature kind or side terrain an expansion brings, and its name in records and
// messages (figure_name(), kind_name(), terrain_name()).
struct Named {
  enum class What : std::uint8_t { Figure, Kind, Terrain };
  What what;
  std::uint8_t value;
  std::string_view name;
};

struct Part {
  // The expansion; an option's part (core/src/options/, docs/options.md) leaves it unset:
  // it is read only of the part that offers an action (Ruleset::action_part).
  Expansion id;
  // Adjusts the ruleset after the generic tile set is made (counts, piles, start, figures).
  void (*setup)(Ruleset& rules) = nullptr;

  // Placement of the tiles this part is the placer of.
  int (*count_placements)(const Game& g, Tile t) = nullptr;
  Placement (*nth_placement)(const Game& g, Tile t, int k) = nullptr;
  bool (*allows)(const Game& g, Tile t, Placement p) = nullptr;
  // After a tile of this part is placed (the start tile included), before scoring.
  void (*placed)(Game& g, Tile t, Placement p) = nullptr;

  // The action a placement may make instead of a figure: the cell it names and its points
  // (nullopt: not offered), and doing it (after the tile is placed, before scoring).
  std::optional<Cell> (*offer)(const Game& g, Seat seat, Tile t, Placement p, int* points) = nullptr;
  void (*act)(Game& g, Seat seat, Cell cell, std::vector<Event>* events) = nullptr;

  // Scoring: the points of a feature for every winner, then what one winner scores of it
  // (FeatureScored::bonus); each gets what the rules so far give and returns the new
  // value. Asked for every scored feature, during the game and at its end.
  int (*feature_points)(const FeatureTally& t, int points) = nullptr;
  int (*winner_points)(const FeatureTally& t, Seat winner, int points) = nullptr;
  // A road or city the placement of `seat` completed, whoever holds it, after it was
  // scored.
  void (*completed)(Game& g, Seat seat, std::uint16_t root, Kind kind, std::vector<Event>* events) = nullptr;
  // Whether the placement of tile `index` by `seat` (its figure placed, before scoring)
  // earns an extra part of the turn. Never asked inside an extra part.
  bool (*grants_extra)(const Game& g, Seat seat, int index) = nullptr;
  // End of the game, after every feature is scored.
  void (*finish)(Game& g, std::vector<Event>* events) = nullptr;

  // Supply: the tokens of kind `k` (below Ruleset::token_kinds) `seat` holds, from this
  // part's state (Game::tokens; the part that sets Ruleset::token_part).
  int (*tokens)(const Game& g, Seat seat, int k) = nullptr;

  // The names of what this part brings (last: the hooks' offsets are those the hot path
  // has always read).
  std::span<const Named> names = {};

  // ---- board ----
  // Every placement by a seat, after the tile is laid and before its figure or action.
  void (*tile_placed)(Game& g, Seat seat, int index, std::vector<Event>* events) = nullptr;
  // Whether no figure may be put on placed tile `index` now (`t` its kind). A kind of tile
  // that never takes a figure as it is placed is Ruleset::bare, set in `setup`.
  bool (*blocks_figures)(const Game& g, Tile t, int index) = nullptr;
  // Whether a placement of `t` may put its figure on another placed tile instead (a feature
  // that holds no follower and that the placement does not complete; Game::check_elsewhere).
  bool (*figure_elsewhere)(Tile t) = nullptr;
  // A figure left the board (scored, sent home, taken back).
  void (*figure_left)(Game& g, int index, int seg) = nullptr;
  // A feature is scored (during the game or at its end; also by an action), before its
  // figures go home.
  void (*feature_scored)(Game& g, std::uint16_t root, std::vector<Event>* events) = nullptr;
  // The start of a seat's turn (not of an extra part): before anything else of it.
  void (*turn_started)(Game& g, Seat seat, std::vector<Event>* events) = nullptr;

  // ---- targets ----
  void (*action_targets)(const Game& g, Seat seat, std::uint8_t kind, Tile t, Placement p,
                         std::vector<Spot>& out) = nullptr;
  void (*act_on)(Game& g, Seat seat, std::uint8_t kind, Spot at, int placed_index,
                 std::vector<Event>* events) = nullptr;

  // ---- stage ----
  // After the placement's figure or action: whether a series of steps begins (the part
  // sets up its state); it goes on while step_options lists any.
  bool (*steps_begin)(Game& g, Seat seat, int index, std::vector<Event>* events) = nullptr;
  void (*step_options)(const Game& g, std::vector<Cell>& out) = nullptr;
  void (*step)(Game& g, Seat seat, Cell to, std::vector<Event>* events) = nullptr;
};

// Every part the engine knows, by Expansion (null for one not built yet).
const Part* part_of(Expansion e);
// The part of each option (core/src/options/registry.cpp).
const Part* option_part_of(Option o);
// The name some part gives a figure, kind or terrain ("" when none does).
std::string_view name_in_parts(Named::What what, std::uint8_t value);

}  // namespace carc::detail
