// Hints (issue 31) in Chromium against the real server: a solo game against a computer
// player has hints on by default (the lobby's checkbox says so), the Hint button draws the
// medium computer player's move as a ghost tile on the board, and the end screen counts it.

import test from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { setUp, showingServerLog, skipToEnd, shotDir } from './helpers.mjs';

test('a solo game against the computer: a hint drawn as a ghost tile, counted in the end screen', { timeout: 300000 }, async (t) => {
  const { server, browser } = await setUp(t);
  const errors = [];
  await showingServerLog(server, async () => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
    const page = await ctx.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    page.setDefaultTimeout(20000);
    await page.goto(`${server.base}/`);
    await page.waitForSelector('body[data-ready="1"]');
    await page.fill('[data-testid="create-name"]', 'Ann');
    await page.click('[data-testid="create-game"]');
    await page.waitForSelector('[data-testid="lobby"]:not([hidden]) [data-testid="seat"][data-seat="0"]');
    assert.equal(await page.isChecked('[data-testid="lobby-hints"]'), false, 'alone in the room: off');
    await page.selectOption('[data-testid="bot-level"]', 'easy');
    await page.click('[data-testid="add-bot"]');
    await page.waitForSelector('[data-testid="seat"][data-seat="1"]');
    await page.waitForSelector('[data-testid="lobby-hints"]:checked');  // one human against the computer: on
    await page.click('[data-testid="start"]');
    await page.waitForSelector('#view-room[data-phase="playing"]');
    await page.waitForSelector('#view-room[data-my-turn="1"]', { timeout: 60000 });

    // The button (or H) asks; the answer is drawn as a ghost tile, labelled as a hint.
    await page.click('[data-testid="hint"]:not([disabled])');
    const ghost = page.locator('#board [data-testid="ghost"]');
    await ghost.waitFor();
    assert.match(await ghost.getAttribute('aria-label'), /^Hint: the medium computer player would play here/);
    await page.screenshot({ path: path.join(shotDir, 'hint-ghost.png') });
    const at = [await ghost.getAttribute('data-x'), await ghost.getAttribute('data-y'), await ghost.getAttribute('data-rotation')];
    const legal = await page.evaluate(() => window.__carc.store.state.turn.legal.map((e) => [String(e.x), String(e.y), String(e.rotation)]));
    assert.ok(legal.some((e) => e.join() === at.join()), `the hinted placement ${at} is legal`);
    await page.waitForFunction(() => window.__carc.store.state.players[0].hints === 1);
    await page.keyboard.press('h');  // asked again: the same ghost, not counted again
    await page.waitForTimeout(300);
    assert.equal(await page.evaluate(() => window.__carc.store.state.players[0].hints), 1);
    assert.equal(await ghost.getAttribute('data-x'), at[0]);

    // The rest of the game: the first legal placement of each turn, over the page's connection.
    for (let turns = 0; ; turns++) {
      assert.ok(turns < 100);
      await page.waitForFunction(() => {
        const p = window.__carc;
        const s = p?.store?.state;
        return s && (s.phase === 'finished' || (s.turn?.seat === p.store.seat && s.turn.legal.length > 0));
      }, null, { timeout: 60000 });
      const sent = await page.evaluate(() => {
        const p = window.__carc;
        const s = p.store.state;
        if (s.phase === 'finished') return null;
        const e = s.turn.legal[0];
        p.send({ type: 'play', version: p.store.version, x: e.x, y: e.y, rotation: e.rotation, meeple: null });
        return p.store.version;
      });
      if (sent === null) break;
      await page.waitForFunction((v) => window.__carc.store.version !== v, sent);
    }
    await skipToEnd(page);
    await page.screenshot({ path: path.join(shotDir, 'hint-end.png') });
    assert.equal(await page.textContent('[data-testid="endgame"] thead th.hints'), 'Hints');
    assert.equal(await page.textContent('[data-testid="endgame"] tr[data-seat="0"] [data-testid="end-hints"]'), '1');
    assert.equal(await page.textContent('[data-testid="endgame"] tr[data-seat="1"] [data-testid="end-hints"]'), '0');
    assert.deepEqual(errors, []);
  });
});
