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
