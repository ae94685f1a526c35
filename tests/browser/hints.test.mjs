// Hints (docs/protocol-details.md) in Chromium against the real server: a solo game against a computer
// player has hints on by default (the lobby's checkbox says so), the Hint button draws the
// medium computer player's move as a ghost tile on the board, and the end screen counts it.

import test from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { setUp, showingServerLog, skipToEnd, shotDir, openStartPage, startSoloGame, playFirstLegalToEnd } from './helpers.mjs';

test('a solo game against the computer: a hint drawn as a ghost tile, counted in the end screen', { timeout: 300000 }, async (t) => {
  const { server, browser } = await setUp(t);
  const errors = [];
  await showingServerLog(server, async () => {
    const page = await openStartPage(browser, server, errors);
    await startSoloGame(page, {
      afterCreate: async () => assert.equal(await page.isChecked('[data-testid="lobby-hints"]'), false, 'alone in the room: off'),
      afterBot: () => page.waitForSelector('[data-testid="lobby-hints"]:checked'),  // one human against the computer: on
    });

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

    await playFirstLegalToEnd(page);  // the rest of the game
    await skipToEnd(page);
    await page.screenshot({ path: path.join(shotDir, 'hint-end.png') });
    assert.equal(await page.textContent('[data-testid="endgame"] thead th.hints'), 'Hints');
    assert.equal(await page.textContent('[data-testid="endgame"] tr[data-seat="0"] [data-testid="end-hints"]'), '1');
    assert.equal(await page.textContent('[data-testid="endgame"] tr[data-seat="1"] [data-testid="end-hints"]'), '0');
    assert.deepEqual(errors, []);
  });
});
