// Where a tile's marks stand (an expansion's symbol on a feature, expansions/registry.js:
// tileMarks, or on the whole tile, tileSymbol): a road's mark beside its road, a city's
// inside the city, a tile's own in its fields clear of roads and walls, each clear of the
// meeple spots, the coat of arms and the walls. Catalog orientation is searched once per tile; the points handed out are
// in BOARD orientation (the marks stay upright, like coats of arms). Pure, node tests it.

import { tileShapes, pointInPolygon, distToPolyline, rotatePoint, ROAD_HALF_WIDTH } from './geometry.js';
import { hooks } from '../expansions/registry.js';

const STEP = 3;

/** The marks a catalog tile shows: [{mark (its symbol #sym-<mark>), feature}]. */
export function tileMarks(tileDef) {
  const out = [];
  for (const f of tileDef?.features ?? []) {
    for (const markOf of hooks('tileMarks')) {
      const mark = markOf(f);
      if (mark) out.push({ mark, feature: f.id });
    }
  }
  for (const symbolOf of hooks('tileSymbol')) {
    const mark = tileDef ? symbolOf(tileDef) : null;
    if (mark) out.push({ mark, feature: null });
  }
  return out;
}

const closed = (poly) => [...poly, poly[0]];
const dist = (a, b) => Math.hypot(a[0] - b[0], a[1] - b[1]);

function best(candidates, score) {
  let top = null;
  let topScore = -Infinity;
  for (const p of candidates) {
    const s = score(p);
    if (s > topScore) [top, topScore] = [p, s];
  }
  return top;
}

function grid() {
  const pts = [];
  for (let y = STEP / 2; y < 100; y += STEP) for (let x = STEP / 2; x < 100; x += STEP) pts.push([x, y]);
  return pts;
}

const cache = new Map();

/** Catalog-orientation points of the marks: [{mark, x, y}]. */
export function markPointsCatalog(tileDef) {
  const key = tileDef.letter + JSON.stringify(tileDef.features);
  if (cache.has(key)) return cache.get(key);
  const marks = tileMarks(tileDef);
  const out = [];
  if (marks.length) {
    const shapes = tileShapes(tileDef);
    const anchors = Object.values(shapes.anchors);
    const pennants = shapes.cities.filter((c) => c.pennantAt).map((c) => c.pennantAt);
    const taken = () => out.map((m) => [m.x, m.y]);
    const kindOf = Object.fromEntries((tileDef.features ?? []).map((f) => [f.id, f.kind]));
    const byRoad = (m) => kindOf[m.feature] === 'road';
    const near = (p, pts, r) => Math.min(...pts.map((q) => dist(p, q) - r), 40);
    const edge = (p) => Math.min(p[0], p[1], 100 - p[0], 100 - p[1]);
    const own = (m) => m.feature === null;
    // Cities' marks first, then roads' in the fields beside their road, then the tile's own.
    for (const m of [...marks.filter((x) => !byRoad(x) && !own(x)), ...marks.filter(byRoad), ...marks.filter(own)]) {
      let p = null;
      if (own(m)) {
        // In the fields: away from roads, walls, the middle's monastery, spots and other marks.
        const free = grid().filter((q) => !shapes.cities.some((c) => pointInPolygon(q, c.polygon)));
        p = best(free.length ? free : grid(), (q) => Math.min(
          ...shapes.roads.map((r) => distToPolyline(q, r.points) - ROAD_HALF_WIDTH - 11),
          ...shapes.cities.map((c) => distToPolyline(q, closed(c.polygon)) - 12),
          shapes.monastery ? dist(q, [50, 50]) - 26 : 40,
          near(q, anchors, 16), near(q, pennants, 14), near(q, taken(), 22), edge(q) - 12, 14,
        ) - dist(q, [50, 50]) * 0.01);
      } else if (byRoad(m)) {
        const road = shapes.roads.find((r) => r.id === m.feature);
        if (!road) continue;
        const mid = road.points[Math.floor(road.points.length / 2)];
        const cands = grid().filter((q) => {
          const d = distToPolyline(q, road.points);
          return d >= ROAD_HALF_WIDTH + 7 && d <= ROAD_HALF_WIDTH + 16 && !shapes.cities.some((c) => pointInPolygon(q, c.polygon));
        });
        p = best(cands, (q) => Math.min(
          ...shapes.roads.filter((r) => r !== road).map((r) => distToPolyline(q, r.points) - ROAD_HALF_WIDTH - 9),
          ...shapes.cities.map((c) => distToPolyline(q, closed(c.polygon)) - 8),
          near(q, anchors, 14), near(q, taken(), 18), edge(q) - 9, 12,
        ) - dist(q, mid) * 0.02);
      } else {
        const city = shapes.cities.find((c) => c.id === m.feature);
        if (!city) continue;
        const cands = grid().filter((q) => pointInPolygon(q, city.polygon));
        p = best(cands, (q) => Math.min(
          distToPolyline(q, closed(city.polygon)) + 1, near(q, anchors, 12), near(q, pennants, 12), near(q, taken(), 18), edge(q) - 2, 17,
        ) + Math.min(edge(q), 16) * 0.05 - dist(q, [50, 50]) * 0.01);
      }
      if (p) out.push({ mark: m.mark, x: p[0], y: p[1] });
    }
  }
  cache.set(key, out);
  return out;
}

/** The marks of a tile placed with `rotation`, in board orientation: [{mark, x, y}]. */
export function markPoints(tileDef, rotation = 0) {
  return markPointsCatalog(tileDef).map((m) => {
    const [x, y] = rotatePoint([m.x, m.y], rotation);
    return { mark: m.mark, x, y };
  });
}
