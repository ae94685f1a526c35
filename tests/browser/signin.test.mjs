// Sign-in with the host's OpenID Connect provider (docs/community.md, "Sign-in"): a real
// provider (npm's oidc-provider) on 127.0.0.1. One browser signs in through the provider's
// login page and sees "signed in as ..."; a second browser, whose own player key had
// another public id, signs in as the same account and becomes the same player (GET /api/me:
// same id, name, signed in); a third signs in as another account and stays another player.

import test from 'node:test';
import assert from 'node:assert/strict';
import { setUp, showingServerLog, freePort } from './helpers.mjs';
import { startProvider, CLIENT_ID, CLIENT_SECRET } from './oidc-helpers.mjs';

const me = (page) => page.evaluate(async () => {
  const key = localStorage.getItem('carc.playerKey');
  const res = await fetch('/api/me', key ? { headers: { Authorization: `Bearer ${key}` } } : {});
  return { status: res.status, key, ...(await res.json()) };
});

/** Clicks "Sign in" on the start page, logs in as `login` at the provider, and comes back. */
async function signIn(page, base, login) {
  await page.click('[data-testid="signin-btn"]');
  await page.waitForSelector('input[name="login"]');  // the provider's login page
  await page.fill('input[name="login"]', login);
  await page.fill('input[name="password"]', 'any password');
  await page.click('button[type="submit"]');
  await page.waitForSelector('button:has-text("Continue")');  // its consent page
  await page.click('button:has-text("Continue")');
  await page.waitForURL((u) => u.toString().startsWith(`${base}/`));
  await page.waitForSelector('body[data-ready="1"]');
}

test('signing in on two browsers as one account gives one player; another account another', { timeout: 120000 }, async (t) => {
  const providerPort = await freePort();
  const issuer = `http://127.0.0.1:${providerPort}`;
  const { server, browser } = await setUp(t, {
    args: ['--oidc-issuer', issuer, '--oidc-client-id', CLIENT_ID, '--oidc-client-secret', CLIENT_SECRET],
  });
  const provider = await startProvider({ port: providerPort, redirectUri: `${server.base}/api/signin/callback` });
  t.after(() => provider.close());
  const errors = [];
  const open = async () => {
    const ctx = await browser.newContext({ viewport: { width: 1200, height: 800 }, locale: 'en-US' });
    const page = await ctx.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    page.setDefaultTimeout(15000);
    await page.goto(`${server.base}/`);
    await page.waitForSelector('body[data-ready="1"]');
    return page;
  };
  await showingServerLog(server, async () => {
    const A = await open();
    // Offered because the server has a provider; not signed in yet.
    await A.waitForSelector('[data-testid="signin-btn"]:visible');
    assert.equal((await me(A)).signin.issuer, issuer);
    await signIn(A, server.base, 'ann');
    await A.waitForSelector('[data-testid="signin-state"]:has-text("Signed in as Player ann")');
    assert.equal(await A.isVisible('[data-testid="signin-btn"]'), false);
    const a = await me(A);
    assert.equal(a.status, 200);
    assert.equal(a.signed_in, true);
    assert.equal(a.name, 'Player ann');
    assert.match(a.player_id, /^[A-Za-z0-9_-]{16}$/);
    assert.equal(await A.textContent('[data-testid="signin-id"]'), `Player id: ${a.player_id}`);
    assert.equal(new URL(A.url()).search, '', 'the result is taken out of the address bar');

    // A second device with a key of its own (another player until it signs in).
    const B = await open();
    await B.evaluate(async () => {
      const { key } = await (await fetch('/api/keys', { method: 'POST', body: '{}' })).json();
      localStorage.setItem('carc.playerKey', key);
    });
    const before = await me(B);
    assert.equal(before.signed_in, false);
    assert.notEqual(before.player_id, a.player_id);
    await B.reload();
    await B.waitForSelector('[data-testid="signin-btn"]:visible');
    await signIn(B, server.base, 'ann');
    await B.waitForSelector('[data-testid="signin-state"]:has-text("Signed in as Player ann")');
    const b = await me(B);
    assert.notEqual(b.key, a.key, 'each device keeps its own key');
    assert.equal(b.key, before.key, 'the device kept its key: it became an alias');
    assert.equal(b.player_id, a.player_id);
    assert.equal(b.signed_in, true);
    assert.equal(b.name, 'Player ann');

    // Another account: another player.
    const C = await open();
    await C.waitForSelector('[data-testid="signin-btn"]:visible');
    await signIn(C, server.base, 'bea');
    await C.waitForSelector('[data-testid="signin-state"]:has-text("Signed in as Player bea")');
    const c = await me(C);
    assert.equal(c.signed_in, true);
    assert.notEqual(c.player_id, a.player_id);
    // A's answer did not change.
    assert.deepEqual(await me(A), a);
    assert.deepEqual(errors, []);
  });
});
