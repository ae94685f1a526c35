// The Princess & the Dragon in a room's event history (view.cpp).
#pragma once

#include <string>

#include "expansions/part.hpp"

namespace carc::protocol::detail::princess_view {

json history_json(const ExpansionEvent& e);
bool merge(json& entry, const ExpansionEvent& next);

}  // namespace carc::protocol::detail::princess_view
