// Sign-in on the start page (web-client/js/home/signin.js, docs/community.md "Sign-in"): the
// result the provider's round trip comes back with, read once and taken out of the address
// bar; GET /api/me asked with this browser's key, and as a newcomer when the key was revoked.
import test from 'node:test';
import assert from 'node:assert/strict';
import { takeSigninResult, fetchMe } from '../../web-client/js/home/signin.js';

const KEY = 'k'.repeat(43);

function place(search, hash = '') {
  const calls = [];
  return {
    loc: { pathname: '/', search, hash },
    hist: { replaceState: (s, title, url) => calls.push(url) },
    calls,
  };
}

test('the round trip\'s result: ok, a refusal with its code, or nothing', () => {
  let p = place('?signin=ok');
  assert.deepEqual(takeSigninResult(p.loc, p.hist), { ok: true, code: '' });
  assert.deepEqual(p.calls, ['/']);
  p = place('?signin=error&signin_error=wrong_state', '#x');
  assert.deepEqual(takeSigninResult(p.loc, p.hist), { ok: false, code: 'wrong_state' });
  assert.deepEqual(p.calls, ['/#x']);
  p = place('?other=1');
  assert.equal(takeSigninResult(p.loc, p.hist), null);
  assert.deepEqual(p.calls, [], 'an address without a result is left alone');
});

test('GET /api/me: with the key, as a newcomer after a 401, null when the server fails', async () => {
  const store = { get: (k) => (k === 'carc.playerKey' ? KEY : null) };
  const seen = [];
  const answer = (status, body) => ({ status, ok: status === 200, json: async () => body });
  let me = await fetchMe(store, async (url, init) => {
    seen.push(init?.headers?.Authorization ?? null);
    return answer(200, { player_id: 'p', signed_in: true });
  });
  assert.deepEqual(me, { player_id: 'p', signed_in: true });
  assert.deepEqual(seen, [`Bearer ${KEY}`]);
  seen.length = 0;
  me = await fetchMe(store, async (url, init) => {
    seen.push(init?.headers?.Authorization ?? null);
    return init?.headers ? answer(401, { error: 'unknown_key' }) : answer(200, { player_id: null, signin: null });
  });
  assert.deepEqual(me, { player_id: null, signin: null });
  assert.deepEqual(seen, [`Bearer ${KEY}`, null]);
  assert.equal(await fetchMe(store, async () => answer(503, {})), null);
  assert.equal(await fetchMe(store, async () => { throw new Error('offline'); }), null);
});
