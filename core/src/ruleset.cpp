// The rules of a set of expansions and options: the generic tile set (docs/expansions.md,
// "How several expansions combine", 1-3), then each expansion's part's setup, then each
// option's (docs/options.md).
#include <array>

#include "carc/core/game.hpp"
#include "expansions/part.hpp"

namespace carc {
namespace {

constexpr std::uint8_t kind_bit(Kind k) { return static_cast<std::uint8_t>(1u << static_cast<int>(k)); }

bool in_set(const TileDef& d, ExpansionSet set) {
  if (d.expansion && !set.has(*d.expansion)) return false;
  if (d.is_copy()) return in_set(tile_def(d.plain), set);
  return true;
}

void add_part(Ruleset& r, const detail::Part* part) {
  if (part == nullptr) return;
  r.parts[static_cast<std::size_t>(r.part_count++)] = part;
  if (part->setup != nullptr) part->setup(r);
  r.points_hooks = r.points_hooks || part->feature_points != nullptr || part->winner_points != nullptr;
  r.completed_hooks = r.completed_hooks || part->completed != nullptr;
  r.extra_hooks = r.extra_hooks || part->grants_extra != nullptr;
  r.finish_hooks = r.finish_hooks || part->finish != nullptr;
  r.start_hooks = r.start_hooks || part->turn_started != nullptr;
  r.placed_hooks = r.placed_hooks || part->tile_placed != nullptr;
  r.scored_hooks = r.scored_hooks || part->feature_scored != nullptr;
  r.left_hooks = r.left_hooks || part->figure_left != nullptr;
  if (part->action_targets != nullptr) r.target_part = part;
  if (part->blocks_figures != nullptr) r.block_part = part;
  if (part->figure_elsewhere != nullptr) r.elsewhere_part = part;
  if (part->steps_begin != nullptr) r.stage_part = part;
}

Ruleset make_ruleset(ExpansionSet set, OptionSet options) {
  Ruleset r;
  r.expansions = set;
  r.options = options;
  // 1. The base tiles, each expansion's tiles, and its copies of tiles in place of plain ones.
  for (const TileDef& d : catalog()) {
    if (!in_set(d, set)) continue;
    r.counts[static_cast<std::size_t>(d.tile)] = static_cast<std::uint8_t>(d.count);
  }
  for (const TileDef& d : catalog()) {
    if (d.is_copy() && in_set(d, set)) r.counts[static_cast<std::size_t>(d.plain)]--;
  }
  // 2. The start tile D; 3. one pile, the land bag.
  r.start = kStartTile;
  r.figures[static_cast<std::size_t>(Figure::Meeple)] = kMeeplesPerPlayer;
  r.figure_kinds[static_cast<std::size_t>(Figure::Meeple)] =
      kind_bit(Kind::Road) | kind_bit(Kind::City) | kind_bit(Kind::Monastery) | kind_bit(Kind::Field);
  r.strength[static_cast<std::size_t>(Figure::Meeple)] = 1;
  for (int e = 0; e < kExpansionKinds; ++e) {
    if (set.has(static_cast<Expansion>(e))) add_part(r, detail::part_of(static_cast<Expansion>(e)));
  }
  // The options after every expansion: they change what the expansions set up (a figure's
  // kinds) and have the last word on points (docs/options.md).
  for (int o = 0; o < kOptionKinds; ++o) {
    if (options.has(static_cast<Option>(o))) add_part(r, detail::option_part_of(static_cast<Option>(o)));
  }
  r.held_back_count = 0;
  for (int k = 0; k < kTileKinds; ++k) {
    if (r.held_back[static_cast<std::size_t>(k)] != 0) r.held_back_count += r.counts[static_cast<std::size_t>(k)];
  }
  r.bag_size = 0;
  r.pile_size.fill(0);
  for (int k = 0; k < kTileKinds; ++k) {
    const int copies = r.counts[static_cast<std::size_t>(k)] - (static_cast<Tile>(k) == r.start ? 1 : 0);
    r.bag_size += copies;
    r.pile_size[r.pile[static_cast<std::size_t>(k)]] = static_cast<std::uint8_t>(r.pile_size[r.pile[static_cast<std::size_t>(k)]] + copies);
  }
  r.kind_end = 0;
  for (int k = 0; k < kTileKinds; ++k) {
    if (r.counts[static_cast<std::size_t>(k)] > 0) r.kind_end = k + 1;
  }
  int n = 0;
  for (int p = 0; p < r.piles; ++p) {
    for (const bool held : {false, true}) {
      for (int k = 0; k < kTileKinds; ++k) {
        if (r.pile[static_cast<std::size_t>(k)] != p || (r.held_back[static_cast<std::size_t>(k)] != 0) != held) continue;
        const int copies = r.counts[static_cast<std::size_t>(k)] - (static_cast<Tile>(k) == r.start ? 1 : 0);
        for (int i = 0; i < copies; ++i) r.unshuffled[static_cast<std::size_t>(n++)] = static_cast<Tile>(k);
        if (!held) r.pile_shuffled[static_cast<std::size_t>(p)] = static_cast<std::uint8_t>(r.pile_shuffled[static_cast<std::size_t>(p)] + copies);
      }
    }
  }
  for (int f = 1; f < kFigureKinds; ++f) r.has_specials = r.has_specials || r.figures[static_cast<std::size_t>(f)] > 0;
  return r;
}

// Every set of expansions and options, indexed by the expansions' bits then the options':
// sized from the number of each, so a new one cannot be dropped by an index that is too narrow.
constexpr std::size_t kExpansionSets = std::size_t{1} << kExpansionKinds;
constexpr std::size_t kRulesets = kExpansionSets << kOptionKinds;
static_assert(kExpansionKinds <= 8, "ExpansionSet keeps one bit per expansion in a byte");

std::array<Ruleset, kRulesets> make_all() {
  std::array<Ruleset, kRulesets> all{};
  for (std::size_t i = 0; i < kRulesets; ++i) {
    all[i] = make_ruleset(ExpansionSet::from_bits(static_cast<std::uint8_t>(i % kExpansionSets)),
                          OptionSet::from_bits(static_cast<std::uint8_t>(i / kExpansionSets)));
  }
  return all;
}

}  // namespace

int Ruleset::pile_of_draw(int draw) const {
  int end = 0;
  for (int p = 0; p < piles; ++p) {
    end += pile_size[static_cast<std::size_t>(p)];
    if (draw < end) return p;
  }
  return piles - 1;
}

const Ruleset& ruleset(ExpansionSet set, OptionSet options) {
  // Built on first use (the catalog and the parts are constant-initialised).
  static const std::array<Ruleset, kRulesets> all = make_all();
  // Every set made by with() is in range.
  const std::size_t i = static_cast<std::size_t>(options.bits()) * kExpansionSets + set.bits();
  return all[i % kRulesets];
}

bool expansion_implemented(Expansion e) { return detail::part_of(e) != nullptr; }

}  // namespace carc
