// A turn-based game between two browser contexts where Bob's tab is closed between turns
// (docs/turn-based.md): when his turn comes, the server sends Web Push to a local HTTPS endpoint
// (this test's push service: it decrypts the message with the subscription's private key
// and checks the VAPID signature) and the room's webhook to a local HTTP receiver. The push
// is handed to Bob's real service worker in Chromium (DevTools' deliverPushMessage, as a push
// service would), which shows the system notification; Bob opens its link and moves.

import test from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { repoRoot, serverBin, freePort, waitForHealth, launchBrowser, playTurn } from './helpers.mjs';

const b64url = (b) => Buffer.from(b).toString('base64url');

/** A receiver recording every POST; `https` with a certificate made by openssl for 127.0.0.1. */
async function receiver(tls) {
  const got = [];
  const handler = (req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      got.push({ url: req.url, headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(201).end();
    });
  };
  const srv = tls ? https.createServer(tls, handler) : http.createServer(handler);
  await new Promise((r) => srv.listen(0, '127.0.0.1', r));
  return { got, srv, base: `${tls ? 'https' : 'http'}://127.0.0.1:${srv.address().port}` };
}

/** RFC 8291 decryption with the subscription's private key (aes128gcm, one record). */
function decrypt(ecdh, auth, body) {
  const salt = body.subarray(0, 16);
  const idlen = body[20];
  const asPublic = body.subarray(21, 21 + idlen);
  const sealed = body.subarray(21 + idlen);
  const secret = ecdh.computeSecret(asPublic);
  const info = Buffer.concat([Buffer.from('WebPush: info\0'), ecdh.getPublicKey(), asPublic]);
  const ikm = Buffer.from(crypto.hkdfSync('sha256', secret, auth, info, 32));
  const cek = Buffer.from(crypto.hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(crypto.hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const d = crypto.createDecipheriv('aes-128-gcm', cek, nonce);
  d.setAuthTag(sealed.subarray(sealed.length - 16));
  const plain = Buffer.concat([d.update(sealed.subarray(0, sealed.length - 16)), d.final()]);
  assert.equal(plain[plain.length - 1], 2, 'the last record\'s delimiter');
  return JSON.parse(plain.subarray(0, plain.length - 1).toString('utf8'));
}

/** RFC 8292: the JWT of "vapid t=..., k=..." is signed by k, the server's key; its claims. */
function checkVapid(header, serverKey, audience) {
  const m = /^vapid t=([^,]+), k=(.+)$/.exec(header);
  assert.ok(m, header);
  assert.equal(m[2], serverKey);
  const [h, c, s] = m[1].split('.');
  const raw = Buffer.from(serverKey, 'base64url');
  const key = crypto.createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: b64url(raw.subarray(1, 33)), y: b64url(raw.subarray(33)) }, format: 'jwk' });
  assert.ok(crypto.verify('sha256', Buffer.from(`${h}.${c}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(s, 'base64url')), 'the VAPID signature checks');
  const claims = JSON.parse(Buffer.from(c, 'base64url'));
  assert.equal(claims.aud, audience);
  assert.ok(claims.exp > Date.now() / 1000);
  return claims;
}

async function waitFor(pred, what, ms = 20000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await pred()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

test('turn-based: Bob\'s tab is closed; Web Push and the webhook tell him; he opens the link and moves', { timeout: 120000 }, async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'carc-notify-'));
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-days', '2',
    '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-addext', 'basicConstraints=critical,CA:TRUE',
    '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem')], { stdio: 'ignore' });
  const pushService = await receiver({ key: fs.readFileSync(path.join(dir, 'key.pem')), cert: fs.readFileSync(path.join(dir, 'cert.pem')) });
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
