// "Your games" on the start page, in Chromium against the real server: the games this
// browser holds a seat in, with their players, phase and whose turn it is; one click back
// into a game (seated, no name asked); a finished game's replay; forgetting a game.

import test from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { shotDir, setUp, setUpGame, showingServerLog, playTurn } from './helpers.mjs';
import { playOverProtocol } from './games-helpers.mjs';

test('"Your games" lists the games of this browser and reopens them', { timeout: 120000 }, async (t) => {
  const { server, browser } = await setUp(t);
  const errors = [];
  await showingServerLog(server, async () => {
    const { A, B, invite } = await setUpGame(browser, server, errors, { nameA: 'Aiko', nameB: 'Bastien' });
    const room = new URL(invite).pathname.split('/').pop();
    await A.click('[data-testid="start"]');
    await Promise.all([A, B].map((p) => p.waitForSelector('#view-room[data-phase="playing"]')));
    await playTurn(A, { meeple: true });

    // A finished game in the same browser: played over the protocol, its first seat kept as
    // the room page keeps it.
    const done = await playOverProtocol(A, { names: ['Aiko', 'Carla'], seed: 3 });
    await A.evaluate(({ r, token }) => {
      localStorage.setItem(`carc.token.${r}`, token);
      localStorage.setItem(`carc.game.${r}`, JSON.stringify({ seat: 0, name: 'Aiko', updated: 1 }));
    }, { r: done.room, token: done.tokens[0] });
    // A game this browser only watched is not listed.
    const watched = await playOverProtocol(A, { names: ['Xavier', 'Yuna'], moves: 2 });

    await A.goto(`${server.base}/`);
    await A.waitForSelector('[data-testid="your-games"][data-loaded="1"]');
    const items = A.locator('[data-testid="game-item"]');
    assert.equal(await items.count(), 2);
    assert.deepEqual(await items.evaluateAll((lis) => lis.map((li) => li.dataset.room)), [room, done.room], 'the most recent first');
    assert.equal(await A.locator(`[data-testid="game-item"][data-room="${watched.room}"]`).count(), 0);

    const playing = A.locator(`[data-testid="game-item"][data-room="${room}"]`);
    assert.equal(await playing.getAttribute('data-phase'), 'playing');
    const line = await playing.textContent();
    assert.match(line, /Aiko.*Bastien/, 'the players');
    assert.match(line, /in play/, 'the phase');
    assert.match(line, /Bastien to play/, 'whose turn');
    assert.match(line, /you are Aiko/);
    const finished = A.locator(`[data-testid="game-item"][data-room="${done.room}"]`);
    assert.equal(await finished.getAttribute('data-phase'), 'finished');
    assert.match(await finished.textContent(), /Aiko.*Carla.*finished/s);
    await A.screenshot({ path: path.join(shotDir, 'home-your-games.png') });
    await A.setViewportSize({ width: 390, height: 844 });
    const overflow = await A.evaluate(() => document.documentElement.scrollWidth - innerWidth);
    assert.ok(overflow <= 0, `nothing sticks out sideways on a phone (${overflow}px)`);
    await A.screenshot({ path: path.join(shotDir, 'home-your-games-phone.png'), fullPage: true });
    await A.setViewportSize({ width: 1280, height: 800 });

    // B's turn: B's own list says so.
    await B.goto(`${server.base}/`);
    await B.waitForSelector('[data-testid="your-games"][data-loaded="1"]');
    assert.equal(await B.locator('[data-testid="game-item"]').count(), 1);
    assert.equal(await B.locator('[data-testid="game-your-turn"]').count(), 1);

    // One click back into the game: seated, no name asked.
    await A.click(`[data-testid="game-item"][data-room="${room}"] [data-testid="game-open"]`);
    await A.waitForSelector('#view-room[data-phase="playing"][data-seat="0"]');
    assert.equal(await A.locator('[data-testid="join-dialog"]').isVisible(), false);

    // The finished game opens its replay.
    await A.goto(`${server.base}/`);
    await A.waitForSelector('[data-testid="your-games"][data-loaded="1"]');
    await A.click(`[data-testid="game-item"][data-room="${done.room}"] [data-testid="game-replay"]`);
    await A.waitForURL(`**/replay/${done.room}`);
    await A.waitForSelector('[data-testid="replay-board"][data-move="0"]');

    // Forget: gone from the list and from storage, after a reload too.
    await A.goto(`${server.base}/`);
    await A.waitForSelector('[data-testid="your-games"][data-loaded="1"]');
    await A.click(`[data-testid="game-item"][data-room="${done.room}"] [data-testid="game-forget"]`);
    assert.equal(await A.locator('[data-testid="game-item"]').count(), 1);
    assert.equal(await A.evaluate((r) => localStorage.getItem(`carc.token.${r}`), done.room), null);
    await A.reload();
    await A.waitForSelector('[data-testid="your-games"][data-loaded="1"]');
    assert.deepEqual(await A.locator('[data-testid="game-item"]').evaluateAll((lis) => lis.map((li) => li.dataset.room)), [room]);

    // A game the server no longer knows says so, and can be forgotten.
    await A.evaluate(() => localStorage.setItem('carc.token.gone_room_123456', 'x'));
    await A.reload();
    await A.waitForSelector('[data-testid="game-item"][data-room="gone_room_123456"][data-phase="gone"]');
    assert.match(await A.locator('[data-testid="game-item"][data-room="gone_room_123456"]').textContent(), /no longer on this server/);
    await A.click('[data-testid="game-item"][data-room="gone_room_123456"] [data-testid="game-forget"]');
    assert.equal(await A.locator('[data-testid="game-item"]').count(), 1);

    // A browser with no seats shows no list.
    const ctx = await browser.newContext({ locale: 'fr-FR' });
    const C = await ctx.newPage();
    await C.goto(`${server.base}/`);
    await C.waitForSelector('body[data-ready="1"]');
    assert.equal(await C.locator('[data-testid="your-games"]').isVisible(), false);
    assert.deepEqual(errors, [], 'no script errors in the pages');
  });
});
