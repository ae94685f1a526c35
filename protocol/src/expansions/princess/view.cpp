// The Princess & the Dragon in a room's event history (docs/protocol.md, "The Princess & the
// Dragon"): its events as the history keeps them (a dragon step with what it ate, the
// fairy's points as scorings) .
#include "carc/core/expansions/princess/princess.hpp"

#include "expansions/part.hpp"
#include "expansions/princess/view.hpp"

namespace carc::protocol::detail {
const ProtocolPart& princess_protocol();  // princess.cpp
}

namespace carc::protocol::detail::princess_view {

using carc::princess::EventKind;

// An event as the room's history keeps it: the record's JSON, the fairy's points as a
// scoring (its seat in `seats`, `end` for the bonus of the end of the game), a dragon step
// with the list of what it ate (merge).
json history_json(const ExpansionEvent& e) {
  json out = princess_protocol().event_json(e);
  const auto kind = static_cast<EventKind>(e.kind);
  if (kind == EventKind::FairyPoint || kind == EventKind::FairyBonus) {
    out["kind"] = "fairy";
    out["seats"] = json::array({e.seat});
    out["end"] = kind == EventKind::FairyBonus && !e.in_turn;
  } else if (kind == EventKind::DragonStep) {
    out["eaten"] = json::array();
  }
  return out;
}

bool merge(json& entry, const ExpansionEvent& next) {
  if (entry.value("type", "") != "dragon_step" || next.expansion != Expansion::Princess ||
      static_cast<EventKind>(next.kind) != EventKind::Eaten) {
    return false;
  }
  json eaten{{"seat", next.seat}, {"x", next.cell.x}, {"y", next.cell.y}};
  if (next.values[0] != 0) eaten["at"] = std::string(port_name(static_cast<Port>(next.values[0] - 1)));
  if (next.arg != 0) eaten["figure"] = std::string(figure_name(static_cast<Figure>(next.arg)));
  entry["eaten"].push_back(std::move(eaten));
  return true;
}

}  // namespace carc::protocol::detail::princess_view
