// "Your games" on another device (docs/turn-based.md): a browser holds seats in a turn-based game
// where it is its turn, one where it is the other player's, and a finished game; a second
// browser context opens the transfer link (the player key in the URL fragment, shown with a
// QR code) and lists the same games: "your turn" first with the bank time left, then the
// others, then the finished one; the title and the favicon count the games waiting.

import test from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { shotDir, setUp, showingServerLog } from './helpers.mjs';
import { playOverProtocol } from './games-helpers.mjs';

/** In `page`: a turn-based game of Ann (host, seat 0) and Ben, started; `annMoves` false plays Ann's first turn so it is Ben's. */
async function turnBasedGame(page, { annMoves }) {
  return page.evaluate(async ({ annMoves }) => {
    const room = (await (await fetch('/api/rooms', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' })).json()).room;
    const open = (join) => new Promise((resolve, reject) => {
      const ws = new WebSocket(`${location.origin.replace(/^http/, 'ws')}/ws/${room}`);
      const c = { ws, msgs: [], token: null, state: null };
      ws.onmessage = (ev) => {
        const m = JSON.parse(ev.data);
        c.msgs.push(m);
        if (m.type === 'welcome') { c.token = m.token; c.state = m.state; resolve(c); }
      };
      ws.onerror = reject;
      ws.onopen = () => ws.send(JSON.stringify(join));
    });
    const wait = (c, pred) => new Promise((resolve) => {
      const tick = () => (c.msgs.some(pred) ? resolve() : setTimeout(tick, 20));
      tick();
    });
    const ann = await open({ type: 'join', name: 'Ann' });
    const ben = await open({ type: 'join', name: 'Ben' });
    ann.ws.send(JSON.stringify({ type: 'settings', pace: 'turn_based', bank_seconds: 86400, increment_seconds: 3600 }));
    await wait(ann, (m) => m.type === 'patch' && m.ops.some((o) => o.path === '/settings'));
    ann.ws.send(JSON.stringify({ type: 'start' }));
    await wait(ann, (m) => m.type === 'patch' && m.ops.some((o) => o.path === '/phase' && o.value === 'playing'));
    if (!annMoves) {
      ann.ws.send(JSON.stringify({ type: 'resync' }));
      await wait(ann, (m) => m.type === 'state');
      const st = ann.msgs.filter((m) => m.type === 'state').at(-1);
      const l = st.state.turn.legal[0];
      ann.ws.send(JSON.stringify({ type: 'play', version: st.version, x: l.x, y: l.y, rotation: l.rotation, meeple: null }));
      await wait(ann, (m) => m.type === 'patch' && m.ops.some((o) => o.path === '/turn' && o.value?.seat === 1));
    }
    ann.ws.close();
    ben.ws.close();
    return { room, token: ann.token };
  }, { annMoves });
}

test('"Your games" on a second browser through the transfer link, in the turn-based order', { timeout: 120000 }, async (t) => {
  const { server, browser } = await setUp(t);
  const errors = [];
  await showingServerLog(server, async () => {
    const ctxA = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
    const A = await ctxA.newPage();
    A.on('pageerror', (e) => errors.push(`A: ${e.message}`));
    await A.goto(`${server.base}/`);
    await A.waitForSelector('body[data-ready="1"]');

    const finished = await playOverProtocol(A, { names: ['Ann', 'Carla'], seed: 5 });
    const waiting = await turnBasedGame(A, { annMoves: true });  // Ann's turn
    const theirs = await turnBasedGame(A, { annMoves: false });  // Ben's turn
    // This browser holds Ann's seats, as the room page keeps them, and shows them to its key.
    await A.evaluate(async (games) => {
      const { attachSeat } = await import('/js/platform/playerkey.js');
      const { local } = await import('/js/platform/storage.js');
      let t = 1;
      for (const g of games) {
        localStorage.setItem(`carc.token.${g.room}`, g.token);
        localStorage.setItem(`carc.game.${g.room}`, JSON.stringify({ seat: 0, name: 'Ann', updated: t++ }));
        await attachSeat(local, g.room, g.token);
      }
    }, [
      { room: finished.room, token: finished.tokens[0] },
      { room: theirs.room, token: theirs.token },
      { room: waiting.room, token: waiting.token },
    ]);
    const key = await A.evaluate(() => localStorage.getItem('carc.playerKey'));
    assert.match(key, /^[A-Za-z0-9_-]{43}$/);

    await A.reload();
    await A.waitForSelector('[data-testid="your-games"][data-loaded="1"]');
    await A.click('[data-testid="key-transfer"]');
    await A.waitForSelector('[data-testid="key-qr"] svg path');
    const link = await A.inputValue('[data-testid="key-link"]');
    assert.ok(link.endsWith(`/#key=${key}`), link);
    await A.screenshot({ path: path.join(shotDir, 'your-games-transfer.png') });

    // The other device: a fresh context that knows nothing but the link.
    const ctxB = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'en-US' });
    const B = await ctxB.newPage();
    B.on('pageerror', (e) => errors.push(`B: ${e.message}`));
    const requested = [];
    B.on('request', (r) => requested.push(r.url()));
    await B.goto(link);
    await B.waitForSelector('[data-testid="your-games"][data-loaded="1"]');
    await B.waitForFunction(() => document.querySelectorAll('[data-testid="game-item"]').length === 3
      && ![...document.querySelectorAll('[data-testid="game-item"]')].some((li) => li.dataset.phase === 'loading'));
    assert.equal(new URL(B.url()).hash, '', 'the key left the address bar');
    assert.ok(requested.every((u) => !u.includes(key)), 'the key is in no URL the server saw');
    const order = await B.locator('[data-testid="game-item"]').evaluateAll((lis) => lis.map((li) => li.dataset.room));
    assert.deepEqual(order, [waiting.room, theirs.room, finished.room], 'your turn, then the others, then finished');
    const first = B.locator('[data-testid="game-item"]').first();
    assert.equal(await first.locator('[data-testid="game-your-turn"]').count(), 1);
    assert.match(await first.locator('[data-testid="game-bank"]').textContent(), /^(23 h 5\d min|1 d 0 h) left$/);
    assert.equal(await B.title(), '(1) Carcassonne');
    assert.equal(await B.getAttribute('link[rel="icon"]', 'href'), '/favicon-1.svg');
    await B.screenshot({ path: path.join(shotDir, 'your-games-other-device.png'), fullPage: true });

    // The seat opens from the other device: Ann's seat, no name asked.
    await B.click(`[data-testid="game-item"][data-room="${waiting.room}"] [data-testid="game-open"]`);
    await B.waitForSelector('#view-room[data-phase="playing"][data-seat="0"]');

    // Revoked on A: B's key stops working (its list keeps the seats it already took).
    await A.click('[data-testid="key-revoke"]');
    await A.waitForFunction(() => localStorage.getItem('carc.playerKey') === null);
    const status = await B.evaluate(async (k) => (await fetch('/api/keys/games', { headers: { Authorization: `Bearer ${k}` } })).status, key);
    assert.equal(status, 401);
    assert.deepEqual(errors, []);
  });
});
