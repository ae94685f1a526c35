// Losing the server: a move confirmed while the connection is down says so and
// is sent once the connection is back, if it still stands; while the page is visible the
// retries come within 2 s, so the page is back within 2 s of the server.
//
//   CARC_SERVER_BIN=build/carcassonne-server node --test tests/browser/offline.test.mjs

import test from 'node:test';
import assert from 'node:assert/strict';
import { setUp, showingServerLog } from './helpers.mjs';
import { pageOnTurn, cellsInView } from './seat-helpers.mjs';

test('a move made while the server is down is queued, said, and sent when it is back; retries stay under 2 s', async (t) => {
  const { server, browser } = await setUp(t);
  await showingServerLog(server, async () => {
    const { page, clients } = await pageOnTurn(browser, server, { ready: (s) => s.turn.number >= 3 });
    for (const c of clients) await c.close();
    const tiles = await page.locator('#board [data-testid="tile"]').count();
    const cells = await cellsInView(page);
    const cell = cells[0];
    await page.click(`[data-testid="cell"][data-x="${cell.x}"][data-y="${cell.y}"]`);
    await page.waitForSelector('[data-testid="ghost"]');
    await server.down();
    await page.waitForSelector('[data-testid="conn-status"][data-state="waiting"]');
    await page.click('[data-testid="confirm"]');
    // Said at once, in the action bar and in a message.
    await page.waitForSelector('[data-testid="action-bar"][data-queued="1"]');
    assert.match(await page.textContent('#action-hint'), /Not connected: your move will be sent/);
    assert.match(await page.textContent('[data-testid="toast-info"]'), /Not connected/);
    assert.match(await page.textContent('[data-testid="turn-banner"]'), /Not connected: your move waits/, 'the banner no longer says "your turn"');
    // While it is down, every retry is planned within 2 s.
    const delays = [];
    const until = Date.now() + 5000;
    while (Date.now() < until) {
      const ms = await page.getAttribute('[data-testid="conn-status"]', 'data-retry-ms');
      if (ms) delays.push(Number(ms));
      await page.waitForTimeout(150);
    }
    assert.ok(delays.length >= 3, 'the page kept retrying');
    assert.ok(Math.max(...delays) < 2000, `every retry within 2 s (${Math.max(...delays)} ms)`);
    // Back: the move goes, and the board has it.
    await server.up();
    await page.waitForSelector('[data-testid="conn-status"][data-state="open"]', { timeout: 4000 });
    await page.waitForFunction((n) => document.querySelectorAll('#board [data-testid="tile"]').length === n + 1, tiles);
    assert.equal(await page.locator(`#board [data-testid="tile"][data-x="${cell.x}"][data-y="${cell.y}"]`).count(), 1, 'the queued tile was placed');
    await page.waitForSelector('[data-testid="toast-info"]:has-text("your move was sent")');
    assert.equal(await page.getAttribute('[data-testid="action-bar"]', 'data-queued'), '0');
  });
});
