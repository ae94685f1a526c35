import test from 'node:test';
import assert from 'node:assert/strict';
import { safeStorage, KEYS } from '../../web-client/js/platform/storage.js';
import { knownGames, rememberGame, forgetGame, describeGame, nextSeat } from '../../web-client/js/home/games.js';
import { randomGame } from '../reference/random-game.mjs';

function memory() {
  const m = new Map();
  return safeStorage(() => ({
    get length() { return m.size; },
    key: (i) => [...m.keys()][i] ?? null,
    getItem: (k) => (m.has(k) ? m.get(k) : null),
    setItem: (k, v) => { m.set(k, String(v)); },
    removeItem: (k) => { m.delete(k); },
  }));
}

test('the games this browser holds a seat in, the most recently seen first', () => {
  const s = memory();
  s.set(KEYS.token('roomOld_1234'), 'tok-a');
  s.set(KEYS.token('roomNew_5678'), 'tok-b');
  s.set(KEYS.token('noNote_9999'), 'tok-c');
  s.set(KEYS.token('bad id!'), 'tok-d');
  s.set(KEYS.token('empty_00000'), '');
  s.set('carc.name', 'Alice');
  s.set(KEYS.game('watchedOnly'), JSON.stringify({ seat: 1, name: 'x', updated: 9 }));
  rememberGame(s, 'roomOld_1234', { seat: 0, name: 'Alice' }, 1000);
  rememberGame(s, 'roomNew_5678', { seat: 2, name: 'Al' }, 2000);
  s.set(KEYS.game('noNote_9999'), '{not json');
  assert.deepEqual(knownGames(s), [
    { room: 'roomNew_5678', seat: 2, name: 'Al', updated: 2000 },
    { room: 'roomOld_1234', seat: 0, name: 'Alice', updated: 1000 },
    { room: 'noNote_9999', seat: null, name: null, updated: 0 },
  ]);
  forgetGame(s, 'roomNew_5678');
  assert.equal(s.get(KEYS.token('roomNew_5678')), null);
  assert.equal(s.get(KEYS.game('roomNew_5678')), null);
  assert.deepEqual(knownGames(s).map((g) => g.room), ['roomOld_1234', 'noNote_9999']);
  assert.equal(s.get(KEYS.token('roomOld_1234')), 'tok-a', 'other games keep their seat');
});

test('whose turn after a record, discards included', () => {
  assert.equal(nextSeat({ players: 3, moves: [] }), 0);
  assert.equal(nextSeat({ players: 3, moves: [{ tile: 'E', x: 0, y: -1, rotation: 180, meeple: 'S' }] }), 1);
  // Seat 1 discards C and keeps the turn.
  assert.equal(nextSeat({
    players: 3,
    moves: [{ tile: 'E', x: 0, y: -1, rotation: 180, meeple: 'S' }, { tile: 'C', discard: true }],
  }), 1);
  assert.equal(nextSeat(randomGame(2, 5)), null, 'nobody plays after the last tile');
  assert.equal(nextSeat({ players: 9, moves: [] }), null);
  assert.equal(nextSeat({ players: 2, moves: [{ tile: 'E', x: 7, y: 7, rotation: 0 }] }), null);
});

test('one line of the list', () => {
  const game = { room: 'r1', seat: 1, name: 'Bob', updated: 1 };
  const info = {
    room: 'r1', phase: 'playing', spectators: 0,
    players: [{ seat: 0, name: 'Ann', connected: true }, { seat: 1, name: 'Bob', connected: false }, { seat: 2, name: 'Bot 3 (easy)', connected: true, bot: 'easy' }],
  };
  assert.deepEqual(describeGame(game, info, { turnSeat: 1 }), {
    room: 'r1', state: 'ok', phase: 'playing',
    players: [{ seat: 0, name: 'Ann', bot: null, me: false }, { seat: 1, name: 'Bob', bot: null, me: true }, { seat: 2, name: 'Bot 3 (easy)', bot: 'easy', me: false }],
    turnSeat: 1, mine: true, replay: false, turnBased: false, deadline: null,
  });
  assert.equal(describeGame(game, info, { turnSeat: 0 }).mine, false);
  assert.equal(describeGame(game, { ...info, turn: { seat: 2 } }, { turnSeat: 0 }).turnSeat, 2, 'the server\'s turn wins');
  const done = describeGame(game, { ...info, phase: 'finished' }, { turnSeat: 1 });
  assert.deepEqual([done.replay, done.turnSeat, done.mine], [true, null, false]);
  assert.equal(describeGame(game, { ...info, phase: 'lobby' }).turnSeat, null);
  assert.equal(describeGame(game, null).state, 'gone');
  assert.equal(describeGame(game, null, { offline: true }).state, 'offline');
  assert.deepEqual(describeGame(game, { phase: 'weird', players: 'no' }).players, []);
});
