// The bot hooks of every set of expansions, gathered once (bot_hooks.hpp).
#include "bot_hooks.hpp"

#include <algorithm>

#include "expansions/part.hpp"

namespace carc::bots {
namespace {

constexpr std::size_t kSets = std::size_t{1} << kExpansionKinds;

BotHooks gather(const Ruleset& rules) {
  BotHooks h;
  for (int e = 0; e < kExpansionKinds; ++e) {
    const auto id = static_cast<Expansion>(e);
    if (!rules.expansions.has(id)) continue;
    const BotPart* part = bot_part_of(id);
    if (part == nullptr) continue;
    if (part->feature_value != nullptr) h.feature_value.push(part->feature_value);
    if (part->winner_extra != nullptr) h.winner_extra.push(part->winner_extra);
    if (part->standing_extra != nullptr) h.standing_extra.push(part->standing_extra);
    if (part->tokens != nullptr) {
      if (part->count != nullptr) part->count(rules, h.tallies[static_cast<std::size_t>(h.tokens.size)]);
      h.tokens.push(part);
    }
    if (part->supply != nullptr) (part->supply_with_meeples ? h.supply_with_meeples : h.supply_after).push(part->supply);
    if (part->risk != nullptr) h.risk.push(part->risk);
    h.short_playouts = h.short_playouts || part->short_playouts;
    h.guide_weight = std::max(h.guide_weight, part->guide_weight);
    h.rare_figures = h.rare_figures || part->rare_figures;
    if (rules.action_part != nullptr && rules.action_part->id == id) h.action_dominates = part->action_dominates;
    if (rules.stage_part != nullptr && rules.stage_part->id == id) h.playout_step = part->playout_step;
  }
  return h;
}

std::array<BotHooks, kSets> gather_all() {
  std::array<BotHooks, kSets> all{};
  for (std::size_t bits = 0; bits < kSets; ++bits) {
    all[bits] = gather(ruleset(ExpansionSet::from_bits(static_cast<std::uint8_t>(bits))));
  }
  return all;
}

}  // namespace

const BotHooks& bot_hooks(const Ruleset& rules) {
  static const std::array<BotHooks, kSets> all = gather_all();
  return all[rules.expansions.bits()];
}

}  // namespace carc::bots
