// The Princess & the Dragon's board layer (docs/web-client-expansions.md, "The Princess & the
// Dragon"): the dragon's last move stays drawn after it has ended, until the next placement
// (computer players step at once: without it a player saw the dragon jump and figures
// vanish); a portal spot two figures may take shows one ring, the picked figure's (two rings
// on one spot covered each other, and a click took the big meeple's).

import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { cleanCatalog } from '../../web-client/js/tiles/tile-catalog.js';
import { cleanBoard, expansionLayerMarkup } from '../../web-client/js/board/boardart.js';
import { lastDragonMove } from '../../web-client/js/expansions/princess/dragon.js';
import { shownChoices } from '../../web-client/js/expansions/princess/board-layer.js';

const { tiles } = cleanCatalog(JSON.parse(readFileSync(new URL('./fixtures/tiles-princess.json', import.meta.url))));
const step = (id, seat, n, from, to, eaten = []) => ({ id, type: 'dragon_step', turn: 7, seat, step: n, from, to, eaten });
// The worked example's move 6: P12 placed at (3,0); two steps (the second ate seat 0's monk), then the next turn.
const events = [
  { id: 0, type: 'started' },
  { id: 5, type: 'placed', turn: 7, seat: 0, tile: 'P12', x: 3, y: 0, rotation: 0, meeple: null },
  step(6, 0, 1, { x: -1, y: 0 }, { x: 0, y: 0 }),
  step(7, 1, 2, { x: 0, y: 0 }, { x: 0, y: 1 }, [{ seat: 0, x: 0, y: 1, at: 'C' }]),
];
const state = {
  phase: 'playing', players: [{ seat: 0, color: 'red' }, { seat: 1, color: 'blue' }], events, dragon: { x: 0, y: 1 }, fairy: null,
  board: [{ x: 0, y: 0, tile: 'D', rotation: 0, meeples: [] }, { x: 0, y: 1, tile: 'B', rotation: 0, meeples: [] }, { x: -1, y: 0, tile: 'P5', rotation: 0, meeples: [] }, { x: 3, y: 0, tile: 'P12', rotation: 0, meeples: [] }],
  turn: { number: 8, seat: 1, tile: 'A', stage: 'place', legal: [], fairy: [] },
};

test('after the move: its path from where it began through each step, and where it ate', () => {
  assert.deepEqual(lastDragonMove(state), { path: [{ x: -1, y: 0 }, { x: 0, y: 0 }, { x: 0, y: 1 }], steps: 2, eaten: [{ x: 0, y: 1 }] });
  // Scorings and the fairy's point after the move do not end it; the next placement or discard does.
  assert.equal(lastDragonMove({ ...state, events: [...events, { id: 8, type: 'scored', turn: 8, feature: 'fairy', points: 1, seats: [1] }] }).steps, 2);
  for (const type of ['placed', 'discarded']) assert.equal(lastDragonMove({ ...state, events: [...events, { id: 9, type, turn: 8, seat: 1, tile: 'A', x: 4, y: 0, rotation: 0 }] }), null, `a ${type} tile ends it`);
  // A later move in the same turn (the builder's extra part) shows only its own steps.
  const again = [...events, step(8, 0, 1, { x: 0, y: 1 }, { x: 0, y: 0 })];
  assert.deepEqual(lastDragonMove({ ...state, events: again }).path, [{ x: 0, y: 1 }, { x: 0, y: 0 }]);
  assert.equal(lastDragonMove({ ...state, turn: { ...state.turn, stage: 'dragon' } }), null, 'during a move the stage draws it');
  assert.equal(lastDragonMove({ ...state, phase: 'finished' }), null);
  assert.equal(lastDragonMove({ ...state, events: [{ id: 0, type: 'started' }] }), null, 'no move yet');
  assert.equal(lastDragonMove({ ...state, events: [...events.slice(0, 2), step(6, 0, 1, null, { x: 0, y: 0 })] }), null, 'a malformed step is not drawn');
});

test('the board draws it faint under the figures\' buttons, with a ring where it ate', () => {
  const svg = expansionLayerMarkup(state, cleanBoard(state), tiles, { seat: 1 });
  assert.match(svg, /<polyline class="dragon-path done" data-testid="dragon-last-path" data-steps="2" points="-50 50 50 50 50 150"\/>/);
  assert.match(svg, /data-testid="dragon-ate" data-x="0" data-y="1"/);
  assert.doesNotMatch(svg, /data-testid="dragon-path"/, 'not the path of a move under way');
});

test('the portal\'s spots: one ring per spot, the picked figure\'s, else the meeple\'s', () => {
  const entry = { x: 2, y: 0, rotation: 0, meeples: ['N'], figures: { big: ['N'] }, princess: [], portal: [{ x: 0, y: 0, meeples: ['N', 'WR'], figures: { big: ['N', 'WR'], abbot: [] } }, { x: 0, y: 1, meeples: [], figures: { abbot: ['C'] } }] };
  const portalState = { ...state, events: [], turn: { ...state.turn, seat: 1, legal: [entry] } };
  const rings = (figure, choice = null) => [...expansionLayerMarkup(portalState, cleanBoard(portalState), tiles, { seat: 1, entry, turn: portalState.turn, figure, choice })
    .matchAll(/data-action="choose:([^"]+)"/g)].map((m) => m[1]);
  assert.deepEqual(rings('meeple'), ['portal:0,0,N', 'portal:0,0,WR', 'portal:0,1,C,abbot'], 'the meeple\'s, and the abbot\'s where no meeple may go');
  assert.deepEqual(rings('big'), ['portal:0,0,N,big', 'portal:0,0,WR,big', 'portal:0,1,C,abbot']);
  assert.deepEqual(rings(null), rings('meeple'), 'no picker: the meeple\'s');
  assert.deepEqual(rings('meeple', 'portal:0,0,N,big'), ['portal:0,0,N,big', 'portal:0,0,WR,big'].concat(['portal:0,1,C,abbot']), 'a chosen figure\'s rings stay');
  assert.deepEqual(shownChoices(['princess:0,0,N', 'fairy:0,0,N', 'portal:0,0,N'], 'meeple'), ['princess:0,0,N', 'fairy:0,0,N', 'portal:0,0,N'], 'other kinds are not folded');
});
