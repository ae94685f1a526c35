// "Tell me when it is my turn" in a turn-based room (issue 43), at 1366x768 and on a
// 390x844 phone: the host chooses a turn-based game on the start page, sees the button in
// the lobby without scrolling, clicks it, the
// page says it is on (also after a reload), and when the game starts the push of the
// host's turn reaches this test's push service, encrypted for the subscription the click made.
//
// Chromium's own push service needs the internet, so the page's PushManager hands out a
// subscription to this test's endpoint instead (push-helpers.mjs); everything else, the
// permission, the service worker, the key from /api/push/key and push_subscribe, is the
// page's own.
//
//   CARC_SERVER_BIN=build/carcassonne-server node --test tests/browser/notify-button.test.mjs

import test from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setUp, showingServerLog, openStartPage, createGame } from './helpers.mjs';
import { LAPTOP, PHONE, inView } from './seat-helpers.mjs';
import { b64url, receiver, decrypt, checkVapid, waitFor, makeCert } from './push-helpers.mjs';

test('turn-based: the host turns notifications on from the lobby, and the push of their turn comes', { timeout: 120000 }, async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'carc-optin-'));
  const tls = makeCert(dir);
  const pushService = await receiver(tls);
  t.after(() => {
    pushService.srv.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const { server, browser } = await setUp(t, { args: ['--allow-private-hooks', '--extra-ca', tls.certFile] });
  const errors = [];
  await showingServerLog(server, async () => {
    const serverKey = (await (await fetch(`${server.base}/api/push/key`)).json()).public_key;
    for (const [size, opts] of [['phone', PHONE], ['laptop', LAPTOP]]) {
      const ecdh = crypto.createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = crypto.randomBytes(16);
      const endpoint = `${pushService.base}/push/${size}`;
      const page = await openStartPage(browser, server, errors, opts);
      const ctx = page.context();
      await ctx.grantPermissions(['notifications'], { origin: server.base });
      await ctx.addInitScript(({ endpoint, p256dh, auth }) => {
        let sub = null;
        PushManager.prototype.subscribe = async function subscribe(options) {
          const key = new Uint8Array(options.applicationServerKey);
          window.__pushKey = btoa(String.fromCharCode(...key)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
          sub = { endpoint, toJSON: () => ({ endpoint, expirationTime: null, keys: { p256dh, auth } }) };
          return sub;
        };
        PushManager.prototype.getSubscription = async function getSubscription() { return sub; };
      }, { endpoint, p256dh: b64url(ecdh.getPublicKey()), auth: b64url(auth) });

      // A turn-based game, chosen on the start page.
      await page.reload();
      await page.waitForSelector('body[data-ready="1"]');
      await page.selectOption('[data-testid="home-pace"]', 'turn_based');
      await createGame(page, 'Ann');
      await page.waitForFunction(() => window.__carc.store.state.settings.pace === 'turn_based');

      // The button is at the top of the lobby card, in view without scrolling; a click turns it on.
      await page.waitForSelector('[data-testid="notify-enable"]');
      assert.ok(await inView(page, '[data-testid="notify-enable"]'), `${size}: "Tell me when it is my turn" is in view`);
      await page.click('[data-testid="notify-enable"]');
      await page.waitForSelector('[data-testid="notify-status"][data-status="on"]');
      assert.equal(await page.evaluate(() => window.__pushKey), serverKey, `${size}: subscribed with the server's key`);
      await page.reload();
      await page.waitForSelector('[data-testid="lobby"]:not([hidden]) [data-testid="seat"][data-seat="0"]');
      assert.ok(await inView(page, '[data-testid="notify-status"][data-status="on"]'), `${size}: still on after a reload`);

      // A computer player, the start: the push of the host's turn.
      await page.click('[data-testid="add-bot"]');
      await page.waitForSelector('[data-testid="seat"][data-seat="1"]');
      const room = await page.evaluate(() => window.__carc.room);
      await page.click('[data-testid="start"]');
      await page.waitForSelector('#view-room[data-my-turn="1"]');
      await waitFor(() => pushService.got.some((p) => p.url === `/push/${size}`), `${size}: the push of Ann's turn`);
      const push = pushService.got.find((p) => p.url === `/push/${size}`);
      checkVapid(push.headers.authorization, serverKey, pushService.base);
      const payload = decrypt(ecdh, auth, push.body);
      assert.deepEqual([payload.event, payload.room, payload.seat], ['your_turn', room, 0], `${size}: the push says it is Ann's turn`);
      // During the game the opt-in sits under the players.
      assert.ok(await page.locator('#view-room .players-panel [data-testid="notify-status"][data-status="on"]').isVisible(), `${size}: shown during the game`);
      await ctx.close();
    }
    assert.deepEqual(errors, []);
  });
});

test('turn-based: a seat that has not turned them on finds the button under the players during the game', async (t) => {
  const { server, browser } = await setUp(t);
  await showingServerLog(server, async () => {
    const page = await openStartPage(browser, server, null, PHONE);
    await page.selectOption('[data-testid="home-pace"]', 'turn_based');
    await createGame(page, 'Ann');
    await page.waitForFunction(() => window.__carc.store.state.settings.pace === 'turn_based');
    await page.click('[data-testid="add-bot"]');
    await page.waitForSelector('[data-testid="seat"][data-seat="1"]');
    await page.click('[data-testid="start"]');
    await page.waitForSelector('#view-room[data-phase="playing"]');
    for (const when of ['during the game', 'after a reload']) {
      const btn = page.locator('#view-room .players-panel [data-testid="notify-enable"]');
      await btn.waitFor();
      await btn.scrollIntoViewIfNeeded();
      assert.ok(await inView(page, '#view-room .players-panel [data-testid="notify-enable"]'), `the button can be seen ${when}`);
      if (when === 'during the game') {
        await page.reload();
        await page.waitForSelector('#view-room[data-phase="playing"]');
      }
    }
  });
});
