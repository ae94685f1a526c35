// "Tell me when it is my turn" in a turn-based room (docs/turn-based.md), at 1366x768 and on a
// 390x844 phone: the host chooses a turn-based game on the start page and sees the button
// in the lobby without scrolling. On the phone a click there turns it on, the page says so
// (also after a reload), and when the game starts the push of the host's turn reaches this
// test's push service, encrypted for the subscription the click made. On the laptop the
// button waits under the players during the game (also after a reload); a click there, and
// the host's next turn is pushed.
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

test('turn-based: notifications turned on in the lobby (phone) or under the players (laptop); the host\'s turns are pushed', { timeout: 120000 }, async (t) => {
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

      // The button is at the top of the lobby card, in view without scrolling.
      await page.waitForSelector('[data-testid="notify-enable"]');
      assert.ok(await inView(page, '[data-testid="notify-enable"]'), `${size}: "Tell me when it is my turn" is in view`);
      const room = await page.evaluate(() => window.__carc.room);
      const pushed = async (what) => {
        await waitFor(() => pushService.got.some((p) => p.url === `/push/${size}`), `${size}: ${what}`);
        const push = pushService.got.find((p) => p.url === `/push/${size}`);
        checkVapid(push.headers.authorization, serverKey, pushService.base);
        const payload = decrypt(ecdh, auth, push.body);
        assert.deepEqual([payload.event, payload.room, payload.seat], ['your_turn', room, 0], `${size}: the push says it is Ann's turn`);
      };
      if (size === 'phone') {
        // In the lobby: a click turns it on, a reload still says so, the game's first turn is pushed.
        await page.click('[data-testid="notify-enable"]');
        await page.waitForSelector('[data-testid="notify-status"][data-status="on"]');
        assert.equal(await page.evaluate(() => window.__pushKey), serverKey, `${size}: subscribed with the server's key`);
        await page.reload();
        await page.waitForSelector('[data-testid="lobby"]:not([hidden]) [data-testid="seat"][data-seat="0"]');
        assert.ok(await inView(page, '[data-testid="notify-status"][data-status="on"]'), `${size}: still on after a reload`);
      }
      await page.click('[data-testid="add-bot"]');
      await page.waitForSelector('[data-testid="seat"][data-seat="1"]');
      await page.click('[data-testid="start"]');
      await page.waitForSelector('#view-room[data-my-turn="1"]');
      const under = '#view-room .players-panel';
      if (size === 'phone') {
        await pushed('the push of Ann\'s first turn');
        assert.ok(await page.locator(`${under} [data-testid="notify-status"][data-status="on"]`).isVisible(), `${size}: shown during the game`);
      } else {
        // Not turned on in the lobby: the button waits under the players, also after a reload.
        await page.reload();
        await page.waitForSelector('#view-room[data-my-turn="1"]');
        await page.locator(`${under} [data-testid="notify-enable"]`).scrollIntoViewIfNeeded();
        assert.ok(await inView(page, `${under} [data-testid="notify-enable"]`), `${size}: the button under the players`);
        await page.click(`${under} [data-testid="notify-enable"]`);
        await page.waitForSelector(`${under} [data-testid="notify-status"][data-status="on"]`);
        assert.equal(pushService.got.filter((p) => p.url === `/push/${size}`).length, 0, 'nothing pushed before it was on');
        // Ann plays, the computer plays: Ann's next turn is pushed.
        await page.evaluate(() => {
          const p = window.__carc;
          const e = p.store.state.turn.legal[0];
          p.send({ type: 'play', version: p.store.version, x: e.x, y: e.y, rotation: e.rotation, meeple: null });
        });
        await pushed('the push of Ann\'s next turn');
      }
      await ctx.close();
    }
    assert.deepEqual(errors, []);
  });
});
