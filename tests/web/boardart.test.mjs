import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { lastPlacements, lastMarkup, tilesMarkup, draftMarkup, meeplesMarkup, cleanBoard } from '../../web-client/js/boardart.js';

const catalog = JSON.parse(readFileSync(new URL('./fixtures/tiles.json', import.meta.url)));
const tiles = Object.fromEntries(catalog.tiles.map((t) => [t.letter, t]));

const state = {
  players: [0, 1, 2].map((seat) => ({ seat, color: ['red', 'blue', 'black'][seat] })),
  board: [
    { x: 0, y: 0, tile: 'D', rotation: 0, meeple: null },
    { x: 1, y: 0, tile: 'U', rotation: 0, meeple: { seat: 0, at: 'E' } },
    { x: 2, y: 0, tile: 'U', rotation: 0, meeple: { seat: 9, at: '<script>' } },
    { x: 3, y: 0, tile: 'U', rotation: 0, meeple: null },
  ],
  events: [
    { id: 0, type: 'started' },
    { id: 1, type: 'placed', seat: 0, x: 1, y: 0 },
    { id: 2, type: 'placed', seat: 1, x: 2, y: 0 },
    { id: 3, type: 'placed', seat: 0, x: 3, y: 0 },
  ],
};

test('each player\'s last placement, the newest last', () => {
  assert.deepEqual(lastPlacements(state), [
    { seat: 1, x: 2, y: 0, newest: false },
    { seat: 0, x: 3, y: 0, newest: true },
  ]);
  const m = lastMarkup(state);
  assert.equal((m.match(/data-testid="last-placed"/g) ?? []).length, 1);
  assert.equal((m.match(/data-testid="recent-placed"/g) ?? []).length, 1);
  assert.match(m, /stroke="#D55E00"/, 'in the player\'s colour');
  assert.match(m, /last-halo/, 'over a halo');
});

test('markup: the fresh tile slides, bad meeples are dropped, spots have the ring size asked', () => {
  const board = cleanBoard(state);
  assert.equal(board[2].meeple, null, 'a malformed meeple never reaches the markup');
  const t = tilesMarkup(board, tiles, 3);
  assert.equal((t.match(/class="fresh"/g) ?? []).length, 1);
  assert.equal((t.match(/data-testid="tile"/g) ?? []).length, 4);
  assert.equal((meeplesMarkup(board, tiles, state).match(/data-testid="board-meeple"/g) ?? []).length, 1);
  const d = draftMarkup({ x: 0, y: 1, tile: 'U', rotation: 90, spots: ['N', 'EL', 'bad'], meeple: 'N', color: 'red' }, tiles, 26);
  assert.equal((d.match(/data-testid="meeple-spot"/g) ?? []).length, 2);
  assert.match(d, /<circle r="13"/);
  assert.match(d, /class="spot chosen" data-spot="N"/);
});
