// The ratings as players see them (docs/community.md, "The pages"): three players on their
// own browser contexts (one a phone) find an open game from the start page, play it to its
// end (the first legal placement each turn, sent at once, two of them with meeples), and read their rating changes on
// the end screen (again after a reload), the leaderboard (with its expansion-set filter) and their own pages (the
// rating, the chart, the recent game's replay and review, the statistics); afterwards the
// open games show the host's rating. The numbers on every page are the server's.
//
//   CARC_SERVER_BIN=build/carcassonne-server node --test --test-concurrency=1 tests/browser/ratings-pages.test.mjs

import test from 'node:test';
import assert from 'node:assert/strict';
import { setUp, showingServerLog, openStartPage, skipToEnd } from './helpers.mjs';
import { LAPTOP, PHONE } from './seat-helpers.mjs';

const roomOf = (page) => new URL(page.url()).pathname.split('/').pop();
const oneDecimal = (v) => new Intl.NumberFormat('en', { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(v);

/**
 * Plays the page's turns to the end at once: the first legal placement, with a meeple on its
 * first spot every `every` turns (0: never), so that the players end with different scores.
 */
async function playToEnd(page, every) {
  for (let turns = 0; ; turns++) {
    if (turns >= 100) throw new Error('the game did not end in 100 turns');
    await page.waitForFunction(() => {
      const p = window.__carc;
      const s = p?.store?.state;
      return s && (s.phase === 'finished' || (s.turn?.seat === p.store.seat && s.turn.legal.length > 0));
    }, null, { timeout: 60000 });
    const sent = await page.evaluate((meeple) => {
      const p = window.__carc;
      const s = p.store.state;
      if (s.phase === 'finished') return null;
      const e = s.turn.legal[0];
      p.send({ type: 'play', version: p.store.version, x: e.x, y: e.y, rotation: e.rotation, meeple: meeple ? (e.meeples?.[0] ?? null) : null });
      return p.store.version;
    }, every > 0 && turns % every === 0);
    if (sent === null) return;
    await page.waitForFunction((v) => window.__carc.store.version !== v, sent);
  }
}

/** Nothing wider than the screen: the page does not scroll sideways. */
async function fitsWidth(page, what) {
  const { scroll, width } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }));
  assert.ok(scroll <= width, `${what}: ${scroll} px wide in a ${width} px window`);
}

test('three players find an open game, play it to the end and see their rating changes on the end screen, the leaderboard and their pages', { timeout: 300000 }, async (t) => {
  // A short analysis per move, so that the players' pages have an average loss to show.
  const { server, browser } = await setUp(t, { args: ['--analysis-ms', '10', '--analysis-priority', 'normal'] });
  const errors = [];
  await showingServerLog(server, async () => {
    const ann = await openStartPage(browser, server, errors, LAPTOP);
    const ben = await openStartPage(browser, server, errors, LAPTOP);
    const cleo = await openStartPage(browser, server, errors, PHONE);
    const pages = [ann, ben, cleo];

    // Ann's quick play opens a lobby; Ben and Cleo find it on the start page and join with one click.
    await ann.fill('[data-testid="create-name"]', 'Ann');
    await ann.click('[data-testid="quick-play"]');
    await ann.waitForSelector('[data-testid="lobby"]:not([hidden]) [data-testid="seat"][data-seat="0"]');
    await ann.waitForFunction(() => window.__carc.life.open === true);
    const room = roomOf(ann);
    for (const [page, name, seat] of [[ben, 'Ben', 1], [cleo, 'Cleo', 2]]) {
      await page.fill('[data-testid="create-name"]', name);
      const entry = page.locator(`[data-testid="open-game"][data-room="${room}"]`);
      await entry.waitFor();
      assert.match(await entry.locator('[data-testid="open-host"]').textContent(), /^Host: Ann · not rated yet$/);
      await entry.locator('[data-testid="open-join"]').click();
      await page.waitForSelector(`[data-testid="lobby"]:not([hidden]) [data-testid="seat"][data-seat="${seat}"]`);
    }
    await ann.waitForSelector('[data-testid="seat"][data-seat="2"]');
    await ann.click('[data-testid="start"]');
    for (const page of pages) await page.waitForSelector('#view-room[data-phase="playing"]');

    const started = Date.now();
    await Promise.all(pages.map((p, i) => playToEnd(p, [1, 2, 0][i])));
    t.diagnostic(`the game took ${Date.now() - started} ms`);

    // The end screen: everybody's rating before, after and its change, from the `rated` message.
    const rated = [];
    for (const page of pages) {
      await skipToEnd(page);
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="rated-seat"]').length === 3);
      rated.push(await page.evaluate(() => ({ seat: window.__carc.store.seat, msg: window.__carc.rated })));
    }
    const ids = rated.map(({ seat, msg }) => msg.seats.find((s) => s.seat === seat).player);
    assert.equal(new Set(ids).size, 3, 'three players');
    const profiles = [];
    for (const id of ids) profiles.push(await (await fetch(`${server.base}/api/players/${id}`)).json());
    for (const [i, page] of pages.entries()) {
      const seat = rated[i].seat;
      const row = page.locator(`[data-testid="rated-seat"][data-seat="${seat}"]`);
      const live = profiles[i].ratings.live;
      assert.equal(await row.locator('[data-testid="rated-after"]').textContent(), `${oneDecimal(live.rating)} (provisional)`);
      const change = live.rating - 0;  // a first game: everybody started at 0
      assert.equal(await row.locator('[data-testid="rated-change"]').textContent(), new Intl.NumberFormat('en', { minimumFractionDigits: 1, maximumFractionDigits: 1, signDisplay: 'exceptZero' }).format(change).replace('-', '−'));
      await fitsWidth(page, 'the end screen');
    }
    // Ben reloads the finished game: the end screen still shows everybody's rating change, now
    // read from the server (the `rated` message came only once, before the reload).
    const rows = (page) => page.locator('[data-testid="rated-seat"]').evaluateAll((trs) => trs.map((tr) => [tr.dataset.seat, tr.textContent]));
    const shown = await rows(ben);
    await ben.reload();
    await skipToEnd(ben);
    await ben.waitForFunction(() => document.querySelectorAll('[data-testid="rated-seat"]').length === 3, null, { timeout: 15000 });
    assert.deepEqual(await rows(ben), shown);
    assert.equal(await ben.evaluate(() => window.__carc.rated ?? null), null, 'no message after the reload: the table is the server\'s answer');

    // The winner gained more than the last (in a first game every sigma shrinks, so even the
    // last one's mu - 3 sigma may rise).
    const byPlace = [...rated[0].msg.seats].sort((a, b) => a.place - b.place);
    assert.ok(byPlace[0].place < byPlace.at(-1).place && byPlace[0].change > byPlace.at(-1).change);

    // The leaderboard: the three, best first, with one game each; the base-game filter keeps
    // them, the River's has nobody.
    await ben.goto(`${server.base}/leaderboard`);
    await ben.waitForSelector('[data-testid="board-row"]');
    const board = await ben.locator('[data-testid="board-row"]').evaluateAll((rows) => rows.map((r) => ({
      player: r.dataset.player, rating: r.querySelector('[data-testid="board-rating"]').textContent, games: r.querySelector('[data-testid="board-games"]').textContent,
    })));
    const expected = ids.map((id, i) => ({ player: id, rating: `${oneDecimal(profiles[i].ratings.live.rating)} (provisional)`, games: '1' }))
      // Best first; players tied (a shared place gives the same rating) by their id, as the server orders them.
      .sort((a, b) => (profiles[ids.indexOf(b.player)].ratings.live.rating - profiles[ids.indexOf(a.player)].ratings.live.rating)
        || (a.player < b.player ? -1 : a.player > b.player ? 1 : 0));
    assert.deepEqual(board, expected);
    assert.equal(await ben.locator('th', { hasText: 'Rating' }).count(), 1, 'a column header');
    await ben.check('[data-testid="board-exact"]');
    await ben.click('[data-testid="board-show"]');
    await ben.waitForSelector('caption:has-text("Base game")');
    assert.equal(await ben.locator('[data-testid="board-row"]').count(), 3);
    assert.match(ben.url(), /\/leaderboard\?pace=live&expansions=$/);
    await ben.check('[data-testid="board-exp-river"]');
    await ben.click('[data-testid="board-show"]');
    await ben.waitForSelector('[data-testid="board-empty"]');
    await ben.selectOption('[data-testid="board-pace"]', 'turn-based');
    await ben.uncheck('[data-testid="board-exact"]');
    await ben.click('[data-testid="board-show"]');
    await ben.waitForSelector('[data-testid="board-empty"]:has-text("Turn-based")');
    await cleo.goto(`${server.base}/leaderboard`);
    await cleo.waitForSelector('[data-testid="board-row"]');
    await fitsWidth(cleo, 'the leaderboard on a phone');

    // Each player's own page, from the end screen's link (Cleo's from the board): the rating,
    // a chart of one game, the game with its replay, and the statistics of the stored result.
    // The analysis runs behind the game; the page shows its average loss once it is done.
    const analysed = Date.now() + 90000;
    for (;;) {
      const a = await (await fetch(`${server.base}/api/rooms/${room}/analysis`)).json().catch(() => null);
      if (a?.status === 'done') break;
      assert.ok(Date.now() < analysed, `the analysis is ${a?.status}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    await cleo.click(`[data-testid="board-row"][data-player="${ids[2]}"] a`);
    for (const [i, page] of [[0, ann], [2, cleo]]) {
      if (page === ann) await ann.click(`[data-testid="rated-seat"][data-seat="${rated[0].seat}"] [data-testid="rated-player"]`);
      await page.waitForSelector('[data-testid="player-page"]');
      assert.equal(new URL(page.url()).pathname, `/p/${ids[i]}`);
      const me = await (await fetch(`${server.base}/api/players/${ids[i]}`)).json();
      assert.equal(await page.textContent('[data-testid="player-name"]'), ['Ann', 'Ben', 'Cleo'][i]);
      assert.equal(await page.textContent('[data-testid="player-rating-live"] [data-testid="player-rating"]'), oneDecimal(me.ratings.live.rating));
      assert.equal(await page.locator('[data-testid="rating-chart-live"] [data-testid="rating-dot"]').count(), 1);
      assert.match(await page.getAttribute('[data-testid="rating-chart-live"]', 'aria-label'), /^Live rating over 1 games: from /);
      const game = page.locator(`[data-testid="recent-game"][data-room="${room}"]`);
      assert.equal(await game.locator('[data-testid="recent-place"]').textContent(), `${me.recent[0].place}/3`);
      assert.equal(await game.locator('[data-testid="recent-replay"]').getAttribute('href'), `/replay/${room}`);
      const set = page.locator('[data-testid="set-row"][data-set=""]');
      assert.equal(await set.locator('[data-testid="set-win-rate"]').textContent(), me.recent[0].place === 1 ? '100%' : '0%');
      assert.equal(await set.locator('[data-testid="set-average"]').textContent(), String(me.recent[0].score));
      // Points by kind add up to the score.
      const kinds = await page.locator('[data-testid="kind-row"]').evaluateAll((rows) => rows.map((r) => [r.dataset.kind, Number(r.querySelector('td').textContent)]));
      assert.ok(kinds.some(([k]) => k === 'city') && kinds.some(([k]) => k === 'road'));
      assert.equal(kinds.reduce((s, [, n]) => s + n, 0), me.recent[0].score);
      assert.equal(me.stats.analysis.games, 1);
      assert.equal(await page.textContent('[data-testid="avg-loss"]'),
        `Average loss per move: ${me.stats.analysis.average_loss} points of final margin (${me.stats.analysis.moves} moves in 1 analysed games).`);
      assert.equal(await game.locator('[data-testid="recent-review"]').getAttribute('href'), `/replay/${room}#review`);
    }
    await fitsWidth(cleo, 'a player\'s page on a phone');
    await cleo.click(`[data-testid="recent-game"][data-room="${room}"] [data-testid="recent-replay"]`);
    await cleo.waitForSelector('#view-replay:not([hidden])');

    // Ann opens another game: the start page shows her rating beside her name.
    await ann.goto(`${server.base}/`);
    await ann.fill('[data-testid="create-name"]', 'Ann');
    await ann.click('[data-testid="quick-play"]');
    await ann.waitForFunction(() => window.__carc?.life?.open === true);
    await ben.goto(`${server.base}/`);
    const host = ben.locator(`[data-testid="open-game"][data-room="${roomOf(ann)}"] [data-testid="open-host"]`);
    await ben.waitForFunction((r) => /rating/.test(document.querySelector(`[data-testid="open-game"][data-room="${r}"] [data-testid="open-host"]`)?.textContent ?? ''), roomOf(ann), { timeout: 15000 });
    assert.equal(await host.textContent(), `Host: Ann · rating ${oneDecimal(profiles[0].ratings.live.rating)}`);
    assert.deepEqual(errors, []);
  });
});
