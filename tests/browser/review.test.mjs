// The review of a finished game (docs/analysis.md) in Chromium against the real server: a solo game
// against the computer ends, the server analyses it in the background (fast here:
// ANALYSIS_MS), the end dialog offers "Review the game" once it is done, the replay viewer
// shows the evaluation graph, the N key steps to a marked mistake, and the better move is
// drawn as a ghost tile on the board.

import test from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { setUp, showingServerLog, skipToEnd, openStartPage, startSoloGame, playFirstLegalToEnd, shotDir } from './helpers.mjs';
import { LAPTOP, PHONE } from './seat-helpers.mjs';

// The server the test starts inherits these: a quick analysis at the normal priority.
process.env.ANALYSIS_MS = '20';
process.env.ANALYSIS_PRIORITY = 'normal';

const board = '[data-testid="replay-board"]';

// The move shown and its better move as the player sees them: each tile's size and whether
// its middle is on the visible board.
function framed(page, played, best) {
  return page.evaluate(({ played, best, sel }) => {
    const svg = document.querySelector(sel);
    const b = svg.getBoundingClientRect();
    const at = (el) => {
      if (!el) return null;
      const r = el.getBoundingClientRect();
      const cx = r.left + r.width / 2;
      const cy = r.top + r.height / 2;
      return { size: Math.round(Math.min(r.width, r.height)), inside: cx > b.left && cx < b.right && cy > Math.max(b.top, 0) && cy < Math.min(b.bottom, innerHeight) };
    };
    return {
      played: at(svg.querySelector(`[data-testid="tile"][data-x="${played.x}"][data-y="${played.y}"]`)),
      best: at(svg.querySelector('[data-testid="ghost"] .ghost-frame')),
    };
  }, { played, best, sel: board });
}

test('a finished game is reviewed: the graph with its axis and legend, the player\'s own mistake reached with N, framed with the better move and why, on a laptop and a phone', { timeout: 240000 }, async (t) => {
  const { server, browser } = await setUp(t);
  const errors = [];
  await showingServerLog(server, async () => {
    const page = await openStartPage(browser, server, errors, LAPTOP);
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

    // The graph says what it measures, and whose each line is.
    assert.ok(await page.locator('[data-testid="review-tick"]').count() >= 2, 'the axis has its values');
    assert.match(await page.textContent('[data-testid="review-legend"]'), /Expected final margin in points.*Ann.*Bot 2/);

    // N: the player's own first marked move (the computer's are passed by), shown played,
    // with its label, why the better move in points, and the better move's ghost.
    const mine = marked.filter((m) => m.seat === 0);
    assert.ok(mine.length > 0, 'a human who never places a meeple makes mistakes');
    await page.locator('body').focus();
    await page.keyboard.press('n');
    const first = mine[0];
    await page.waitForSelector(`${board}[data-move="${first.move + 1}"]`);
    const label = page.locator('[data-testid="review-label"]');
    assert.equal(await label.getAttribute('data-label'), first.label);
    const text = await label.textContent();
    assert.match(text, new RegExp(`^Move ${first.move + 1}: (mistake|blunder) \\(Ann\\), about [0-9.]+ points of final margin given away\\. The better move, drawn beside it: .{8,}`));
    assert.doesNotMatch(text, /\(-?\d+, -?\d+\)/, 'no coordinates the board does not show');
    const ghost = page.locator(`${board} [data-testid="ghost"]`);
    await ghost.waitFor();
    assert.deepEqual([await ghost.getAttribute('data-x'), await ghost.getAttribute('data-y'), await ghost.getAttribute('data-rotation')],
      [String(first.best.x), String(first.best.y), String(first.best.rotation)]);
    // The board frames the move and the better one, big enough to read.
    await page.waitForFunction((sel) => document.querySelector(sel).dataset.moving !== '1', board);
    const played = await page.evaluate((k) => window.__carc.replay.frames[k].board.at(-1), first.move + 1);
    const seen = await framed(page, played, first.best);
    assert.ok(seen.played?.inside && seen.best?.inside, `the move and the better one are on the visible board: ${JSON.stringify(seen)}`);
    // Big enough to read: 60 px a tile, unless the two moves lie too far apart for both to
    // show at 60 px (the frame keeps 0.6 of a tile around them); then as big as both allow.
    const room60 = await page.evaluate(({ a, b }) => {
      const vp = window.__carc.board.viewport();
      const i = { top: 0, right: 0, bottom: 0, left: 0, ...(vp.insets ?? {}) };
      const w = vp.w - i.left - i.right;
      const h = vp.h - i.top - i.bottom;
      return Math.min(w / (Math.abs(a.x - b.x) + 2.2), h / (Math.abs(a.y - b.y) + 2.2));
    }, { a: played, b: first.best });
    const readable = Math.min(60, Math.floor(room60 * 0.95));
    assert.ok(seen.played.size >= readable,
      `laptop: the tiles are big enough to read (${seen.played.size} px; ${readable} px wanted, ${Math.round(room60)} px would show both)`);
    await page.screenshot({ path: path.join(shotDir, 'review-framed-laptop.png') });
    // The log marks it too.
    assert.ok(await page.locator('[data-testid="replay-log"] [data-testid="review-badge"]').count() >= 1, 'a marker in the log');
    assert.match(await page.locator('[data-testid="replay-log"] li.current').first().textContent(), /⚠ (mistake|blunder)/);
    if (first.best.meeple) assert.equal(await page.locator(`${board} [data-testid="meeple-spot"][data-port="${first.best.meeple}"]`).count(), 1);

    // A click on the graph jumps to the move under it; the next and previous keys go on.
    await page.locator('[data-testid="review-graph"]').click({ position: { x: 5, y: 40 } });
    await page.waitForSelector(`${board}[data-move="1"]`);
    const steps = mine.map((m) => m.move + 1).filter((k) => k > 1);
    if (steps.length > 1) {
      await page.keyboard.press('n');
      await page.waitForSelector(`${board}[data-move="${steps[0]}"]`);
      await page.keyboard.press('n');
      await page.waitForSelector(`${board}[data-move="${steps[1]}"]`);
      await page.keyboard.press('p');
      await page.waitForSelector(`${board}[data-move="${steps[0]}"]`);
    }
    // Everybody's mistakes when asked.
    const others = marked.filter((m) => m.seat !== 0).map((m) => m.move + 1);
    if (others.length) {
      await page.click('[data-testid="review-only-mine"]');
      await page.locator('[data-testid="review-graph"]').click({ position: { x: 40, y: 40 } });
      const from = Number(await page.getAttribute(board, 'data-move'));
      const all = marked.map((m) => m.move + 1).filter((k) => k > from);
      if (all.length) {
        await page.locator('body').focus();
        await page.keyboard.press('n');
        await page.waitForSelector(`${board}[data-move="${all[0]}"]`);
      }
    }

    // On a phone, the same move (the same browser's seat): framed, the reason said.
    const token = await page.evaluate((r) => [localStorage.getItem(`carc.token.${r}`), localStorage.getItem(`carc.game.${r}`)], room);
    const phone = await browser.newContext({ ...PHONE, locale: 'en-US' });
    const p = await phone.newPage();
    p.on('pageerror', (e) => errors.push(`phone: ${e.message}`));
    await p.goto(`${server.base}/`);
    await p.evaluate(([r, tk, note]) => { localStorage.setItem(`carc.token.${r}`, tk); localStorage.setItem(`carc.game.${r}`, note); }, [room, ...token]);
    await p.goto(`${server.base}/replay/${room}`);
    await p.waitForSelector('[data-testid="review-graph"]');
    await p.keyboard.press('n');
    await p.waitForSelector(`${board}[data-move="${first.move + 1}"]`);
    await p.waitForSelector(`${board} [data-testid="ghost"]`);
    await p.waitForFunction((sel) => document.querySelector(sel).dataset.moving !== '1', board);
    await p.locator(board).scrollIntoViewIfNeeded();
    const onPhone = await framed(p, played, first.best);
    assert.ok(onPhone.played?.inside && onPhone.best?.inside, `phone: the move and the better one in view: ${JSON.stringify(onPhone)}`);
    assert.ok(onPhone.played.size >= 40, `phone: the tiles are big enough to read (${onPhone.played.size} px)`);
    await p.screenshot({ path: path.join(shotDir, 'review-framed-phone.png'), fullPage: true });
    assert.match(await p.textContent('[data-testid="review-label"]'), /The better move, drawn beside it: .{8,}/);
    await phone.close();
    assert.deepEqual(errors, []);
  });
});
