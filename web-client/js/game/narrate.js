// The game log in words: turns the server's events into lines a player reads ("Chloé
// extended their city (4 tiles)", "Bruno closed a road: +3"), with the cells each line
// is about. Pure: the text itself comes from i18n.js in room/log.js.
//
// A line is {type, id, seat?, tile?, rotation?, cells: [[x, y]...], ...}:
//   started | discarded {seat, tile} | game_over {winners}
//   placed {seat, tile, rotation, meeple, what, feature: {kind, tiles}|null, owners, away?: the figure's other cell}
//     what: 'claimed' (a meeple on it) | 'extended' (the placer's own feature) |
//           'extendedOther' (someone else's; owners) | 'extendedFree' | 'plain'
//   closed {placer, kind, tiles, pennants, points, seats} (a feature completed in play)
//   final {kind, tiles, pennants, cities, points, seats} (end-of-game scoring, points > 0)
// and an expansion's own lines (expansions/registry.js: eventLine, scoredLine). A placement's
// figure may stand on another tile (figureCell), and an event may take figures off the
// board (figuresGone): the map follows, so later lines name the right owners.
// End-of-game lines worth nothing (a farm next to no completed city) are left out.

import { FeatureMap } from './features.js';
import { ask, hooks, featureKind } from '../expansions/registry.js';

const RANK = { city: 3, road: 2, monastery: 1, field: 0 };
const rank = (kind) => RANK[kind] ?? featureKind(kind)?.rank;

function better(a, b) {
  if (!b) return true;
  if (rank(a.kind) !== rank(b.kind)) return rank(a.kind) > rank(b.kind);
  return a.tiles > b.tiles;
}

/** What a placement did, for its log line. */
function describePlacement(map, ev, result) {
  const closed = new Set(result.completed.map((f) => f.root));
  if (result.claimed >= 0) {
    // Described before the completion took the meeple back: the meeple's feature as placed.
    const done = result.completed.find((f) => f.root === result.claimed);
    const f = done ?? map.feature(result.claimed);
    return { what: 'claimed', feature: { kind: f.kind, tiles: f.tiles }, cells: f.cells };
  }
  const touched = new Set(result.touched);
  let own = null;
  let other = null;
  let free = null;
  for (const r of result.roots) {
    if (!touched.has(r) || closed.has(r)) continue;
    const f = map.feature(r);
    if (f.kind !== 'road' && f.kind !== 'city') continue;
    const owners = map.owners(r);
    const d = { kind: f.kind, tiles: f.tiles, cells: f.cells, owners };
    if (owners.includes(ev.seat)) { if (better(d, own)) own = d; }
    else if (owners.length) { if (better(d, other)) other = d; }
    else if (f.tiles >= 2 && better(d, free)) free = d;
  }
  const pick = own ? ['extended', own] : other ? ['extendedOther', other] : free ? ['extendedFree', free] : null;
  if (!pick) return { what: 'plain', feature: null, cells: [] };
  const [what, d] = pick;
  return { what, feature: { kind: d.kind, tiles: d.tiles }, owners: d.owners, cells: d.cells };
}

/** Moves a cell to the front of a list of cells (the tile just placed is shown first). */
function first(cells, x, y) {
  const rest = cells.filter(([cx, cy]) => cx !== x || cy !== y);
  return [[x, y], ...rest];
}

/**
 * The log lines of a game's events. `tiles`: {letter: catalog tile}; `start`: the start
 * placement ({tile, x, y, rotation}, board[0] of the state). Returns {lines, map}: the
 * FeatureMap after every placement (what is still on the board).
 */
export function narrate(events, tiles, start = { tile: 'D', x: 0, y: 0, rotation: 0 }) {
  const map = new FeatureMap(tiles);
  map.place({ ...start, meeple: null, seat: null });
  const lines = [];
  let lastPlaced = null;
  // Lines of events the server sends before the placement that caused them (an expansion's
  // line with `afterPlacement`, expansions/registry.js): said after that placement's line.
  let held = [];
  for (const ev of events ?? []) {
    switch (ev.type) {
      case 'started':
      case 'game_over':
        lines.push({ type: ev.type, id: ev.id, winners: ev.winners ?? [], cells: [] });
        break;
      case 'discarded':
        lines.push({ type: 'discarded', id: ev.id, seat: ev.seat, tile: ev.tile, cells: [] });
        break;
      case 'placed': {
        const ret = ev.return && Number.isInteger(ev.return.x) && Number.isInteger(ev.return.y) ? ev.return : null;
        const away = ev.meeple ? ask('figureCell', ev) : null; // the figure stands on another tile than the one placed
        const result = map.place({ x: ev.x, y: ev.y, tile: ev.tile, rotation: ev.rotation, meeple: away ? null : ev.meeple ?? null, seat: ev.seat, figure: ev.figure ?? null, ret });
        if (away) {
          map.addFigure(away.x, away.y, { seat: ev.seat, at: ev.meeple, figure: ev.figure ?? null });
          result.claimed = map.nodeAt(away.x, away.y, ev.meeple);
        }
        const d = describePlacement(map, ev, result);
        lastPlaced = ev;
        lines.push({
          type: 'placed', id: ev.id, seat: ev.seat, tile: ev.tile, rotation: ev.rotation, meeple: ev.meeple ?? null, figure: ev.figure ?? null,
          what: d.what, feature: d.feature, owners: d.owners ?? [], cells: first(d.cells, ev.x, ev.y), extra: ev.extra === true,
          ...(away ? { away: { x: away.x, y: away.y } } : {}),
        });
        lines.push(...held);
        held = [];
        break;
      }
      case 'scored': {
        const cells = (ev.cells ?? []).map((c) => [Number(c.x), Number(c.y)]);
        const common = {
          id: ev.id, kind: ev.kind, tiles: ev.tiles ?? cells.length, pennants: ev.pennants ?? 0, cities: ev.cities ?? 0,
          points: ev.points ?? 0, seats: ev.seats ?? [], cells,
        };
        if (ev.end) {
          const own = ask('scoredLine', ev, common); // an expansion's own scoring (a bonus beside a feature's)
          if (own) lines.push(own);
          else if (common.points > 0 && common.seats.length) lines.push({ type: 'final', ...common });
        } else {
          const placer = lastPlaced && lastPlaced.turn === ev.turn ? lastPlaced.seat : null;
          lines.push(ask('scoredLine', ev, common) ?? { type: 'closed', placer, ...common });
        }
        break;
      }
      default: {
        for (const gone of hooks('figuresGone').flatMap((f) => f(ev) ?? [])) map.removeFigure(gone.x, gone.y, gone.at);
        const line = ask('eventLine', ev) ?? { type: ev.type ?? '?', id: ev.id, cells: [] };
        if (line.afterPlacement) held.push(line);
        else lines.push(line);
      }
    }
  }
  lines.push(...held);
  return { lines, map };
}

/**
 * The end-of-game scorings in the order the server listed them, each with the meeples
 * that stood on it (for the animation of meeples going home). `map` is narrate()'s.
 */
export function finalScorings(events, map) {
  return (events ?? []).filter((ev) => ev.type === 'scored' && ev.end).map((ev) => {
    const f = map.findByCells(ev.kind, ev.cells ?? []);
    return { event: ev, meeples: f ? f.meeples : [] };
  });
}
