// Sign-in's refusals (docs/community.md, "Sign-in"), against the real server and a small
// hand-made provider (oidc-helpers.mjs) whose ID token is spoilt on purpose: each refusal
// sends the browser back to the start page with its code, and binds nothing (GET /api/me
// still says "not signed in", with the key's own id). A good token first, to show the same
// path signs in when nothing is wrong. No browser: the redirects are followed by hand, the
// sign-in's cookie carried like a browser would.

import test from 'node:test';
import assert from 'node:assert/strict';
import { startServer, freePort } from './helpers.mjs';
import { startFakeProvider, CLIENT_ID, CLIENT_SECRET, newKey, me, roundTrip } from './oidc-helpers.mjs';

test('sign-in refuses a spoilt ID token, a wrong state, another browser or issuer, and binds nothing', { timeout: 60000 }, async (t) => {
  const providerPort = await freePort();
  const provider = await startFakeProvider({ port: providerPort });
  t.after(() => provider.close());
  const server = await startServer({
    args: ['--oidc-issuer', provider.issuer, '--oidc-client-id', CLIENT_ID, '--oidc-client-secret', CLIENT_SECRET],
  });
  t.after(() => server.stop());
  const { base } = server;
  try {
    const refusals = [
      ['tampered', 'bad_signature'], ['expired', 'expired'], ['nonce', 'wrong_nonce'], ['issuer', 'wrong_issuer'],
      ['audience', 'wrong_audience'], ['none', 'bad_algorithm'], ['iss-param', 'wrong_issuer'],
    ];
    for (const [spoil, code] of refusals) {
      provider.state.spoil = spoil;
      const key = await newKey(base);
      const own = await me(base, key);
      const { location } = await roundTrip(base, key);
      assert.equal(location.searchParams.get('signin'), 'error', spoil);
      assert.equal(location.searchParams.get('signin_error'), code, spoil);
      assert.deepEqual(await me(base, key), own, `${spoil}: nothing bound`);
      assert.equal(own.signed_in, false);
    }
    provider.state.spoil = null;

    // A state the server never made, and a used one again.
    const key = await newKey(base);
    const own = await me(base, key);
    const forged = await roundTrip(base, key, { tweak: (u) => { u.searchParams.set('state', 'forged-state'); return u; } });
    assert.equal(forged.location.searchParams.get('signin_error'), 'wrong_state');
    // The callback of another browser's sign-in (no cookie): refused, and that state is spent.
    const stolen = await roundTrip(base, key, { cookie: false });
    assert.equal(stolen.location.searchParams.get('signin_error'), 'wrong_browser');
    const again = await fetch(stolen.callback, { redirect: 'manual' });
    assert.equal(new URL(again.headers.get('location')).searchParams.get('signin_error'), 'wrong_state');
    assert.deepEqual(await me(base, key), own);

    // The same path with nothing spoilt signs in (so the refusals above were the token's).
    const tokenRequests = provider.state.tokenRequests;
    const good = await roundTrip(base, key);
    assert.equal(good.location.searchParams.get('signin'), 'ok');
    assert.equal(provider.state.tokenRequests, tokenRequests + 1);
    const after = await me(base, key);
    assert.equal(after.signed_in, true);
    assert.equal(after.name, 'Fake alice');
    assert.equal(after.player_id, own.player_id, 'the first key bound keeps its id');
    // Its callback replayed: refused, and nothing changes.
    const replay = await fetch(good.callback, { redirect: 'manual' });
    assert.equal(new URL(replay.headers.get('location')).searchParams.get('signin_error'), 'wrong_state');
  } catch (e) {
    console.log(`--- server output ---\n${server.log().slice(-4000)}`);
    throw e;
  }
});

test('without --oidc-issuer: no sign-in offered, and the API says so', { timeout: 30000 }, async (t) => {
  const server = await startServer();
  t.after(() => server.stop());
  const key = await newKey(server.base);
  const m = await me(server.base, key);
  assert.equal(m.signin, null);
  assert.equal(m.signed_in, false);
  assert.match(m.player_id, /^[A-Za-z0-9_-]{16}$/);
  const res = await fetch(`${server.base}/api/signin/start`, { method: 'POST', headers: { Authorization: `Bearer ${key}` }, body: '{}' });
  assert.equal(res.status, 404);
  assert.equal((await res.json()).error, 'signin_off');
});

test('a provider that cannot be reached, or whose discovery names another issuer: a clear refusal at the start', { timeout: 30000 }, async (t) => {
  const closedPort = await freePort();  // nothing listens there
  const liar = await startFakeProvider({ port: await freePort(), discoveryIssuer: 'https://someone-else.example.org' });
  t.after(() => liar.close());
  for (const [issuer, why] of [[`http://127.0.0.1:${closedPort}`, /cannot connect/], [liar.issuer, /names another issuer/]]) {
    const server = await startServer({ args: ['--oidc-issuer', issuer, '--oidc-client-id', CLIENT_ID, '--oidc-client-secret', CLIENT_SECRET] });
    try {
      const key = await newKey(server.base);
      const res = await fetch(`${server.base}/api/signin/start`, { method: 'POST', headers: { Authorization: `Bearer ${key}` }, body: '{}' });
      assert.equal(res.status, 502);
      const body = await res.json();
      assert.equal(body.error, 'provider_unavailable');
      assert.match(body.message, why);
      assert.equal(res.headers.get('set-cookie'), null);
      assert.equal((await me(server.base, key)).signed_in, false);
    } finally {
      await server.stop();
    }
  }
});

test('malformed sign-in requests get clear answers and the server stays up', { timeout: 30000 }, async (t) => {
  const provider = await startFakeProvider({ port: await freePort() });
  t.after(() => provider.close());
  const server = await startServer({
    args: ['--oidc-issuer', provider.issuer, '--oidc-client-id', CLIENT_ID, '--oidc-client-secret', CLIENT_SECRET],
  });
  t.after(() => server.stop());
  const { base } = server;
  const cases = [
    ['GET', '/api/me', { Authorization: 'Bearer not-a-key' }, null, 401, 'unknown_key'],
    ['GET', '/api/me', { Authorization: `Bearer ${'A'.repeat(43)}` }, null, 401, 'unknown_key'],
    ['POST', '/api/signin/start', {}, '{}', 401, 'unknown_key'],
    ['POST', '/api/signin/start', { Authorization: `Bearer ${'A'.repeat(43)}` }, '{}', 401, 'unknown_key'],
    ['GET', '/api/signin/start', {}, null, 404, 'not_found'],
    ['POST', '/api/invites/redeem', { Authorization: `Bearer ${'A'.repeat(43)}` }, 'not json', 400, 'bad_request'],
    ['POST', '/api/invites', {}, '{}', 404, 'invites_off'],
    ['GET', '/api/signin/nothing', {}, null, 404, 'not_found'],
  ];
  for (const [method, p, headers, body, status, code] of cases) {
    const res = await fetch(`${base}${p}`, { method, headers, body });
    assert.equal(res.status, status, `${method} ${p}`);
    assert.equal((await res.json()).error, code, `${method} ${p}`);
  }
  // Callbacks with odd queries: each sent home with a code, nothing else.
  for (const q of ['', '?state=', '?state=%zz&code=%', '?state=a&state=b', `?state=${'x'.repeat(3000)}&code=y`,
    '?error=access_denied', '?iss=http%3A%2F%2Fevil&state=s']) {
    const res = await fetch(`${base}/api/signin/callback${q}`, { redirect: 'manual', headers: { Cookie: 'carc_signin=whatever' } });
    assert.equal(res.status, 303, q);
    assert.equal(new URL(res.headers.get('location')).searchParams.get('signin_error'), 'wrong_state', q);
  }
  // A provider error for a real sign-in: provider_refused.
  const key = await newKey(base);
  const { location } = await roundTrip(base, key, { tweak: (u) => { u.searchParams.delete('code'); u.searchParams.set('error', 'access_denied'); return u; } });
  assert.equal(location.searchParams.get('signin_error'), 'provider_refused');
  assert.equal((await fetch(`${base}/healthz`)).status, 200);
});
