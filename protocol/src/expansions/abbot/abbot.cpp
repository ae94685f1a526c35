// The Abbot on the wire (docs/expansions/abbot.md, docs/protocol.md): a placement's
// take-back is its "return", the feature it scores is marked "abbot_return", those points
// are the "abbot" row of the breakdown, and gardens get their kind's rows.
#include "carc/core/expansions/abbot/abbot.hpp"
#include "expansions/part.hpp"

namespace carc::protocol::detail {

const ProtocolPart& abbot_protocol();  // below

namespace {

constexpr std::uint8_t kReturnFlag = 2;  // the history's scored flags: bit 0 is "end"

bool by_action(const FeatureScored& s) { return s.by_action; }

// The take-back's points are the abbot's row, not the garden's or the monastery's.
int count_scored(const FeatureScored& s, std::size_t seat, int&, Rows& rows) {
  if (!s.by_action) return -1;
  EventHistory::Totals::add(rows[0][seat], s.points);
  return 0;
}

}  // namespace

const ProtocolPart& abbot_protocol() {
  static const ProtocolPart part{.id = Expansion::Abbot,
                                 .action_key = "return",
                                 .scored = {{{kReturnFlag, "abbot_return", &by_action}}},
                                 .kinds_shown = 1u << static_cast<int>(abbot::kGarden),
                                 .rows = {{{"abbot", false, true}}},
                                 .count_scored = &count_scored};
  return part;
}

}  // namespace carc::protocol::detail
