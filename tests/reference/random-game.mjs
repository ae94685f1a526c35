// Random games played by the reference implementation alone (its own legal moves, its own
// discards), so the engine can be checked in the other direction too: a record the reference
// considers legal must replay in the engine to the same result.
import { Game, TILES, reasonText } from '../../web-client/js/game/rules.js';

export const PORTS = ['N', 'E', 'S', 'W', 'NL', 'NR', 'EL', 'ER', 'SL', 'SR', 'WL', 'WR', 'C'];
export const LETTERS = Object.keys(TILES);

// A small deterministic generator: pick(n) is uniform-ish in [0, n).
export function rng(seed) {
  let s = seed >>> 0;
  return (n) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return (s >>> 8) % n;
  };
}

// The 71 tiles of the bag (docs/tiles.md), minus `reserved` copies.
export function bagWithout(reserved = {}) {
  const bag = [];
  for (const l of LETTERS) {
    const n = TILES[l].count - (l === 'D' ? 1 : 0) - (reserved[l] || 0);
    for (let i = 0; i < n; i++) bag.push(l);
  }
  return bag;
}

// The meeple ports the reference accepts for this placement (every port of each free feature).
export function legalMeeplePorts(game, move) {
  return PORTS.filter((p) => game.check({ ...move, meeple: p }) === null);
}

// One move of `letter`: a discard if it fits nowhere, else a uniform placement and, with
// probability `meepleRate`, a meeple on a uniform legal port. `prefer(placement)` may narrow
// the placements (a generator that steers the board).
export function randomMove(game, letter, pick, { meepleRate = 0.75, prefer = null } = {}) {
  let ps = game.board.legalPlacements(letter);
  if (ps.length === 0) return { tile: letter, discard: true };
  if (prefer) ps = prefer(ps);
  const p = ps[pick(ps.length)];
  const move = { tile: letter, x: p.x, y: p.y, rotation: p.rotation };
  if (pick(1000) < meepleRate * 1000) {
    const ports = legalMeeplePorts(game, move);
    if (ports.length > 0) return { ...move, meeple: ports[pick(ports.length)] };
  }
  return move;
}

// A whole random game as a record (every tile drawn, discards included).
export function randomGame(players, seed, options = {}) {
  const pick = rng(seed);
  const game = new Game(players);
  const bag = bagWithout();
  const moves = [];
  while (bag.length > 0) {
    const letter = bag.splice(pick(bag.length), 1)[0];
    const m = randomMove(game, letter, pick, options);
    const err = game.play(m);
    if (err) throw new Error(`the reference refuses its own move ${JSON.stringify(m)}: ${reasonText(err)}`);
    moves.push(m);
  }
  return { format: 'carcassonne-record/1', players, final: true, moves };
}
