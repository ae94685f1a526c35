// The spots of the meeple step, pure: where each spot is drawn so that no two overlap
// (whatever the zoom: they are sized in tile units), what each would claim (the feature,
// its size, the points it is worth), and its name in words. A spot carries the figure it
// places (`figure`: 'meeple' today), so other figures can offer their own spots.

import { meepleAnchor, featureAt } from '../tiles/geometry.js';
import { FeatureMap } from '../game/features.js';
import { cleanBoard, placeOnMap } from './boardart.js';
import { t, hasText, joinNames } from '../i18n/i18n.js';
import { listed, hooks, featureKinds, likeMonastery } from '../expansions/registry.js';

const GAP = 2; // tile units between two rings

/**
 * Spot centres for `ports` of a tile placed with `rotation`: each starts at its feature's
 * anchor and is pushed apart from the others until rings of `ring` units are at least
 * GAP apart, inside the tile. Returns [{port, figure, kind, x, y}] (tile units, board
 * orientation), deterministic.
 */
export function spotLayout(def, rotation, ports, ring = 24, figure = 'meeple') {
  const r = ring / 2;
  const spots = [];
  // A port alone is a spot for `figure`; {port, figure} names its own figure (several
  // figures' spots are laid out together, so none overlaps another).
  for (const item of ports) {
    const port = typeof item === 'string' ? item : item.port;
    const a = meepleAnchor(def, rotation, port);
    if (!a) continue;
    spots.push({ port, figure: typeof item === 'string' ? figure : item.figure, kind: featureAt(def, rotation, port)?.kind ?? 'road', x: a[0], y: a[1] });
  }
  const lo = r;
  const hi = 100 - r;
  const min = ring + GAP;
  for (let iter = 0; iter < 200; iter++) {
    let moved = false;
    for (let i = 0; i < spots.length; i++) {
      for (let j = i + 1; j < spots.length; j++) {
        const a = spots[i];
        const b = spots[j];
        let dx = b.x - a.x;
        let dy = b.y - a.y;
        let d = Math.hypot(dx, dy);
        if (d >= min - 1e-6) continue;
        if (d < 1e-6) {
          // Same point: apart along a fixed direction that depends on the pair.
          const ang = ((i * 7 + j * 3) % 8) * (Math.PI / 4);
          dx = Math.cos(ang);
          dy = Math.sin(ang);
          d = 1;
        }
        const push = (min - d) / 2 + 0.01;
        a.x -= (dx / d) * push;
        a.y -= (dy / d) * push;
        b.x += (dx / d) * push;
        b.y += (dy / d) * push;
        moved = true;
      }
    }
    for (const s of spots) {
      s.x = Math.min(hi, Math.max(lo, s.x));
      s.y = Math.min(hi, Math.max(lo, s.y));
    }
    if (!moved) break;
  }
  for (const s of spots) {
    s.x = Math.round(s.x * 10) / 10;
    s.y = Math.round(s.y * 10) / 10;
  }
  return spots;
}

/** The smallest distance between two spot centres (tile units), Infinity for fewer than 2. */
export function closestPair(spots) {
  let best = Infinity;
  for (let i = 0; i < spots.length; i++) {
    for (let j = i + 1; j < spots.length; j++) best = Math.min(best, Math.hypot(spots[i].x - spots[j].x, spots[i].y - spots[j].y));
  }
  return best;
}

/**
 * What a meeple on each port of the draft would claim, from the public board:
 * {port: {kind, tiles, pennants, complete, points}}. `points`: what the feature scores now
 * if the tile completes it, else what it would be worth at the end as it stands (a field:
 * 3 for each completed city it touches).
 */
export function projectSpots(state, tiles, { x, y, tile, rotation, ports, seat }) {
  const out = {};
  const board = cleanBoard(state);
  for (const port of ports) {
    const map = new FeatureMap(tiles);
    try {
      for (const b of board) placeOnMap(map, b);
      const did = map.place({ x, y, tile, rotation, meeple: port, seat });
      if (did.claimed < 0) continue;
      const root = map.find(did.claimed);
      const done = did.completed.find((f) => f.root === root);
      const f = done ?? map.feature(root);
      const complete = !!done;
      const points = featurePoints(f, map, complete);
      out[port] = { kind: f.kind, tiles: likeMonastery(f.kind) ? points : f.tiles, pennants: f.pennants, complete, points };
    } catch {
      // A board this client cannot follow: the spot keeps its plain name.
    }
  }
  return out;
}

/**
 * What a feature (FeatureMap's description) is worth: now if `complete`, else at the end
 * as it stands (a field: 3 for each completed city it touches). A road or city with an
 * expansion's mark (expansions/registry.js: featureMarks) scores its own points per tile
 * once complete and nothing if left unfinished; a feature like a monastery scores like one.
 */
export function featurePoints(f, map, complete) {
  const mark = listed('featureMarks').find((m) => m.on === f.kind && f[m.flag]);
  if (f.kind === 'road') return mark ? (complete ? mark.perTile * f.tiles : 0) : f.tiles;
  if (f.kind === 'city') return mark ? (complete ? mark.perTile : 0) * (f.tiles + f.pennants) : (complete ? 2 : 1) * (f.tiles + f.pennants);
  if (f.kind === 'field') return 3 * completedCitiesOf(map, f.root);
  if (likeMonastery(f.kind)) {
    if (complete) return 9;
    const [x, y] = f.cells[0];
    let n = 0;
    for (let dx = -1; dx <= 1; dx++) for (let dy = -1; dy <= 1; dy++) if (map.cells.has(`${x + dx},${y + dy}`)) n++;
    return n;
  }
  return null;
}

/** How many completed cities the field `root` touches (each worth 3 to its farmers at the end). */
function completedCitiesOf(map, root) {
  const cities = new Set();
  for (const cell of map.cells.values()) {
    for (const f of map.tiles[cell.tile].features) {
      if (f.kind !== 'field' || map.find(cell.nodes[f.id]) !== root) continue;
      for (const c of f.cities ?? []) {
        const city = map.find(cell.nodes[c]);
        if (map.info[city]?.done) cities.add(city);
      }
    }
  }
  return cities.size;
}

/** The spot's name: "meeple on the road, 3 tiles". */
export function spotName(spot, info) {
  const feature = t(`feature.${spot.kind}`);
  // A language may word each feature on its own (articles, "monk", "farmer").
  const key = (base) => (hasText(`${base}.${spot.kind}`) ? `${base}.${spot.kind}` : base);
  if (!info || spot.kind === 'field') return t(key(`spot.${spot.figure}`), { feature });
  const size = likeMonastery(spot.kind) ? t('spot.around', { n: info.tiles }) : t('ev.detailTiles', { n: info.tiles });
  return t(key(`spot.${spot.figure}Sized`), { feature, size });
}

/** The points the choice is worth, in words: "+4 now: it completes the city", "3 points so far". */
export function spotPoints(spot, info) {
  if (spot.kind === 'field') return info ? t('spot.farm', { n: info.points }) : t('spot.fieldPoints');
  if (!info || info.points === null) return '';
  return info.complete ? t('spot.completes', { n: info.points }) : t('spot.sofar', { n: info.points });
}

let cache = { key: '', spots: null };
/**
 * The draft's spots, laid out and named: draftView's `spots` (ports) become [{port,
 * figure, kind, x, y, name, points, value}], for boardart.js's draftMarkup.
 */
export function describeSpots(state, tiles, draft, ring, seat, figures = [{ figure: 'meeple', ports: draft.spots }]) {
  const def = tiles[draft.tile];
  if (!def) return [];
  // The meeple step's choices, figure by figure: another figure (an expansion's) adds its
  // own {figure, ports}; each figure names its spots with its own strings (spot.<figure>).
  const items = figures.flatMap((f) => f.ports.map((port) => ({ port, figure: f.figure })));
  const key = `${state.board?.length}:${draft.x},${draft.y},${draft.rotation}:${items.map((i) => `${i.figure}@${i.port}`).join(' ')}:${ring}:${t('feature.road')}`;
  if (cache.key === key) return cache.spots;
  const info = projectSpots(state, tiles, { x: draft.x, y: draft.y, tile: draft.tile, rotation: draft.rotation, ports: items.map((i) => i.port), seat });
  const spots = spotLayout(def, draft.rotation, items, ring).map((s) => ({
    ...s, name: spotName(s, info[s.port]), points: spotPoints(s, info[s.port]), value: info[s.port]?.points ?? null,
  }));
  cache = { key, spots };
  return spots;
}

/** A tile in words, from its features: "a city, a road and 2 fields, a coat of arms". */
export function tileWords(def) {
  if (!def?.features) return '';
  const counts = new Map();
  for (const f of def.features) counts.set(f.kind, (counts.get(f.kind) ?? 0) + 1);
  // The base game's kinds in their order, an expansion's where its `words` puts it (before fields).
  const order = [['city', 1], ['road', 2], ['monastery', 3], ...featureKinds().map(([k, d]) => [k, d.words ?? 8]), ['field', 9]];
  const parts = order.sort((a, b) => a[1] - b[1]).map(([k]) => k).filter((k) => counts.has(k)).map((k) => t(`tile.${k}`, { n: counts.get(k) }));
  if (def.features.some((f) => f.pennant)) parts.push(t('tile.pennant'));
  for (const f of def.features) { // an expansion's marks in words
    for (const words of hooks('tileWords')) parts.push(...words(f));
  }
  return joinNames(parts);
}
