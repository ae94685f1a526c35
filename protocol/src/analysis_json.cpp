#include "carc/protocol/analysis_json.hpp"

#include <cmath>
#include <string>

#include "expansions/part.hpp"

namespace carc::protocol {
namespace {

double points(double v) { return std::round(v * 100.0) / 100.0; }

}  // namespace

nlohmann::json move_analysis_json(const MoveAnalysis& a) {
  using nlohmann::json;
  json out{{"move", a.move}, {"seat", a.seat}};
  if (a.discard) {
    out["label"] = nullptr;
    out["loss"] = 0;
    out["played_value"] = nullptr;
    out["best_value"] = nullptr;
    out["spread"] = nullptr;
    out["best"] = nullptr;
    out["playouts"] = 0;
    return out;
  }
  out["label"] = std::string(move_label_name(a.label));
  out["loss"] = points(a.loss);
  out["played_value"] = points(a.played_value);
  out["best_value"] = points(a.best_value);
  out["spread"] = points(a.spread);
  const Move& m = a.best;
  json best{{"x", m.placement.cell.x}, {"y", m.placement.cell.y}, {"rotation", m.placement.rotation.degrees()}};
  best["meeple"] = m.meeple ? json(std::string(port_name(*m.meeple))) : json(nullptr);
  if (m.meeple && m.figure != Figure::Meeple) best["figure"] = std::string(figure_name(m.figure));
  if (m.action && m.action_kind == 0) best["return"] = json{{"x", m.action->x}, {"y", m.action->y}};
  // What the expansions add to a move (a figure put on another tile, an action with a
  // target), in their record keys.
  for (int e = 0; e < kExpansionKinds; ++e) {
    const detail::ProtocolPart* part = detail::protocol_part(static_cast<Expansion>(e));
    if (part != nullptr && part->write_move != nullptr) part->write_move(m, {}, best);
  }
  out["best"] = std::move(best);
  out["playouts"] = a.playouts;
  return out;
}

}  // namespace carc::protocol
