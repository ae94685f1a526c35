// The Princess & the Dragon on the wire (docs/expansions/princess-dragon.md): its record
// keys (`portal`, `fairy`, `princess`, and the dragon's steps as `dragon` inside the
// placer's entry) and its events as JSON.
#include "carc/core/expansions/princess/princess.hpp"

#include <algorithm>

#include "expansions/part.hpp"
#include "expansions/princess/view.hpp"

namespace carc::protocol::detail {

const ProtocolPart& princess_protocol();  // below

namespace {

using carc::princess::EventKind;

json cell_json(Cell c) { return json{{"x", c.x}, {"y", c.y}}; }

json event_json(const ExpansionEvent& e) {
  switch (static_cast<EventKind>(e.kind)) {
    case EventKind::DragonFlew: return json{{"type", "dragon_flew"}, {"seat", e.seat}, {"x", e.cell.x}, {"y", e.cell.y}};
    case EventKind::DragonTilesJoined: return json{{"type", "dragon_tiles"}, {"count", e.arg}};
    case EventKind::DragonStep:
      return json{{"type", "dragon_step"},
                  {"seat", e.seat},
                  {"step", e.arg},
                  {"from", cell_json(Cell{e.values[0], e.values[1]})},
                  {"to", cell_json(e.cell)}};
    case EventKind::Eaten: {
      json out{{"type", "eaten"}, {"seat", e.seat}, {"x", e.cell.x}, {"y", e.cell.y}};
      if (e.arg != 0) out["figure"] = std::string(figure_name(static_cast<Figure>(e.arg)));
      return out;
    }
    case EventKind::FairyMoved:
      return json{{"type", "fairy"}, {"seat", e.seat}, {"x", e.cell.x}, {"y", e.cell.y},
                  {"at", std::string(port_name(static_cast<Port>(e.arg)))}};
    case EventKind::FairyPoint:
    case EventKind::FairyBonus:
      return json{{"type", "scored"}, {"feature", "fairy"}, {"seat", e.seat}, {"points", e.points},
                  {"x", e.cell.x}, {"y", e.cell.y}};
    case EventKind::SentHome: {
      json out{{"type", "princess"}, {"seat", e.values[0]}, {"owner", e.seat}, {"x", e.cell.x}, {"y", e.cell.y},
               {"at", std::string(port_name(static_cast<Port>(e.arg)))}};
      if (e.values[1] != 0) out["figure"] = std::string(figure_name(static_cast<Figure>(e.values[1])));
      return out;
    }
    case EventKind::LonelyReturned: return json{{"type", "lonely"}, {"seat", e.seat}, {"x", e.cell.x}, {"y", e.cell.y}};
  }
  return json(nullptr);
}

constexpr long long kFar = 1'000'000;

bool read_cell(const json& v, Cell* out) {
  if (!v.is_object()) return false;
  const auto x = v.find("x");
  const auto y = v.find("y");
  if (x == v.end() || y == v.end() || !x->is_number_integer() || !y->is_number_integer()) return false;
  *out = Cell{static_cast<int>(std::clamp(x->get<long long>(), -kFar, kFar)),
              static_cast<int>(std::clamp(y->get<long long>(), -kFar, kFar))};
  return true;
}

bool read_spot(const json& v, Cell* cell, Port* port) {
  if (!read_cell(v, cell)) return false;
  const auto at = v.find("at");
  if (at == v.end() || !at->is_string()) return false;
  const auto p = port_from_name(at->get_ref<const std::string&>());
  if (!p) return false;
  *port = *p;
  return true;
}

const json* key(const json& entry, const char* name) {
  const auto it = entry.find(name);
  return it == entry.end() || it->is_null() ? nullptr : &*it;
}

bool read_move(const json& entry, Move& m, std::vector<Cell>* steps, std::string* why) {
  if (m.type == Move::Type::Discard) {
    for (const char* name : {"portal", "fairy", "princess"}) {
      if (key(entry, name) != nullptr) return *why = std::string("a discard carries no \"") + name + "\"", false;
    }
  }
  if (const json* portal = key(entry, "portal")) {
    Cell c;
    if (!read_cell(*portal, &c)) return *why = "\"portal\" must be an object with integer \"x\" and \"y\"", false;
    if (!m.meeple) return *why = "\"portal\" needs a \"meeple\" port", false;
    m.figure_cell = c;
  }
  const std::pair<const char*, std::uint8_t> actions[] = {{"fairy", carc::princess::kFairyAction},
                                                         {"princess", carc::princess::kPrincessAction}};
  for (const auto& [name, kind] : actions) {
    const json* v = key(entry, name);
    if (v == nullptr) continue;
    Cell c;
    Port p = Port::C;
    if (!read_spot(*v, &c, &p)) {
      return *why = std::string("\"") + name + "\" must be an object with integer \"x\" and \"y\" and a port \"at\"", false;
    }
    if (m.meeple || m.action) {
      return *why = "a placement places one figure or makes one action (meeple, return, fairy, princess), never two", false;
    }
    m.action = c;
    m.action_kind = kind;
    m.action_port = p;
  }
  if (const json* dragon = key(entry, "dragon")) {
    if (!dragon->is_array()) return *why = "\"dragon\" must be a list of {\"x\", \"y\"}", false;
    if (m.type != Move::Type::Place && !dragon->empty()) return *why = "a discard has no dragon steps", false;
    for (const json& s : *dragon) {
      Cell c;
      if (!read_cell(s, &c)) return *why = "\"dragon\" must be a list of {\"x\", \"y\"}", false;
      if (steps != nullptr) steps->push_back(c);
    }
  }
  return true;
}

void write_move(const Move& m, std::span<const Cell> steps, json& out) {
  if (m.figure_cell && m.meeple) out["portal"] = cell_json(*m.figure_cell);
  if (m.action && m.action_port) {
    const char* name = m.action_kind == carc::princess::kFairyAction ? "fairy" : "princess";
    out[name] = json{{"x", m.action->x}, {"y", m.action->y}, {"at", std::string(port_name(*m.action_port))}};
  }
  if (!steps.empty()) {
    json list = json::array();
    for (const Cell& c : steps) list.push_back(cell_json(c));
    out["dragon"] = std::move(list);
  }
}

// Where the dragon and the fairy are (princess.hpp's state bytes: indexes + 1).
void result_json(const Game& g, json& out) {
  using namespace carc::princess;
  const auto state = [&](int k) { return static_cast<int>(g.part_state()[static_cast<std::size_t>(k)]); };
  const auto cell = [&](int index) { return Cell{g.placed(index).x, g.placed(index).y}; };
  out["dragon"] = state(kStateDragon) == 0 ? json(nullptr) : cell_json(cell(state(kStateDragon) - 1));
  if (state(kStateFairy) == 0) {
    out["fairy"] = nullptr;
    return;
  }
  const int tile = state(kStateFairy) - 1;
  json fairy = cell_json(cell(tile));
  fairy["next_to"] = nullptr;
  if (state(kStateFairySeg) != 0) {
    if (const auto f = g.figure_at(tile, state(kStateFairySeg) - 1)) {
      fairy["next_to"] = json{{"x", cell(tile).x}, {"y", cell(tile).y}, {"seat", f->seat}};
    }
  }
  out["fairy"] = std::move(fairy);
}

// The fairy's points: a row of the breakdown (`fairy`, the game's and the end's together).
void count_event(const ExpansionEvent& e, Rows& rows) {
  const auto kind = static_cast<EventKind>(e.kind);
  if ((kind == EventKind::FairyPoint || kind == EventKind::FairyBonus) && e.seat >= 0 && e.seat < kMaxPlayers) {
    EventHistory::Totals::add(rows[0][static_cast<std::size_t>(e.seat)], e.points);
  }
}

// ---- the public state ----

void add_cell(std::string& out, Cell c) {
  out += R"({"x":)";
  out += std::to_string(c.x);
  out += R"(,"y":)";
  out += std::to_string(c.y);
}
void add_spot(std::string& out, const Spot& s) {
  add_cell(out, s.cell);
  out += R"(,"at":")";
  out += port_name(s.port);
  out += "\"}";
}
template <typename List, typename Write>
void add_list(std::string& out, const List& list, Write&& write) {
  out += '[';
  bool first = true;
  for (const auto& x : list) {
    if (!first) out += ',';
    first = false;
    write(x);
  }
  out += ']';
}

void state_keys(const Game* g, const Ruleset& rules, std::string& out) {
  if (g == nullptr) {
    out += R"(,"dragon":null,"fairy":null,"dragon_tiles_waiting":)";
    out += std::to_string(rules.held_back_count);
    return;
  }
  json keys = json::object();
  result_json(*g, keys);
  out += R"(,"dragon":)";
  out += json_text(keys["dragon"]);
  out += R"(,"fairy":)";
  json fairy = keys["fairy"];
  if (fairy.is_object() && fairy["next_to"].is_object()) {
    using namespace carc::princess;
    const auto f = g->figure_at(g->part_state()[kStateFairy] - 1, g->part_state()[kStateFairySeg] - 1);
    if (f) fairy["next_to"]["at"] = std::string(port_name(f->port));
  }
  out += json_text(fairy);
  out += R"(,"dragon_tiles_waiting":)";
  out += std::to_string(g->held_back_waiting());
}

void turn_keys(const Game& g, std::string& out) {
  using namespace carc::princess;
  out += R"(,"stage":)";
  out += g.in_stage() ? R"("dragon")" : R"("place")";
  if (g.in_stage()) {
    std::vector<Cell> options;
    g.step_options(options);
    out += R"(,"dragon":{"seat":)";
    out += std::to_string(g.acting_seat());
    out += R"(,"step":)";
    out += std::to_string(g.stage_step());
    out += R"(,"options":)";
    add_list(out, options, [&](Cell c) {
      add_cell(out, c);
      out += '}';
    });
    std::vector<Cell> visited;
    for (int k = 0; k < g.stage_step(); ++k) {
      const int index = g.part_state()[static_cast<std::size_t>(kStateVisited + k)];
      if (index > 0) visited.push_back(Cell{g.placed(index - 1).x, g.placed(index - 1).y});
    }
    out += R"(,"visited":)";
    add_list(out, visited, [&](Cell c) {
      add_cell(out, c);
      out += '}';
    });
    out += '}';
  }
  std::vector<Spot> fairy;
  if (const auto t = g.held(g.current_seat()); t && !g.in_stage()) {
    g.action_targets(*t, Placement{}, g.current_seat(), kFairyAction, fairy);
  }
  out += R"(,"fairy":)";
  add_list(out, fairy, [&](const Spot& s) { add_spot(out, s); });
}

void legal_keys(const Game& g, const LegalMove& m, std::string& out) {
  using namespace carc::princess;
  const auto t = g.held(g.current_seat());
  if (!t) return;
  std::vector<Spot> spots;
  g.action_targets(*t, m.placement, g.current_seat(), kPrincessAction, spots);
  out += R"(,"princess":)";
  add_list(out, spots, [&](const Spot& s) { add_spot(out, s); });
  if (symbol_of(*t) != Symbol::Portal) return;
  // Every other tile with a feature a follower may take through the portal.
  json portal = json::array();
  const auto entry = [&](Cell c) -> json& {
    for (json& e : portal) {
      if (e["x"] == c.x && e["y"] == c.y) return e;
    }
    // Every figure in the game besides the meeple has its list, possibly empty (a figure
    // that is no follower never goes through), as in the placement's own `figures`.
    json figures = json::object();
    for (int f = 1; f < kFigureKinds; ++f) {
      if (g.rules().figures[static_cast<std::size_t>(f)] != 0) figures[std::string(figure_name(static_cast<Figure>(f)))] = json::array();
    }
    portal.push_back(json{{"x", c.x}, {"y", c.y}, {"meeples", json::array()}, {"figures", std::move(figures)}});
    return portal.back();
  };
  for (int f = 0; f < kFigureKinds; ++f) {
    if (g.rules().figures[static_cast<std::size_t>(f)] == 0) continue;
    g.figure_targets_elsewhere(*t, m.placement, g.current_seat(), static_cast<Figure>(f), spots);
    for (const Spot& s : spots) {
      json& e = entry(s.cell);
      if (f == 0) {
        e["meeples"].push_back(std::string(port_name(s.port)));
      } else {
        e["figures"][std::string(figure_name(static_cast<Figure>(f)))].push_back(std::string(port_name(s.port)));
      }
    }
  }
  out += R"(,"portal":)";
  out += json_text(portal);
}

// GET /api/tiles: what the tile shows, and its princess city.
void tile_json(const TileDef& d, json& tile) {
  using carc::princess::Symbol;
  static constexpr const char* kNames[] = {nullptr, "volcano", "dragon", "portal", "princess"};
  const Symbol s = carc::princess::symbol_of(d.tile);
  if (s == Symbol::None) return;
  tile["symbol"] = kNames[static_cast<int>(s)];
  if (s == Symbol::Princess) tile["features"][carc::princess::kPrincessCitySeg]["princess"] = true;
}

}  // namespace

const ProtocolPart& princess_protocol() {
  static const ProtocolPart part{.id = Expansion::Princess,
                                 .event_json = &event_json,
                                 .first_tag = 8,  // after the tags taken before it (history tags: never renumber)
                                 .kinds = 9,      // EventKind
                                 .rows = {{{"fairy", false, true}}},
                                 .count_event = &count_event,
                                 .read_move = &read_move,
                                 .write_move = &write_move,
                                 .result_json = &result_json,
                                 .history_json = &princess_view::history_json,
                                 .merge = &princess_view::merge,
                                 .elsewhere_key = "portal",
                                 .step_type = "dragon",
                                 .step_code = "illegal_dragon",
                                 .target_codes = {{"", "illegal_fairy", "illegal_princess"}},
                                 .state_keys = &state_keys,
                                 .turn_keys = &turn_keys,
                                 .legal_keys = &legal_keys,
                                 .tile_json = &tile_json};
  return part;
}

}  // namespace carc::protocol::detail
