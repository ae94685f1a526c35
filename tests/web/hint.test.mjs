// Hints (docs/protocol-details.md): when the client may ask, which answer belongs to the turn on screen, the
// ghost of the hinted move (shared with the replay review's better move), and the H key.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { moveGhost, canAskHint, hintForTurn } from '../../web-client/js/turn/hint.js';
import { roomKeyAction } from '../../web-client/js/turn/keyboard.js';
import { DICTS } from '../../web-client/js/i18n/i18n.js';

const catalog = JSON.parse(readFileSync(new URL('./fixtures/tiles.json', import.meta.url)));
const tiles = Object.fromEntries(catalog.tiles.map((t) => [t.letter, t]));

const playing = (over = {}) => ({ phase: 'playing', settings: { hints: true }, turn: { number: 5, seat: 0, tile: 'D' }, ...over });

test('a hint may be asked on my turn in a running game with hints on, and only then', () => {
  assert.equal(canAskHint(playing(), { state: playing(), seat: 0 }), true);
  assert.equal(canAskHint(playing(), { state: playing(), seat: 1 }), false, 'not my turn');
  const off = playing({ settings: { hints: false } });
  assert.equal(canAskHint(off, { state: off, seat: 0 }), false, 'hints off');
  const over = playing({ phase: 'finished', turn: null });
  assert.equal(canAskHint(over, { state: over, seat: 0 }), false, 'game over');
  assert.equal(canAskHint(playing(), { state: playing(), seat: null }), false, 'a spectator');
});

test('an answer is shown only during the turn it was asked for', () => {
  const hint = { type: 'hint', turn: 5, move: { tile: 'D', x: 1, y: 0, rotation: 90 } };
  assert.equal(hintForTurn(hint, playing()), hint);
  assert.equal(hintForTurn(hint, playing({ turn: { number: 6, seat: 0, tile: 'E' } })), null, 'a later turn');
  assert.equal(hintForTurn(hint, playing({ phase: 'finished', turn: null })), null);
  assert.equal(hintForTurn(null, playing()), null);
});

test('the hinted move becomes a ghost tile with its figure on the chosen spot', () => {
  const g = moveGhost({ tile: 'D', x: 1, y: -2, rotation: 90, meeple: 'N' }, 'D', tiles.D, 'blue', 'label');
  assert.deepEqual([g.x, g.y, g.tile, g.rotation, g.color, g.label], [1, -2, 'D', 90, 'blue', 'label']);
  assert.equal(g.spots.length, 1, 'the figure is drawn');
  assert.ok(g.meeple, 'and chosen');
  const plain = moveGhost({ tile: 'D', x: 0, y: 1, rotation: 0 }, 'D', tiles.D, 'red', '');
  assert.deepEqual(plain.spots, []);
  assert.equal(plain.meeple, null);
  assert.equal(moveGhost({ tile: 'D', discard: true }, 'D', tiles.D, 'red', ''), null, 'a discard places nothing');
});

test('H asks for a hint on my turn', () => {
  const key = (k) => ({ key: k, tag: 'BODY', onBody: true });
  assert.equal(roomKeyAction(key('h'), { hasDraft: false, myTurn: true }), 'hint');
  assert.equal(roomKeyAction(key('H'), { hasDraft: true, myTurn: true }), 'hint');
  assert.equal(roomKeyAction(key('h'), { hasDraft: false, myTurn: false }), null);
});

test('every language has the hint strings', () => {
  for (const [code, dict] of Object.entries(DICTS)) {
    for (const k of ['hint.button', 'hint.asking', 'hint.title', 'hint.ghost', 'lobby.hints', 'end.hints', 'err.hints_off']) {
      assert.ok(dict[k], `${code}: ${k}`);
    }
  }
});

test('a click on the hint takes its move: its cell, its rotation and its figure', async () => {
  const { hintDraft } = await import('../../web-client/js/turn/hint.js');
  const legal = [
    { x: 0, y: -1, rotation: 0, meeples: [] }, { x: 0, y: -1, rotation: 180, meeples: ['S'] }, { x: 1, y: 0, rotation: 90, meeples: ['E'] },
  ];
  const state = { phase: 'playing', turn: { number: 2, seat: 0, tile: 'E', legal } };
  const d = hintDraft(state, { tile: 'E', x: 0, y: -1, rotation: 180, meeple: 'S' });
  assert.deepEqual([d.x, d.y, d.options[d.idx].rotation, d.meeple, d.pending], [0, -1, 180, 'S', false]);
  assert.equal(hintDraft(state, { tile: 'E', x: 0, y: -1, rotation: 180 }).meeple, null, 'no figure: none chosen');
  assert.equal(hintDraft(state, { tile: 'E', x: 0, y: -1, rotation: 0, meeple: 'S' }).meeple, null, 'a spot this rotation lacks is left out');
  assert.equal(hintDraft(state, { tile: 'E', x: 5, y: 5, rotation: 0 }), null, 'a cell no longer legal');
  assert.equal(hintDraft(state, { tile: 'E', discard: true }), null, 'a discard places nothing');
});

test('why a move: the points it completes for its player, what its figure claims, what it makes bigger', async () => {
  const { moveGains, reasonText, pointsNow } = await import('../../web-client/js/turn/why.js');
  const { setLanguage } = await import('../../web-client/js/i18n/i18n.js');
  setLanguage('en');
  // Seat 0's meeple in the start tile's city; E turned to face it closes a 2-tile city: 4.
  const mine = { board: [{ x: 0, y: 0, tile: 'D', rotation: 0, meeple: { at: 'N', seat: 0 } }] };
  const closes = moveGains(mine, tiles, 'E', { x: 0, y: -1, rotation: 180 }, 0);
  assert.deepEqual(closes.completes, [{ kind: 'city', points: 4 }]);
  assert.equal(pointsNow(closes), 4);
  assert.equal(reasonText(closes), 'Completes a city: +4 for you');
  // For seat 1 the same move completes seat 0's city: a gift, said as such.
  const gift = moveGains(mine, tiles, 'E', { x: 0, y: -1, rotation: 180 }, 1);
  assert.deepEqual([gift.completes, gift.gifts.map((g) => [g.kind, g.points, g.seats])], [[], [['city', 4, [0]]]]);
  assert.equal(reasonText(gift, (seats) => seats.map((s) => ['Ann', 'Ben'][s])), 'Completes a city for Ann (+4)');
  // A meeple on a road that goes on: what it claims and is worth so far.
  const empty = { board: [{ x: 0, y: 0, tile: 'D', rotation: 0, meeple: null }] };
  const claim = moveGains(empty, tiles, 'D', { x: 1, y: 0, rotation: 0, meeple: 'E' }, 0);
  assert.deepEqual([claim.claim.kind, claim.claim.tiles, claim.claim.points, claim.claim.complete], ['road', 2, 2, false]);
  assert.match(reasonText(claim), /^Meeple on the road, 2 tiles: worth 2 points so far$/);
  // Onto the player's own open road without a figure: it makes it bigger.
  const road = { board: [{ x: 0, y: 0, tile: 'D', rotation: 0, meeple: { at: 'E', seat: 0 } }] };
  const grows = moveGains(road, tiles, 'D', { x: 1, y: 0, rotation: 0 }, 0);
  assert.deepEqual(grows.grows, [{ kind: 'road', tiles: 2 }]);
  assert.equal(reasonText(grows), 'Makes your road bigger (2 tiles)');
  // Nothing of the kind: said plainly.
  assert.match(reasonText(moveGains(empty, tiles, 'E', { x: 0, y: 1, rotation: 0 }, 0)), /^No points at once/);
  assert.equal(moveGains(empty, tiles, 'Q9', { x: 0, y: 1, rotation: 0 }, 0), null, 'an unknown tile');
});
