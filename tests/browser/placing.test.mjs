// Placing as on Board Game Arena: a click on the tile being placed turns it
// through the rotations legal on that cell, with a visible turn every time (even when the
// new rotation looks the same); a click on the tile in the action bar does too; the meeple
// spots never overlap at any zoom, and each says what it claims and what it is worth.
//
//   CARC_SERVER_BIN=build/carcassonne-server node --test tests/browser/placing.test.mjs

import test from 'node:test';
import assert from 'node:assert/strict';
import { setUp, showingServerLog, animateBoards } from './helpers.mjs';
import { pageOnTurn, cellsInView, ghostPoint, settled } from './seat-helpers.mjs';

animateBoards(); // this file checks how the board moves (helpers.mjs)

// A turn where some cell takes the tile in two rotations or more, and with meeple spots.
function rich(s) {
  const byCell = new Map();
  for (const l of s.turn.legal) byCell.set(`${l.x},${l.y}`, [...(byCell.get(`${l.x},${l.y}`) ?? []), l]);
  return s.turn.number >= 3 && [...byCell.values()].some((o) => o.length >= 2 && o.some((l) => l.meeples.length >= 2));
}

async function rotationState(page) {
  return page.evaluate(() => {
    const g = document.querySelector('[data-testid="ghost"]');
    const turning = g.querySelector('.turning');
    return {
      rotation: Number(g.dataset.rotation), turn: Number(g.dataset.turn),
      animated: !!turning && turning.getAnimations().some((a) => /ghost-turn/.test(a.animationName ?? '')),
    };
  });
}

test('a click on the tile being placed, or on the tile in the action bar, turns it visibly through its legal rotations', async (t) => {
  const { server, browser } = await setUp(t);
  await showingServerLog(server, async () => {
    const { page, clients, errors } = await pageOnTurn(browser, server, { ready: rich });
    const cells = await cellsInView(page, (cs) => cs.some((c) => c.rotations >= 2));
    const cell = cells.find((c) => c.rotations >= 2);
    assert.ok(cell, 'a cell with two legal rotations can be clicked');
    // The mouse over the cell shows the tile held there, faintly, at a legal rotation.
    const sel = `[data-testid="cell"][data-x="${cell.x}"][data-y="${cell.y}"]`;
    await page.hover(sel);
    const preview = await page.waitForFunction((q) => {
      const g = document.querySelector(`${q} .preview`);
      return g && Number(getComputedStyle(g).opacity) > 0.5 && g.querySelector('path, use') && { rotation: Number(document.querySelector(q).dataset.rotation) };
    }, sel).then((h) => h.jsonValue());
    const legalHere = await page.evaluate(({ x, y }) => window.__carc.store.state.turn.legal.filter((l) => l.x === x && l.y === y).map((l) => l.rotation), cell);
    assert.ok(legalHere.includes(preview.rotation), `the preview's rotation ${preview.rotation} is legal there (${legalHere})`);
    await page.click(sel);
    await page.waitForSelector('[data-testid="ghost"]');
    await settled(page);
    const legal = await page.evaluate(({ x, y }) => window.__carc.store.state.turn.legal.filter((l) => l.x === x && l.y === y).map((l) => l.rotation), cell);
    const seen = [(await rotationState(page)).rotation];
    for (let i = 0; i < legal.length; i++) {
      const p = await ghostPoint(page);
      assert.ok(p, 'a point of the tile outside its meeple spots');
      await page.mouse.click(p.x, p.y);
      const r = await rotationState(page);
      assert.ok(legal.includes(r.rotation), `turned to a legal rotation (${r.rotation} of ${legal})`);
      assert.notEqual(r.rotation, seen.at(-1), 'the click turned the tile, it did not pick a meeple spot');
      assert.ok(r.turn > 0 && r.animated, 'the tile is seen turning');
      assert.equal(await page.locator('[data-testid="meeple-spot"].chosen').count(), 0, 'no meeple chosen by accident');
      seen.push(r.rotation);
    }
    assert.equal(seen.at(-1), seen[0], 'the clicks go round the legal rotations only');
    // The tile in the action bar turns it too, and shows it turned.
    const before = await page.innerHTML('[data-testid="current-tile"]');
    await page.click('[data-testid="current-tile-btn"]');
    const r = await rotationState(page);
    assert.notEqual(r.rotation, seen[0]);
    assert.ok(r.animated);
    assert.notEqual(await page.innerHTML('[data-testid="current-tile"]'), before, 'the bar shows the tile as turned');
    assert.deepEqual(errors, []);
    for (const c of clients) await c.close();
  });
});

test('meeple spots never overlap at any zoom; each names its feature, its size and its points', async (t) => {
  const { server, browser } = await setUp(t);
  await showingServerLog(server, async () => {
    const { page, clients } = await pageOnTurn(browser, server, { ready: rich });
    const cells = await cellsInView(page, (cs) => cs.some((c) => c.spots >= 2));
    const cell = cells.sort((a, b) => b.spots - a.spots)[0];
    await page.click(`[data-testid="cell"][data-x="${cell.x}"][data-y="${cell.y}"]`);
    await page.waitForSelector('[data-testid="meeple-spot"]');
    // Turn to the rotation with the most spots.
    for (let i = 0; i < 4 && (await page.locator('[data-testid="meeple-spot"]').count()) < cell.spots; i++) await page.keyboard.press('r');
    await settled(page);
    const rings = () => page.evaluate(() => [...document.querySelectorAll('[data-testid="meeple-spot"] .spot-ring')].map((c) => {
      const r = c.getBoundingClientRect();
      return { x: r.left + r.width / 2, y: r.top + r.height / 2, r: r.width / 2 };
    }));
    for (const zoom of [null, 'zoom-out', 'zoom-out', 'zoom-in', 'zoom-in', 'zoom-in']) {
      if (zoom) await page.click(`#${zoom}`);
      const all = await rings();
      assert.ok(all.length >= 2);
      for (let i = 0; i < all.length; i++) {
        for (let j = i + 1; j < all.length; j++) {
          const d = Math.hypot(all[i].x - all[j].x, all[i].y - all[j].y);
          assert.ok(d >= all[i].r + all[j].r, `spots ${i} and ${j} do not overlap after ${zoom ?? 'the start'} (${d.toFixed(1)} px apart)`);
        }
      }
    }
    const spots = await page.evaluate(() => [...document.querySelectorAll('[data-testid="meeple-spot"]')].map((s) => ({
      port: s.dataset.port, kind: s.dataset.kind, label: s.getAttribute('aria-label'), title: s.querySelector('title')?.textContent,
      role: s.getAttribute('role'), points: s.dataset.points,
    })));
    for (const s of spots) {
      assert.equal(s.role, 'button');
      assert.equal(s.title, s.label, 'the tooltip says what the accessible name says');
      assert.match(s.label, new RegExp(`^meeple on the ${s.kind}`));
      if (s.kind === 'road' || s.kind === 'city') {
        assert.match(s.label, /, \d+ tiles? · (worth \d+ points? so far|completes it: \+\d+ now)$/, s.label);
        assert.match(s.label, new RegExp(`${s.points}`), 'the points are those projected');
      }
      if (s.kind === 'field') assert.match(s.label, /· \d+ points? at the end as it stands \(3 per completed city\)$/);
    }
    // Choosing a spot: the action bar says the same, with the points.
    const road = spots.find((s) => s.kind !== 'field') ?? spots[0];
    // Back to the zoom the cell was brought to, so the spot is on screen, then a click.
    await page.click('#zoom-out');
    await settled(page);
    await page.click(`[data-testid="meeple-spot"][data-port="${road.port}"]`, { force: true });
    await page.waitForSelector(`[data-testid="meeple-spot"].chosen[data-port="${road.port}"]`);
    const hint = await page.textContent('#action-hint');
    assert.equal(hint.toLowerCase(), road.label.toLowerCase());
    for (const c of clients) await c.close();
  });
});
