// A player's first minutes at 1366x768 and on a 390x844 phone (issue 43): the host's first
// turn shows the start tile and the legal cells without the fit button.
//
//   CARC_SERVER_BIN=build/carcassonne-server node --test tests/browser/playfeel.test.mjs

import test from 'node:test';
import assert from 'node:assert/strict';
import { setUp, showingServerLog, openStartPage, startSoloGame } from './helpers.mjs';
import { clickableCells, settled, LAPTOP, PHONE } from './seat-helpers.mjs';

// What the player sees of the board at the start of the turn: the start tile's centre
// inside the board's visible part, and the legal cells that can be clicked where they are.
async function firstTurnView(page) {
  await page.waitForSelector('#view-room[data-my-turn="1"]', { timeout: 60000 });
  await settled(page);
  const start = await page.evaluate(() => {
    const board = document.getElementById('board').getBoundingClientRect();
    const top = Math.max(board.top, 0);
    const bottom = Math.min(board.bottom, innerHeight);
    const r = document.querySelector('[data-testid="tile"][data-x="0"][data-y="0"]').getBoundingClientRect();
    const cx = r.left + r.width / 2;
    const cy = r.top + r.height / 2;
    return { cx, cy, inside: cx >= board.left && cx <= board.right && cy >= top && cy <= bottom };
  });
  return { start, cells: await clickableCells(page) };
}

test('the host\'s first turn on a phone and a laptop: the start tile and the legal cells in view, no fit needed', { timeout: 180000 }, async (t) => {
  const { server, browser } = await setUp(t);
  const errors = [];
  await showingServerLog(server, async () => {
    // "Play against the computer" from the start page, at both sizes.
    for (const [size, opts] of [['phone', PHONE], ['laptop', LAPTOP]]) {
      const page = await openStartPage(browser, server, errors, opts);
      await page.fill('[data-testid="create-name"]', 'Ann');
      await page.selectOption('[data-testid="solo-level"]', 'easy');
      await page.click('[data-testid="play-computer"]');
      const { start, cells } = await firstTurnView(page);
      assert.ok(start.inside, `${size}: the start tile is on the visible board (its centre at ${start.cx.toFixed(0)}, ${start.cy.toFixed(0)})`);
      assert.ok(cells.length > 0, `${size}: a legal cell can be clicked where it is, without the fit button`);
      await page.context().close();
    }
    // Create, add a computer player, start: the same on a phone.
    const page = await openStartPage(browser, server, errors, PHONE);
    await startSoloGame(page, { name: 'Ann', level: 'easy' });
    const { start, cells } = await firstTurnView(page);
    assert.ok(start.inside, `phone, through the lobby: the start tile is on the visible board (${start.cx.toFixed(0)}, ${start.cy.toFixed(0)})`);
    assert.ok(cells.length > 0, 'phone, through the lobby: a legal cell can be clicked where it is');
    await page.context().close();
    assert.deepEqual(errors, []);
  });
});
