// The smaller play-feel things, at 1366x768 and on a 390x844 phone: the end screen's
// column names whole on a phone (the hints column too) and an unfinished cathedral city read
// as 0 under Cities, not +15 and -15; "Your games" in view on a phone's start page and the
// transfer link's revoke said plainly; the board back in view when the turn starts after
// chatting on a phone; a prepared placement kept through a reload.
//
//   CARC_SERVER_BIN=build/carcassonne-server node --test tests/browser/details.test.mjs

import test from 'node:test';
import assert from 'node:assert/strict';
import { sharedSetUp, showingServerLog, openStartPage, createGame, draftWithMeeple } from './helpers.mjs';
import { LAPTOP, PHONE, inView, pageOnTurn, clickableCells } from './seat-helpers.mjs';
import { startRoom, playUntil, spreadPick, openWithToken } from './wsclient.mjs';

const shared = sharedSetUp();

const KINDS_GAME = { road: 6, city: 12, monastery: 0, garden: 0, abbot: 4, inn: 6, cathedral: 6 };
const KINDS_END = { road: 2, city: 15, monastery: 3, field: 9, garden: 5, inn: -2, cathedral: -15, pig: 3, goods: 10 };

/** A finished state with every expansion's column and the hints, fed to the page as the server would send it. */
async function feedEnd(page) {
  await page.evaluate(({ game, end }) => {
    const p = window.__carc;
    const s = structuredClone(p.store.state);
    const players = [
      { ...s.players[0], score: 0 },
      { seat: 1, name: 'Bartholomew', color: 'blue', score: 0, projected: 0, hints: 0, meeples: 7, connected: true, tile: null, host: false, bot: null, away: false, bank_ms: null },
    ];
    const rows = players.map((pl) => {
      const total = Object.values(game).reduce((a, v) => a + v, 0) + Object.values(end).reduce((a, v) => a + v, 0) - pl.seat;
      return { seat: pl.seat, game: { ...game }, end: { ...end, road: end.road - pl.seat }, total };
    });
    players.forEach((pl, i) => { pl.score = rows[i].total; pl.hints = i === 0 ? 3 : 0; });
    const state = {
      ...s, phase: 'finished', players, turn: null,
      settings: { ...s.settings, hints: true, expansions: ['river', 'abbot', 'inns', 'traders'] },
      result: { final_scores: rows.map((r) => r.total), winners: [0], breakdown: rows },
    };
    p.onMessage({ type: 'state', version: p.store.version + 1000, state });
  }, { game: KINDS_GAME, end: KINDS_END });
  await page.waitForSelector('[data-testid="endgame"]');
}

test('the end screen: every column\'s name whole on a phone, the hints\' too; an unfinished cathedral city is 0 under Cities', async (t) => {
  const { server, browser } = await shared(t);
  await showingServerLog(server, async () => {
    // The reading is the same at any size; the column names without a header row are a phone's.
    for (const [size, opts] of [['phone', PHONE]]) {
      const page = await openStartPage(browser, server, null, opts);
      await createGame(page, 'Hildegard');
      await feedEnd(page);
      const row = await page.$$eval('[data-testid="breakdown"] tr[data-seat="0"] td', (tds) => Object.fromEntries(tds.map((td) => [td.dataset.kind ?? td.className, td.querySelector('.sum')?.textContent ?? td.textContent])));
      assert.equal(row.city, '12', `${size}: the cities scored 12 (during the game); the unfinished cathedral city nothing`);
      assert.equal(row.cathedral, '6', `${size}: the cathedral column says what the cathedral won`);
      assert.equal(row.road, '6', `${size}: the unfinished inn road adds nothing to the roads`);
      if (size === 'phone') {
        for (const lang of ['en', 'fr', 'de', 'es', 'ja']) {
          await page.selectOption('[data-testid="lang-select"]', lang);
          const labels = await page.$$eval('[data-testid="breakdown"] tbody tr:first-child td', (tds) => tds.map((td) => {
            const l = td.querySelector('.klabel');
            if (!l || !l.checkVisibility()) return { name: td.className, shown: false };
            const cell = td.getBoundingClientRect();
            const r = l.getBoundingClientRect();
            return { name: l.textContent, shown: true, cut: l.scrollWidth > l.clientWidth + 1 || r.right > cell.right + 1 || r.left < cell.left - 1 };
          }));
          const missing = labels.filter((l) => !l.shown && !/total/.test(l.name));
          assert.deepEqual(missing, [], `${lang}: every column names itself on a phone (the hints too)`);
          assert.deepEqual(labels.filter((l) => l.cut).map((l) => l.name), [], `${lang}: no column name cut`);
        }
        await page.selectOption('[data-testid="lang-select"]', 'en');
      }
      await page.context().close();
    }
  });
});

test('a phone\'s start page: "Your games" above the fold, and what turning the transfer link off does, said plainly', async (t) => {
  const { server, browser } = await shared(t);
  await showingServerLog(server, async () => {
    const page = await openStartPage(browser, server, null, PHONE);
    await createGame(page, 'Ann');
    await page.waitForFunction(() => Object.keys(localStorage).some((k) => k === 'carc.playerKey'));
    await page.goto(`${server.base}/`);
    await page.waitForSelector('[data-testid="game-item"]');
    assert.ok(await inView(page, '[data-testid="your-games"] h2'), '"Your games" is in view without scrolling');
    assert.ok(await inView(page, '[data-testid="game-open"]'), 'and its game can be opened from there');
    await page.waitForSelector('[data-testid="key-revoke"]');
    assert.equal((await page.textContent('[data-testid="key-revoke"]')).trim(), 'Turn off the transfer link');
    assert.match(await page.textContent('[data-testid="key-revoke-hint"]'), /The link stops working.*Your seats here stay\./);
    await page.context().close();
  });
});

test('a phone: chatting while the other plays, then the turn starts: the board comes back into view', async (t) => {
  const { server, browser } = await shared(t);
  await showingServerLog(server, async () => {
    const { room, clients } = await startRoom(server.base, ['Ann', 'Ben']);
    await playUntil(clients, (s) => s.turn.seat === 1 && s.turn.number >= 3, (l, s, i) => spreadPick(l, s, i));
    const token = clients[0].token;
    await clients[0].close();
    const { ctx, page } = await openWithToken(browser, server.base, room, token, PHONE);
    await page.waitForSelector('#view-room[data-phase="playing"][data-my-turn="0"]');
    await page.fill('[data-testid="chat-input"]', 'nice road');
    await page.press('[data-testid="chat-input"]', 'Enter');
    await page.waitForSelector('#chat li');
    const boardTop = () => page.evaluate(() => document.querySelector('#view-room .board-area').getBoundingClientRect().top);
    assert.ok(await boardTop() < -50, 'the phone scrolled down to the chat');
    // Ben plays: Ann's turn.
    const ben = clients[1];
    const l = ben.state.turn.legal[0];
    ben.send({ type: 'play', version: ben.version, x: l.x, y: l.y, rotation: l.rotation, meeple: null });
    await page.waitForSelector('#view-room[data-my-turn="1"]');
    await page.waitForFunction(() => Math.abs(document.querySelector('#view-room .board-area').getBoundingClientRect().top) < 2 || document.querySelector('#view-room .board-area').getBoundingClientRect().top >= 0, null, { timeout: 3000 })
      .catch(() => {});
    assert.ok(await boardTop() >= -2, `the board is back in view (its top at ${Math.round(await boardTop())})`);
    await page.waitForFunction(() => document.getElementById('board').dataset.moving !== '1');
    assert.ok((await clickableCells(page)).length > 0, 'a legal cell can be clicked where it is');
    await ctx.close();
    await ben.close();
  });
});

test('a prepared placement, figure and all, is still there after a reload, and can be confirmed', async (t) => {
  const { server, browser } = await shared(t);
  await showingServerLog(server, async () => {
    for (const [size, opts] of [['laptop', LAPTOP], ['phone', PHONE]]) {
      const meepleTurn = (s) => s.players[0].meeples > 0 && s.turn.legal.some((l) => l.meeples.length > 0);
      const { page, clients, ctx } = await pageOnTurn(browser, server, { ready: meepleTurn, ctxOptions: { ...opts, locale: 'en-US' } });
      await draftWithMeeple(page);
      const draft = () => page.evaluate(() => {
        const g = document.querySelector('[data-testid="ghost"]');
        const spot = document.querySelector('[data-testid="meeple-spot"].chosen');
        return g ? { x: g.dataset.x, y: g.dataset.y, rotation: g.dataset.rotation, port: spot?.dataset.port ?? null } : null;
      });
      const before = await draft();
      await page.reload();
      await page.waitForSelector('#view-room[data-my-turn="1"]');
      await page.waitForSelector('[data-testid="ghost"]', { timeout: 5000 });
      assert.deepEqual(await draft(), before, `${size}: the same cell, rotation and spot after the reload`);
      const version = await page.getAttribute('#view-room', 'data-version');
      await page.click('[data-testid="confirm"]');
      await page.waitForFunction((v) => document.getElementById('view-room').dataset.version !== v, version);
      const placed = await page.evaluate(() => window.__carc.store.state.events.filter((e) => e.type === 'placed' && e.seat === 0).at(-1));
      assert.deepEqual([String(placed.x), String(placed.y), String(placed.rotation), placed.meeple], [before.x, before.y, before.rotation, before.port], `${size}: that placement was played`);
      await ctx.close();
      for (const c of clients) await c.close();
    }
  });
});
