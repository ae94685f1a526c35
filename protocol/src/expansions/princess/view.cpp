// The Princess & the Dragon in a room's public state (docs/protocol.md, "The Princess & the
// Dragon"): where the dragon and the fairy are and how many dragon tiles wait, the dragon's
// stage in `turn`, the fairy's followers, each placement's princess and portal targets, and
// the room history's entries for its events (a dragon step with what it ate).
#include "carc/core/expansions/princess/princess.hpp"

#include <algorithm>

#include "carc/protocol/json_text.hpp"
#include "expansions/part.hpp"
#include "expansions/princess/view.hpp"

namespace carc::protocol::detail {
const ProtocolPart& princess_protocol();  // princess.cpp
}

namespace carc::protocol::detail::princess_view {

namespace {

using namespace carc::princess;

int state(const Game& g, int k) { return static_cast<int>(g.part_state()[static_cast<std::size_t>(k)]); }
Cell cell_of(const Game& g, int index) { return Cell{g.placed(index).x, g.placed(index).y}; }
json cell_json(Cell c) { return json{{"x", c.x}, {"y", c.y}}; }

void append_cell(std::string& out, Cell c) {
  out += R"({"x":)";
  append_int(out, c.x);
  out += R"(,"y":)";
  append_int(out, c.y);
}

void append_spots(std::string& out, const std::vector<Spot>& spots) {
  out += '[';
  for (std::size_t i = 0; i < spots.size(); ++i) {
    if (i > 0) out += ',';
    append_cell(out, spots[i].cell);
    out += R"(,"at":")";
    out += port_name(spots[i].port);
    out += R"("})";
  }
  out += ']';
}

void append_ports(std::string& out, const std::vector<Spot>& spots, Cell c) {
  out += '[';
  bool first = true;
  for (const Spot& s : spots) {
    if (!(s.cell == c)) continue;
    if (!first) out += ',';
    first = false;
    out += '"';
    out += port_name(s.port);
    out += '"';
  }
  out += ']';
}

}  // namespace

void state_json(const Game* g, ExpansionSet set, json& out) {
  if (g == nullptr) {
    out["dragon"] = nullptr;
    out["fairy"] = nullptr;
    out["dragon_tiles_waiting"] = ruleset(set).held_back_count;
    return;
  }
  out["dragon"] = state(*g, kStateDragon) == 0 ? json(nullptr) : cell_json(cell_of(*g, state(*g, kStateDragon) - 1));
  out["dragon_tiles_waiting"] = g->held_back_waiting();
  if (state(*g, kStateFairy) == 0) {
    out["fairy"] = nullptr;
    return;
  }
  const int tile = state(*g, kStateFairy) - 1;
  json fairy = cell_json(cell_of(*g, tile));
  fairy["next_to"] = nullptr;
  if (state(*g, kStateFairySeg) != 0) {
    if (const auto f = g->figure_at(tile, state(*g, kStateFairySeg) - 1)) {
      fairy["next_to"] = json{{"x", fairy["x"]}, {"y", fairy["y"]}, {"at", std::string(port_name(f->port))}, {"seat", f->seat}};
    }
  }
  out["fairy"] = std::move(fairy);
}

void turn_keys(const Game& g, std::string& out) {
  out += R"(,"stage":)";
  out += g.in_stage() ? R"("dragon")" : R"("place")";
  out += R"(,"dragon":)";
  if (g.in_stage()) {
    out += R"({"seat":)";
    append_int(out, g.acting_seat());
    out += R"(,"step":)";
    append_int(out, g.stage_step());
    out += R"(,"options":[)";
    thread_local std::vector<Cell> options;
    g.step_options(options);
    for (std::size_t i = 0; i < options.size(); ++i) {
      if (i > 0) out += ',';
      append_cell(out, options[i]);
      out += '}';
    }
    out += R"(],"visited":[)";
    const int steps = state(g, kStateSteps);
    for (int k = 0; k <= steps && k <= kDragonSteps; ++k) {
      const int v = state(g, kStateVisited + k);
      if (v == 0) continue;
      if (k > 0) out += ',';
      append_cell(out, cell_of(g, v - 1));
      out += '}';
    }
    out += "]}";
  } else {
    out += "null";
  }
  // The fairy's targets are the same for every placement: asked of the first one.
  out += R"(,"fairy":)";
  thread_local std::vector<Spot> spots;
  spots.clear();
  const auto held = g.held(g.current_seat());
  if (!g.in_stage() && held) {
    thread_local std::vector<Placement> placements;
    g.legal_placements(*held, placements);
    if (!placements.empty()) g.action_targets(*held, placements.front(), g.current_seat(), kFairyAction, spots);
  }
  append_spots(out, spots);
}

void legal_keys(const Game& g, const LegalMove& m, std::string& out) {
  const auto held = g.held(g.current_seat());
  if (!held) return;
  const Seat seat = g.current_seat();
  thread_local std::vector<Spot> spots;
  g.action_targets(*held, m.placement, seat, kPrincessAction, spots);
  out += R"(,"princess":)";
  append_spots(out, spots);
  if (symbol_of(*held) != Symbol::Portal) return;
  // Every other tile a follower may take through the portal, its ports per figure.
  const Ruleset& rules = g.rules();
  std::array<std::vector<Spot>, kFigureKinds> by_figure;
  std::vector<Cell> cells;
  for (int k = 0; k < kFigureKinds; ++k) {
    const auto f = static_cast<std::size_t>(k);
    if (k != 0 && (rules.figures[f] == 0 || rules.strength[f] == 0 || ((rules.needs_own >> f) & 1) != 0)) continue;
    g.figure_targets_elsewhere(*held, m.placement, seat, static_cast<Figure>(k), by_figure[f]);
    for (const Spot& s : by_figure[f]) {
      if (std::find(cells.begin(), cells.end(), s.cell) == cells.end()) cells.push_back(s.cell);
    }
  }
  out += R"(,"portal":[)";
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (i > 0) out += ',';
    append_cell(out, cells[i]);
    out += R"(,"meeples":)";
    append_ports(out, by_figure[0], cells[i]);
    out += R"(,"figures":{)";
    bool first = true;
    for (int k = 1; k < kFigureKinds; ++k) {
      const auto f = static_cast<std::size_t>(k);
      if (rules.figures[f] == 0 || rules.strength[f] == 0 || ((rules.needs_own >> f) & 1) != 0) continue;
      if (!first) out += ',';
      first = false;
      append_key(out, figure_name(static_cast<Figure>(k)));
      append_ports(out, by_figure[f], cells[i]);
    }
    out += "}}";
  }
  out += ']';
}

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

// Rows: 0 the fairy's points (its start-of-turn point and its bonus).
void count_event(const ExpansionEvent& e, Rows& rows) {
  const auto kind = static_cast<EventKind>(e.kind);
  if ((kind == EventKind::FairyPoint || kind == EventKind::FairyBonus) && e.seat >= 0) {
    rows[0][static_cast<std::size_t>(e.seat)] += e.points;
  }
}

}  // namespace carc::protocol::detail::princess_view
