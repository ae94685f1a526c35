// A board assistive technology can play: legal cells, the tile being placed and
// its meeple spots are focusable, named buttons with one tab stop per group; each move is
// said in words through a live region; the log is one tab stop; a patch leaves the focus
// and a text selection where they were; axe-core finds no serious or critical violation on
// the start page, the lobby, a game in progress and the end screen.
//
//   CARC_SERVER_BIN=build/carcassonne-server node --test tests/browser/access.test.mjs

import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { setUp, showingServerLog, skipToEnd } from './helpers.mjs';
import { startRoom, playUntil, spreadPick, openWithToken } from './wsclient.mjs';
import { pageOnTurn, LAPTOP, PHONE } from './seat-helpers.mjs';

const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's serious and critical violations on the page as it is. */
async function axeViolations(page) {
  // Evaluated through the DevTools protocol, which the page's CSP does not govern.
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.evaluate(axeSource);
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
}

async function tabTo(page, pred, max = 40) {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate(pred)) return true;
  }
  return false;
}

test('keyboard and screen reader: named cells with one tab stop, the tile, its spots, the move said in words', async (t) => {
  const { server, browser } = await setUp(t);
  await showingServerLog(server, async () => {
    const { page, clients, errors } = await pageOnTurn(browser, server, { ready: (s) => s.turn.number >= 3 && s.turn.legal.some((l) => l.meeples.length >= 2) });
    const cells = await page.evaluate(() => [...document.querySelectorAll('[data-testid="cell"]')].map((g) => ({
      role: g.getAttribute('role'), label: g.getAttribute('aria-label'), tab: g.getAttribute('tabindex'),
    })));
    assert.ok(cells.length >= 1);
    for (const c of cells) {
      assert.equal(c.role, 'button');
      assert.match(c.label, /^Free square, column -?\d+, row -?\d+/);
    }
    assert.equal(cells.filter((c) => c.tab === '0').length, 1, 'the legal cells are one tab stop');
    // The live region is emptied, then written 60 ms later (so that the same words are said again).
    await page.waitForFunction(() => /Your turn/.test(document.querySelector('#announce')?.textContent ?? ''), null, { timeout: 5000 }).catch(() => {});
    assert.match(await page.textContent('#announce'), /Your turn: the tile fits on \d+ squares?\./, 'the turn is announced');
    // Tab to the board, Enter on a cell: the tile is there and has the focus.
    await page.evaluate(() => document.activeElement?.blur());
    assert.ok(await tabTo(page, () => document.activeElement?.dataset?.testid === 'cell'), 'Tab reaches a legal cell');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid="ghost"]');
    await page.waitForFunction(() => document.activeElement?.dataset?.testid === 'ghost');
    assert.match(await page.evaluate(() => document.activeElement.getAttribute('aria-label')), /^Your tile at column -?\d+, row -?\d+, turned \d+°/);
    // Arrows move the tile; the focus stays on it.
    await page.keyboard.press('ArrowLeft');
    await page.waitForTimeout(100);
    if (await page.evaluate(() => document.activeElement?.dataset?.testid !== 'ghost')) await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => document.activeElement?.dataset?.testid === 'ghost');
    // To the spots: one tab stop, arrows go round them, Enter chooses one.
    let spots = await page.locator('[data-testid="meeple-spot"]').count();
    for (let i = 0; i < 4 && spots < 2; i++) {
      await page.keyboard.press(' ');
      spots = await page.locator('[data-testid="meeple-spot"]').count();
    }
    if (spots >= 1) {
      assert.equal(await page.locator('[data-testid="meeple-spot"][tabindex="0"]').count(), 1, 'the spots are one tab stop');
      assert.ok(await tabTo(page, () => document.activeElement?.dataset?.testid === 'meeple-spot', 3), 'Tab reaches the spots');
      const first = await page.evaluate(() => document.activeElement.dataset.port);
      if (spots >= 2) {
        await page.keyboard.press('ArrowRight');
        assert.notEqual(await page.evaluate(() => document.activeElement.dataset.port), first, 'an arrow moves to the next spot');
      }
      const port = await page.evaluate(() => document.activeElement.dataset.port);
      await page.keyboard.press('Enter');
      await page.waitForSelector(`[data-testid="meeple-spot"][data-port="${port}"][aria-pressed="true"]`);
    }
    // Enter on the tile confirms; the move is said in words.
    await page.focus('[data-testid="ghost"]');
    const version = await page.getAttribute('#view-room', 'data-version');
    await page.keyboard.press('Enter');
    await page.waitForFunction((v) => document.getElementById('view-room').dataset.version !== v, version);
    await page.waitForFunction(() => /Ann (placed|claimed|extended|closed|put)/.test(document.getElementById('announce').textContent));
    // The other player's move is said too.
    await playUntil(clients, (s) => s.turn.seat === 0, (l, s, i) => spreadPick(l, s, i));
    await page.waitForFunction(() => /Ben (placed|claimed|extended|closed|put)/.test(document.getElementById('announce').textContent));
    assert.deepEqual(errors, []);
    for (const c of clients) await c.close();
  });
});

test('the log is one tab stop; focus and a text selection survive the moves of both players', async (t) => {
  const { server, browser } = await setUp(t);
  await showingServerLog(server, async () => {
    const { page, clients } = await pageOnTurn(browser, server, { ready: (s) => s.turn.number >= 6 });
    const ben = clients[0];
    ben.send({ type: 'chat', text: 'hello there, good luck' });
    await page.waitForSelector('[data-testid="chat-message"]');
    const tabStops = await page.evaluate(() => [...document.querySelectorAll('#log, #log *')].filter((e) => e.tabIndex >= 0).map((e) => e.tagName));
    assert.deepEqual(tabStops, ['OL'], 'the log itself is the only tab stop in it');
    assert.equal(await page.getAttribute('#log', 'aria-label'), 'Game log: arrow keys go through the lines, Enter shows one on the board');
    // Into the log, and from the log the next Tab reaches the chat.
    await page.focus('#log');
    await page.keyboard.press('ArrowUp');
    const line = await page.evaluate(() => document.activeElement.dataset.id);
    assert.ok(line, 'an arrow goes to a line');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement.id), 'chat-input', 'Tab goes on from the log to the chat');
    // A line of the log has the focus; a chat message is selected.
    await page.focus('#log');
    await page.keyboard.press('ArrowUp');
    const focused = await page.evaluate(() => document.activeElement.dataset.id);
    await page.evaluate(() => {
      const text = document.querySelector('[data-testid="chat-message"] .text');
      const range = document.createRange();
      range.selectNodeContents(text);
      const sel = getSelection();
      sel.removeAllRanges();
      sel.addRange(range);
    });
    await page.keyboard.press('ArrowUp'); // still in the log: the board does not move
    await page.evaluate(() => { window.__marked = document.activeElement; });
    // Ann plays (through the page's own code, her hands being on the log), then Ben answers.
    const v = Number(await page.getAttribute('#view-room', 'data-version'));
    await page.evaluate(() => {
      const c = window.__carc;
      const l = c.store.state.turn.legal[0];
      c.selectCell(l.x, l.y);
      c.confirmDraft();
    });
    await page.waitForFunction((x) => Number(document.getElementById('view-room').dataset.version) > x, v);
    await playUntil(clients, (s) => s.turn.seat === 0, (l, s, i) => spreadPick(l, s, i));
    await page.waitForFunction(() => document.getElementById('view-room').dataset.myTurn === '1');
    await page.waitForTimeout(300);
    const after = await page.evaluate(() => ({
      same: window.__marked === document.activeElement && document.activeElement.isConnected,
      selected: getSelection().toString(),
    }));
    assert.ok(after.same, `the focused log line kept the focus through the moves (line ${focused})`);
    assert.equal(after.selected, 'hello there, good luck', 'the selection in the chat survived');
    for (const c of clients) await c.close();
  });
});

test('axe-core finds no serious or critical violation: start page, lobby, a game in progress, the end screen', async (t) => {
  const { server, browser } = await setUp(t);
  await showingServerLog(server, async () => {
    for (const [size, opts] of [['laptop', LAPTOP], ['phone', PHONE]]) {
      const ctx = await browser.newContext({ ...opts, locale: 'en-US' });
      const page = await ctx.newPage();
      await page.goto(`${server.base}/`);
      await page.waitForSelector('body[data-ready="1"]');
      assert.deepEqual(await axeViolations(page), [], `${size}: the start page`);
      await page.fill('[data-testid="create-name"]', 'Ann');
      await page.click('[data-testid="create-game"]');
      await page.waitForSelector('[data-testid="lobby"]:not([hidden]) [data-testid="seat"]');
      assert.deepEqual(await axeViolations(page), [], `${size}: the lobby`);
      await ctx.close();
    }
    // A game in progress, the player choosing a meeple spot.
    const { page, clients } = await pageOnTurn(browser, server, { ready: (s) => s.turn.number >= 5 && s.turn.legal.some((l) => l.meeples.length) });
    await page.evaluate(() => {
      const c = window.__carc;
      const l = c.store.state.turn.legal.find((x) => x.meeples.length);
      c.selectCell(l.x, l.y);
    });
    await page.waitForSelector('[data-testid="meeple-spot"]');
    assert.deepEqual(await axeViolations(page), [], 'a game in progress');
    for (const c of clients) await c.close();
    // The end screen.
    const { room, clients: all } = await startRoom(server.base, ['Ann', 'Ben']);
    await playUntil(all, () => false, (l, s, i) => spreadPick(l, s, i));
    const token = all[0].token;
    for (const c of all) await c.close();
    const { page: end } = await openWithToken(browser, server.base, room, token, LAPTOP);
    await skipToEnd(end);
    assert.deepEqual(await axeViolations(end), [], 'the end screen');
  });
});
