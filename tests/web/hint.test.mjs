// Hints (docs/protocol-details.md): when the client may ask, which answer belongs to the turn on screen, the
// ghost of the hinted move (shared with the replay review's better move), and the H key.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { moveGhost, canAskHint, hintForTurn } from '../../web-client/js/hint.js';
import { roomKeyAction } from '../../web-client/js/keys.js';
import { DICTS } from '../../web-client/js/i18n.js';

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
