// The base-game rules in JavaScript, written from shared/rules.md, tiles.md and
// record-format.md only. Two users: the web client replays records with it (the replay
// viewer, "your games"), and tests/reference cross-checks the C++ engine against it, so it
// must stay independent of the engine: it never reads the server's tile catalog.
//
// It is deliberately simple: the board is a Map from "x,y" to the placed tile, and every
// question about a feature (its tiles, whether it is closed, who has meeples on it) is
// answered by a fresh flood fill over the board. Nothing is cached between moves. A whole
// game replays in a few milliseconds, which is all a replay needs.
//
// A Game also keeps the events a client shows, in the server's event format
// (docs/protocol-details.md): placed, discarded, scored (features that held meeples) and
// game_over. Refusals are reasons: {code, ...details}; reasonText() words them.
//
//   import { Game } from './rules.js';   (records: ./record.js)

// ---------------------------------------------------------------- tiles (tiles.md)

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

const key = (x, y) => `${x},${y}`;

// A tile turned to the board: the terrain of each board side and its features' board ports.
function orient(letter, q) {
  const t = TILES[letter];
  const sides = {};
  SIDES.forEach((s, i) => { sides[SIDES[(i + q) % 4]] = t.sides[i]; });
  const features = t.features.map((f) => ({ ...f, ports: f.ports.map((p) => rotatePort(p, q)) }));
  return { letter, q, sides, features };
}

function featureAt(placed, port) {
  return placed.features.findIndex((f) => f.ports.includes(port));
}

// ---------------------------------------------------------------- board

class Board {
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

// ---------------------------------------------------------------- scoring

// The seats with the most meeples (none if there are no meeples).
function majority(seats) {
  if (seats.length === 0) return [];
  const count = new Map();
  for (const s of seats) count.set(s, (count.get(s) || 0) + 1);
  const best = Math.max(...count.values());
  return [...count.keys()].filter((s) => count.get(s) === best).sort((a, b) => a - b);
}

function removeMeeples(feature, supply) {
  for (const [t, f] of feature.nodes) {
    if (t.meeple && t.meeple.feature === f) {
      supply[t.meeple.seat]++;
      t.meeple = null;
    }
  }
}

// ---------------------------------------------------------------- refusals

/** Words a refusal reason ({code, ...details}) in English, for tests and logs. */
export function reasonText(r) {
  switch (r?.code) {
    case 'game_over': return 'game over: nobody holds a tile';
    case 'no_copy': return `no copy of ${r.tile} left`;
    case 'discard_legal': return `${r.tile} has a legal placement`;
    case 'illegal_placement': return 'illegal placement';
    case 'no_feature': return `the tile has no feature on ${r.port}`;
    case 'no_meeple_left': return 'no meeple left';
    case 'occupied': return 'the feature already holds a meeple';
    default: return String(r?.code ?? r);
  }
}

// ---------------------------------------------------------------- a game replayed move by move

const KIND_ORDER = ['road', 'city', 'monastery', 'field'];

export class Game {
  constructor(players) {
    this.players = players;
    this.board = new Board();
    this.board.put('D', 0, 0, 0);
    this.scores = new Array(players).fill(0);
    this.supply = new Array(players).fill(7);
    this.used = Object.fromEntries(Object.keys(TILES).map((l) => [l, 0]));
    this.used.D = 1;  // the start tile
    this.inBag = 71;
    this.holds = new Array(players).fill(false);
    for (let s = 0; s < players; s++) this.draw(s);
    this.turn = 0;
    this.moves = 0;     // placements and discards so far (the event's `turn` is moves + 1)
    this.events = [];   // what a client shows, in the server's format, without ids
  }

  draw(seat) {
    if (this.inBag > 0) {
      this.inBag--;
      this.holds[seat] = true;
    } else {
      this.holds[seat] = false;
    }
  }

  passTurn() {
    for (let i = 1; i <= this.players; i++) {
      const s = (this.turn + i) % this.players;
      if (this.holds[s]) {
        this.turn = s;
        return;
      }
    }
  }

  // Why `move` is refused now (a reason), or null if it is legal. Changes nothing.
  check(move) {
    if (!this.holds.some((h) => h)) return { code: 'game_over' };
    const seat = this.turn;
    const letter = move.tile;
    if (this.used[letter] >= TILES[letter].count) return { code: 'no_copy', tile: letter };
    if (move.discard) {
      if (this.board.legalPlacements(letter).length > 0) return { code: 'discard_legal', tile: letter };
      return null;
    }
    const q = move.rotation / 90;
    if (!this.board.fits(letter, move.x, move.y, q)) {
      return { code: 'illegal_placement', tile: letter, x: move.x, y: move.y, rotation: move.rotation };
    }
    if (move.meeple != null) {
      const fi = featureAt(orient(letter, q), move.meeple);
      if (fi < 0) return { code: 'no_feature', tile: letter, port: move.meeple };
      if (this.supply[seat] === 0) return { code: 'no_meeple_left' };
      // Occupancy after the tile joined the board: put it there, look, take it back.
      this.board.put(letter, move.x, move.y, q);
      const occupied = this.board.feature(move.x, move.y, fi).meeples.length > 0;
      this.board.cells.delete(key(move.x, move.y));
      if (occupied) return { code: 'occupied', port: move.meeple };
    }
    return null;
  }

  // Applies one move of the current seat; returns a refusal reason or null.
  play(move) {
    const err = this.check(move);
    if (err) return err;
    const seat = this.turn;
    const letter = move.tile;
    this.used[letter]++;
    this.moves++;
    if (move.discard) {
      this.events.push({ type: 'discarded', turn: this.moves, seat, tile: letter });
      this.draw(seat);  // keeps the turn while the bag has a tile
      if (!this.holds[seat]) this.passTurn();
      return null;
    }
    const q = move.rotation / 90;
    const t = this.board.put(letter, move.x, move.y, q);
    if (move.meeple != null) {
      t.meeple = { seat, feature: featureAt(t, move.meeple), at: move.meeple };
      this.supply[seat]--;
    }
    this.events.push({
      type: 'placed', turn: this.moves, seat, tile: letter, x: move.x, y: move.y, rotation: move.rotation,
      meeple: move.meeple ?? null,
    });
    this.scoreCompleted(t);
    this.draw(seat);
    this.passTurn();
    return null;
  }

  award(seats, points) {
    for (const s of seats) this.scores[s] += points;
  }

  // A feature that held meeples scored: points to the majority, and its event.
  scored(feat, points, { end, cities = 0 }) {
    const seats = majority(feat.meeples);
    this.award(seats, points);
    const meeples = new Array(this.players).fill(0);
    for (const s of feat.meeples) meeples[s]++;
    this.events.push({
      type: 'scored', turn: Math.max(1, this.moves), kind: feat.kind, end, points, seats, meeples, tiles: feat.tiles,
      pennants: feat.kind === 'city' ? feat.arms : 0, cities, cells: feat.cells,
    });
  }

  scoreCompleted(t) {
    const done = new Set();
    t.features.forEach((f, fi) => {
      if (f.kind !== 'road' && f.kind !== 'city') return;
      const feat = this.board.feature(t.x, t.y, fi);
      if (feat.open || done.has(feat.id)) return;
      done.add(feat.id);
      if (feat.meeples.length === 0) return;
      this.scored(feat, f.kind === 'road' ? feat.tiles : 2 * feat.tiles + 2 * feat.arms, { end: false });
      removeMeeples(feat, this.supply);
    });
    for (let dy = -1; dy <= 1; dy++) {
      for (let dx = -1; dx <= 1; dx++) {
        const m = this.board.at(t.x + dx, t.y + dy);
        if (!m) continue;
        const fi = m.features.findIndex((f) => f.kind === 'monastery');
        if (fi < 0 || !m.meeple || m.meeple.feature !== fi) continue;
        if (this.board.filledAround(m.x, m.y) === 8) {
          this.scored(this.board.feature(m.x, m.y, fi), 9, { end: false });
          this.supply[m.meeple.seat]++;
          m.meeple = null;
        }
      }
    }
  }

  // End-of-game scoring: incomplete roads, cities, monasteries, then farmers. Meeples stay
  // on the board; the supply keeps its count from before.
  finish() {
    const seen = new Set();
    const features = [];
    for (const t of this.board.cells.values()) {
      t.features.forEach((f, fi) => {
        if (seen.has(`${key(t.x, t.y)}#${fi}`)) return;
        const feat = this.board.feature(t.x, t.y, fi);
        for (const [n, nf] of feat.nodes) seen.add(`${key(n.x, n.y)}#${nf}`);
        if (feat.meeples.length > 0) features.push(feat);
      });
    }
    features.sort((a, b) => KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind));
    for (const feat of features) {
      if (feat.kind === 'road' && feat.open) this.scored(feat, feat.tiles, { end: true });
      if (feat.kind === 'city' && feat.open) this.scored(feat, feat.tiles + feat.arms, { end: true });
      if (feat.kind === 'monastery') {
        const [t] = feat.nodes[0];
        const around = this.board.filledAround(t.x, t.y);
        if (around < 8) this.scored(feat, 1 + around, { end: true });
      }
      if (feat.kind === 'field') {
        const cities = new Set();
        for (const [t, fi] of feat.nodes) {
          for (const ci of t.features[fi].touches) {
            const c = this.board.feature(t.x, t.y, ci);
            if (!c.open) cities.add(c.id);
          }
        }
        this.scored(feat, 3 * cities.size, { end: true, cities: cities.size });
      }
    }
    const best = Math.max(...this.scores);
    this.events.push({
      type: 'game_over', final_scores: [...this.scores],
      winners: this.scores.map((s, i) => (s === best ? i : -1)).filter((i) => i >= 0),
    });
  }
}
