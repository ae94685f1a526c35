// What the River tells the computer players (docs/bots.md, "What the expansions tell the
// bots"): nothing; the bots play its tiles like any other.
#include "bots/bot_hooks.hpp"

namespace carc::bots {

const BotPart& river_bot_part() {
  static constexpr BotPart part{.id = Expansion::River};
  return part;
}

}  // namespace carc::bots
