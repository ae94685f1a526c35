// Rated play (docs/community.md, "Rated play"): with --rated-play invite, a newcomer's games
// do not count (GET /api/me: rated_allowed false) until it redeems an invite code the admin
// made (POST /api/invites with the admin token) or signs in; a code serves one player; the
// admin token is checked. Flags that cannot work together stop the server at start. Also:
// a discovery document that names another private host for its token endpoint is refused
// (only the configured issuer's host may be private).

import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { startServer, freePort, serverBin } from './helpers.mjs';
import { startFakeProvider, CLIENT_ID, CLIENT_SECRET, newKey, me, roundTrip } from './oidc-helpers.mjs';

const ADMIN = 'an-admin-token-for-tests-0123456789';

const post = (base, p, token, body = {}) => fetch(`${base}${p}`, {
  method: 'POST', headers: token ? { Authorization: `Bearer ${token}` } : {}, body: JSON.stringify(body),
});

test('--rated-play invite: invite codes from the admin, or signing in, open rated play', { timeout: 60000 }, async (t) => {
  const provider = await startFakeProvider({ port: await freePort() });
  t.after(() => provider.close());
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'carc-admin-'));
  fs.writeFileSync(path.join(dir, 'admin'), `${ADMIN}\n`);
  const server = await startServer({
    args: ['--oidc-issuer', provider.issuer, '--oidc-client-id', CLIENT_ID, '--oidc-client-secret', CLIENT_SECRET,
      '--rated-play', 'invite', '--admin-token-file', path.join(dir, 'admin')],
  });
  t.after(() => server.stop());
  const { base } = server;
  const ann = await newKey(base);
  const bea = await newKey(base);
  const a0 = await me(base, ann);
  assert.equal(a0.rated_play, 'invite');
  assert.equal(a0.rated_allowed, false);

  // Only the admin makes codes.
  for (const token of [null, 'wrong-token-wrong-token', ann]) {
    const res = await post(base, '/api/invites', token);
    assert.equal(res.status, 401);
    assert.equal((await res.json()).error, 'not_admin');
  }
  const made = await post(base, '/api/invites', ADMIN);
  assert.equal(made.status, 201);
  const { code } = await made.json();
  assert.match(code, /^[A-Za-z0-9_-]{16}$/);

  // A wrong code changes nothing; the right one opens rated play to Ann, and only to her.
  const wrong = await post(base, '/api/invites/redeem', ann, { code: 'not-a-code' });
  assert.equal(wrong.status, 404);
  assert.equal((await wrong.json()).error, 'unknown_invite');
  assert.equal((await me(base, ann)).rated_allowed, false);
  assert.equal((await post(base, '/api/invites/redeem', ann, { code })).status, 200);
  assert.equal((await me(base, ann)).rated_allowed, true);
  const taken = await post(base, '/api/invites/redeem', bea, { code });
  assert.equal(taken.status, 404);
  assert.equal((await me(base, bea)).rated_allowed, false);
  assert.equal((await post(base, '/api/invites/redeem', bea, {})).status, 400);

  // Bea signs in instead: allowed.
  const { location } = await roundTrip(base, bea);
  assert.equal(location.searchParams.get('signin'), 'ok');
  const b = await me(base, bea);
  assert.equal(b.signed_in, true);
  assert.equal(b.rated_allowed, true);
});

test('--rated-play open (the default) lets everyone play rated; no admin token, no invites', { timeout: 30000 }, async (t) => {
  const server = await startServer();
  t.after(() => server.stop());
  const key = await newKey(server.base);
  const m = await me(server.base, key);
  assert.equal(m.rated_play, 'open');
  assert.equal(m.rated_allowed, true);
  const res = await post(server.base, '/api/invites', 'anything-anything');
  assert.equal(res.status, 404);
  assert.equal((await res.json()).error, 'invites_off');
});

test('flags that cannot work together stop the server with the reason', () => {
  const run = (...args) => spawnSync(serverBin, ['--port', '0', '--data-dir', ':memory:', ...args], { encoding: 'utf8', timeout: 10000 });
  let r = run('--rated-play', 'signed-in');
  assert.equal(r.status, 2);
  assert.match(r.stderr, /--rated-play signed-in needs sign-in/);
  r = run('--rated-play', 'invite');
  assert.equal(r.status, 2);
  assert.match(r.stderr, /--rated-play invite needs --admin-token-file/);
  r = run('--oidc-issuer', 'https://id.example.org');
  assert.equal(r.status, 2);
  assert.match(r.stderr, /sign-in needs all of --oidc-issuer, --oidc-client-id and --oidc-client-secret/);
  r = run('--rated-play', 'everyone');
  assert.equal(r.status, 2);
  assert.match(r.stderr, /invalid value for --rated-play: everyone/);
  r = run('--oidc-client-secret-file', '/nonexistent/secret');
  assert.equal(r.status, 2);
});

test('a token endpoint on another private host than the issuer\'s is refused', { timeout: 30000 }, async (t) => {
  const provider = await startFakeProvider({ port: await freePort(), foreignTokenEndpoint: true });
  t.after(() => provider.close());
  const server = await startServer({
    args: ['--oidc-issuer', provider.issuer, '--oidc-client-id', CLIENT_ID, '--oidc-client-secret', CLIENT_SECRET],
  });
  t.after(() => server.stop());
  const key = await newKey(server.base);
  const { location } = await roundTrip(server.base, key);
  assert.equal(location.searchParams.get('signin_error'), 'token_refused');
  assert.equal(provider.state.tokenRequests, 0, 'the server never called it');
  assert.equal((await me(server.base, key)).signed_in, false);
  assert.match(server.log(), /plain http is refused|resolves to .*refused/);
});
