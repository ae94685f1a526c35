// Which placed tiles form which roads, cities, monasteries and fields, and whose meeples
// stand on them: a union-find over the features of the placed tiles, built placement by
// placement from the public board and the tile catalog (see docs/tiles.md for the ports).
// Pure: no DOM, so node can test it. The log and the final-scoring animation read it;
// the server's events stay the authority on points.

import { rotatePort, unrotatePort, featureForPort, cellKey } from '../tiles/geometry.js';
import { listed, figureById, likeMonastery } from '../expansions/registry.js';

// The marks an expansion puts on features (expansions/registry.js: featureMarks), by flag.
const markFlags = () => listed('featureMarks').map((m) => m.flag);
const marksOf = (f) => Object.fromEntries(markFlags().map((flag) => [flag, !!f[flag]]));

const STEP = { N: [0, -1], E: [1, 0], S: [0, 1], W: [-1, 0] };
const OPPOSITE = { N: 'S', E: 'W', S: 'N', W: 'E' };

/** The port of the neighbour across `port` (board orientation): N<->S, NL<->SR, NR<->SL... */
export function acrossPort(port) {
  const side = OPPOSITE[port[0]];
  if (port.length === 1) return side;
  return side + (port[1] === 'L' ? 'R' : 'L');
}

export class FeatureMap {
  /** tiles: {letter: catalog tile}. */
  constructor(tiles) {
    this.tiles = tiles;
    this.cells = new Map(); // "x,y" -> {x, y, tile, rotation, nodes: {catalogFeatureId: node}}
    this.parent = [];
    this.info = []; // per root: {kind, cells: Set<"x,y">, open, pennants, meeples: [{seat, x, y, at}], done}
  }

  find(n) {
    while (this.parent[n] !== n) {
      this.parent[n] = this.parent[this.parent[n]];
      n = this.parent[n];
    }
    return n;
  }

  union(a, b) {
    a = this.find(a);
    b = this.find(b);
    if (a === b) return a;
    const ia = this.info[a];
    const ib = this.info[b];
    if (ib.cells.size > ia.cells.size) [a, b] = [b, a];
    const keep = this.info[a];
    const gone = this.info[b];
    for (const c of gone.cells) keep.cells.add(c);
    keep.open += gone.open;
    keep.pennants += gone.pennants;
    for (const flag of markFlags()) keep[flag] ||= gone[flag]; // a mark anywhere marks the whole feature
    keep.meeples.push(...gone.meeples);
    this.parent[b] = a;
    return a;
  }

  /** The root node of the feature at a board port of cell (x, y), or -1. */
  nodeAt(x, y, port) {
    const cell = this.cells.get(cellKey(x, y));
    if (!cell) return -1;
    const f = featureForPort(this.tiles[cell.tile], unrotatePort(port, cell.rotation));
    return f ? this.find(cell.nodes[f.id]) : -1;
  }

  /** Public description of a feature's root. */
  feature(root) {
    const i = this.info[root];
    return {
      root, kind: i.kind, tiles: i.cells.size, pennants: i.pennants, complete: i.done, ...marksOf(i),
      cells: [...i.cells].map((k) => k.split(',').map(Number)),
      meeples: i.meeples.map((m) => ({ ...m })),
    };
  }

  /** The seats with the highest strength on a feature (who would score it): a meeple counts 1, a special figure its own strength (expansions/registry.js). */
  owners(root) {
    const count = new Map();
    for (const m of this.info[root].meeples) count.set(m.seat, (count.get(m.seat) ?? 0) + (figureById(m.figure)?.strength ?? 1));
    const most = Math.max(0, ...count.values());
    return [...count].filter(([, n]) => n === most && n > 0).map(([s]) => s).sort((a, b) => a - b);
  }

  /**
   * Adds a placement {x, y, tile, rotation, meeple: port|null, seat}. Returns what it did:
   * {touched: [roots of features of other tiles this tile now joins, before the meeple],
   *  roots: the roots of this tile's features, claimed: root|-1 (the meeple's feature),
   *  completed: [feature descriptions of roads, cities and monasteries it completed,
   *  with their meeples, which this map then takes off the board]}.
   */
  place({ x, y, tile, rotation, meeple = null, seat = null, figure = null, ret = null }) {
    const def = this.tiles[tile];
    if (!def) throw new Error(`unknown tile ${tile}`);
    const cell = { x, y, tile, rotation, nodes: {} };
    const key = cellKey(x, y);
    for (const f of def.features) {
      const n = this.parent.length;
      this.parent.push(n);
      const sides = f.ports.filter((p) => p.length === 1 && STEP[p]).length;
      this.info.push({
        kind: f.kind, cells: new Set([key]), open: f.kind === 'road' || f.kind === 'city' ? sides : 0,
        pennants: f.pennant ? 1 : 0, meeples: [], done: false, monastery: f.kind === 'monastery' ? { x, y } : null,
        ...marksOf(f),
      });
      cell.nodes[f.id] = n;
    }
    this.cells.set(key, cell);
    const before = new Set();
    // Join each port with the neighbour's port across it.
    for (const f of def.features) {
      for (const catalogPort of f.ports) {
        if (!STEP[catalogPort[0]]) continue; // the centre (monastery C, another middle feature G, inner field I) joins nothing
        const port = rotatePort(catalogPort, rotation);
        const [dx, dy] = STEP[port[0]];
        const other = this.cells.get(cellKey(x + dx, y + dy));
        if (!other) continue;
        const of = featureForPort(this.tiles[other.tile], unrotatePort(acrossPort(port), other.rotation));
        if (!of) continue;
        const theirs = this.find(other.nodes[of.id]);
        before.add(theirs);
        const mine = this.find(cell.nodes[f.id]);
        const merged = this.union(mine, theirs);
        if (port.length === 1) this.info[merged].open -= 2;
      }
    }
    const touched = [...before].map((r) => this.find(r)).filter((r, i, a) => a.indexOf(r) === i);
    let claimed = -1;
    if (meeple) {
      claimed = this.nodeAt(x, y, meeple);
      if (claimed >= 0) this.info[claimed].meeples.push({ seat, x, y, at: meeple, ...(figure && figure !== 'meeple' ? { figure } : {}) });
    }
    if (ret) this.takeBack(ret, seat);
    const roots = def.features.map((f) => this.find(cell.nodes[f.id])).filter((r, i, a) => a.indexOf(r) === i);
    const completed = [];
    for (const r of roots) {
      const i = this.info[r];
      if ((i.kind === 'road' || i.kind === 'city') && !i.done && i.open === 0) completed.push(r);
    }
    // Monasteries on this cell or around it.
    for (let ddx = -1; ddx <= 1; ddx++) {
      for (let ddy = -1; ddy <= 1; ddy++) {
        const c = this.cells.get(cellKey(x + ddx, y + ddy));
        if (!c) continue;
        for (const n of Object.values(c.nodes)) {
          const i = this.info[this.find(n)];
          if (likeMonastery(i.kind) && !i.done && this.surrounded(c.x, c.y)) completed.push(this.find(n));
        }
      }
    }
    const out = [];
    for (const r of completed) {
      this.info[r].done = true;
      out.push({ ...this.feature(r), owners: this.owners(r) });
      this.info[r].meeples = [];
    }
    return { touched, roots, claimed, completed: out };
  }

  /** A take-back (turn.legal[].return): the seat's figure leaves the monastery-like feature at `cell`. */
  /**
   * One more figure {seat, at, figure?} on an already placed tile (a tile may hold several
   * where an expansion puts a figure on an older tile: boardart.js placeOnMap).
   */
  addFigure(x, y, { seat, at, figure = null }) {
    const n = this.nodeAt(x, y, at);
    if (n >= 0) this.info[n].meeples.push({ seat, x, y, at, ...(figure && figure !== 'meeple' ? { figure } : {}) });
  }

  /** Takes the figures standing at port `at` of cell (x, y) off their feature (eaten, sent home). */
  removeFigure(x, y, at) {
    const n = this.nodeAt(x, y, at);
    if (n >= 0) this.info[n].meeples = this.info[n].meeples.filter((m) => m.x !== x || m.y !== y || m.at !== at);
  }

  takeBack(cell, seat) {
    const c = this.cells.get(cellKey(cell.x, cell.y));
    if (!c) return;
    for (const n of Object.values(c.nodes)) {
      const i = this.info[this.find(n)];
      if (likeMonastery(i.kind)) i.meeples = i.meeples.filter((m) => m.seat !== seat || m.x !== cell.x || m.y !== cell.y);
    }
  }

  surrounded(x, y) {
    for (let dx = -1; dx <= 1; dx++) {
      for (let dy = -1; dy <= 1; dy++) if (!this.cells.has(cellKey(x + dx, y + dy))) return false;
    }
    return true;
  }

  /** Every feature still holding meeples (what the final scoring will count). */
  occupied() {
    const out = [];
    for (let n = 0; n < this.parent.length; n++) {
      if (this.parent[n] === n && this.info[n].meeples.length) out.push(this.feature(n));
    }
    return out;
  }

  /** The feature of `kind` made of exactly these cells ([{x, y}]), or null. */
  findByCells(kind, cells) {
    const want = new Set(cells.map((c) => cellKey(c.x, c.y)));
    let best = null;
    for (let n = 0; n < this.parent.length; n++) {
      if (this.parent[n] !== n) continue;
      const i = this.info[n];
      if (i.kind !== kind || i.cells.size !== want.size) continue;
      if ([...want].every((k) => i.cells.has(k))) {
        // Of two equal candidates (two cities over the same tiles), prefer one with meeples.
        if (!best || (i.meeples.length && !this.info[best].meeples.length)) best = n;
      }
    }
    return best === null ? null : this.feature(best);
  }
}

