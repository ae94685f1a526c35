// Pure tile geometry: ports and rotations, shapes of the features of a catalog tile,
// and where a meeple stands on each feature. No DOM here, so node can test it.
//
// A tile is drawn in a 100 x 100 box in CATALOG orientation (y grows to the south);
// the board rotates the whole drawing. Points handed to the board for meeples and
// coats of arms are already in BOARD orientation so that those stay upright.

import { featureKind, featureKinds } from '../expansions/registry.js';
import { cityTemplate, hasInnerField } from './city-geometry.js';
import { GRID_CELLS as N, gridPoint, distanceTransform, floodFill, bestPoint, nearestFree, centroid } from './tile-grid.js';

export const TILE = 100;
export const SIDES = ['N', 'E', 'S', 'W'];
export const HALVES = ['NL', 'NR', 'EL', 'ER', 'SL', 'SR', 'WL', 'WR'];
export const ROTATIONS = [0, 90, 180, 270];
export const ROAD_HALF_WIDTH = 5.5;

const SIDE_MID = { N: [50, 0], E: [100, 50], S: [50, 100], W: [0, 50] };
// Points just inside the tile on each field half (used to seed field regions).
const HALF_POINT = {
  NL: [25, 4], NR: [75, 4], EL: [96, 25], ER: [96, 75],
  SL: [75, 96], SR: [25, 96], WL: [4, 75], WR: [4, 25], I: [50, 50], // I: the field in the middle
};

function norm(deg) {
  return ((Number(deg) % 360) + 360) % 360;
}

/** Rotates a port clockwise by `deg` (a multiple of 90). */
export function rotatePort(port, deg) {
  const steps = norm(deg) / 90;
  if (port === 'C' || port === 'G' || port === 'I') return port; // the centre, another feature in the middle, an inner field
  const side = port[0];
  const i = SIDES.indexOf(side);
  if (i < 0 || !Number.isInteger(steps)) throw new Error(`bad port or rotation: ${port} ${deg}`);
  return SIDES[(i + steps) % 4] + port.slice(1);
}

/** Inverse of rotatePort: a board-orientation port back to catalog orientation. */
export function unrotatePort(port, deg) {
  return rotatePort(port, 360 - norm(deg));
}

/** Rotates a point of the 100 x 100 tile clockwise about its centre. */
export function rotatePoint([x, y], deg) {
  let p = [x, y];
  for (let s = 0; s < norm(deg) / 90; s++) p = [TILE - p[1], p[0]];
  return p;
}

/** The tile's side terrain (N, E, S, W) after rotation. */
export function rotatedSides(tileDef, deg) {
  const steps = norm(deg) / 90;
  const out = new Array(4);
  for (let i = 0; i < 4; i++) out[(i + steps) % 4] = tileDef.sides[i];
  return out;
}

export function featureForPort(tileDef, catalogPort) {
  return tileDef.features.find((f) => f.ports.includes(catalogPort)) ?? null;
}

/** The feature a board-orientation port names on a tile placed with `rotation`. */
export function featureAt(tileDef, rotation, boardPort) {
  return featureForPort(tileDef, unrotatePort(boardPort, rotation));
}

// ---------------------------------------------------------------------------
// Path segments: [{c:'M'|'L'|'Q', p:[x,y], q?:[x,y] (control)}]. Kept as data so
// they can be rotated, printed as SVG path data, and sampled into polygons.

function rotSegs(segs, deg) {
  return segs.map((s) => ({ c: s.c, p: rotatePoint(s.p, deg), ...(s.q ? { q: rotatePoint(s.q, deg) } : {}) }));
}

const fmt = (n) => String(Math.round(n * 100) / 100);

export function segsToPath(segs, close = false) {
  const parts = segs.map((s) =>
    s.c === 'Q' ? `Q${fmt(s.q[0])} ${fmt(s.q[1])} ${fmt(s.p[0])} ${fmt(s.p[1])}` : `${s.c}${fmt(s.p[0])} ${fmt(s.p[1])}`,
  );
  return parts.join(' ') + (close ? ' Z' : '');
}

function quadAt(a, q, b, t) {
  const u = 1 - t;
  return [u * u * a[0] + 2 * u * t * q[0] + t * t * b[0], u * u * a[1] + 2 * u * t * q[1] + t * t * b[1]];
}

export function sampleSegs(segs, steps = 16) {
  const pts = [];
  let cur = null;
  for (const s of segs) {
    if (s.c === 'Q' && cur) {
      for (let i = 1; i <= steps; i++) pts.push(quadAt(cur, s.q, s.p, i / steps));
    } else {
      pts.push(s.p);
    }
    cur = s.p;
  }
  return pts;
}

export function pointInPolygon([x, y], poly) {
  let inside = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const [xi, yi] = poly[i];
    const [xj, yj] = poly[j];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

function distToSegment([px, py], [ax, ay], [bx, by]) {
  const dx = bx - ax;
  const dy = by - ay;
  const len2 = dx * dx + dy * dy;
  let t = len2 ? ((px - ax) * dx + (py - ay) * dy) / len2 : 0;
  t = Math.max(0, Math.min(1, t));
  return Math.hypot(px - (ax + t * dx), py - (ay + t * dy));
}

export function distToPolyline(p, pts) {
  let d = Infinity;
  for (let i = 1; i < pts.length; i++) d = Math.min(d, distToSegment(p, pts[i - 1], pts[i]));
  return d;
}

// ---------------------------------------------------------------------------
// Roads.

function roadSegs(sides, hasMonastery) {
  if (sides.length === 2) {
    const [a, b] = sides.map((s) => SIDE_MID[s]);
    const opposite = a[0] === b[0] || a[1] === b[1];
    if (opposite) return { segs: [{ c: 'M', p: a }, { c: 'L', p: b }], dead: false };
    return { segs: [{ c: 'M', p: a }, { c: 'Q', q: [50, 50], p: b }], dead: false };
  }
  // One side: the road ends at the centre (a junction or a city gate) or at a monastery.
  const side = SIDE_MID[sides[0]];
  const dir = [(side[0] - 50) / 50, (side[1] - 50) / 50];
  const endDist = hasMonastery ? 17 : 0;
  const end = [50 + dir[0] * endDist, 50 + dir[1] * endDist];
  return { segs: [{ c: 'M', p: side }, { c: 'L', p: end }], dead: true, end };
}

const shapeCache = new Map();

/**
 * The drawing of a catalog tile, in catalog orientation:
 * {letter, cities:[{id, area, walls, polygon, pennant}], roads:[{id, d, points, dead}],
 *  junction:[x,y]|null, monastery:{id, center}|null, fields:[{id}],
 *  anchors:{featureId:[x,y]}, kinds:{featureId: kind}}
 */
export function tileShapes(tileDef) {
  const key = tileDef.letter + JSON.stringify(tileDef.features);
  if (shapeCache.has(key)) return shapeCache.get(key);

  const monasteryFeature = tileDef.features.find((f) => f.kind === 'monastery') ?? null;
  const out = {
    letter: tileDef.letter,
    cities: [],
    roads: [],
    fields: [],
    junction: null,
    monastery: monasteryFeature ? { id: monasteryFeature.id, center: [50, 50] } : null,
    kinds: {},
    bands: [], // an expansion's water across the tile: [{kind, halfWidth, d, points, end, pond}]
    centre: null, // an expansion's feature in the middle of the fields: {id, kind, radius, center}
  };
  // Each expansion's own name for its shapes too (expansions/registry.js: shape.list, shape.key).
  for (const [, k] of featureKinds()) {
    if (k.shape?.list) out[k.shape.list] = [];
    if (k.shape?.key) out[k.shape.key] = null;
  }
  const roadSidesAll = tileDef.features.filter((f) => f.kind === 'road').flatMap((f) => f.ports.filter((p) => SIDES.includes(p)));

  for (const f of tileDef.features) {
    out.kinds[f.id] = f.kind;
    if (f.kind === 'city') {
      const sides = f.ports.filter((p) => SIDES.includes(p));
      const tpl = cityTemplate(sides, hasInnerField(tileDef)); // field I between cities (docs/tiles.md)
      if (!tpl) continue;
      const area = rotSegs(tpl.shape.area, tpl.deg);
      const walls = tpl.shape.walls.map((w) => rotSegs(w, tpl.deg));
      out.cities.push({
        id: f.id,
        sides,
        pennant: !!f.pennant,
        area: segsToPath(area, true),
        walls: walls.map((w) => segsToPath(w)),
        polygon: sampleSegs(area),
      });
    } else if (f.kind === 'road') {
      const sides = f.ports.filter((p) => SIDES.includes(p));
      if (sides.length < 1 || sides.length > 2) continue; // not a base-game road: not drawn
      const r = roadSegs(sides, !!monasteryFeature);
      out.roads.push({ id: f.id, sides, d: segsToPath(r.segs), points: sampleSegs(r.segs), dead: r.dead, end: r.end ?? null });
    } else if (f.kind === 'field') {
      out.fields.push({ id: f.id, ports: f.ports.slice() });
    } else {
      // An expansion's feature (expansions/registry.js: featureKinds[kind].shape).
      const shape = featureKind(f.kind)?.shape;
      if (shape?.type === 'band') {
        const r = shape.segs(f.ports.filter((p) => SIDES.includes(p)), { monastery: !!monasteryFeature, roadSides: roadSidesAll });
        const band = { kind: f.kind, halfWidth: shape.halfWidth, d: segsToPath(r.segs), points: sampleSegs(r.segs), end: r.end, pond: r.end ? shape.pond(tileDef) : 0 };
        out.bands.push(band);
        if (shape.list) out[shape.list].push(band);
      } else if (shape?.type === 'centre') {
        out.centre = { id: f.id, kind: f.kind, radius: shape.radius }; // its centre: where the anchor search puts it (below)
        if (shape.key) out[shape.key] = out.centre;
      }
    }
  }
  const deadEnds = out.roads.filter((r) => r.dead && !monasteryFeature);
  // Three dead ends meet at a junction; so do two that end in the open middle (I5, T23).
  if (deadEnds.length >= 3 || (deadEnds.length === 2 && !out.cities.some((c) => pointInPolygon([50, 50], c.polygon)))) out.junction = [50, 50];

  // Where meeples and coats of arms stand: a search over a grid of the tile, the costly
  // part, done the first time a tile's anchors are asked for (drawing a tile needs none,
  // so the start page does not wait for it).
  const anchors = {};
  let centreAt = [50, 50];
  let placedOnce = false;
  const place = () => {
    if (placedOnce) return;
    placedOnce = true;
    // Which grid cells are covered by something other than field.
    const free = new Uint8Array(N * N);
    const cityOf = new Int16Array(N * N).fill(-1);
    for (let j = 0; j < N; j++) {
      for (let i = 0; i < N; i++) {
        const k = j * N + i;
        const p = gridPoint(i, j);
        let blocked = false;
        for (const c of out.cities) {
          if (pointInPolygon(p, c.polygon)) {
            cityOf[k] = c.id;
            blocked = true;
          }
        }
        for (const r of out.roads) if (distToPolyline(p, r.points) <= ROAD_HALF_WIDTH + 1.5) blocked = true;
        for (const r of out.bands) {
          if (distToPolyline(p, r.points) <= r.halfWidth + 2) blocked = true;
          if (r.end && Math.hypot(p[0] - r.end[0], p[1] - r.end[1]) <= r.pond + 2) blocked = true;
        }
        if (out.monastery && Math.abs(p[0] - 50) <= 19 && Math.abs(p[1] - 50) <= 19) blocked = true;
        if (out.junction && Math.hypot(p[0] - 50, p[1] - 50) <= 10) blocked = true;
        free[k] = blocked ? 0 : 1;
      }
    }

    // Anchors: monastery at its centre, roads along the road, cities and fields at the
    // roomiest point of their area.
    if (out.monastery) anchors[out.monastery.id] = [50, 52];
    for (const r of out.roads) {
      let p;
      if (r.dead) {
        const side = SIDE_MID[r.sides[0]];
        const t = out.monastery ? 0.5 : 0.6;
        p = [r.end[0] + (side[0] - r.end[0]) * t, r.end[1] + (side[1] - r.end[1]) * t];
      } else {
        p = r.points[Math.floor(r.points.length / 2)];
        if (r.points.length === 2) p = [(r.points[0][0] + r.points[1][0]) / 2, (r.points[0][1] + r.points[1][1]) / 2];
        // A road that crosses water (a bridge): its meeple stands on the bank, not the bridge.
        if (out.bands.some((w) => distToPolyline(p, w.points) < w.halfWidth + 6)) {
          const [a, b] = [r.points[0], r.points[r.points.length - 1]];
          p = r.points.length === 2 ? [a[0] + (b[0] - a[0]) * 0.2, a[1] + (b[1] - a[1]) * 0.2] : r.points[Math.floor(r.points.length / 5)];
        }
      }
      anchors[r.id] = p;
    }
    const placed = () => Object.values(anchors);
    if (out.centre) {
      // A feature in the middle takes the roomiest spot of the fields near it, clear of roads and walls.
      const g = bestPoint(free, distanceTransform(free), [50, 50], placed()) ?? [50, 50];
      centreAt = g;
      anchors[out.centre.id] = [g[0], g[1] + 2];
      for (let k = 0; k < N * N; k++) {
        const i = k % N;
        const q = gridPoint(i, (k - i) / N);
        if (Math.hypot(q[0] - g[0], q[1] - g[1]) <= out.centre.radius + 2) free[k] = 0;
      }
    }
    for (const c of out.cities) {
      const region = new Uint8Array(N * N);
      for (let k = 0; k < N * N; k++) region[k] = cityOf[k] === c.id ? 1 : 0;
      const dist = distanceTransform(region);
      const anchor = bestPoint(region, dist, centroid(c.polygon), placed()) ?? centroid(c.polygon);
      anchors[c.id] = anchor;
      if (c.pennant) {
        c.pennantAt = bestPoint(region, dist, [anchor[0] - 22, anchor[1] - 10], [...placed(), anchor]) ?? anchor;
      }
    }
    const dist = distanceTransform(free);
    // Field I (docs/tiles.md) is what the side fields leave free, from the point nearest the middle.
    const inner = new Uint8Array(free);
    const sides = out.fields.some((f) => f.ports.includes('I')) ? out.fields.map((f) => f.ports.filter((p) => p !== 'I').map((p) => HALF_POINT[p])) : [];
    for (const seeds of sides) floodFill(free, seeds).forEach((v, k) => { if (v) inner[k] = 0; });
    for (const f of out.fields) {
      const seeds = f.ports.map((p) => (p === 'I' ? nearestFree(inner, HALF_POINT.I) : HALF_POINT[p])).filter(Boolean);
      const region = floodFill(f.ports.includes('I') ? inner : free, seeds);
      const prefer = centroid(seeds.length ? seeds : [[50, 50]]);
      const p = bestPoint(region, dist, prefer, placed());
      anchors[f.id] = p ?? prefer;
    }
  };
  Object.defineProperty(out, 'anchors', { enumerable: true, get() { place(); return anchors; } });
  // A feature in the middle is drawn where its figure stands: drawing its tile runs the search.
  if (out.centre) Object.defineProperty(out.centre, 'center', { enumerable: true, get() { place(); return centreAt; } });
  shapeCache.set(key, out);
  return out;
}

/**
 * Works out, one tile per idle moment, where figures and coats of arms stand on `tiles` (a
 * game's tile set), so that the first drawing of each does not wait for it (about 15 ms a
 * tile). Only the tiles of the game in play: the whole catalog, every expansion's tiles, took
 * about 1.5 s of a core on every page that loaded it.
 */
export function warmAnchors(tiles) {
  const idle = globalThis.requestIdleCallback ?? ((f) => setTimeout(f, 50));
  const next = (i) => idle(() => {
    if (i >= tiles.length) return;
    void tileShapes(tiles[i]).anchors;
    next(i + 1);
  });
  next(0);
}

/**
 * Where a meeple on the feature named by `boardPort` stands, in board orientation
 * (0..100 within the cell), for a tile placed with `rotation`.
 */
export function meepleAnchor(tileDef, rotation, boardPort) {
  const f = featureAt(tileDef, rotation, boardPort);
  if (!f) return null;
  const a = tileShapes(tileDef).anchors[f.id];
  return a ? rotatePoint(a, rotation) : null;
}

/** Coats of arms in board orientation: [[x, y], ...]. */
export function pennantPoints(tileDef, rotation) {
  const shapes = tileShapes(tileDef);
  if (!shapes.cities.some((c) => c.pennant)) return [];
  void shapes.anchors; // places the coats of arms too
  return shapes.cities.filter((c) => c.pennant && c.pennantAt)
    .map((c) => rotatePoint(c.pennantAt, rotation));
}

/** A map key for a cell. */
export function cellKey(x, y) {
  return `${x},${y}`;
}
