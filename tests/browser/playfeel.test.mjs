// A player's first minutes at 1366x768 and on a 390x844 phone: the host's first
// turn shows the start tile and the legal cells without the fit button, Enter on a
// focused "No meeple" or "Cancel" does what the button says instead of sending the move,
// and the hint says why and can be taken with a click.
//
//   CARC_SERVER_BIN=build/carcassonne-server node --test tests/browser/playfeel.test.mjs

import test from 'node:test';
import assert from 'node:assert/strict';
import { sharedSetUp, showingServerLog, openStartPage, startSoloGame, clickableTarget, draftWithMeeple, animateBoards } from './helpers.mjs';
import { pageOnTurn, clickableCells, settled, LAPTOP, PHONE } from './seat-helpers.mjs';

animateBoards(); // this file checks how the board moves (helpers.mjs)

const shared = sharedSetUp();

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

test('the host\'s first turn on a phone: the start tile and the legal cells in view, no fit needed, from the start page or the lobby', { timeout: 180000 }, async (t) => {
  const { server, browser } = await shared(t);
  const errors = [];
  await showingServerLog(server, async () => {
    // "Play against the computer" from the start page (a laptop's lobby card lies over the
    // board, which hardly changes size when the game starts: the phone is the case).
    for (const [size, opts] of [['phone', PHONE]]) {
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
    // The cells pulse to catch the eye, then stay lit: a page left on the player's turn
    // goes quiet (an endless pulse redraws the board 60 times a second, a phone's battery with it).
    const pulses = await page.evaluate(() => document.getAnimations().filter((a) => a.effect?.target?.closest?.('#board'))
      .map((a) => ({ name: a.animationName, iterations: a.effect.getComputedTiming().iterations, ms: a.effect.getComputedTiming().endTime })));
    assert.ok(pulses.some((a) => a.name === 'legal'), `the legal cells pulse at the start of the turn: ${JSON.stringify(pulses)}`);
    for (const a of pulses) assert.ok(Number.isFinite(a.ms) && a.ms <= 5000, `${a.name} ends within 5 s (${a.iterations} x, ${a.ms} ms)`);
    await page.context().close();
    assert.deepEqual(errors, []);
  });
});

test('Enter on a focused "No meeple" takes the meeple back, on "Cancel" cancels; neither sends the move', { timeout: 120000 }, async (t) => {
  const { server, browser } = await shared(t);
  await showingServerLog(server, async () => {
    for (const [size, opts] of [['laptop', LAPTOP], ['phone', PHONE]]) {
      const meepleTurn = (s) => s.players[0].meeples > 0 && s.turn.legal.some((l) => l.meeples.length > 0);
      const { page, clients, errors } = await pageOnTurn(browser, server, { ready: meepleTurn, ctxOptions: { ...opts, locale: 'en-US' } });
      const version = await page.getAttribute('#view-room', 'data-version');
      await draftWithMeeple(page);

      // The keyboard reaches "No meeple" and presses Enter: the meeple is taken back.
      await page.focus('[data-testid="no-meeple"]');
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => !document.querySelector('[data-testid="meeple-spot"].chosen'), null, { timeout: 3000 })
        .catch(() => {});
      await page.waitForTimeout(300); // a move sent would have come back by now
      assert.equal(await page.getAttribute('#view-room', 'data-version'), version, `${size}: Enter on "No meeple" sent no move`);
      assert.equal(await page.locator('[data-testid="ghost"]').count(), 1, `${size}: the tile is still being placed`);
      assert.equal(await page.locator('[data-testid="meeple-spot"].chosen').count(), 0, `${size}: "No meeple" took the meeple back`);

      // A spot again, then Enter on "Cancel": the placement is cancelled, nothing sent.
      const spot = await clickableTarget(page, '[data-testid="meeple-spot"]');
      await page.mouse.click(spot.cx, spot.cy);
      await page.waitForSelector('[data-testid="meeple-spot"].chosen');
      await page.focus('[data-testid="cancel"]');
      await page.keyboard.press('Enter');
      await page.waitForTimeout(300);
      assert.equal(await page.getAttribute('#view-room', 'data-version'), version, `${size}: Enter on "Cancel" sent no move`);
      assert.equal(await page.locator('[data-testid="ghost"]').count(), 0, `${size}: "Cancel" cancelled the placement`);

      // Enter from the page (nothing focused) still confirms, with the meeple chosen.
      await draftWithMeeple(page);
      await page.evaluate(() => document.activeElement?.blur());
      await page.keyboard.press('Enter');
      await page.waitForFunction((v) => document.getElementById('view-room').dataset.version !== v, version);
      const placed = await page.evaluate(() => window.__carc.store.state.events.filter((e) => e.type === 'placed').at(-1));
      assert.equal(placed.seat, 0, `${size}: Enter from the page played the turn`);
      assert.ok(placed.meeple, `${size}: with the meeple chosen`);
      assert.deepEqual(errors, []);
      await page.context().close();
      for (const c of clients) await c.close();
    }
  });
});

test('the hint says why, and a click on the tile it shows takes its move', { timeout: 120000 }, async (t) => {
  const { server, browser } = await shared(t);
  const errors = [];
  await showingServerLog(server, async () => {
    for (const [size, opts] of [['laptop', LAPTOP], ['phone', PHONE]]) {
      const page = await openStartPage(browser, server, errors, opts);
      await startSoloGame(page, { name: 'Ann', level: 'easy' }); // one human against the computer: hints on
      await page.click('[data-testid="hint"]:not([disabled])');
      const ghost = page.locator('#board [data-testid="ghost"]');
      await ghost.waitFor();
      const why = page.locator('[data-testid="hint-why"]');
      await why.waitFor();
      assert.match(await why.textContent(), /^Hint: .{8,}\. Click or tap the tile to play it there\.$/, `${size}: the hint says why`);
      assert.ok(await why.isVisible(), `${size}: the reason can be read`);
      const hinted = await page.evaluate(() => window.__carc.hint.move);
      // The player clicks the middle of the tile the hint shows, where the cell is.
      await settled(page);
      const at = await page.evaluate(() => {
        const r = document.querySelector('#board [data-testid="ghost"] .ghost-frame').getBoundingClientRect();
        return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
      });
      await page.mouse.click(at.x, at.y);
      await page.waitForSelector('[data-testid="confirm"]:not([disabled])', { timeout: 3000 });
      assert.equal(await why.isVisible(), false, `${size}: the reason gives way to the placement`);
      const version = await page.getAttribute('#view-room', 'data-version');
      await page.click('[data-testid="confirm"]');
      await page.waitForFunction((v) => document.getElementById('view-room').dataset.version !== v, version);
      const placed = await page.evaluate(() => window.__carc.store.state.events.filter((e) => e.type === 'placed' && e.seat === 0).at(-1));
      assert.deepEqual([placed.x, placed.y, placed.rotation, placed.meeple ?? null], [hinted.x, hinted.y, hinted.rotation, hinted.meeple ?? null],
        `${size}: the hinted move was played`);
      await page.context().close();
    }
    assert.deepEqual(errors, []);
  });
});
