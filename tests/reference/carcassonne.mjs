// An independent reference implementation of the base-game rules, written from
// ../../shared/rules.md, tiles.md and record-format.md only, to cross-check the C++ engine.
//
// It is deliberately simple and slow: the board is a Map from "x,y" to the placed tile, and
// every question about a feature (its tiles, whether it is closed, who has meeples on it) is
// answered by a fresh flood fill over the board. Nothing is cached between moves.
//
//   import { replay } from './carcassonne.mjs';
//   replay(record) -> { scores_after_move, final_scores, meeples_in_supply, winners }
//                   | { error, move }

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
const PORTS = new Set([...SIDES, ...ALL_HALVES, 'C']);

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
    this.cells = new Map();  // "x,y" -> { x, y, letter, q, sides, features, meeple: {seat, feature} | null }
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
    const tiles = new Set();
    let arms = 0;
    let open = false;
    const meeples = [];
    while (stack.length > 0) {
      const [t, f] = stack.pop();
      const id = `${key(t.x, t.y)}#${f}`;
      if (seen.has(id)) continue;
      seen.add(id);
      nodes.push([t, f]);
      tiles.add(key(t.x, t.y));
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
    return { id, kind, nodes, tiles: tiles.size, arms, open, meeples };
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

// ---------------------------------------------------------------- a game replayed move by move

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

  // Why `move` is refused now (a string), or null if it is legal. Changes nothing.
  check(move) {
    if (!this.holds.some((h) => h)) return 'game over: nobody holds a tile';
    const seat = this.turn;
    const letter = move.tile;
    if (this.used[letter] >= TILES[letter].count) return `no copy of ${letter} left`;
    if (move.discard) {
      if (this.board.legalPlacements(letter).length > 0) return `${letter} has a legal placement`;
      return null;
    }
    const q = move.rotation / 90;
    if (!this.board.fits(letter, move.x, move.y, q)) return 'illegal placement';
    if (move.meeple != null) {
      const fi = featureAt(orient(letter, q), move.meeple);
      if (fi < 0) return `the tile has no feature on ${move.meeple}`;
      if (this.supply[seat] === 0) return 'no meeple left';
      // Occupancy after the tile joined the board: put it there, look, take it back.
      this.board.put(letter, move.x, move.y, q);
      const occupied = this.board.feature(move.x, move.y, fi).meeples.length > 0;
      this.board.cells.delete(key(move.x, move.y));
      if (occupied) return 'the feature already holds a meeple';
    }
    return null;
  }

  // Applies one move of the current seat; returns an error string or null.
  play(move) {
    const err = this.check(move);
    if (err) return err;
    const seat = this.turn;
    const letter = move.tile;
    this.used[letter]++;
    if (move.discard) {
      this.draw(seat);  // keeps the turn while the bag has a tile
      if (!this.holds[seat]) this.passTurn();
      return null;
    }
    const q = move.rotation / 90;
    const t = this.board.put(letter, move.x, move.y, q);
    if (move.meeple != null) {
      t.meeple = { seat, feature: featureAt(t, move.meeple) };
      this.supply[seat]--;
    }
    this.scoreCompleted(t);
    this.draw(seat);
    this.passTurn();
    return null;
  }

  award(seats, points) {
    for (const s of seats) this.scores[s] += points;
  }

  scoreCompleted(t) {
    const done = new Set();
    t.features.forEach((f, fi) => {
      if (f.kind !== 'road' && f.kind !== 'city') return;
      const feat = this.board.feature(t.x, t.y, fi);
      if (feat.open || done.has(feat.id)) return;
      done.add(feat.id);
      const points = f.kind === 'road' ? feat.tiles : 2 * feat.tiles + 2 * feat.arms;
      this.award(majority(feat.meeples), points);
      removeMeeples(feat, this.supply);
    });
    for (let dy = -1; dy <= 1; dy++) {
      for (let dx = -1; dx <= 1; dx++) {
        const m = this.board.at(t.x + dx, t.y + dy);
        if (!m) continue;
        const fi = m.features.findIndex((f) => f.kind === 'monastery');
        if (fi < 0 || !m.meeple || m.meeple.feature !== fi) continue;
        if (this.board.filledAround(m.x, m.y) === 8) {
          this.scores[m.meeple.seat] += 9;
          this.supply[m.meeple.seat]++;
          m.meeple = null;
        }
      }
    }
  }

  // End-of-game scoring: incomplete roads, cities, monasteries, then farmers.
  finish() {
    const seen = new Set();
    const features = [];
    for (const t of this.board.cells.values()) {
      t.features.forEach((f, fi) => {
        if (seen.has(`${key(t.x, t.y)}#${fi}`)) return;
        const feat = this.board.feature(t.x, t.y, fi);
        for (const [n, nf] of feat.nodes) seen.add(`${key(n.x, n.y)}#${nf}`);
        features.push(feat);
      });
    }
    for (const feat of features) {
      if (feat.meeples.length === 0) continue;
      const winners = majority(feat.meeples);
      if (feat.kind === 'road' && feat.open) this.award(winners, feat.tiles);
      if (feat.kind === 'city' && feat.open) this.award(winners, feat.tiles + feat.arms);
      if (feat.kind === 'monastery') {
        const [t] = feat.nodes[0];
        const around = this.board.filledAround(t.x, t.y);
        if (around < 8) this.award(winners, 1 + around);
      }
    }
    for (const feat of features) {
      if (feat.kind !== 'field' || feat.meeples.length === 0) continue;
      const cities = new Set();
      for (const [t, fi] of feat.nodes) {
        for (const ci of t.features[fi].touches) {
          const c = this.board.feature(t.x, t.y, ci);
          if (!c.open) cities.add(c.id);
        }
      }
      this.award(majority(feat.meeples), 3 * cities.size);
    }
  }
}

// ---------------------------------------------------------------- records (record-format.md)

const isInt = (v) => typeof v === 'number' && Number.isInteger(v);

function parseMove(m) {
  if (m === null || typeof m !== 'object' || Array.isArray(m)) return { error: 'a move must be an object' };
  if (typeof m.tile !== 'string' || !Object.hasOwn(TILES, m.tile)) return { error: `unknown tile ${JSON.stringify(m.tile)}` };
  if (m.discard !== undefined && m.discard !== null && typeof m.discard !== 'boolean') return { error: 'discard must be a boolean' };
  if (m.discard === true) return { move: { tile: m.tile, discard: true } };
  for (const k of ['x', 'y', 'rotation']) if (!isInt(m[k])) return { error: `${k} must be an integer` };
  if (![0, 90, 180, 270].includes(m.rotation)) return { error: 'rotation must be 0, 90, 180 or 270' };
  let meeple = null;
  if (m.meeple !== undefined && m.meeple !== null) {
    if (typeof m.meeple !== 'string' || !PORTS.has(m.meeple)) return { error: `unknown port ${JSON.stringify(m.meeple)}` };
    meeple = m.meeple;
  }
  return { move: { tile: m.tile, x: m.x, y: m.y, rotation: m.rotation, meeple } };
}

export function parseRecord(record) {
  if (record === null || typeof record !== 'object' || Array.isArray(record)) return { error: 'a record must be an object', move: null };
  if (record.format !== undefined && record.format !== 'carcassonne-record/1') return { error: 'unsupported format', move: null };
  if (!isInt(record.players) || record.players < 2 || record.players > 5) return { error: 'players must be 2..5', move: null };
  if (record.final !== undefined && record.final !== null && typeof record.final !== 'boolean') return { error: 'final must be a boolean', move: null };
  if (!Array.isArray(record.moves)) return { error: 'moves must be an array', move: null };
  const moves = [];
  for (let i = 0; i < record.moves.length; i++) {
    const r = parseMove(record.moves[i]);
    if (r.error) return { error: r.error, move: i };
    moves.push(r.move);
  }
  return { players: record.players, moves, final: record.final !== false };
}

export function replay(record) {
  const parsed = parseRecord(record);
  if (parsed.error) return parsed;
  const game = new Game(parsed.players);
  const scoresAfterMove = [];
  for (let i = 0; i < parsed.moves.length; i++) {
    const err = game.play(parsed.moves[i]);
    if (err) return { error: err, move: i };
    scoresAfterMove.push([...game.scores]);
  }
  const supply = [...game.supply];
  if (parsed.final) game.finish();
  const best = Math.max(...game.scores);
  return {
    scores_after_move: scoresAfterMove,
    final_scores: [...game.scores],
    meeples_in_supply: supply,
    winners: game.scores.map((s, i) => (s === best ? i : -1)).filter((i) => i >= 0),
  };
}

// The number of legal placements (cell x rotation, all four rotations counted) of `letter`
// on the board a record's moves build.
export function legalPlacementCount(record, letter) {
  const parsed = parseRecord(record);
  if (parsed.error) throw new Error(parsed.error);
  const game = new Game(parsed.players);
  for (const m of parsed.moves) {
    const err = game.play(m);
    if (err) throw new Error(err);
  }
  return game.board.legalPlacements(letter).length;
}
