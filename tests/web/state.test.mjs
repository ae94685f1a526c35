import test from 'node:test';
import assert from 'node:assert/strict';
import { initialStore, reduce, newEvents, isMyTurn, legalAt, legalCells, boardBounds, bagTotal, playerBySeat } from '../../web-client/js/game/state.js';

const baseState = () => ({
  room: 'abcdefghijk', phase: 'lobby',
  players: [{ seat: 0, name: 'Alice', color: 'red', score: 0, meeples: 7, connected: true, tile: null, host: true }],
  turn: null,
  board: [{ x: 0, y: 0, tile: 'D', rotation: 0, meeple: null }],
  bag: { left: 71, tiles: { A: 2, V: 9 } }, spectators: 0, events: [], chat: [], result: null,
});

function welcome(version = 3) {
  return reduce(initialStore(), { type: 'welcome', seat: 0, token: 'tok-123', version, state: baseState() });
}

test('welcome sets state, version, seat and hands back the token', () => {
  const r = welcome();
  assert.equal(r.store.version, 3);
  assert.equal(r.store.seat, 0);
  assert.equal(r.token, 'tok-123');
  assert.equal(r.changed, true);
  assert.equal(r.resync, false);
  assert.equal(r.store.state.players[0].name, 'Alice');
});

test('spectator welcome has no seat and no token', () => {
  const r = reduce(initialStore(), { type: 'welcome', seat: null, token: null, version: 1, state: baseState() });
  assert.equal(r.store.seat, null);
  assert.equal(r.token, undefined);
});

test('a sequence of patches applies in order', () => {
  let { store } = welcome(3);
  const p1 = reduce(store, { type: 'patch', version: 4, ops: [{ op: 'add', path: '/players/-', value: { seat: 1, name: 'Bob', color: 'blue', score: 0, meeples: 7, connected: true, tile: null, host: false } }] });
  assert.equal(p1.changed, true);
  store = p1.store;
  const p2 = reduce(store, { type: 'patch', version: 5, ops: [{ op: 'replace', path: '/phase', value: 'playing' }, { op: 'add', path: '/events/-', value: { id: 0, type: 'started' } }] });
  store = p2.store;
  assert.equal(store.version, 5);
  assert.equal(store.state.phase, 'playing');
  assert.equal(store.state.players.length, 2);
  assert.deepEqual(newEvents(p1.store.state, store.state), [{ id: 0, type: 'started' }]);
});

test('a version gap asks for a resync and ignores patches until the state comes', () => {
  let { store } = welcome(3);
  const gap = reduce(store, { type: 'patch', version: 5, ops: [{ op: 'replace', path: '/phase', value: 'playing' }] });
  assert.equal(gap.resync, true);
  assert.equal(gap.changed, false);
  assert.equal(gap.store.state.phase, 'lobby');
  store = gap.store;
  const more = reduce(store, { type: 'patch', version: 6, ops: [] });
  assert.equal(more.resync, false, 'only one resync request is outstanding');
  assert.equal(more.store.version, 3);
  const st = reduce(store, { type: 'state', version: 6, state: { ...baseState(), phase: 'playing' } });
  assert.equal(st.store.version, 6);
  assert.equal(st.store.awaitingResync, false);
  assert.equal(st.store.state.phase, 'playing');
  const next = reduce(st.store, { type: 'patch', version: 7, ops: [{ op: 'replace', path: '/spectators', value: 2 }] });
  assert.equal(next.store.state.spectators, 2);
});

test('a patch that fails to apply asks for a resync and keeps the old state', () => {
  const { store } = welcome(3);
  const before = JSON.stringify(store.state);
  const bad = reduce(store, { type: 'patch', version: 4, ops: [{ op: 'replace', path: '/phase', value: 'playing' }, { op: 'remove', path: '/nope' }] });
  assert.equal(bad.resync, true);
  assert.equal(bad.store.version, 3);
  assert.equal(JSON.stringify(bad.store.state), before);
});

test('an old or duplicate patch is ignored', () => {
  const { store } = welcome(3);
  const r = reduce(store, { type: 'patch', version: 3, ops: [{ op: 'replace', path: '/phase', value: 'x' }] });
  assert.equal(r.changed, false);
  assert.equal(r.resync, false);
  assert.equal(r.store.state.phase, 'lobby');
});

test('a patch before any welcome is ignored', () => {
  const r = reduce(initialStore(), { type: 'patch', version: 1, ops: [] });
  assert.equal(r.changed, false);
  assert.equal(r.resync, false);
});

test('errors are handed back', () => {
  const { store } = welcome();
  const r = reduce(store, { type: 'error', code: 'not_your_turn', message: 'wait' });
  assert.equal(r.error.code, 'not_your_turn');
  assert.equal(r.store, store);
});

test('turn helpers', () => {
  const { store } = welcome();
  const s = { ...store.state, phase: 'playing', turn: { number: 1, seat: 0, tile: 'V', legal: [
    { x: 1, y: 0, rotation: 0, meeples: ['S'] }, { x: 1, y: 0, rotation: 90, meeples: [] }, { x: -1, y: 0, rotation: 180, meeples: ['W'] },
  ] } };
  const st = { ...store, state: s };
  assert.equal(isMyTurn(st), true);
  assert.equal(isMyTurn({ ...st, seat: 1 }), false);
  assert.equal(legalAt(s, 1, 0).length, 2);
  assert.deepEqual(legalCells(s), [{ x: 1, y: 0, rotation: 0 }, { x: -1, y: 0, rotation: 180 }]);
  assert.deepEqual(boardBounds(s, legalCells(s)), { minX: -1, minY: 0, maxX: 1, maxY: 0 });
  assert.equal(bagTotal(s), 11);
});

test('playerBySeat finds a player by seat, not by index', () => {
  const s = { players: [{ seat: 1, name: 'B' }, { seat: 0, name: 'A' }] };
  assert.equal(playerBySeat(s, 0).name, 'A');
  assert.equal(playerBySeat(s, 1).name, 'B');
  assert.equal(playerBySeat(s, 2), null);
  assert.equal(playerBySeat(s, null), null);
  assert.equal(playerBySeat(null, 0), null);
});
