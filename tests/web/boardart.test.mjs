import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { lastPlacements, lastMarkup, tilesMarkup, draftMarkup, meeplesMarkup, cleanBoard, legalMarkup, previewMarkup } from '../../web-client/js/board/boardart.js';
import { spotLayout } from '../../web-client/js/board/spots.js';

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
  const spots = spotLayout(tiles.U, 90, ['N', 'EL'], 26).map((sp) => ({ ...sp, name: `meeple on the ${sp.kind}`, points: '"<b>' }));
  spots.push({ port: 'bad', figure: 'meeple', kind: 'road', x: 50, y: 50 });
  const d = draftMarkup({ x: 0, y: 1, tile: 'U', rotation: 90, spots, meeple: 'N', color: 'red', label: 'Your tile', turnFrom: 270 }, tiles, 26);
  assert.equal((d.match(/data-testid="meeple-spot"/g) ?? []).length, 2);
  assert.match(d, /<circle r="13"/);
  assert.match(d, /class="spot chosen" role="button" aria-pressed="true" tabindex="0" aria-label="meeple on the road · &quot;&lt;b&gt;"/);
  assert.match(d, /<title>meeple on the field · &quot;&lt;b&gt;<\/title>/, 'a tooltip, with the text escaped');
  assert.equal((d.match(/tabindex="0"/g) ?? []).length, 2, 'one tab stop for the tile, one for its spots');
  assert.match(d, /data-turn="180"/, 'from 270 to 90: half a turn clockwise');
  const same = draftMarkup({ x: 0, y: 1, tile: 'U', rotation: 90, spots: [], color: 'red', turnFrom: 90 }, tiles, 26);
  assert.match(same, /data-turn="0"/);
});

test('the preview of the tile held: at the cell, at a legal rotation; nothing for a rotation that is not one', () => {
  const def = tiles.D ?? Object.values(tiles)[0];
  const m = previewMarkup(def, 2, -1, 90);
  assert.match(m, /^<g class="preview" transform="translate\(200 -100\)">/);
  assert.match(m, /<(path|use)\b/);
  assert.equal(previewMarkup(def, 2, -1, 45), '');
  assert.equal(previewMarkup(null, 2, -1, 90), '');
});

test('legal cells are buttons with a name, one of them the tab stop', () => {
  const cells = [{ x: 1, y: 0, rotation: 0 }, { x: 0, y: 1, rotation: 90 }, { x: -1, y: 0, rotation: 0 }];
  const m = legalMarkup(cells, null, { labelOf: (c) => `square ${c.x} ${c.y}`, focusKey: '0,1' });
  assert.equal((m.match(/role="button"/g) ?? []).length, 3);
  assert.equal((m.match(/tabindex="0"/g) ?? []).length, 1);
  assert.match(m, /tabindex="0" aria-label="square 0 1"/);
  const first = legalMarkup(cells, null, { labelOf: () => 'x' });
  assert.match(first, /tabindex="0" aria-label="x" data-testid="cell" data-cell="1" data-x="1" data-y="0"/, 'without a focus, the first cell');
});
