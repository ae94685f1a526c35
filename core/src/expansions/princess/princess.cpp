// The Princess & the Dragon (docs/expansions/princess-dragon.md): the volcano and the
// dragon tiles that wait for it, the dragon's move as a series of steps by every seat in
// turn, the fairy, the princess and the magic portal. Its state is a few bytes of the
// game's part state (princess.hpp: indexes are stored + 1, so 0 is "none").
#include "carc/core/expansions/princess/princess.hpp"

#include <algorithm>

#include "expansions/part.hpp"
#include "game_tables.hpp"

namespace carc::detail {

using namespace carc::princess;

const Part& princess_part();  // below

namespace {

std::uint8_t get(const Game& g, int k) { return g.part_state()[static_cast<std::size_t>(k)]; }
void set(Game& g, int k, int v) { g.part_state()[static_cast<std::size_t>(k)] = static_cast<std::uint8_t>(v); }
Cell cell_of(const Game& g, int index) { return Cell{g.placed(index).x, g.placed(index).y}; }
int seg_at(const Game& g, int index, Port port) {
  const Game::Placed& p = g.placed(index);
  return oriented(p.tile, p.rotation).seg_at[static_cast<std::size_t>(port)];
}

ExpansionEvent event(const Game& g, EventKind kind, Seat seat, Cell cell, int points = 0, int arg = 0) {
  ExpansionEvent e{Expansion::Princess, static_cast<std::uint8_t>(kind)};
  e.seat = seat;
  e.cell = cell;
  e.points = points;
  e.players = static_cast<std::uint8_t>(g.players());
  e.arg = static_cast<std::uint8_t>(arg);
  e.in_turn = true;
  return e;
}
void emit(std::vector<Event>* events, ExpansionEvent e) {
  if (events != nullptr) events->push_back(e);
}

void setup(Ruleset& r) {
  for (int k = 0; k < kTileKinds; ++k) {
    if (symbol_of(static_cast<Tile>(k)) == Symbol::Dragon && r.counts[static_cast<std::size_t>(k)] > 0) {
      r.held_back[static_cast<std::size_t>(k)] = 1;
    }
    if (symbol_of(static_cast<Tile>(k)) == Symbol::Volcano) r.bare[static_cast<std::size_t>(k)] = 1;
  }
  r.target_kinds = static_cast<std::uint8_t>(r.target_kinds | (1u << kFairyAction) | (1u << kPrincessAction));
}

// ---- the volcano and the dragon ----

void tile_placed(Game& g, Seat seat, int index, std::vector<Event>* events) {
  if (symbol_of(g.placed(index).tile) != Symbol::Volcano) return;
  set(g, kStateDragon, index + 1);
  emit(events, event(g, EventKind::DragonFlew, seat, cell_of(g, index)));
  if (!g.released()) {
    emit(events, event(g, EventKind::DragonTilesJoined, seat, cell_of(g, index), 0, g.held_back_waiting()));
    g.release_held_back(seat, events);
  }
}

bool blocks_figures(const Game& g, Tile, int index) {
  return get(g, kStateDragon) == index + 1;
}

bool steps_begin(Game& g, Seat, int index, std::vector<Event>*) {
  if (symbol_of(g.placed(index).tile) != Symbol::Dragon || get(g, kStateDragon) == 0) return false;
  set(g, kStateSteps, 0);
  set(g, kStateVisited, get(g, kStateDragon));
  return true;
}

void step_options(const Game& g, std::vector<Cell>& out) {
  const int steps = get(g, kStateSteps);
  if (steps >= kDragonSteps || get(g, kStateDragon) == 0) return;
  const Cell from = cell_of(g, get(g, kStateDragon) - 1);
  for (int side = 0; side < 4; ++side) {
    const Cell to = neighbour(from, static_cast<Side>(side));
    const int index = g.placed_at(to);
    if (index < 0 || get(g, kStateFairy) == index + 1) continue;
    bool seen = false;
    for (int k = 0; k <= steps; ++k) seen = seen || get(g, kStateVisited + k) == index + 1;
    if (!seen) out.push_back(to);
  }
}

void step(Game& g, Seat seat, Cell to, std::vector<Event>* events) {
  const int index = g.placed_at(to);
  const Cell from = cell_of(g, get(g, kStateDragon) - 1);
  const int steps = get(g, kStateSteps) + 1;
  set(g, kStateSteps, steps);
  set(g, kStateVisited + steps, index + 1);
  set(g, kStateDragon, index + 1);
  ExpansionEvent e = event(g, EventKind::DragonStep, seat, to, 0, steps);
  e.values[0] = from.x;
  e.values[1] = from.y;
  emit(events, e);
  // The figures on the tile, listed before any goes home (by port: Game::standing()'s order).
  std::array<Game::Standing, 2 * kMaxSegments> here;
  std::size_t n = 0;
  g.for_each_standing([&](const Game::Standing& f) {
    if (f.tile == index && n < here.size()) here[n++] = f;
  });
  for (std::size_t k = 0; k < n; ++k) {
    const Game::Standing& f = here[k];
    ExpansionEvent eaten = event(g, EventKind::Eaten, f.seat, to, 0, static_cast<int>(f.figure));
    eaten.values[0] = static_cast<int>(f.port) + 1;  // where it stood (the room's history lists it)
    emit(events, eaten);
    g.send_home(f.tile, f.seg, events);
  }
  g.send_home_lonely(events);
}

// ---- the fairy ----

std::optional<Game::Standing> fairy_follower(const Game& g) {
  const int tile = get(g, kStateFairy);
  const int seg = get(g, kStateFairySeg);
  if (tile == 0 || seg == 0) return std::nullopt;
  return g.figure_at(tile - 1, seg - 1);
}

void figure_left(Game& g, int index, int seg) {
  if (get(g, kStateFairy) == index + 1 && get(g, kStateFairySeg) == seg + 1) set(g, kStateFairySeg, 0);
}

void feature_scored(Game& g, std::uint16_t root, std::vector<Event>* events) {
  const std::optional<Game::Standing> f = fairy_follower(g);
  if (!f || g.root_of(f->tile, f->seg) != root) return;
  g.add_score(f->seat, 3);
  emit(events, event(g, EventKind::FairyBonus, f->seat, cell_of(g, f->tile), 3, static_cast<int>(f->port)));
}

void turn_started(Game& g, Seat seat, std::vector<Event>* events) {
  const std::optional<Game::Standing> f = fairy_follower(g);
  if (!f || f->seat != seat) return;
  g.add_score(seat, 1);
  emit(events, event(g, EventKind::FairyPoint, seat, cell_of(g, f->tile), 1, static_cast<int>(f->port)));
}

// ---- actions instead of a figure: the fairy's move and the princess ----

bool follower(const Game& g, const Game::Standing& f) { return g.rules().strength[static_cast<std::size_t>(f.figure)] > 0; }

void action_targets(const Game& g, Seat seat, std::uint8_t kind, Tile t, Placement p, std::vector<Spot>& out) {
  if (kind == kFairyAction) {
    const int tile = get(g, kStateFairy);
    const int seg = get(g, kStateFairySeg);
    g.for_each_standing([&](const Game::Standing& f) {
      if (f.seat != seat || !follower(g, f) || (tile == f.tile + 1 && seg == f.seg + 1)) return;
      out.push_back(Spot{cell_of(g, f.tile), f.port});
    });
    return;
  }
  if (kind != kPrincessAction || symbol_of(t) != Symbol::Princess) return;
  // The features the placed tile's princess city joins, across its city sides.
  const Oriented& o = oriented(t, p.rotation.quarter_turns());
  std::array<std::uint16_t, 4> roots{};
  int count = 0;
  for (int side = 0; side < 4; ++side) {
    if (o.seg_at[static_cast<std::size_t>(side)] != kPrincessCitySeg) continue;
    const int index = g.placed_at(neighbour(p.cell, static_cast<Side>(side)));
    if (index < 0) continue;
    const int nseg = seg_at(g, index, across(static_cast<Port>(side)));
    if (nseg == kNoSeg) continue;
    roots[static_cast<std::size_t>(count++)] = g.root_of(index, nseg);
  }
  if (count == 0) return;
  g.for_each_standing([&](const Game::Standing& f) {
    if (!follower(g, f)) return;
    const std::uint16_t root = g.root_of(f.tile, f.seg);
    if (std::find(roots.begin(), roots.begin() + count, root) != roots.begin() + count) {
      out.push_back(Spot{cell_of(g, f.tile), f.port});
    }
  });
}

void act_on(Game& g, Seat seat, std::uint8_t kind, Spot at, int, std::vector<Event>* events) {
  const int index = g.placed_at(at.cell);
  const int seg = seg_at(g, index, at.port);
  if (kind == kFairyAction) {
    set(g, kStateFairy, index + 1);
    set(g, kStateFairySeg, seg + 1);
    emit(events, event(g, EventKind::FairyMoved, seat, at.cell, 0, static_cast<int>(at.port)));
    return;
  }
  const std::optional<Game::Standing> f = g.figure_at(index, seg);
  if (!f) return;
  ExpansionEvent e = event(g, EventKind::SentHome, f->seat, at.cell, 0, static_cast<int>(at.port));
  e.values[0] = seat;
  e.values[1] = static_cast<int>(f->figure);
  emit(events, e);
  g.send_home(index, seg, events);
  g.send_home_lonely(events);
}

bool figure_elsewhere(Tile t) { return symbol_of(t) == Symbol::Portal; }

}  // namespace

const Part& princess_part() {
  static constexpr Part part{.id = Expansion::Princess,
                             .setup = &setup,
                             .tile_placed = &tile_placed,
                             .blocks_figures = &blocks_figures,
                             .figure_elsewhere = &figure_elsewhere,
                             .figure_left = &figure_left,
                             .feature_scored = &feature_scored,
                             .turn_started = &turn_started,
                             .action_targets = &action_targets,
                             .act_on = &act_on,
                             .steps_begin = &steps_begin,
                             .step_options = &step_options,
                             .step = &step};
  return part;
}

}  // namespace carc::detail
