// What the expansions tell the bots (core/src/bots/bot_hooks.hpp, docs/bots.md "What the
// expansions tell the bots"): every set of expansions gets exactly the hooks of its own
// expansions, in Expansion order, and the base game none.
#include <doctest/doctest.h>

#include "bots/bot_hooks.hpp"  // core/src
#include "carc/core/expansions/abbot/abbot.hpp"
#include "carc/core/expansions/inns/inns.hpp"
#include "carc/core/expansions/traders/traders.hpp"
#include "carc/core/game.hpp"

namespace carc::test {
namespace {

constexpr std::size_t idx(Figure f) { return static_cast<std::size_t>(f); }

TEST_CASE("each expansion's bot part is its own") {
  for (int e = 0; e < kExpansionKinds; ++e) {
    const bots::BotPart* part = bots::bot_part_of(static_cast<Expansion>(e));
    if (part != nullptr) CHECK(part->id == static_cast<Expansion>(e));
  }
}

TEST_CASE("the base game asks the bot hooks nothing") {
  const bots::BotHooks& h = bots::bot_hooks(ruleset(ExpansionSet{}));
  CHECK(h.feature_value.empty());
  CHECK(h.winner_extra.empty());
  CHECK(h.standing_extra.empty());
  CHECK(h.tokens.empty());
  CHECK(h.supply_with_meeples.empty());
  CHECK(h.supply_after.empty());
  CHECK_FALSE(h.short_playouts);
  CHECK(h.guide_weight == 0.0);
  CHECK_FALSE(h.rare_figures);
  CHECK_FALSE(static_cast<bool>(h.action_dominates));
  CHECK_FALSE(static_cast<bool>(h.playout_step));
}

TEST_CASE("every set of expansions gets the bot hooks of its figures, marks, tokens and action") {
  for (int bits = 0; bits < (1 << kExpansionKinds); ++bits) {
    const ExpansionSet set = ExpansionSet::from_bits(static_cast<std::uint8_t>(bits));
    CAPTURE(bits);
    const Ruleset& rules = ruleset(set);
    const bots::BotHooks& h = bots::bot_hooks(rules);
    CHECK(&bots::bot_hooks(rules) == &h);  // gathered once
    const bool big = rules.figures[idx(inns::kBig)] > 0;
    const bool builder = rules.figures[idx(traders::kBuilder)] > 0;
    const bool pig = rules.figures[idx(traders::kPig)] > 0;
    // Short playouts and the random player's rare figures come with the big meeple, the
    // builder and the pig; the take-back's pruning with the part that offers it.
    CHECK(h.short_playouts == (big || builder || pig));
    CHECK(h.rare_figures == (big || builder));
    // The root guide weighs more with the Princess & the Dragon (its fairy and portal).
    CHECK(h.guide_weight == (set.has(Expansion::Princess) ? 1.0 : 0.0));
    CHECK(static_cast<bool>(h.action_dominates) == (rules.action_part != nullptr));
    // The search's steps inside a turn by the rule of the part whose steps they are.
    CHECK(static_cast<bool>(h.playout_step) == (rules.stage_part != nullptr));
    // Inns and cathedrals change a feature's value; the pig and the builder add to it.
    CHECK(h.feature_value.size == (set.has(Expansion::Inns) ? 1 : 0));
    CHECK(h.winner_extra.size == (pig ? 1 : 0));
    CHECK(h.standing_extra.size == (builder ? 1 : 0));
    // The abbot's supply joins the meeples'; the big meeple's, the builder's and the pig's
    // come after, in that order.
    CHECK(h.supply_with_meeples.size == (rules.figures[idx(abbot::kAbbot)] > 0 ? 1 : 0));
    CHECK(h.supply_after.size == (big ? 1 : 0) + (builder ? 1 : 0));
    // Goods: the tokens of the whole game, 9 wine, 6 grain and 5 cloth
    // (docs/expansions/traders-builders.md), whatever else is in play; the fairy's points
    // after them (docs/bots.md).
    REQUIRE(h.tokens.size == (rules.token_kinds > 0 ? 1 : 0) + (set.has(Expansion::Princess) ? 1 : 0));
    if (rules.token_kinds > 0) {
      CHECK(h.tallies[0].n[0] == 9);
      CHECK(h.tallies[0].n[1] == 6);
      CHECK(h.tallies[0].n[2] == 5);
    }
  }
}

}  // namespace
}  // namespace carc::test
