// The analysis of a game on the wire (docs/protocol-details.md, GET /api/rooms/<id>/analysis;
// `carcassonne analyse`): one entry per move of the record.
#pragma once

#include <nlohmann/json.hpp>

#include "carc/core/analysis.hpp"

namespace carc::protocol {

// {"move","seat","label","loss","played_value","best_value","spread","best","playouts"};
// a discard has "label", "best" and the values null. Values are rounded to 0.01 point.
nlohmann::json move_analysis_json(const MoveAnalysis& a);

}  // namespace carc::protocol
