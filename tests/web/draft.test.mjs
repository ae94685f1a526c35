import test from 'node:test';
import assert from 'node:assert/strict';
import {
  turnKey, startDraft, rotateDraft, toggleMeeple, withoutMeeple, markPending, keepDraft, stepTarget, draftView, playMessage, canRotate, cycleMeeple,
} from '../../web-client/js/turn/draft.js';
import { legalCells } from '../../web-client/js/game/state.js';

const playing = (turn = {}) => ({
  room: 'abcdefghijk', phase: 'playing',
  players: [
    { seat: 0, name: 'A', color: 'red', score: 0, meeples: 7, connected: true, tile: 'E', host: true },
    { seat: 1, name: 'B', color: 'blue', score: 0, meeples: 7, connected: true, tile: 'V', host: false },
  ],
  turn: {
    number: 1, seat: 0, tile: 'E',
    legal: [
      { x: 0, y: -1, rotation: 180, meeples: ['S', 'N'] },
      { x: 0, y: -1, rotation: 0, meeples: ['N'] },
      { x: 1, y: 0, rotation: 90, meeples: ['E'] },
      { x: -1, y: 0, rotation: 270, meeples: [] },
      { x: 0, y: 1, rotation: 0, meeples: ['N'] },
    ],
    ...turn,
  },
  board: [{ x: 0, y: 0, tile: 'D', rotation: 0, meeple: null }],
  bag: { left: 69, tiles: {} }, spectators: 0, events: [], chat: [], result: null,
});
const store = (state, seat = 0) => ({ version: 7, state, seat, joined: true, awaitingResync: false });

test('a draft starts only on a legal cell, on its first legal rotation', () => {
  const s = playing();
  assert.equal(startDraft(s, 5, 5), null);
  const d = startDraft(s, 0, -1);
  assert.deepEqual([d.x, d.y, d.idx, d.meeple, d.pending], [0, -1, 0, null, false]);
  assert.equal(d.options.length, 2);
  assert.equal(d.turnKey, turnKey(s));
  assert.equal(turnKey(s), '1:0:E');
  assert.equal(turnKey({ phase: 'lobby' }), 'lobby');
});

test('rotating cycles the legal rotations and drops a meeple the new one cannot take', () => {
  const s = playing();
  let d = toggleMeeple(startDraft(s, 0, -1), 'S');
  assert.equal(d.meeple, 'S');
  d = rotateDraft(d);
  assert.equal(d.idx, 1);
  assert.equal(d.meeple, null, 'rotation 0 has no S spot');
  d = toggleMeeple(d, 'N');
  d = rotateDraft(d);
  assert.equal(d.idx, 0);
  assert.equal(d.meeple, 'N', 'N is a spot of both rotations: kept');
  const single = startDraft(s, 1, 0);
  assert.equal(canRotate(single), false);
  assert.equal(rotateDraft(single), single, 'one rotation: nothing to do');
});

test('meeple choice toggles, "no meeple" clears, a sent draft does not change', () => {
  let d = startDraft(playing(), 1, 0);
  d = toggleMeeple(d, 'E');
  assert.equal(d.meeple, 'E');
  assert.equal(toggleMeeple(d, 'E').meeple, null);
  assert.equal(withoutMeeple(d).meeple, null);
  const sent = markPending(d);
  assert.equal(sent.pending, true);
  assert.equal(toggleMeeple(sent, 'E'), sent);
  assert.equal(withoutMeeple(sent), sent);
  assert.equal(rotateDraft(sent), sent);
  assert.equal(markPending(sent, false).pending, false);
  assert.equal(d.pending, false, 'drafts are values: the original is unchanged');
});

test('a draft survives a state change only within the same turn, on a still legal cell', () => {
  const s = playing();
  const d = startDraft(s, 0, -1);
  assert.equal(keepDraft(d, store(s)), d);
  assert.equal(keepDraft(d, store(playing({ number: 2 }))), null, 'another turn');
  assert.equal(keepDraft(d, store(s, 1)), null, 'not my turn');
  assert.equal(keepDraft(d, store(playing({ legal: [{ x: 1, y: 0, rotation: 90, meeples: [] }] }))), null, 'cell no longer legal');
  assert.equal(keepDraft(d, store({ ...s, phase: 'finished' })), null);
  assert.equal(keepDraft(null, store(s)), null);
});

test('arrow keys go to the nearest legal cell in their direction', () => {
  const cells = legalCells(playing());
  assert.equal(cells.length, 4);
  // Without a draft: from the origin given (the middle of the view), in the key's direction.
  assert.deepEqual(stepTarget(cells, null, 'ArrowUp'), { x: 0, y: -1, rotation: 180 });
  assert.deepEqual(stepTarget(cells, null, 'ArrowLeft', { x: 0.4, y: 0.3 }), { x: -1, y: 0, rotation: 270 });
  assert.deepEqual(stepTarget(cells, null, 'ArrowDown', { x: 0.4, y: -0.3 }), { x: 0, y: 1, rotation: 0 });
  // A first press with nothing that way still picks the cell nearest the origin.
  assert.deepEqual(stepTarget(cells, null, 'ArrowUp', { x: 0.2, y: -3 }), { x: 0, y: -1, rotation: 180 });
  assert.deepEqual(stepTarget(cells, null, 'ArrowDown', { x: 0.8, y: 5 }), { x: 0, y: 1, rotation: 0 });
  const from = { x: 0, y: -1 };
  assert.deepEqual(stepTarget(cells, from, 'ArrowRight'), { x: 1, y: 0, rotation: 90 });
  assert.deepEqual(stepTarget(cells, from, 'ArrowLeft'), { x: -1, y: 0, rotation: 270 });
  assert.deepEqual(stepTarget(cells, from, 'ArrowDown'), { x: 0, y: 1, rotation: 0 }, 'straight ahead beats the sides');
  assert.equal(stepTarget(cells, from, 'ArrowUp'), null, 'nothing above');
  assert.equal(stepTarget([], null, 'ArrowUp'), null);
});

test('the board view and the play message of a draft', () => {
  const s = playing();
  let d = toggleMeeple(startDraft(s, 0, -1), 'S');
  assert.deepEqual(draftView(d, store(s)), { x: 0, y: -1, tile: 'E', rotation: 180, spots: ['S', 'N'], meeple: 'S', color: 'red' });
  assert.deepEqual(draftView(markPending(d), store(s)).spots, ['S'], 'once sent, only the chosen spot');
  assert.deepEqual(draftView(markPending(withoutMeeple(d)), store(s)).spots, []);
  assert.equal(draftView(null, store(s)), null);
  assert.deepEqual(playMessage(d, 7), { type: 'play', version: 7, x: 0, y: -1, rotation: 180, meeple: 'S' });
  d = rotateDraft(withoutMeeple(d));
  assert.deepEqual(playMessage(d, 8), { type: 'play', version: 8, x: 0, y: -1, rotation: 0, meeple: null });
});

test('the meeple key cycles through the spots of the rotation, then none', () => {
  let d = startDraft(playing(), 0, -1); // rotation 180: spots S, N
  d = cycleMeeple(d);
  assert.equal(d.meeple, 'S');
  d = cycleMeeple(d);
  assert.equal(d.meeple, 'N');
  d = cycleMeeple(d);
  assert.equal(d.meeple, null);
  assert.equal(cycleMeeple(markPending(d)).meeple, null, 'not once sent');
  assert.equal(cycleMeeple(null), null);
});

test('an unsent placement is kept for a reload and comes back on the same turn only, if the board allows it', async () => {
  const { savedDraft, restoreDraft, startDraft, markPending } = await import('../../web-client/js/turn/draft.js');
  const legal = [{ x: 1, y: 0, rotation: 0, meeples: ['E'] }, { x: 1, y: 0, rotation: 90, meeples: ['N', 'S'] }];
  const state = { phase: 'playing', turn: { number: 4, seat: 0, tile: 'D', legal } };
  const d = { ...startDraft(state, 1, 0), idx: 1, meeple: 'S' };
  const saved = savedDraft(d);
  assert.deepEqual(saved, { turnKey: '4:0:D', x: 1, y: 0, rotation: 90, meeple: 'S', figure: null });
  const back = restoreDraft(state, JSON.parse(JSON.stringify(saved)));
  assert.deepEqual([back.x, back.y, back.options[back.idx].rotation, back.meeple, back.pending], [1, 0, 90, 'S', false]);
  assert.equal(savedDraft(markPending(d)), null, 'a sent move is not kept');
  assert.equal(restoreDraft({ ...state, turn: { ...state.turn, number: 5 } }, saved), null, 'another turn');
  assert.equal(restoreDraft(state, { ...saved, rotation: 180 }), null, 'a rotation the cell no longer has');
  assert.equal(restoreDraft(state, { ...saved, meeple: 'W' }).meeple, null, 'a spot it no longer has is left out');
  assert.equal(restoreDraft(state, null), null);
  assert.equal(restoreDraft(state, 'junk'), null);
});
