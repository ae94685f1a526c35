// The client's feature map (web-client/js/game/features.js) and log narration (narrate.js),
// checked against the independent reference rules (web-client/js/game/rules.js): the features the
// map sees completed, scored as docs/rules.md says, give the reference's score after every move.

import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { FeatureMap, acrossPort } from '../../web-client/js/game/features.js';
import { narrate, finalScorings } from '../../web-client/js/game/narrate.js';
import { Game } from '../../web-client/js/game/rules.js';
import { randomGame } from '../reference/random-game.mjs';

const catalog = JSON.parse(readFileSync(new URL('./fixtures/tiles.json', import.meta.url)));
const tiles = Object.fromEntries(catalog.tiles.map((t) => [t.letter, t]));
const START = { tile: 'D', x: 0, y: 0, rotation: 0, meeple: null, seat: null };

test('the port across an edge', () => {
  assert.equal(acrossPort('N'), 'S');
  assert.equal(acrossPort('NL'), 'SR');
  assert.equal(acrossPort('NR'), 'SL');
  assert.equal(acrossPort('EL'), 'WR');
  assert.equal(acrossPort('WL'), 'ER');
});

test('a road closed by two tiles, and who owns it', () => {
  const map = new FeatureMap(tiles);
  map.place(START); // D: road E-W
  // A (monastery, road to the south) at (1, 0) turned 90: its road ends on the west side.
  const a = map.place({ x: 1, y: 0, tile: 'A', rotation: 90, meeple: 'W', seat: 1 });
  assert.equal(a.completed.length, 0);
  assert.ok(a.claimed >= 0);
  assert.deepEqual(map.owners(a.claimed), [1]);
  assert.equal(map.feature(a.claimed).tiles, 2);
  // Another A at (-1, 0) turned 270: its road ends on the east side, closing the road.
  const b = map.place({ x: -1, y: 0, tile: 'A', rotation: 270, meeple: null, seat: 0 });
  const road = b.completed.find((f) => f.kind === 'road');
  assert.ok(road, 'the road is closed at both ends');
  assert.equal(road.tiles, 3);
  assert.deepEqual(road.owners, [1]);
  assert.equal(map.occupied().length, 0, 'the meeple went home');
});

function mapScores(record) {
  // Replays a record in the reference (for the seat of each move) and in the map.
  const game = new Game(record.players);
  const map = new FeatureMap(tiles);
  map.place(START);
  const scores = new Array(record.players).fill(0);
  const after = [];
  for (const m of record.moves) {
    const seat = game.turn;
    assert.equal(game.play(m), null);
    if (!m.discard) {
      const r = map.place({ ...m, meeple: m.meeple ?? null, seat });
      for (const f of r.completed) {
        const points = f.kind === 'road' ? f.tiles : f.kind === 'city' ? 2 * f.tiles + 2 * f.pennants : 9;
        // A monastery only scores for the monk on it; roads and cities for the majority.
        if (f.kind === 'monastery') { for (const mm of f.meeples) scores[mm.seat] += points; }
        else for (const s of f.owners) scores[s] += points;
      }
    }
    after.push([...scores]);
  }
  return { after, map, game };
}

test('completed features and their owners match the reference rules over random games', () => {
  for (const [players, seed] of [[2, 1], [3, 7], [4, 42], [5, 99], [5, 2024]]) {
    const record = randomGame(players, seed);
    const { after, map, game } = mapScores(record);
    // The reference's own scores after each move.
    const ref = new Game(players);
    record.moves.forEach((m, i) => {
      ref.play(m);
      assert.deepEqual(after[i], ref.scores, `seed ${seed}, move ${i}`);
    });
    // Meeples still on the board are those the reference still has out.
    const out = map.occupied().reduce((n, f) => n + f.meeples.length, 0);
    assert.equal(out, game.supply.reduce((n, s) => n + (7 - s), 0), `seed ${seed}: meeples on the board`);
  }
});

function ev(list) {
  return list.map((e, id) => ({ id, ...e }));
}

test('narration: claims, extensions, closed features, and no zero-point final lines', () => {
  const events = ev([
    { type: 'started' },
    { type: 'placed', turn: 1, seat: 0, tile: 'E', x: 0, y: -1, rotation: 180, meeple: 'S' }, // city joins D's city: 2 tiles, closed
    { type: 'scored', turn: 1, kind: 'city', end: false, points: 4, seats: [0], meeples: [1, 0], tiles: 2, pennants: 0, cities: 0, cells: [{ x: 0, y: 0 }, { x: 0, y: -1 }] },
    { type: 'placed', turn: 2, seat: 1, tile: 'U', x: 1, y: 0, rotation: 0, meeple: 'E' }, // claims the road: 2 tiles
    { type: 'placed', turn: 3, seat: 0, tile: 'U', x: 2, y: 0, rotation: 0, meeple: null }, // extends seat 1's road: 3 tiles
    { type: 'placed', turn: 4, seat: 1, tile: 'U', x: 3, y: 0, rotation: 0, meeple: null }, // extends their own road: 4 tiles
    { type: 'scored', turn: 4, kind: 'road', end: true, points: 4, seats: [1], meeples: [0, 1], tiles: 4, pennants: 0, cities: 0, cells: [{ x: 0, y: 0 }, { x: 1, y: 0 }, { x: 2, y: 0 }, { x: 3, y: 0 }] },
    { type: 'scored', turn: 4, kind: 'field', end: true, points: 0, seats: [0], meeples: [1, 0], tiles: 3, pennants: 0, cities: 0, cells: [{ x: 1, y: 0 }] },
    { type: 'game_over', final_scores: [4, 4], winners: [0, 1] },
  ]);
  const { lines, map } = narrate(events, tiles);
  const byId = Object.fromEntries(lines.map((l) => [l.id, l]));
  assert.equal(byId[1].what, 'claimed');
  assert.deepEqual(byId[1].feature, { kind: 'city', tiles: 2 });
  assert.equal(byId[2].type, 'closed');
  assert.equal(byId[2].placer, 0);
  assert.deepEqual(byId[2].seats, [0]);
  assert.equal(byId[3].what, 'claimed');
  assert.deepEqual(byId[3].feature, { kind: 'road', tiles: 2 });
  assert.equal(byId[4].what, 'extendedOther');
  assert.deepEqual(byId[4].owners, [1]);
  assert.deepEqual(byId[4].feature, { kind: 'road', tiles: 3 });
  assert.deepEqual(byId[4].cells[0], [2, 0], 'the tile placed comes first');
  assert.equal(byId[5].what, 'extended');
  assert.deepEqual(byId[5].feature, { kind: 'road', tiles: 4 });
  assert.equal(byId[6].type, 'final');
  assert.equal(byId[7], undefined, 'a final scoring worth nothing has no line');
  const finals = finalScorings(events, map);
  assert.equal(finals.length, 2);
  assert.deepEqual(finals[0].meeples.map((m) => [m.seat, m.x, m.y, m.at]), [[1, 1, 0, 'E']]);
});
