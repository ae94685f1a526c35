// The start page: usable fast on loopback, every module and the tile catalogue
// asked for at once (measured with the Performance API and printed); a game against the
// computer with the number of computer players and their level; "Play again" in such a
// game starts the next one at once, in the same seat and colour.
//
//   CARC_SERVER_BIN=build/carcassonne-server node --test tests/browser/startpage.test.mjs

import test from 'node:test';
import assert from 'node:assert/strict';
import { setUp, showingServerLog, skipToEnd, openStartPage } from './helpers.mjs';
import { playOverProtocol } from './games-helpers.mjs';
import { LAPTOP } from './seat-helpers.mjs';

test('first load: the catalogue and every module are asked for at once; the time to a usable page is measured', async (t) => {
  const { server, browser } = await setUp(t);
  await showingServerLog(server, async () => {
    const runs = [];
    for (let i = 0; i < 3; i++) {
      // A new context each time: nothing cached.
      const fresh = await openStartPage(browser, server, null, { ...LAPTOP, timeout: null });
      const ctx = fresh.context();
      runs.push(await fresh.evaluate(() => {
        const res = performance.getEntriesByType('resource');
        const scripts = res.filter((r) => r.name.endsWith('.js'));
        const app = scripts.find((r) => r.name.endsWith('/app.js'));
        const tiles = res.find((r) => r.name.endsWith('/api/tiles'));
        return {
          ready: performance.getEntriesByName('carc-ready')[0]?.startTime ?? null,
          tilesStart: tiles?.startTime ?? null, tilesBy: tiles?.initiatorType,
          lastModule: Math.max(...scripts.map((r) => r.responseEnd)),
          modules: scripts.length,
          // Asked for before app.js had even arrived: no waterfall of imports.
          early: scripts.filter((r) => r !== app && r.startTime <= app.responseEnd).length,
          bytes: res.reduce((n, r) => n + (r.transferSize || 0), 0),
        };
      }));
      await ctx.close();
    }
    const r = runs.at(-1);
    console.log(`first load on loopback: usable at ${runs.map((x) => x.ready.toFixed(0)).join(' / ')} ms (carc-ready mark), ${r.modules} modules (${r.early} asked for before app.js arrived), ${(r.bytes / 1024).toFixed(0)} KB`);
    assert.ok(r.ready !== null, 'the page marks when it is usable');
    assert.ok(r.tilesStart !== null, 'the catalogue was fetched');
    assert.equal(r.tilesBy, 'link', 'the catalogue is asked for by the page itself, before any script ran');
    assert.ok(r.tilesStart < r.lastModule, 'the catalogue is on its way before the last module arrived');
    assert.equal(r.early, r.modules - 1, `every module asked for before app.js arrived (${r.early} of ${r.modules - 1})`);
  });
});

test('a game against the computer: how many and how strong; "Play again" starts the next game at once, same seat and colour', { timeout: 240000 }, async (t) => {
  const { server, browser } = await setUp(t);
  const errors = [];
  await showingServerLog(server, async () => {
    const page = await openStartPage(browser, server, errors, LAPTOP);
    const ctx = page.context();
    await page.fill('[data-testid="create-name"]', 'Solène');
    await page.selectOption('[data-testid="solo-count"]', '2');
    await page.selectOption('[data-testid="solo-level"]', 'hard');
    await page.click('[data-testid="play-computer"]');
    await page.waitForSelector('#view-room[data-phase="playing"][data-seat="0"]');
    const players = () => page.evaluate(() => window.__carc.store.state.players.map((p) => ({ seat: p.seat, bot: p.bot, color: p.color, host: p.host })));
    const first = await players();
    assert.deepEqual(first.map((p) => p.bot), [null, 'hard', 'hard'], 'two hard computer players');
    const room = await page.evaluate(() => window.__carc.room);
    // The game played to its end through the player's seat.
    const helper = await ctx.newPage();
    await helper.goto(`${server.base}/healthz`);
    await playOverProtocol(helper, { room, tokens: [await page.evaluate((r) => localStorage.getItem(`carc.token.${r}`), room)], untilBagEmpty: true });
    await helper.close();
    await page.reload();
    await page.waitForSelector('[data-testid="conn-status"][data-state="open"]');
    await page.waitForFunction(() => window.__carc.store.state);
    if (await page.evaluate(() => window.__carc.store.state.phase === 'playing')) {
      await page.waitForFunction(() => window.__carc.store.state.phase === 'finished' || window.__carc.store.state.turn?.seat === 0, null, { timeout: 30000 });
      await page.evaluate(() => {
        const c = window.__carc;
        const l = c.store.state.turn?.legal?.[0];
        if (!l) return;
        c.selectCell(l.x, l.y);
        c.confirmDraft();
      });
    }
    await skipToEnd(page);
    await page.click('[data-testid="rematch"]');
    // The next game, at once: playing, same seat, same colour, the same computer players.
    await page.waitForFunction((r) => window.__carc?.room && window.__carc.room !== r, room, { timeout: 20000 });
    await page.waitForSelector('#view-room[data-phase="playing"]', { timeout: 20000 });
    const next = await players();
    assert.deepEqual(next, first, 'the same seats, colours and computer players');
    assert.equal(await page.getAttribute('#view-room', 'data-seat'), '0');
    assert.equal(await page.locator('[data-testid="invite-link"]:visible').count(), 0, 'no lobby with an invite link');
    assert.deepEqual(errors, []);
  });
});
