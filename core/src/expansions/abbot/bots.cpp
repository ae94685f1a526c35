// What the Abbot tells the computer players (docs/bots.md, "What the expansions tell the
// bots"): an abbot kept in supply is worth a few points while tiles are left, and when its
// take-back dominates placing no figure, the search leaves the latter out.
#include "carc/core/expansions/abbot/abbot.hpp"
#include "bots/bot_hooks.hpp"

namespace carc::bots {

using namespace carc::abbot;
namespace {

constexpr double kAbbotValue = 3.0;  // an abbot in supply at the start of the game

double supply(const Game& g, Seat seat, int bag, int bag_size, double /*phase*/) {
  return kAbbotValue * g.figures(seat, kAbbot) * static_cast<double>(bag) / bag_size;
}

// Whether the take-back from `at` dominates placing no figure with `t` at `p`: no tile
// that may still come (unseen, or held by another seat) fits any empty cell around the
// abbot's monastery or garden but the one `t` takes. Keeping the abbot then scores the same
// points at the end that taking it back scores now, and only the take-back frees it.
bool take_back_dominates(const Game& g, Placement p, Seat seat, Cell at) {
  auto may_come = g.bag_counts();
  for (int s = 0; s < g.players(); ++s) {
    if (s == seat) continue;
    if (const auto h = g.held(s)) may_come[static_cast<std::size_t>(*h)]++;
  }
  for (int dy = -1; dy <= 1; ++dy) {
    for (int dx = -1; dx <= 1; ++dx) {
      const Cell c{at.x + dx, at.y + dy};
      if ((dx == 0 && dy == 0) || c == p.cell || g.tile_at(c)) continue;
      for (int k = 0; k < kTileKinds; ++k) {
        if (may_come[static_cast<std::size_t>(k)] == 0) continue;
        for (int r = 0; r < 4; ++r) {
          if (g.is_legal_placement(static_cast<Tile>(k), Placement{c, Rotation::quarters(r)})) return false;
        }
      }
    }
  }
  return true;
}

}  // namespace

const BotPart& abbot_bot_part() {
  static constexpr BotPart part{
      .id = Expansion::Abbot,
      .supply = supply,
      // Summed with the meeples' supply, as the estimate did before the hooks (bot_hooks.hpp).
      .supply_with_meeples = true,
      .action_dominates = take_back_dominates,
  };
  return part;
}

}  // namespace carc::bots
