// A turn-based game between two browser contexts where Bob's tab is closed between turns
// (docs/turn-based.md): when his turn comes, the server sends Web Push to a local HTTPS endpoint
// (this test's push service: it decrypts the message with the subscription's private key
// and checks the VAPID signature) and the room's webhook to a local HTTP receiver. The push
// is handed to Bob's real service worker in Chromium (DevTools' deliverPushMessage, as a push
// service would), which shows the system notification; Bob opens its link and moves.

import test from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot, serverBin, freePort, waitForHealth, launchBrowser, playTurn } from './helpers.mjs';
import { b64url, receiver, decrypt, checkVapid, waitFor, makeCert } from './push-helpers.mjs';

test('turn-based: Bob\'s tab is closed; Web Push and the webhook tell him; he opens the link and moves', { timeout: 120000 }, async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'carc-notify-'));
  const pushService = await receiver(makeCert(dir));
  const hooks = await receiver(null);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  let log = '';
  const proc = spawn(serverBin, ['--port', String(port), '--bind', '127.0.0.1', '--data-dir', path.join(dir, 'data'), '--web-root', 'web-client',
    '--allow-private-hooks', '--extra-ca', path.join(dir, 'cert.pem'), '--base-url', base], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  proc.stdout.on('data', (d) => { log += d; });
  proc.stderr.on('data', (d) => { log += d; });
  const browser = await launchBrowser();
  t.after(async () => {
    await browser.close().catch(() => {});
    proc.kill('SIGTERM');
    pushService.srv.close();
    hooks.srv.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  try {
    await waitForHealth(base, proc, () => log);
    const serverKey = (await (await fetch(`${base}/api/push/key`)).json()).public_key;

    // Ann, the host, over the protocol in her page: a turn-based room with a webhook.
    const ctxA = await browser.newContext({ locale: 'en-US' });
    const A = await ctxA.newPage();
    await A.goto(`${base}/`);
    const room = await A.evaluate(async (hook) => {
      const room = (await (await fetch('/api/rooms', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' })).json()).room;
      const ws = new WebSocket(`${location.origin.replace(/^http/, 'ws')}/ws/${room}`);
      window.__ann = { ws, msgs: [] };
      ws.onmessage = (ev) => window.__ann.msgs.push(JSON.parse(ev.data));
      await new Promise((r) => { ws.onopen = r; });
      ws.send(JSON.stringify({ type: 'join', name: 'Ann' }));
      ws.send(JSON.stringify({ type: 'settings', pace: 'turn_based', bank_seconds: 259200, increment_seconds: 86400 }));
      ws.send(JSON.stringify({ type: 'settings', webhook: { url: hook, format: 'json' } }));
      return room;
    }, `${hooks.base}/hook`);

    // Bob joins through the invite link in his own browser, with the real service worker.
    const ctxB = await browser.newContext({ locale: 'en-US' });
    await ctxB.grantPermissions(['notifications'], { origin: base });
    const B = await ctxB.newPage();
    await B.goto(`${base}/r/${room}`);
    await B.waitForSelector('[data-testid="join-dialog"]');
    await B.fill('[data-testid="join-name"]', 'Bob');
    await B.click('[data-testid="join-submit"]');
    await B.waitForSelector('[data-testid="lobby"]:not([hidden]) [data-testid="seat"][data-seat="1"]');
    await B.waitForFunction((r) => !!localStorage.getItem(`carc.token.${r}`), room);
    const token = await B.evaluate((r) => localStorage.getItem(`carc.token.${r}`), room);
    const cdp = await ctxB.newCDPSession(B);
    const registrations = [];
    cdp.on('ServiceWorker.workerRegistrationUpdated', (e) => registrations.push(...e.registrations));
    await cdp.send('ServiceWorker.enable');
    await B.evaluate(async () => { await navigator.serviceWorker.register('/sw.js', { scope: '/' }); await navigator.serviceWorker.ready; });
    await waitFor(() => registrations.some((r) => r.scopeURL === `${base}/` && !r.isDeleted), 'the service worker\'s registration');
    const registrationId = registrations.find((r) => r.scopeURL === `${base}/`).registrationId;

    // Bob's push subscription: keys this test made, an endpoint it serves (a push service
    // of its own: Chromium's own needs the internet). Sent for his seat by his token.
    const ecdh = crypto.createECDH('prime256v1');
    ecdh.generateKeys();
    const auth = crypto.randomBytes(16);
    await B.evaluate(async ({ room, token, sub }) => {
      const ws = new WebSocket(`${location.origin.replace(/^http/, 'ws')}/ws/${room}`);
      await new Promise((r) => { ws.onopen = r; });
      const welcomed = new Promise((r) => { ws.onmessage = (ev) => { if (JSON.parse(ev.data).type === 'welcome') r(); }; });
      ws.send(JSON.stringify({ type: 'join', token }));
      await welcomed;
      ws.send(JSON.stringify({ type: 'push_subscribe', subscription: sub }));
      await new Promise((r) => setTimeout(r, 300));
      ws.close();
    }, { room, token, sub: { endpoint: `${pushService.base}/push/bob`, keys: { p256dh: b64url(ecdh.getPublicKey()), auth: b64url(auth) } } });
    await B.close(); // Bob's tab is closed between turns

    // Ann starts and plays her turn; it becomes Bob's.
    await A.evaluate(async () => {
      const a = window.__ann;
      const last = (type) => a.msgs.filter((m) => m.type === type).at(-1);
      a.ws.send(JSON.stringify({ type: 'start' }));
      await new Promise((r) => { const tick = () => (a.msgs.some((m) => m.type === 'patch' && m.ops.some((o) => o.path === '/phase' && o.value === 'playing')) ? r() : setTimeout(tick, 20)); tick(); });
      a.ws.send(JSON.stringify({ type: 'resync' }));
      await new Promise((r) => { const tick = () => (last('state')?.state.phase === 'playing' ? r() : setTimeout(tick, 20)); tick(); });
      const s = last('state');
      const l = s.state.turn.legal[0];
      a.ws.send(JSON.stringify({ type: 'play', version: s.version, x: l.x, y: l.y, rotation: l.rotation, meeple: null }));
    });

    // The webhook: Ann's turn at the start, then Bob's.
    await waitFor(() => hooks.got.some((h) => JSON.parse(h.body).seat === 1), 'the webhook of Bob\'s turn');
    const hook = JSON.parse(hooks.got.find((h) => JSON.parse(h.body).seat === 1).body);
    assert.deepEqual([hook.event, hook.room, hook.name, hook.url], ['your_turn', room, 'Bob', `${base}/r/${room}`]);

    // The push: decrypted with Bob's key, signed by the server.
    await waitFor(() => pushService.got.length >= 1, 'the push');
    const push = pushService.got[0];
    assert.equal(push.url, '/push/bob');
    assert.equal(push.headers['content-encoding'], 'aes128gcm');
    checkVapid(push.headers.authorization, serverKey, pushService.base);
    const payload = decrypt(ecdh, auth, push.body);
    assert.deepEqual([payload.event, payload.room, payload.seat, payload.url], ['your_turn', room, 1, `${base}/r/${room}`]);
    assert.equal(payload.id, hook.id, 'one notification, one id');

    // Delivered to Bob's service worker, which shows the system notification.
    const P = await ctxB.newPage();
    await P.goto(`${base}/`);
    const cdp2 = await ctxB.newCDPSession(P);
    await cdp2.send('ServiceWorker.enable');
    await cdp2.send('ServiceWorker.deliverPushMessage', { origin: base, registrationId, data: JSON.stringify(payload) });
    let shown = [];
    await waitFor(async () => {
      shown = await P.evaluate(async () => (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({ title: n.title, body: n.body, url: n.data?.url })));
      return shown.length > 0;
    }, 'the notification');
    assert.equal(shown[0].title, payload.title);
    assert.equal(shown[0].url, `${base}/r/${room}`);

    // Bob opens the link: his seat, his turn, and he moves.
    await P.goto(shown[0].url);
    await P.waitForSelector('#view-room[data-phase="playing"][data-seat="1"]');
    await playTurn(P, { meeple: false });
    await P.waitForSelector('#view-room[data-my-turn="0"]');
    const rec = await (await fetch(`${base}/api/rooms/${room}/record`)).json();
    // Placements only: a tile with no legal placement is discarded at the start of its
    // holder's turn, a move of the record but nobody's turn (the server's seed is random).
    const placed = rec.moves.filter((m) => !m.discard);
    assert.equal(placed.length, 2, 'Ann\'s move and Bob\'s');
    assert.ok(!placed[1].auto, 'Bob moved himself');
  } catch (e) {
    console.log(`--- server output ---\n${log.slice(-4000)}`);
    throw e;
  }
});
