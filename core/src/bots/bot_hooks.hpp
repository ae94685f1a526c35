// What the computer players ask the expansions in play (docs/bots.md, "What the expansions
// tell the bots"). The base bots know the base game only; an expansion whose rules change
// what a position is worth, or how the search should play, fills in a BotPart of its own
// (core/src/expansions/<id>/bots.cpp) and core/src/expansions/bot_registry.cpp lists it. A
// part leaves the hooks it does not need null.
//
// Hook points, in the order the estimate (evaluation.cpp) asks them:
//   feature_value   a mark's effect on what a feature is worth;
//   winner_extra    what a figure standing in a feature adds to what its winner gets;
//   standing_extra  what a figure standing in a feature brings its owner, winning or not;
//   tokens          what the tokens the seats hold and may still take are worth at the end;
//   supply          what the part's figures kept in supply are worth;
//   risk            (the mcts bot's estimate only) what threats to figures cost, and what
//                   the other seats may take back (a token an expansion moves between seats).
// The search and the random player read flags and weights: short_playouts, guide_weight,
// rare_figures, and
// action_dominates prunes the action a placement may make instead of a figure; the
// search's walk and playouts take the steps inside a turn by playout_step.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "carc/core/features.hpp"
#include "carc/core/game.hpp"

namespace carc::bots {

using Scores = std::array<double, kMaxPlayers>;

// What the estimate knows of the rest of the game when it values a feature.
struct Outlook {
  double turns_own;    // turns the owner still has
  double turns_other;  // turns everybody else still has
  int bag;
};

// What a part counts once per ruleset for its estimate (e.g. tokens in the whole game).
struct BotTally {
  std::array<int, 8> n{};
};

struct BotPart {
  Expansion id;

  // The value of feature `f` (closing with chance `p`) to the seats that would win it,
  // given `value`, what the rules so far make of it; returns the new value.
  double (*feature_value)(const FeatureInfo& f, double p, double value) = nullptr;
  // What a winner's figures standing in `f` (bit per Figure) add to the `value` it wins.
  double (*winner_extra)(const FeatureInfo& f, std::uint8_t figures, double value) = nullptr;
  // What a seat's figures standing in `f` (bit per Figure, some besides the meeple) bring
  // it whether or not it wins `f`, which closes with chance `p`.
  double (*standing_extra)(const FeatureInfo& f, std::uint8_t figures, double p, const Outlook& o) = nullptr;

  // Counts what `tokens` needs of the ruleset, once per ruleset ...
  void (*count)(const Ruleset& rules, BotTally& tally) = nullptr;
  // ... and adds to every seat's estimate what its tokens should be worth at the end.
  void (*tokens)(const Game& g, const BotTally& tally, Scores& e) = nullptr;

  // What the figures of this part `seat` keeps in supply are worth, with `bag` of
  // `bag_size` tiles left (`phase`: their share). With `supply_with_meeples` the value is
  // summed with the meeples' before it joins the seat's estimate, otherwise with the other
  // parts' after it: the order of the additions is part of the estimate's exact numbers,
  // which games pinned in the tests replay (docs/bots.md).
  double (*supply)(const Game& g, Seat seat, int bag, int bag_size, double phase) = nullptr;
  bool supply_with_meeples = false;

  // The search: whether playouts should stop after a few tiles and be scored by the
  // estimate (mcts.cpp, kShortPlayout) ...
  bool short_playouts = false;
  // ... and whether the random player should pick among the figures other than the
  // meeple half the time they have a target, so that random games use them.
  bool rare_figures = false;
  // The weight of the search's root guide (root_guide.hpp, kGuideWeight) when the part is
  // in play, if not 0 (the largest of the parts' weights counts).
  double guide_weight = 0.0;
  // For the part that offers an action instead of a figure (Part::offer): whether the
  // action from cell `at` dominates placing no figure with the tile at `p`.
  bool (*action_dominates)(const Game& g, Placement p, Seat seat, Cell at) = nullptr;
  // For the part whose steps fill a stage (Ruleset::stage_part): the step the acting seat
  // of `g` takes in the search's walk and playouts, an index into `options` (not empty),
  // by a rule cheap enough for every playout; null: a uniform option.
  std::size_t (*playout_step)(const Game& g, const std::vector<Cell>& options, Rng& rng) = nullptr;
  // What the part's threats to the figures on the board (figures it may take from their
  // owners before their features score) should cost each seat, taken off `e`, and what of
  // the part's `tokens` value the other seats may take back before it pays. Asked by the
  // mcts bot's estimate only (Evaluator's `risks`): greedy's estimate stays as measured.
  void (*risk)(const Game& g, Scores& e) = nullptr;
};

// Every bot part, by Expansion (null for an expansion that tells the bots nothing);
// core/src/expansions/bot_registry.cpp.
const BotPart* bot_part_of(Expansion e);

// A short list of hooks of one kind, in Expansion order.
template <typename T>
struct HookList {
  std::array<T, kExpansionKinds> items{};
  int size = 0;
  const T* begin() const { return items.data(); }
  const T* end() const { return items.data() + size; }
  bool empty() const { return size == 0; }
  void push(T t) { items[static_cast<std::size_t>(size++)] = t; }
};

// The hooks of a ruleset's expansions, gathered once per ruleset.
struct BotHooks {
  HookList<double (*)(const FeatureInfo&, double, double)> feature_value;
  HookList<double (*)(const FeatureInfo&, std::uint8_t, double)> winner_extra;
  HookList<double (*)(const FeatureInfo&, std::uint8_t, double, const Outlook&)> standing_extra;
  HookList<const BotPart*> tokens;
  std::array<BotTally, kExpansionKinds> tallies{};  // by index into `tokens`
  HookList<double (*)(const Game&, Seat, int, int, double)> supply_with_meeples;
  HookList<double (*)(const Game&, Seat, int, int, double)> supply_after;
  bool short_playouts = false;
  double guide_weight = 0.0;  // 0: kGuideWeight
  bool rare_figures = false;
  bool (*action_dominates)(const Game&, Placement, Seat, Cell) = nullptr;
  std::size_t (*playout_step)(const Game&, const std::vector<Cell>&, Rng&) = nullptr;
  HookList<void (*)(const Game&, Scores&)> risk;
};

// The hooks of `rules` (built for every set of expansions at the first call).
const BotHooks& bot_hooks(const Ruleset& rules);

}  // namespace carc::bots
