// The base game's tiles (docs/tiles.md) and board for rules.js: each tile's features by port,
// a tile turned to the board, where a tile fits, and a feature found by a flood fill over
// the board. Written from docs/rules.md and docs/tiles.md only, like rules.js (never the server's
// tile catalog).

// ---------------------------------------------------------------- tiles (docs/tiles.md)

const ALL_HALVES = ['NL', 'NR', 'EL', 'ER', 'SL', 'SR', 'WL', 'WR'];

// kind: road | city | monastery | field. `arms`: coat of arms. `touches`: indexes (in this
// list) of the cities a field touches on the tile.
const city = (ports, arms = false) => ({ kind: 'city', ports, arms });
const road = (ports) => ({ kind: 'road', ports });
const field = (ports, touches = []) => ({ kind: 'field', ports, touches });
const monastery = () => ({ kind: 'monastery', ports: ['C'] });

export const TILES = {
  A: { count: 2, sides: 'ffrf', features: [monastery(), road(['S']), field(ALL_HALVES)] },
  B: { count: 4, sides: 'ffff', features: [monastery(), field(ALL_HALVES)] },
  C: { count: 1, sides: 'cccc', features: [city(['N', 'E', 'S', 'W'], true)] },
  D: { count: 4, sides: 'crfr', features: [city(['N']), road(['E', 'W']), field(['EL', 'WR'], [0]), field(['ER', 'SL', 'SR', 'WL'])] },
  E: { count: 5, sides: 'cfff', features: [city(['N']), field(['EL', 'ER', 'SL', 'SR', 'WL', 'WR'], [0])] },
  F: { count: 2, sides: 'fcfc', features: [city(['E', 'W'], true), field(['NL', 'NR'], [0]), field(['SL', 'SR'], [0])] },
  G: { count: 1, sides: 'fcfc', features: [city(['E', 'W']), field(['NL', 'NR'], [0]), field(['SL', 'SR'], [0])] },
  H: { count: 3, sides: 'cfcf', features: [city(['N']), city(['S']), field(['EL', 'ER', 'WL', 'WR'], [0, 1])] },
  I: { count: 2, sides: 'cffc', features: [city(['N']), city(['W']), field(['EL', 'ER', 'SL', 'SR'], [0, 1])] },
  J: { count: 3, sides: 'crrf', features: [city(['N']), road(['E', 'S']), field(['ER', 'SL']), field(['EL', 'SR', 'WL', 'WR'], [0])] },
  K: { count: 3, sides: 'cfrr', features: [city(['N']), road(['S', 'W']), field(['SR', 'WL']), field(['EL', 'ER', 'SL', 'WR'], [0])] },
  L: {
    count: 3, sides: 'crrr',
    features: [city(['N']), road(['E']), road(['S']), road(['W']), field(['EL', 'WR'], [0]), field(['ER', 'SL']), field(['SR', 'WL'])],
  },
  M: { count: 2, sides: 'cffc', features: [city(['N', 'W'], true), field(['EL', 'ER', 'SL', 'SR'], [0])] },
  N: { count: 3, sides: 'cffc', features: [city(['N', 'W']), field(['EL', 'ER', 'SL', 'SR'], [0])] },
  O: { count: 2, sides: 'crrc', features: [city(['N', 'W'], true), road(['E', 'S']), field(['ER', 'SL']), field(['EL', 'SR'], [0])] },
  P: { count: 3, sides: 'crrc', features: [city(['N', 'W']), road(['E', 'S']), field(['ER', 'SL']), field(['EL', 'SR'], [0])] },
  Q: { count: 1, sides: 'ccfc', features: [city(['N', 'E', 'W'], true), field(['SL', 'SR'], [0])] },
  R: { count: 3, sides: 'ccfc', features: [city(['N', 'E', 'W']), field(['SL', 'SR'], [0])] },
  S: { count: 2, sides: 'ccrc', features: [city(['N', 'E', 'W'], true), road(['S']), field(['SL'], [0]), field(['SR'], [0])] },
  T: { count: 1, sides: 'ccrc', features: [city(['N', 'E', 'W']), road(['S']), field(['SL'], [0]), field(['SR'], [0])] },
  U: { count: 8, sides: 'frfr', features: [road(['E', 'W']), field(['WR', 'NL', 'NR', 'EL']), field(['ER', 'SL', 'SR', 'WL'])] },
  V: { count: 9, sides: 'ffrr', features: [road(['S', 'W']), field(['SR', 'WL']), field(['NL', 'NR', 'EL', 'ER', 'SL', 'WR'])] },
  W: {
    count: 4, sides: 'frrr',
    features: [road(['E']), road(['S']), road(['W']), field(['NL', 'NR', 'EL', 'WR']), field(['ER', 'SL']), field(['SR', 'WL'])],
  },
  X: {
    count: 1, sides: 'rrrr',
    features: [road(['N']), road(['E']), road(['S']), road(['W']), field(['NR', 'EL']), field(['ER', 'SL']), field(['SR', 'WL']), field(['WR', 'NL'])],
  },
};

const SIDES = ['N', 'E', 'S', 'W'];
const DELTA = { N: [0, -1], E: [1, 0], S: [0, 1], W: [-1, 0] };
const OPPOSITE = { N: 'S', E: 'W', S: 'N', W: 'E' };
const OTHER_HALF = { L: 'R', R: 'L' };
export const PORTS = new Set([...SIDES, ...ALL_HALVES, 'C']);

// Rotating clockwise by q quarter turns: N->E->S->W, and a half keeps its L/R.
export function rotatePort(port, q) {
  if (port === 'C') return port;
  const side = SIDES[(SIDES.indexOf(port[0]) + q) % 4];
  return side + port.slice(1);
}

// The port of the neighbour that touches `port` across its edge: N<->S, NL<->SR, EL<->WR...
function across(port) {
  const side = OPPOSITE[port[0]];
  return port.length === 1 ? side : side + OTHER_HALF[port[1]];
}

export const key = (x, y) => `${x},${y}`;

// A tile turned to the board: the terrain of each board side and its features' board ports.
export function orient(letter, q) {
  const t = TILES[letter];
  const sides = {};
  SIDES.forEach((s, i) => { sides[SIDES[(i + q) % 4]] = t.sides[i]; });
  const features = t.features.map((f) => ({ ...f, ports: f.ports.map((p) => rotatePort(p, q)) }));
  return { letter, q, sides, features };
}

export function featureAt(placed, port) {
  return placed.features.findIndex((f) => f.ports.includes(port));
}

// ---------------------------------------------------------------- board

export class Board {
  constructor() {
    this.cells = new Map();  // "x,y" -> { x, y, letter, q, sides, features, meeple: {seat, feature, at} | null }
  }

  at(x, y) { return this.cells.get(key(x, y)); }

  put(letter, x, y, q) {
    const t = { x, y, ...orient(letter, q), meeple: null };
    this.cells.set(key(x, y), t);
    return t;
  }

  // Is `letter` turned q quarter turns legal on (x, y)?
  fits(letter, x, y, q) {
    if (this.at(x, y)) return false;
    const o = orient(letter, q);
    let touching = 0;
    for (const s of SIDES) {
      const [dx, dy] = DELTA[s];
      const n = this.at(x + dx, y + dy);
      if (!n) continue;
      touching++;
      if (n.sides[OPPOSITE[s]] !== o.sides[s]) return false;
    }
    return touching > 0;
  }

  // Every empty cell next to a placed tile.
  frontier() {
    const out = new Map();
    for (const t of this.cells.values()) {
      for (const s of SIDES) {
        const [dx, dy] = DELTA[s];
        const x = t.x + dx;
        const y = t.y + dy;
        if (!this.at(x, y)) out.set(key(x, y), [x, y]);
      }
    }
    return [...out.values()];
  }

  legalPlacements(letter) {
    const out = [];
    for (const [x, y] of this.frontier()) {
      for (let q = 0; q < 4; q++) if (this.fits(letter, x, y, q)) out.push({ x, y, rotation: q * 90 });
    }
    return out;
  }

  // The connected feature that feature `fi` of the tile on (x, y) belongs to, by flood fill.
  feature(x, y, fi) {
    const start = this.at(x, y);
    const kind = start.features[fi].kind;
    const seen = new Set();
    const stack = [[start, fi]];
    const nodes = [];
    const tiles = new Map();  // "x,y" -> {x, y}, in the order the fill reaches them
    let arms = 0;
    let open = false;
    const meeples = [];
    while (stack.length > 0) {
      const [t, f] = stack.pop();
      const id = `${key(t.x, t.y)}#${f}`;
      if (seen.has(id)) continue;
      seen.add(id);
      nodes.push([t, f]);
      if (!tiles.has(key(t.x, t.y))) tiles.set(key(t.x, t.y), { x: t.x, y: t.y });
      const feat = t.features[f];
      if (feat.arms) arms++;
      if (t.meeple && t.meeple.feature === f) meeples.push(t.meeple.seat);
      if (kind === 'monastery') continue;
      for (const p of feat.ports) {
        const [dx, dy] = DELTA[p[0]];
        const n = this.at(t.x + dx, t.y + dy);
        if (!n) {
          if (p.length === 1) open = true;  // a road or city side with nothing beyond it
          continue;
        }
        const nf = featureAt(n, across(p));
        if (nf >= 0) stack.push([n, nf]);
      }
    }
    // A stable name: the smallest node id.
    const id = [...seen].sort()[0];
    return { id, kind, nodes, tiles: tiles.size, cells: [...tiles.values()], arms, open, meeples };
  }

  filledAround(x, y) {
    let n = 0;
    for (let dy = -1; dy <= 1; dy++) {
      for (let dx = -1; dx <= 1; dx++) if ((dx || dy) && this.at(x + dx, y + dy)) n++;
    }
    return n;
  }
}
