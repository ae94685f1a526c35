// Presence in Chromium: a player who drops shows as away in their panel and in the banner
// when it is their turn, with how long they have been gone, and comes back by themselves.
//
//   CARC_SERVER_BIN=build/carcassonne-server node --test --test-concurrency=1 tests/browser/presence.test.mjs

import test from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { setUp, showingServerLog, shotDir } from './helpers.mjs';
import { startRoom, openWithToken, WsClient } from './wsclient.mjs';

test('a dropped player shows as away, with the time gone, in the panel and the banner', { timeout: 120000 }, async (t) => {
  const { server, browser } = await setUp(t);
  await showingServerLog(server, async () => {
    const { room, clients } = await startRoom(server.base, ['Ada', 'Bruno']);
    assert.equal(clients[0].state.turn.seat, 0, 'Ada has the first turn');
    // The page takes Bruno's seat; then Ada, whose turn it is, drops.
    const bruno = clients[1].token;
    await clients[1].close();
    const { page } = await openWithToken(browser, server.base, room, bruno, { viewport: { width: 1280, height: 800 } });
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.waitForSelector('#view-room[data-seat="1"][data-phase="playing"]');
    await page.waitForSelector('[data-testid="player"][data-seat="0"][data-connected="1"]');
    const ada = clients[0].token;
    await clients[0].close();
    await page.waitForSelector('[data-testid="player"][data-seat="0"][data-presence="away"] [data-testid="away-badge"]');
    await page.waitForSelector('[data-testid="banner-turn"][data-presence="away"]');
    // Some seconds later the badge and the banner say how long.
    await page.waitForFunction(() => /away \d+ s/.test(document.querySelector('[data-testid="player"][data-seat="0"] [data-testid="away-badge"]').textContent), null, { timeout: 15000 });
    const banner = await page.locator('[data-testid="banner-turn"]').textContent();
    assert.match(banner, /Ada is away \(\d+ s\)/);
    assert.equal(await page.locator('[data-testid="player"][data-seat="1"] [data-testid="away-badge"]').count(), 0, 'the page\'s own seat is not away');
    await page.screenshot({ path: path.join(shotDir, 'presence-away.png') });
    // Ada comes back: the badge goes.
    const back = await WsClient.connect(server.base, room);
    back.send({ type: 'join', token: ada });
    await back.next('welcome', 0);
    await page.waitForSelector('[data-testid="player"][data-seat="0"][data-presence=""]');
    assert.equal(await page.locator('[data-testid="away-badge"]').count(), 0);
    assert.match(await page.locator('[data-testid="banner-turn"]').textContent(), /Ada is playing/);
    assert.deepEqual(errors, []);
    await back.close();
  });
});

test('a computer seat has its badge; the turn clock counts down, warns at 10 s, and a computer plays the turn that ran out', { timeout: 120000 }, async (t) => {
  const { server, browser } = await setUp(t);
  await showingServerLog(server, async () => {
    const res = await fetch(`${server.base}/api/rooms`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
    const { room } = await res.json();
    const host = await WsClient.connect(server.base, room);
    host.send({ type: 'join', name: 'Ada' });
    await host.next('welcome', 0);
    host.send({ type: 'add_bot', level: 'easy' });
    host.send({ type: 'settings', turn_seconds: 20 });
    await host.until((c) => c.state.players.length === 2 && c.state.settings?.turn_seconds === 20, 'the bot and the clock');
    host.send({ type: 'start' });
    await host.until((c) => c.state.phase === 'playing', 'the start');
    assert.equal(host.state.turn.seat, 0, 'Ada plays first');
    const token = host.token;
    await host.close();

    const { page } = await openWithToken(browser, server.base, room, token, { viewport: { width: 1280, height: 800 } });
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.waitForSelector('#view-room[data-seat="0"][data-my-turn="1"]');
    // The computer seat's badge.
    const badge = page.locator('[data-testid="player"][data-seat="1"] [data-testid="bot-badge"]');
    assert.match(await badge.textContent(), /computer · easy/);
    assert.equal(await page.locator('[data-testid="player"][data-seat="0"] [data-testid="bot-badge"]').count(), 0);
    // The countdown on the current player's panel, going down.
    const clock = page.locator('[data-testid="player"][data-seat="0"] [data-testid="clock"]');
    const first = await clock.textContent();
    assert.match(first, /^0:(20|1\d|0\d)$/);
    await page.waitForFunction((f) => {
      const c = document.querySelector('[data-testid="player"][data-seat="0"] [data-testid="clock"]');
      return c && c.textContent !== f;
    }, first);
    assert.equal(await page.locator('[data-testid="player"][data-seat="1"] [data-testid="clock"]').count(), 0, 'only the current player has a countdown');
    // The soft warning at 10 s, for the player whose turn it is.
    await page.waitForFunction(() => window.__carc.feel.sounds.played.includes('warn'), null, { timeout: 20000 });
    await page.waitForSelector('[data-testid="clock"].urgent');
    await page.screenshot({ path: path.join(shotDir, 'presence-clock.png') });
    // Time runs out: a computer plays the turn, and Ada's seat says so until she plays.
    await page.waitForSelector('[data-testid="player"][data-seat="0"][data-presence="auto"] [data-testid="away-badge"]', { timeout: 30000 });
    assert.match(await page.locator('[data-testid="player"][data-seat="0"] [data-testid="away-badge"]').textContent(), /computer plays/);
    // The seat is marked before the computer's move arrives (a real bot thinks first).
    await page.waitForFunction(() => document.querySelectorAll('#board [data-testid="tile"]').length >= 2, null, { timeout: 20000 });
    await page.screenshot({ path: path.join(shotDir, 'presence-auto.png') });
    // The bot plays its turn; Ada's turn again: she plays and takes her seat back.
    await page.waitForSelector('#view-room[data-my-turn="1"]', { timeout: 20000 });
    const cell = await page.locator('[data-testid="cell"]').first();
    await page.waitForFunction(() => document.getElementById('board').dataset.moving !== '1');
    await cell.click();
    await page.click('[data-testid="confirm"]');
    await page.waitForSelector('[data-testid="player"][data-seat="0"][data-presence=""]', { timeout: 10000 });
    assert.deepEqual(errors, []);
  });
});
