// The start page's community parts without a browser (docs/community.md): an open game's
// line of facts, what a name's answer means, and the profile name read with the key.
import test from 'node:test';
import assert from 'node:assert/strict';
import { setLanguage } from '../../web-client/js/i18n/i18n.js';
import { gameFacts } from '../../web-client/js/home/opengames.js';
import { nameOutcome } from '../../web-client/js/home/names.js';
import { profileName, KEY_NAME } from '../../web-client/js/platform/playerkey.js';

const memory = (init = {}) => {
  const m = new Map(Object.entries(init));
  return { get: (k) => m.get(k) ?? null, set: (k, v) => m.set(k, String(v)), del: (k) => m.delete(k) };
};

test('an open game\'s facts: seats, expansions or the base game, the pace and its clock', () => {
  setLanguage('en');
  const live = { seats_taken: 2, seats: 5, expansions: [], pace: 'live', turn_seconds: null };
  assert.deepEqual(gameFacts(live), ['2/5 seated', 'Base game', 'Live']);
  assert.match(gameFacts({ ...live, turn_seconds: 60 })[2], /^Live, .+ a turn$/);
  const tb = { seats_taken: 1, seats: 6, expansions: ['inns', 'river'], pace: 'turn_based', bank_seconds: 259200, increment_seconds: 86400 };
  const [seats, exps, pace] = gameFacts(tb);
  assert.equal(seats, '1/6 seated');
  assert.match(exps, /Inns/);
  assert.match(exps, /River/);
  assert.match(pace, /^Turn-based: a bank of 3 d, 1 d after each move$/);
  setLanguage('de');
  assert.deepEqual(gameFacts(live), ['2/5 Plätze besetzt', 'Grundspiel', 'Live']);
  setLanguage('en');
});

test('a name\'s answer: saved, too soon, refused, failed', () => {
  assert.equal(nameOutcome(200, { name: 'Ann' }), 'name.saved');
  assert.equal(nameOutcome(429, { error: 'too_soon' }), 'name.tooSoon');
  assert.equal(nameOutcome(400, { error: 'bad_name' }), 'name.bad');
  assert.equal(nameOutcome(503, null), 'name.failed');
  assert.equal(nameOutcome(429, { error: 'rate_limited' }), 'name.failed');
});

test('the profile name: asked with the key in a header only, none without a key or an answer', async () => {
  const key = 'k'.repeat(43);
  const asked = [];
  const fetchFn = async (url, opts) => {
    asked.push({ url, auth: opts?.headers?.Authorization });
    return { ok: true, json: async () => ({ player: 'p', name: 'Ann', names: [] }) };
  };
  assert.equal(await profileName(memory(), fetchFn), null);
  assert.equal(asked.length, 0, 'no key: nothing asked');
  assert.equal(await profileName(memory({ [KEY_NAME]: key }), fetchFn), 'Ann');
  assert.deepEqual(asked, [{ url: '/api/me/name', auth: `Bearer ${key}` }]);
  const none = async () => ({ ok: true, json: async () => ({ name: null }) });
  assert.equal(await profileName(memory({ [KEY_NAME]: key }), none), null);
  const down = async () => { throw new Error('offline'); };
  assert.equal(await profileName(memory({ [KEY_NAME]: key }), down), null);
});
