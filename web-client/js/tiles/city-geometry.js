// The canonical city shapes of a tile, rotated into place by geometry.js. Split from
// geometry.js; the "tight" set keeps walls near the sides, for the
// tiles whose field `I` lies in the middle between their cities (I3, T3, T4, T6, T14).

const SIDES = ['N', 'E', 'S', 'W'];
const ROTATIONS = [0, 90, 180, 270];

// Area outline and the wall (the inner edge, where the city meets the fields).
function cap(depthQ) {
  return {
    area: [{ c: 'M', p: [0, 0] }, { c: 'L', p: [100, 0] }, { c: 'Q', q: [50, depthQ], p: [0, 0] }],
    walls: [[{ c: 'M', p: [100, 0] }, { c: 'Q', q: [50, depthQ], p: [0, 0] }]],
  };
}
function corner(q) {
  return {
    area: [{ c: 'M', p: [0, 0] }, { c: 'L', p: [100, 0] }, { c: 'Q', q: [q, q], p: [0, 100] }],
    walls: [[{ c: 'M', p: [100, 0] }, { c: 'Q', q: [q, q], p: [0, 100] }]],
  };
}
function band(top, bottom) {
  return {
    area: [
      { c: 'M', p: [0, 0] }, { c: 'Q', q: [50, top], p: [100, 0] }, { c: 'L', p: [100, 100] },
      { c: 'Q', q: [50, bottom], p: [0, 100] },
    ],
    walls: [
      [{ c: 'M', p: [0, 0] }, { c: 'Q', q: [50, top], p: [100, 0] }],
      [{ c: 'M', p: [100, 100] }, { c: 'Q', q: [50, bottom], p: [0, 100] }],
    ],
  };
}
const CITY_THREE_NEW = {
  area: [
    { c: 'M', p: [0, 0] }, { c: 'L', p: [100, 0] }, { c: 'L', p: [100, 100] },
    { c: 'Q', q: [50, 44], p: [0, 100] },
  ],
  walls: [[{ c: 'M', p: [100, 100] }, { c: 'Q', q: [50, 44], p: [0, 100] }]],
};
const CITY_FULL = {
  area: [{ c: 'M', p: [0, 0] }, { c: 'L', p: [100, 0] }, { c: 'L', p: [100, 100] }, { c: 'L', p: [0, 100] }],
  walls: [],
};

const NORMAL = [[cap(58), ['N']], [corner(56), ['N', 'W']], [band(50, 50), ['E', 'W']], [CITY_THREE_NEW, ['N', 'E', 'W']], [CITY_FULL, ['N', 'E', 'S', 'W']]];
// A narrow-waisted band (38..62 in the middle), shallow caps and corners: room for field I.
const TIGHT = [[cap(34), ['N']], [corner(28), ['N', 'W']], [band(76, 24), ['E', 'W']], [CITY_THREE_NEW, ['N', 'E', 'W']], [CITY_FULL, ['N', 'E', 'S', 'W']]];

function turn(side, deg) {
  return SIDES[(SIDES.indexOf(side) + deg / 90) % 4];
}

function sameSet(a, b) {
  return a.length === b.length && a.every((x) => b.includes(x));
}

/** The canonical city shape and rotation that cover exactly `sides`; `tight` for tiles with field I. */
export function cityTemplate(sides, tight = false) {
  for (const [shape, base] of tight ? TIGHT : NORMAL) {
    if (base.length !== sides.length) continue;
    for (const deg of ROTATIONS) {
      if (sameSet(base.map((s) => turn(s, deg)), sides)) return { shape, deg };
    }
  }
  return null;
}

/** Whether a catalog tile has a field in the middle touching no side (port I). */
export function hasInnerField(tileDef) {
  return (tileDef?.features ?? []).some((f) => f.kind === 'field' && f.ports.includes('I'));
}
