// What Traders & Builders tells the computer players (docs/bots.md, "What the expansions
// tell the bots"): the goods majorities by how open they still are, the builder's extra
// parts, the pig's share of a farm, the builder and the pig kept in supply; with them
// playouts are short and the random player picks them often.
#include "expansions/traders/bots.hpp"

#include <algorithm>
#include <cmath>

#include "carc/core/expansions/traders/traders.hpp"
#include "bots/bot_hooks.hpp"

namespace carc::bots {

using namespace carc::traders;
namespace {

// Weights, tuned with `carcassonne arena` (docs/bots.md).
constexpr double kBuilderValue = 2.0;   // the builder or the pig in supply at the start
constexpr double kExtraTurn = 2.25;     // what an extra part of a turn is worth (3.0 and 1.5 played no better)
constexpr double kGoodsMajority = 10.0;
constexpr double kGoodsClump = 1.5;     // tokens come by the city: spread of the tokens still to take

bool has(std::uint8_t figures, Figure f) { return ((figures >> static_cast<int>(f)) & 1) != 0; }

// A field's value is 3 a city; the pig adds 1 a city.
double winner_extra(const FeatureInfo& f, std::uint8_t figures, double value) {
  const double cities = f.kind == Kind::Field ? value / 3.0 : 0.0;
  return has(figures, kPig) ? cities : 0.0;
}

double standing_extra(const FeatureInfo& f, std::uint8_t figures, double p, const Outlook& o) {
  return has(figures, kBuilder) ? builder_value(f, p, o.turns_own, o.bag) : 0.0;
}

// Goods tokens of each kind in the whole game (the tiles of its set).
void count(const Ruleset& rules, BotTally& total) {
  static_assert(kGoodKinds <= std::tuple_size_v<decltype(total.n)>);
  for (int k = 0; k < kTileKinds; ++k) {
    const int copies = rules.counts[static_cast<std::size_t>(k)];
    if (copies == 0) continue;
    const TileDef& d = tile_def(static_cast<Tile>(k));
    for (int i = 0; i < d.segment_count; ++i) {
      const int good = good_of_marks(d.segments[static_cast<std::size_t>(i)].marks);
      if (good >= 0) total.n[static_cast<std::size_t>(good)] += copies;
    }
  }
}

// Each goods majority by how open it still is (majority_chance): 10 points times each
// seat's chance to end with the most tokens of the kind.
void tokens(const Game& g, const BotTally& total, Scores& e) {
  if (g.rules().token_kinds == 0) return;  // a game without tokens has no goods
  const int players = g.players();
  for (int k = 0; k < kGoodKinds; ++k) {
    int taken = 0;
    for (Seat s = 0; s < players; ++s) taken += g.tokens(s, k);
    const int left = std::max(0, total.n[static_cast<std::size_t>(k)] - taken);
    if (taken == 0 && left == 0) continue;
    for (Seat s = 0; s < players; ++s) {
      int best_other = 0;
      for (Seat o = 0; o < players; ++o) {
        if (o != s) best_other = std::max(best_other, g.tokens(o, k));
      }
      e[static_cast<std::size_t>(s)] += kGoodsMajority * majority_chance(g.tokens(s, k) - best_other, left);
    }
  }
}

double supply(const Game& g, Seat seat, int /*bag*/, int /*bag_size*/, double phase) {
  return kBuilderValue * (g.figures(seat, kBuilder) + g.figures(seat, kPig)) * phase;
}

}  // namespace

double majority_chance(int lead, int left) {
  // The lead against the spread of the tokens still to come, as a normal variable; +0.5:
  // a tie wins too.
  const double spread = std::sqrt(kGoodsClump * left);
  const double margin = lead + 0.5;
  if (spread <= 0) return margin > 0 ? 1.0 : 0.0;
  return 0.5 * std::erfc(-margin / (spread * std::sqrt(2.0)));
}

// A builder brings an extra part each time its owner extends its feature again: one of
// the owner's turns whose tile fits one of the open cells (the share of the bag that fits
// some cell), at most once per open cell, and fewer as the feature nears closing (then the
// builder comes back and must be placed again).
double builder_value(const FeatureInfo& f, double p, double turns_own, int bag) {
  if (bag == 0 || f.cell_count == 0) return 0.0;
  double fits = 0;
  for (int i = 0; i < f.cell_count; ++i) fits += f.cells[static_cast<std::size_t>(i)].fitting;
  const double per_turn = std::min(1.0, fits / bag);
  const double triggers = std::min<double>(f.cell_count, turns_own * per_turn);
  return kExtraTurn * triggers * (1.0 - 0.5 * p);
}

const BotPart& traders_bot_part() {
  static constexpr BotPart part{
      .id = Expansion::Traders,
      .winner_extra = winner_extra,
      .standing_extra = standing_extra,
      .count = count,
      .tokens = tokens,
      .supply = supply,
      .short_playouts = true,
      .rare_figures = true,
  };
  return part;
}

}  // namespace carc::bots
