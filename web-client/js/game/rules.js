// The base-game rules in JavaScript, written from docs/rules.md, docs/tiles.md and
// docs/record-format.md only. Two users: the web client replays records with it (the replay
// viewer, "your games"), and tests/reference cross-checks the C++ engine against it, so it
// must stay independent of the engine: it never reads the server's tile catalog.
//
// It is deliberately simple: the board is a Map from "x,y" to the placed tile, and every
// question about a feature (its tiles, whether it is closed, who has meeples on it) is
// answered by a fresh flood fill over the board. Nothing is cached between moves. A whole
// game replays in a few milliseconds, which is all a replay needs.
//
// A Game also keeps the events a client shows, in the server's event format
// (docs/protocol.md): placed, discarded, scored (features that held meeples) and
// game_over. Refusals are reasons: {code, ...details}; reasonText() words them.
//
//   import { Game } from './rules.js';   (records: ./record.js)

import { TILES, Board, orient, featureAt, key } from './rules-board.js';

export { TILES, PORTS, rotatePort } from './rules-board.js';

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
