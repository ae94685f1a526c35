// The Princess & the Dragon in a room's public state (view.cpp).
#pragma once

#include <string>

#include "expansions/part.hpp"

namespace carc::protocol::detail::princess_view {

void state_json(const Game* g, ExpansionSet set, json& out);
void turn_keys(const Game& g, std::string& out);
void legal_keys(const Game& g, const LegalMove& m, std::string& out);
json history_json(const ExpansionEvent& e);
bool merge(json& entry, const ExpansionEvent& next);
void count_event(const ExpansionEvent& e, Rows& rows);

}  // namespace carc::protocol::detail::princess_view
