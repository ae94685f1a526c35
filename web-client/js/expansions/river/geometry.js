// Pure geometry of the River (docs/expansions/river.md):
// where the water runs on a tile, in catalog orientation, as path segments that
// geometry.js rotates, samples and keeps out of the fields. No DOM, so node tests it.

export const RIVER_HALF_WIDTH = 8;
export const SPRING_RADIUS = 11;
export const LAKE_RADIUS = 21;

const SIDE_MID = { N: [50, 0], E: [100, 50], S: [50, 100], W: [0, 50] };
const SIDES = ['N', 'E', 'S', 'W'];

/**
 * The river of one feature (its side ports): {segs, end, pond} where `segs` are the
 * segments of geometry.js (M / L / Q), `end` the point where a spring or the lake sits
 * (null for a river that crosses the tile) and `pond` its radius. `avoidSide` is a side
 * the water bows towards so it clears a monastery in the middle (R4): the side that
 * has neither water nor road.
 */
export function riverSegs(sides, { monastery = false, roadSides = [] } = {}) {
  if (sides.length === 1) {
    const a = SIDE_MID[sides[0]];
    // The spring and the lake (one river side) end in a pond a little off the centre.
    const end = [50 + (a[0] - 50) * 0.12, 50 + (a[1] - 50) * 0.12];
    return { segs: [{ c: 'M', p: a }, { c: 'L', p: end }], end, pond: null };
  }
  const [a, b] = sides.map((s) => SIDE_MID[s]);
  const opposite = a[0] === b[0] || a[1] === b[1];
  if (opposite) {
    if (!monastery) return { segs: [{ c: 'M', p: a }, { c: 'L', p: b }], end: null };
    // A monastery in the middle: the water bows round it, towards the free side.
    const free = SIDES.find((s) => !sides.includes(s) && !roadSides.includes(s)) ?? SIDES.find((s) => !sides.includes(s));
    const m = SIDE_MID[free];
    const q = [50 + (m[0] - 50) * 1.4, 50 + (m[1] - 50) * 1.4];
    return { segs: [{ c: 'M', p: a }, { c: 'Q', q, p: b }], end: null };
  }
  // A curve: a little wider than a road's, pulled towards the corner it goes round.
  const corner = [a[0] === 50 ? b[0] : a[0], a[1] === 50 ? b[1] : a[1]];
  const q = [50 + (corner[0] - 50) * 0.2, 50 + (corner[1] - 50) * 0.2];
  return { segs: [{ c: 'M', p: a }, { c: 'Q', q, p: b }], end: null };
}

/** The pond's radius at the river's end: the lake is large, the spring small. */
export function pondRadius(tileDef) {
  return tileDef.letter === 'RL' ? LAKE_RADIUS : SPRING_RADIUS;
}
