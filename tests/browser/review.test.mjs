// The review of a finished game (docs/analysis.md) in Chromium against the real server: a solo game
// against the computer ends, the server analyses it in the background (fast here:
// ANALYSIS_MS), the end dialog offers "Review the game" once it is done, the replay viewer
// shows the evaluation graph, the N key steps to a marked mistake, and the better move is
// drawn as a ghost tile on the board.

import test from 'node:test';
import assert from 'node:assert/strict';
import { setUp, showingServerLog, skipToEnd, openStartPage, startSoloGame, playFirstLegalToEnd } from './helpers.mjs';

// The server the test starts inherits these: a quick analysis at the normal priority.
process.env.ANALYSIS_MS = '20';
process.env.ANALYSIS_PRIORITY = 'normal';

const board = '[data-testid="replay-board"]';

test('a finished game is reviewed: the graph, a marked mistake reached with N, the better move as a ghost tile', { timeout: 240000 }, async (t) => {
  const { server, browser } = await setUp(t);
  const errors = [];
  await showingServerLog(server, async () => {
    const page = await openStartPage(browser, server, errors);
    await startSoloGame(page, { level: 'easy' });
    await playFirstLegalToEnd(page);  // no meeple ever: the analysis marks mistakes
    const room = await page.evaluate(() => window.__carc.room);
    await skipToEnd(page);

    // While it runs the viewer says how long; once done it draws the graph.
    let analysis = null;
    for (let i = 0; i < 600; i++) {
      analysis = await (await fetch(`${server.base}/api/rooms/${room}/analysis`)).json();
      if (analysis.status === 'done') break;
      await new Promise((r) => setTimeout(r, 200));
    }
    assert.equal(analysis.status, 'done');
    const marked = analysis.moves.filter((m) => m.label === 'mistake' || m.label === 'blunder');
    assert.ok(marked.length > 0, 'random moves make mistakes');

    // The end dialog offers the review once the analysis is done (it asks again while it runs).
    await page.click('[data-testid="end-review"]', { timeout: 30000 });
    await page.waitForURL(`${server.base}/replay/${room}`);
    await page.waitForSelector('[data-testid="review-graph"]');
    assert.equal(await page.locator('[data-testid="review-graph"] polyline').count(), 2, 'one line per player');
    assert.equal(await page.locator('[data-testid="review-graph"] circle.review-mark').count(), marked.length);

    // N: the first marked move, shown played, with its label and the better move's ghost.
    await page.locator('body').focus();
    await page.keyboard.press('n');
    const first = marked[0];
    await page.waitForSelector(`${board}[data-move="${first.move + 1}"]`);
    const label = page.locator('[data-testid="review-label"]');
    assert.equal(await label.getAttribute('data-label'), first.label);
    assert.match(await label.textContent(), new RegExp(`Move ${first.move + 1}: (mistake|blunder)`));
    const ghost = page.locator(`${board} [data-testid="ghost"]`);
    await ghost.waitFor();
    assert.deepEqual([await ghost.getAttribute('data-x'), await ghost.getAttribute('data-y'), await ghost.getAttribute('data-rotation')],
      [String(first.best.x), String(first.best.y), String(first.best.rotation)]);
    // The log marks it too.
    assert.ok(await page.locator('[data-testid="replay-log"] [data-testid="review-badge"]').count() >= 1, 'a marker in the log');
    assert.match(await page.locator('[data-testid="replay-log"] li.current').first().textContent(), /⚠ (mistake|blunder)/);
    if (first.best.meeple) assert.equal(await page.locator(`${board} [data-testid="meeple-spot"][data-port="${first.best.meeple}"]`).count(), 1);

    // A click on the graph jumps to the move under it; the next and previous keys go on.
    await page.locator('[data-testid="review-graph"]').click({ position: { x: 5, y: 40 } });
    await page.waitForSelector(`${board}[data-move="1"]`);
    const steps = marked.map((m) => m.move + 1).filter((k) => k > 1);
    if (steps.length > 1) {
      await page.keyboard.press('n');
      await page.waitForSelector(`${board}[data-move="${steps[0]}"]`);
      await page.keyboard.press('n');
      await page.waitForSelector(`${board}[data-move="${steps[1]}"]`);
      await page.keyboard.press('p');
      await page.waitForSelector(`${board}[data-move="${steps[0]}"]`);
    }
    assert.deepEqual(errors, []);
  });
});
