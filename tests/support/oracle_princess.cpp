// The oracle's view of the Princess & the Dragon in a room (docs/protocol.md; the contract's
// "Protocol additions"), built as a JSON tree straight from the engine's queries: the
// dragon, the fairy and the waiting dragon tiles, every figure of a board entry, the
// dragon's stage and the fairy's followers in `turn`, each placement's princess and portal
// targets, and its events as the room's history lists them.
#include "carc/core/expansions/princess/princess.hpp"
#include "carc/protocol/json.hpp"
#include "oracle_view.hpp"

namespace carc::test::oracle_princess {

using namespace carc::princess;

namespace {

int state(const Game& g, int k) { return g.part_state()[static_cast<std::size_t>(k)]; }
json cell(const Game& g, int index) { return json{{"x", g.placed(index).x}, {"y", g.placed(index).y}}; }
json spots(const std::vector<Spot>& list) {
  json out = json::array();
  for (const Spot& s : list) out.push_back(json{{"x", s.cell.x}, {"y", s.cell.y}, {"at", std::string(port_name(s.port))}});
  return out;
}

}  // namespace

void state_keys(const Game* g, const Ruleset& rules, json& out) {
  if (g == nullptr) {
    out["dragon"] = nullptr;
    out["fairy"] = nullptr;
    out["dragon_tiles_waiting"] = rules.held_back_count;
    return;
  }
  out["dragon"] = state(*g, kStateDragon) == 0 ? json(nullptr) : cell(*g, state(*g, kStateDragon) - 1);
  out["dragon_tiles_waiting"] = g->held_back_waiting();
  out["fairy"] = nullptr;
  if (state(*g, kStateFairy) != 0) {
    const int tile = state(*g, kStateFairy) - 1;
    json fairy = cell(*g, tile);
    fairy["next_to"] = nullptr;
    if (state(*g, kStateFairySeg) != 0) {
      if (const auto f = g->figure_at(tile, state(*g, kStateFairySeg) - 1)) {
        fairy["next_to"] = json{{"x", fairy["x"]}, {"y", fairy["y"]}, {"at", std::string(port_name(f->port))}, {"seat", f->seat}};
      }
    }
    out["fairy"] = std::move(fairy);
  }
}

json figures_of(const Game& g, int index) {
  std::vector<Game::Standing> all;
  g.standing(all);
  json out = json::array();
  for (const Game::Standing& s : all) {
    if (s.tile != index) continue;
    json m{{"seat", s.seat}, {"at", std::string(port_name(s.port))}};
    if (s.figure != Figure::Meeple) m["figure"] = std::string(figure_name(s.figure));
    out.push_back(std::move(m));
  }
  return out;
}

void turn_keys(const Game& g, json& turn) {
  turn["stage"] = g.in_stage() ? "dragon" : "place";
  if (g.in_stage()) {
    std::vector<Cell> options;
    g.step_options(options);
    json opts = json::array();
    for (Cell c : options) opts.push_back(json{{"x", c.x}, {"y", c.y}});
    json visited = json::array();
    for (int k = 0; k < g.stage_step(); ++k) {
      const int v = state(g, kStateVisited + k);
      if (v > 0) visited.push_back(cell(g, v - 1));
    }
    turn["dragon"] = json{{"seat", g.acting_seat()}, {"step", g.stage_step()}, {"options", opts}, {"visited", visited}};
    turn["legal"] = json::array();
  }
  std::vector<Spot> fairy;
  if (const auto t = g.held(g.current_seat()); t && !g.in_stage()) {
    g.action_targets(*t, Placement{}, g.current_seat(), kFairyAction, fairy);
  }
  turn["fairy"] = spots(fairy);
}

void legal_keys(const Game& g, const LegalMove& m, json& entry) {
  const auto t = g.held(g.current_seat());
  if (!t) return;
  std::vector<Spot> list;
  g.action_targets(*t, m.placement, g.current_seat(), kPrincessAction, list);
  entry["princess"] = spots(list);
  if (symbol_of(*t) != Symbol::Portal) return;
  json portal = json::array();
  for (int f = 0; f < kFigureKinds; ++f) {
    if (g.rules().figures[static_cast<std::size_t>(f)] == 0) continue;
    g.figure_targets_elsewhere(*t, m.placement, g.current_seat(), static_cast<Figure>(f), list);
    for (const Spot& s : list) {
      json* e = nullptr;
      for (json& x : portal) {
        if (x["x"] == s.cell.x && x["y"] == s.cell.y) e = &x;
      }
      if (e == nullptr) {
        // Every figure of the game besides the meeple, each with its ports (docs/expansions/princess-dragon.md).
        json figures = json::object();
        for (int k = 1; k < kFigureKinds; ++k) {
          if (g.rules().figures[static_cast<std::size_t>(k)] != 0) figures[std::string(figure_name(static_cast<Figure>(k)))] = json::array();
        }
        portal.push_back(json{{"x", s.cell.x}, {"y", s.cell.y}, {"meeples", json::array()}, {"figures", std::move(figures)}});
        e = &portal.back();
      }
      if (f == 0) (*e)["meeples"].push_back(std::string(port_name(s.port)));
      else (*e)["figures"][std::string(figure_name(static_cast<Figure>(f)))].push_back(std::string(port_name(s.port)));
    }
  }
  entry["portal"] = std::move(portal);
}

// The room's history of one of its events; an eaten figure joins the step before it
// (returns false: `list`'s last entry took it).
bool event_entry(const ExpansionEvent& e, int turn, json& list, json& out) {
  const auto kind = static_cast<EventKind>(e.kind);
  if (kind == EventKind::Eaten && !list.empty() && list.back().value("type", "") == "dragon_step") {
    json eaten{{"seat", e.seat}, {"x", e.cell.x}, {"y", e.cell.y}, {"at", std::string(port_name(static_cast<Port>(e.values[0] - 1)))}};
    if (e.arg != 0) eaten["figure"] = std::string(figure_name(static_cast<Figure>(e.arg)));
    list.back()["eaten"].push_back(std::move(eaten));
    return false;
  }
  out = protocol::event_json(Event{e});
  out["turn"] = turn;
  if (kind == EventKind::DragonStep) out["eaten"] = json::array();
  if (kind == EventKind::FairyPoint || kind == EventKind::FairyBonus) {
    out["kind"] = "fairy";
    out["seats"] = json::array({e.seat});
    out["end"] = kind == EventKind::FairyBonus && !e.in_turn;
  }
  return true;
}

}  // namespace carc::test::oracle_princess
