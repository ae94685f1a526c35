// What The Princess & the Dragon tells the computer players (docs/bots.md, "What the
// expansions tell the bots"): nothing yet. The bots place its tiles like any other, play
// the dragon's steps at random (bots.hpp, play_steps) and see the fairy, the princess and
// the portal through the random player only.
#include "bots/bot_hooks.hpp"

namespace carc::bots {

const BotPart& princess_bot_part() {
  static constexpr BotPart part{.id = Expansion::Princess};
  return part;
}

}  // namespace carc::bots
