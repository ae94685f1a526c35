// The expansions' bot parts (bots/bot_hooks.hpp): one line each.
#include "bots/bot_hooks.hpp"

namespace carc::bots {

const BotPart& abbot_bot_part();    // abbot/bots.cpp
const BotPart& inns_bot_part();     // inns/bots.cpp
const BotPart& traders_bot_part();  // traders/bots.cpp

const BotPart* bot_part_of(Expansion e) {
  switch (e) {
    case Expansion::River: return nullptr;  // the bots play its tiles like any other
    case Expansion::Abbot: return &abbot_bot_part();
    case Expansion::Inns: return &inns_bot_part();
    case Expansion::Traders: return &traders_bot_part();
  }
  return nullptr;
}

}  // namespace carc::bots
