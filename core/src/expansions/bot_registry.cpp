// The expansions' bot parts (bots/bot_hooks.hpp), from the list
// (carc/core/expansions/list.hpp): expansion <id>'s is <id>_bot_part(), in
// core/src/expansions/<id>/bots.cpp.
#include "bots/bot_hooks.hpp"

namespace carc::bots {

#define CARC_BOT_PART_DECLARATION(Name, id) const BotPart& id##_bot_part();
CARC_EACH_EXPANSION(CARC_BOT_PART_DECLARATION)
#undef CARC_BOT_PART_DECLARATION

const BotPart* bot_part_of(Expansion e) {
  switch (e) {
#define CARC_BOT_PART_CASE(Name, id) \
  case Expansion::Name: return &id##_bot_part();
    CARC_EACH_EXPANSION(CARC_BOT_PART_CASE)
#undef CARC_BOT_PART_CASE
  }
  return nullptr;
}

}  // namespace carc::bots
