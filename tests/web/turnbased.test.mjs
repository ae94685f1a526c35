import test from 'node:test';
import assert from 'node:assert/strict';
import { orderGames, waitingCount, timeLeft, describeGame } from '../../web-client/js/home/games.js';
import { titleFor, faviconFor } from '../../web-client/js/home/waiting.js';
import { adoptKeyFromHash, currentKey, KEY_NAME } from '../../web-client/js/platform/playerkey.js';

test('your turn first (nearest deadline first), then the others, then finished', () => {
  const games = ['a', 'b', 'c', 'd', 'e'].map((room) => ({ room }));
  const lines = new Map([
    ['a', { phase: 'finished', state: 'ok' }],
    ['b', { phase: 'playing', state: 'ok', mine: true, deadline: 5000 }],
    ['c', { phase: 'playing', state: 'ok', mine: false }],
    ['d', { phase: 'playing', state: 'ok', mine: true, deadline: 1000 }],
  ]);
  assert.deepEqual(orderGames(games, lines).map((g) => g.room), ['d', 'b', 'c', 'e', 'a']);
  assert.equal(waitingCount(lines), 2);
});

test('bank time left, title and favicon counts', () => {
  assert.deepEqual(timeLeft(26 * 3600000 + 5), ['tb.days', { n: 1, h: 2 }]);
  assert.deepEqual(timeLeft(3 * 3600000 + 7 * 60000), ['tb.hours', { h: 3, m: 7 }]);
  assert.deepEqual(timeLeft(-5), ['tb.minutes', { m: 0 }]);
  assert.equal(titleFor('Carcassonne', 0), 'Carcassonne');
  assert.equal(titleFor('Carcassonne', 3), '(3) Carcassonne');
  assert.equal(faviconFor(0), '/favicon.svg');
  assert.equal(faviconFor(12), '/favicon-9.svg');
});

test('a room info of protocol 1.4 gives the pace and the deadline', () => {
  const line = describeGame({ room: 'r', seat: 1 }, { phase: 'playing', pace: 'turn_based', players: [{ seat: 0 }, { seat: 1 }], turn: { seat: 1, deadline: 42 } });
  assert.equal(line.mine, true);
  assert.equal(line.turnBased, true);
  assert.equal(line.deadline, 42);
});

test('the transfer link\'s key is taken from the fragment, which is then dropped', () => {
  const m = new Map();
  const store = { get: (k) => m.get(k) ?? null, set: (k, v) => m.set(k, v), del: (k) => m.delete(k), keys: () => [...m.keys()] };
  const key = 'A'.repeat(43);
  let replaced = null;
  assert.equal(adoptKeyFromHash(store, { hash: `#key=${key}`, pathname: '/', search: '' }, { replaceState: (_s, _t, u) => { replaced = u; } }), true);
  assert.equal(currentKey(store), key);
  assert.equal(replaced, '/');
  assert.equal(adoptKeyFromHash(store, { hash: '#key=short', pathname: '/', search: '' }, null), false);
  m.set(KEY_NAME, 'not a key');
  assert.equal(currentKey(store), null);
});

test('the lobby\'s webhook: a message only for an http(s) address of 512 bytes at most and a known format', async () => {
  const { webhookMessage, HOOK_FORMATS } = await import('../../web-client/js/lobby/webhook.js');
  assert.deepEqual(HOOK_FORMATS, ['json', 'discord', 'ntfy']);
  assert.deepEqual(webhookMessage(' https://ntfy.example.org/carc ', 'ntfy'),
    { msg: { type: 'settings', webhook: { url: 'https://ntfy.example.org/carc', format: 'ntfy' } } });
  assert.equal(webhookMessage('http://192.168.1.9:8080/hook', 'json').msg.webhook.url, 'http://192.168.1.9:8080/hook', 'the server decides on plain http');
  assert.deepEqual(webhookMessage('', 'json'), { error: 'hook.empty' });
  assert.deepEqual(webhookMessage('ftp://example.org/x', 'json'), { error: 'hook.badUrl' });
  assert.deepEqual(webhookMessage('not a url', 'json'), { error: 'hook.badUrl' });
  assert.deepEqual(webhookMessage(`https://example.org/${'é'.repeat(250)}`, 'json'), { error: 'hook.tooLong' }, 'bytes, not characters');
  assert.equal(webhookMessage(`https://example.org/${'a'.repeat(492)}`, 'json').msg.webhook.url.length, 512);
  assert.deepEqual(webhookMessage('https://example.org/x', 'slack'), { error: 'hook.badFormat' });
});

test('"Tell me when it is my turn": offered to a seated player of a turn-based room, then says where it stands', async () => {
  const { notifyStatus } = await import('../../web-client/js/platform/notify.js');
  const base = { seated: true, turnBased: true, available: true, permission: 'default', subscribed: false };
  assert.equal(notifyStatus(base), 'ask');
  assert.equal(notifyStatus({ ...base, turnBased: false }), null, 'a live room: the title and the sound tell');
  assert.equal(notifyStatus({ ...base, seated: false }), null, 'a spectator has no turn');
  assert.equal(notifyStatus({ ...base, available: false }), null, 'no notifications in this browser');
  assert.equal(notifyStatus({ ...base, asking: true }), 'asking');
  assert.equal(notifyStatus({ ...base, permission: 'granted', subscribed: true }), 'on');
  assert.equal(notifyStatus({ ...base, permission: 'granted', subscribed: false }), 'ask', 'granted for the site, but nothing sent for this seat');
  assert.equal(notifyStatus({ ...base, permission: 'default', subscribed: true }), 'ask', 'the permission was taken back');
  assert.equal(notifyStatus({ ...base, permission: 'denied' }), 'blocked');
  assert.equal(notifyStatus({ ...base, outcome: 'unsupported' }), 'unsupported');
});
