// The camera keeps the player's view: fitted once, then followed only when a new
// tile falls outside it (the zoom never changes by itself), and the zoom and the centre of
// a room come back after a reload.
//
//   CARC_SERVER_BIN=build/carcassonne-server node --test tests/browser/camera.test.mjs

import test from 'node:test';
import assert from 'node:assert/strict';
import { setUp, showingServerLog, animateBoards } from './helpers.mjs';
import { startRoom, playUntil, spreadPick } from './wsclient.mjs';

animateBoards(); // this file checks how the board moves (helpers.mjs)

const LAPTOP = { viewport: { width: 1366, height: 768 }, locale: 'en-US' };

export async function watchRoom(browser, base, room, ctxOptions = LAPTOP) {
  const ctx = await browser.newContext(ctxOptions);
  const page = await ctx.newPage();
  page.setDefaultTimeout(15000);
  await page.goto(`${base}/r/${room}`);
  await page.waitForSelector('[data-testid="join-dialog"]');
  await page.click('[data-testid="join-watch"]');
  await page.waitForSelector('#view-room[data-phase="playing"]');
  return { ctx, page };
}

async function settled(page, version) {
  await page.waitForFunction((v) => Number(document.getElementById('view-room').dataset.version) >= v, version);
  await page.waitForFunction(() => document.getElementById('board').dataset.moving !== '1');
  await page.waitForTimeout(30);
}

function viewOf(page) {
  return page.evaluate(() => {
    const svg = document.getElementById('board');
    const board = svg.getBoundingClientRect();
    const last = document.querySelector('[data-testid="last-placed"] .last-frame')?.getBoundingClientRect();
    const inside = !!last && last.left >= board.left - 1 && last.top >= board.top - 1 && last.right <= board.right + 1 && last.bottom <= board.bottom + 1;
    const transform = svg.querySelector('.vp').getAttribute('transform');
    const [tx, ty, scale] = transform.match(/-?[\d.]+/g).map(Number);
    // The newest tile's cell on the board (its frame is inset 3 of the tile's 100 units).
    const pad = 3 * scale;
    const cell = last && { left: last.left - board.left - pad, top: last.top - board.top - pad, right: last.right - board.left + pad, bottom: last.bottom - board.top + pad };
    return { scale: Number(svg.dataset.scale), transform, tx, ty, inside, cell, w: board.width, h: board.height };
  });
}

/** Whether the newest tile of view `v` lay well inside view `before` (same zoom), by more than 1 px. */
function wasInView(before, v) {
  const dx = before.tx - v.tx;
  const dy = before.ty - v.ty;
  const c = v.cell;
  return c.left + dx > 1 && c.top + dy > 1 && c.right + dx < v.w - 1 && c.bottom + dy < v.h - 1;
}

test('the board is fitted once, then only followed at the same zoom when a new tile falls outside', async (t) => {
  const { server, browser } = await setUp(t);
  await showingServerLog(server, async () => {
    const { room, clients } = await startRoom(server.base, ['Ann', 'Ben']);
    const { page } = await watchRoom(browser, server.base, room);
    await settled(page, clients[0].version);
    const first = await viewOf(page);
    // The tiles already drawn stay the same nodes (a move appends its tile, nothing is
    // redrawn): the start tile is marked once and must still be there after each move.
    await page.evaluate(() => { document.querySelector('#board [data-testid="tile"]').carcMark = 'start'; });
    let moved = 0;
    let prev = first;
    for (let i = 0; i < 24; i++) {
      const turn = clients[0].state.turn.number;
      await playUntil(clients, (s) => s.turn.number > turn, (legal, s) => spreadPick(legal, s, i));
      await settled(page, clients[0].version);
      const drawn = await page.evaluate(() => [...document.querySelectorAll('#board [data-testid="tile"]')]
        .map((g) => `${g.dataset.x},${g.dataset.y},${g.dataset.tile},${g.dataset.rotation}${g.carcMark ? '*' : ''}`));
      const board = clients[0].state.board.map((b) => `${b.x},${b.y},${b.tile},${b.rotation}`);
      assert.deepEqual(drawn.map((k) => k.replace('*', '')), board, `move ${i + 1}: the page draws the board's tiles, in its order`);
      assert.ok(drawn[0].endsWith('*'), `move ${i + 1}: the start tile is the node drawn at the start, not a new one`);
      assert.equal(await page.locator('#board .fresh').count(), 1, `move ${i + 1}: only the newest tile slides in`);
      const v = await viewOf(page);
      assert.equal(v.scale.toFixed(3), first.scale.toFixed(3), `move ${i + 1}: the zoom stays where it was`);
      assert.ok(v.inside, `move ${i + 1}: the newest tile is in view`);
      if (v.transform !== prev.transform) {
        moved++;
        assert.ok(!wasInView(prev, v), `move ${i + 1}: the view moved (${prev.transform} -> ${v.transform}) though the new tile was already in it`);
      }
      prev = v;
    }
    assert.ok(moved >= 1, 'the view followed the board at least once as it grew');
    console.log(`the view followed ${moved} of 24 moves`);
    for (const c of clients) await c.close();
  });
});

test('the zoom and the centre of a room come back after a reload', async (t) => {
  const { server, browser } = await setUp(t);
  await showingServerLog(server, async () => {
    const { room, clients } = await startRoom(server.base, ['Ann', 'Ben']);
    await playUntil(clients, (s) => s.turn.number > 4);
    const { page } = await watchRoom(browser, server.base, room);
    await settled(page, clients[0].version);
    const fitted = await viewOf(page);
    await page.click('#zoom-in');
    await page.click('#zoom-in');
    const box = await page.locator('#board').boundingBox();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 - 90, box.y + box.height / 2 + 40, { steps: 6 });
    await page.mouse.up();
    const chosen = await viewOf(page);
    assert.notEqual(chosen.scale.toFixed(3), fitted.scale.toFixed(3), 'the zoom changed');
    await page.reload();
    await page.waitForSelector('[data-testid="join-dialog"]');
    await page.click('[data-testid="join-watch"]');
    await page.waitForSelector('#view-room[data-phase="playing"]');
    await settled(page, clients[0].version);
    const back = await viewOf(page);
    assert.equal(back.scale.toFixed(3), chosen.scale.toFixed(3), 'the same zoom after a reload');
    const nums = (tr) => tr.match(/-?[\d.]+/g).map(Number);
    const [ax, ay] = nums(chosen.transform);
    const [bx, by] = nums(back.transform);
    assert.ok(Math.abs(ax - bx) < 2 && Math.abs(ay - by) < 2, `the same centre after a reload (${chosen.transform} / ${back.transform})`);
    for (const c of clients) await c.close();
  });
});
