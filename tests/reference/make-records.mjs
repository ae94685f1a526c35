// Writes the generated records of tests/core/data (the ones too long to write by hand), with
// their expected results computed by the reference implementation only:
//   node tests/reference/make-records.mjs
// - late_discard_empty_bag_P.json: a whole game where, with the bag empty, the player due
//   holds C, which fits nowhere: the discard passes the turn and that player is done.
// - game_over_after_last_tile.json: the same game plus one move: refused, nobody holds a tile.
// - perft_midgame_N.json: random boards after N moves, with the legal placement count of
//   every letter ("perft": a faster generator must not change these numbers).
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { Game, TILES, replay } from './carcassonne.mjs';

const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'core', 'data');

function rng(seed) {
  let s = seed >>> 0;
  return (n) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return (s >>> 8) % n;
  };
}

const LETTERS = Object.keys(TILES);
const PORTS = ['N', 'E', 'S', 'W', 'NL', 'NR', 'EL', 'ER', 'SL', 'SR', 'WL', 'WR', 'C'];

function bagWithout(reserved) {
  const bag = [];
  for (const l of LETTERS) {
    const n = TILES[l].count - (l === 'D' ? 1 : 0) - (reserved[l] || 0);
    for (let i = 0; i < n; i++) bag.push(l);
  }
  return bag;
}

const SIDES = ['N', 'E', 'S', 'W'];
const DELTA = { N: [0, -1], E: [1, 0], S: [0, 1], W: [-1, 0] };
const OPPOSITE = { N: 'S', E: 'W', S: 'N', W: 'E' };

// How many open city edges the board gains by this placement (negative: it closes some).
function cityEdgesDelta(game, letter, p) {
  const q = p.rotation / 90;
  const cat = TILES[letter].sides;
  let delta = 0;
  SIDES.forEach((s, i) => {
    const mine = cat[(i - q + 4) % 4];
    const [dx, dy] = DELTA[s];
    const n = game.board.at(p.x + dx, p.y + dy);
    if (n) {
      if (n.sides[OPPOSITE[s]] === 'c') delta--;
    } else if (mine === 'c') {
      delta++;
    }
  });
  return delta;
}

// One move of `letter` on `game`, a meeple now and then; a discard if it fits nowhere.
// `closeCities` prefers placements that leave the fewest open city edges.
function randomMove(game, letter, pick, closeCities = false) {
  let ps = game.board.legalPlacements(letter);
  if (ps.length === 0) return { tile: letter, discard: true };
  if (closeCities) {
    const best = Math.min(...ps.map((p) => cityEdgesDelta(game, letter, p)));
    ps = ps.filter((p) => cityEdgesDelta(game, letter, p) === best);
  }
  const p = ps[pick(ps.length)];
  const move = { tile: letter, x: p.x, y: p.y, rotation: p.rotation };
  if (pick(3) > 0) {
    for (let tries = 0; tries < 4; tries++) {
      const candidate = { ...move, meeple: PORTS[pick(PORTS.length)] };
      if (game.check(candidate) === null) return candidate;
    }
  }
  return move;
}

function lateDiscard(players) {
  for (let seed = 1; seed < 2000; seed++) {
    const pick = rng(seed * 7 + players);
    const game = new Game(players);
    const bag = bagWithout({ C: 1 });
    const moves = [];
    let ok = true;
    for (let i = 0; i < 71; i++) {
      let letter;
      if (i === 71 - players) {
        letter = 'C';
        if (game.board.legalPlacements('C').length > 0) { ok = false; break; }
      } else {
        letter = bag.splice(pick(bag.length), 1)[0];
      }
      const m = randomMove(game, letter, pick, true);
      if (m.discard && i !== 71 - players) { ok = false; break; }  // only the planned discard
      if (game.play(m) !== null) throw new Error(`generator move refused: ${JSON.stringify(m)}`);
      moves.push(m);
    }
    if (ok) return { seed, moves };
  }
  throw new Error('no seed found');
}

// JSON with arrays of plain values (and moves) on one line each.
function pretty(v, indent = '') {
  const flat = (x) => x === null || typeof x !== 'object' || (Array.isArray(x) ? x.every((e) => e === null || typeof e !== 'object') : false);
  if (flat(v)) return JSON.stringify(v);
  const inner = `${indent}  `;
  if (Array.isArray(v)) {
    const oneLine = v.every((e) => flat(e) || (!Array.isArray(e) && Object.values(e).every(flat)));
    return `[\n${v.map((e) => inner + (oneLine ? JSON.stringify(e) : pretty(e, inner))).join(',\n')}\n${indent}]`;
  }
  return `{\n${Object.entries(v).map(([k, e]) => `${inner}${JSON.stringify(k)}: ${pretty(e, inner)}`).join(',\n')}\n${indent}}`;
}

function write(name, record) {
  writeFileSync(join(out, name), `${pretty(record)}\n`);
  console.log('wrote', name);
}

const expectOf = (record) => {
  const r = replay(record);
  if (r.error) throw new Error(`${r.error} at ${r.move}`);
  return r;
};

for (const players of [3]) {
  const { seed, moves } = lateDiscard(players);
  const base = { format: 'carcassonne-record/1', players, final: true, moves };
  const r = expectOf(base);
  write(`late_discard_empty_bag_${players}.json`, {
    format: base.format,
    players,
    final: true,
    note: `generated by tests/reference/make-records.mjs (seed ${seed}): move ${71 - players} discards C with the bag empty`,
    expect: { final_scores: r.final_scores, meeples_in_supply: r.meeples_in_supply, winners: r.winners, discard_at: 71 - players },
    moves,
  });
  write('game_over_after_last_tile.json', {
    format: base.format,
    players,
    final: true,
    note: 'the late-discard game plus one more move: nobody holds a tile any more',
    expect: { error: 'game_over', move: 71 },
    moves: [...moves, { tile: 'U', x: 100, y: 100, rotation: 0 }],
  });
}

for (const [n, seed] of [[12, 5], [30, 11], [55, 23]]) {
  const pick = rng(seed);
  const game = new Game(4);
  const bag = bagWithout({});
  const moves = [];
  while (moves.length < n) {
    const letter = bag.splice(pick(bag.length), 1)[0];
    const m = randomMove(game, letter, pick);
    if (game.play(m) !== null) throw new Error('generator move refused');
    moves.push(m);
  }
  const counts = {};
  for (const l of LETTERS) counts[l] = game.board.legalPlacements(l).length;
  const record = { format: 'carcassonne-record/1', players: 4, final: false, moves };
  const r = expectOf(record);
  write(`perft_midgame_${n}.json`, {
    format: record.format,
    players: 4,
    final: false,
    note: `generated by tests/reference/make-records.mjs: a random board after ${n} moves`,
    expect: { scores_after_move: r.scores_after_move, meeples_in_supply: r.meeples_in_supply, legal_placements: counts },
    moves,
  });
}
