// What Inns & Cathedrals tells the computer players (docs/bots.md, "What the expansions tell
// the bots"): an inn or a cathedral pays only when its feature closes, the big meeple kept
// in supply is worth more than a meeple, and with it playouts are short and the random
// player picks it often.
#include "carc/core/expansions/inns/inns.hpp"
#include "bots/bot_hooks.hpp"

namespace carc::bots {

using namespace carc::inns;
namespace {

constexpr double kBigValue = 6.0;  // the big meeple in supply at the start of the game

// An inn's road counts 2 a tile and a cathedral's city 3 a tile and pennant, but only if it
// closes (with chance `p`): nothing otherwise.
double feature_value(const FeatureInfo& f, double p, double value) {
  if (f.kind == Kind::Road && (f.marks & kMarkInn) != 0) return 2.0 * f.tiles * p;
  if (f.kind == Kind::City && (f.marks & kMarkCathedral) != 0) return 3.0 * (f.tiles + f.pennants) * p;
  return value;
}

double supply(const Game& g, Seat seat, int /*bag*/, int /*bag_size*/, double phase) {
  return kBigValue * g.figures(seat, kBig) * phase;
}

}  // namespace

const BotPart& inns_bot_part() {
  static constexpr BotPart part{
      .id = Expansion::Inns,
      .feature_value = feature_value,
      .supply = supply,
      .short_playouts = true,
      .rare_figures = true,
  };
  return part;
}

}  // namespace carc::bots
