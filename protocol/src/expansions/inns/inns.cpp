// Inns & Cathedrals on the wire (docs/expansions/inns-cathedrals.md, docs/protocol.md): a
// scored road with an inn is marked "inn", a city with a cathedral "cathedral", and what
// the mark changed is the breakdown's "inn" and "cathedral" rows (the kind's row keeps
// what the feature would score without it; below 0 for an unfinished one at the end).
// The tiles' segments carry "inn" and "cathedral" (GET /api/tiles).
#include "carc/core/expansions/inns/inns.hpp"
#include "expansions/part.hpp"

namespace carc::protocol::detail {

const ProtocolPart& inns_protocol();  // below

namespace {

constexpr std::uint8_t kInnFlag = 4;  // the history's scored flags
constexpr std::uint8_t kCathedralFlag = 8;

bool inn(const FeatureScored& s) { return s.kind == Kind::Road && (s.marks & inns::kMarkInn) != 0; }
bool cathedral(const FeatureScored& s) { return s.kind == Kind::City && (s.marks & inns::kMarkCathedral) != 0; }

// Rows: 0 inn and 1 cathedral during the game, 2 and 3 at its end.
int count_scored(const FeatureScored& s, std::size_t seat, int& base, Rows& rows) {
  const std::size_t end = s.end_of_game ? 2 : 0;
  if (inn(s)) {
    base = s.tiles;
    EventHistory::Totals::add(rows[end][seat], s.points - base);
  } else if (cathedral(s)) {
    base = (s.end_of_game ? 1 : 2) * (s.tiles + s.pennants);
    EventHistory::Totals::add(rows[end + 1][seat], s.points - base);
  }
  return -1;
}

void segment_json(const Segment& s, json& out) {
  if (s.kind == Kind::Road && (s.marks & inns::kMarkInn) != 0) out["inn"] = true;
  if (s.kind == Kind::City && (s.marks & inns::kMarkCathedral) != 0) out["cathedral"] = true;
}

}  // namespace

const ProtocolPart& inns_protocol() {
  static const ProtocolPart part{
      .id = Expansion::Inns,
      .scored = {{{kInnFlag, "inn", &inn}, {kCathedralFlag, "cathedral", &cathedral}}},
      .segment_json = &segment_json,
      .rows = {{{"inn", false, false}, {"cathedral", false, false}, {"inn", true, false}, {"cathedral", true, false}}},
      .count_scored = &count_scored};
  return part;
}

}  // namespace carc::protocol::detail
