// The two boxed expansions end to end: a six-player game with all four expansions (the River, the Abbot,
// Inns & Cathedrals, Traders & Builders) in Chromium, the human against five computer players
// ("easy": greedy and fast), played to the end through the page. The human picks each special
// figure once in the meeple step's figure picker (big meeple, builder, pig, abbot: only what
// turn.legal allows is offered), plays a builder's extra part ("your builder: place another
// tile" in the banner and the live region), sees goods and figures in the six players'
// panels (which fit a 360x640 phone), and the end screen has goods, inns, cathedrals and
// pigs as their own columns, each equal to the server's breakdown.
//
// The game is a known one: the test server (carcassonne-server-test) starts it with
// CARC_TEST_SEED, which fixes the bag and the computer players' choices (server/src/base/random.hpp),
// and the human's choices below follow from the state alone, so every run plays the same
// game. The human steers: a meeple on a road (else a city) and a farmer early (so that the
// builder and the pig have somewhere to go; another farmer when the pig finds no place for a
// few turns), the builder as soon as offered, on a road if it can, then, before anything
// else, placements that extend the builder's road or city (found with the page's own feature
// map) until it triggers. With seed 1 (SEED below) the one game reaches every goal in the
// human's 21 turns, with the same final scores in every run. A change of the
// rules, the bag or this strategy may change the game: the test then says which goal it
// missed, and another seed is found by running this file with CARC_SIX_SEED=1, 2, ... (with
// random bags, 9 of 10 games reached every goal with this strategy).
//
//   CARC_SERVER_BIN=build/carcassonne-server node --test --test-concurrency=1 tests/browser/inns-traders.test.mjs
//   (it runs build/carcassonne-server-test, beside CARC_SERVER_BIN)

import test from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { setUp, testServerBin, showingServerLog, shotDir, skipToEnd, draftTo, confirmDraft, openStartPage, createGame, openWatcher, myTurnOrEnd, turnInfo } from './helpers.mjs';

const SPECIAL = ['big', 'builder', 'pig', 'abbot'];
const SEED = process.env.CARC_SIX_SEED || '1';

// For each legal entry: whether it extends the road or city where the human's builder stands,
// and which kinds each meeple port claims (the page's own feature map over the public board).
function entryFacts(page) {
  return page.evaluate(async () => {
    const { FeatureMap } = await import('/js/game/features.js');
    const { featureAt } = await import('/js/tiles/geometry.js');
    const p = window.__carc;
    const s = p.store.state;
    const seat = p.store.seat;
    const fresh = () => {
      const m = new FeatureMap(p.tiles);
      for (const b of s.board) m.place({ x: b.x, y: b.y, tile: b.tile, rotation: b.rotation, meeple: b.meeple?.at ?? null, seat: b.meeple?.seat ?? null, figure: b.meeple?.figure ?? null });
      return m;
    };
    const builder = s.board.find((b) => b.meeple?.seat === seat && b.meeple.figure === 'builder');
    const mineOn = (kinds) => {
      const m = fresh();
      return m.occupied().some((f) => kinds.includes(f.kind) && f.meeples.some((x) => x.seat === seat && !x.figure));
    };
    const at = builder ? (() => { const m = fresh(); const i = m.info[m.find(m.nodeAt(builder.x, builder.y, builder.meeple.at))]; return { kind: i.kind, open: i.open, cells: i.cells.size }; })() : null;
    return {
      builderOnBoard: !!builder,
      builderAt: at,
      followerOnRoadOrCity: mineOn(['road', 'city']),
      farmer: mineOn(['field']),
      entries: s.turn.legal.map((e) => {
        let extends_ = false;
        if (builder) {
          const m = fresh();
          const root = m.nodeAt(builder.x, builder.y, builder.meeple.at);
          m.place({ x: e.x, y: e.y, tile: s.turn.tile, rotation: e.rotation, meeple: null, seat });
          const after = m.find(root);
          const cell = m.cells.get(`${e.x},${e.y}`);
          extends_ = Object.values(cell.nodes).some((n) => m.find(n) === after);
        }
        const kinds = Object.fromEntries((e.meeples ?? []).map((port) => [port, featureAt(p.tiles[s.turn.tile], e.rotation, port)?.kind]));
        // Where the builder would stand: how many open ends its road or city would have.
        const open = Object.fromEntries((e.figures?.builder ?? []).map((port) => {
          const m = fresh();
          m.place({ x: e.x, y: e.y, tile: s.turn.tile, rotation: e.rotation, meeple: null, seat });
          const i = m.info[m.find(m.nodeAt(e.x, e.y, port))];
          return [port, { kind: i?.kind, open: i?.open ?? 0 }];
        }));
        return { extends: extends_, kinds, open };
      }),
    };
  });
}

// The picker offers exactly the figures of the drafted entry (turn.legal), the meeple first.
function offered(e) {
  const out = (e.meeples ?? []).length ? ['meeple'] : [];
  for (const f of SPECIAL) if ((e.figures?.[f] ?? []).length) out.push(f);
  return out;
}

// Picks `figure` in the picker (by keyboard when `keyboard`), checks the board shows that
// figure's spots only, and chooses its spot on `port`.
async function pickAndPlace(page, e, figure, port, { keyboard = false } = {}) {
  await page.waitForSelector('[data-testid="figure-picker"]:not([hidden])');
  const shown = await page.$$eval('[data-testid="pick-figure"]', (bs) => bs.map((b) => b.dataset.figure));
  assert.deepEqual(shown, offered(e), 'the picker offers only what turn.legal allows');
  const btn = page.locator(`[data-testid="pick-figure"][data-figure="${figure}"]`);
  assert.match(await btn.getAttribute('aria-label'), /: \d+ places?$/, 'each choice says its figure and its number of places');
  if (keyboard) {
    await btn.focus();
    await page.keyboard.press('Enter');
  } else await btn.click();
  await page.waitForSelector(`[data-testid="pick-figure"][data-figure="${figure}"][aria-pressed="true"]`);
  const spots = await page.$$eval('[data-testid="meeple-spot"]', (ss) => ss.map((s) => [s.dataset.figure, s.dataset.port]));
  assert.deepEqual(spots.map(([f]) => f), spots.map(() => figure), `the board shows the ${figure}'s spots only`);
  assert.deepEqual(spots.map(([, p]) => p).sort(), [...e.figures[figure]].sort(), `one spot per port turn.legal gives the ${figure}`);
  // The spot by the keyboard (a spot near the view's edge may lie under the turn banner; the
  // mouse on spots is inns-traders-ui.test.mjs's).
  const spot = page.locator(`[data-testid="meeple-spot"][data-figure="${figure}"][data-port="${port}"]`);
  await spot.focus();
  await page.keyboard.press('Space');
  await page.waitForSelector(`[data-testid="meeple-spot"][data-figure="${figure}"][data-port="${port}"].chosen`);
}

async function playOneGame(browser, server, errors) {
  const page = await openStartPage(browser, server, errors, { viewport: { width: 1280, height: 860 } });
  const ctx = page.context();
  await createGame(page, 'Hildegard');
  assert.match(await page.textContent('[data-testid="expansions"]'), /Inns & Cathedrals.*Traders & Builders/s);
  let on = '';
  for (const id of ['river', 'abbot', 'inns', 'traders']) {
    await page.check(`[data-testid="expansion-${id}"]`);
    on = on ? `${on},${id}` : id;
    await page.waitForSelector(`[data-testid="expansions"][data-expansions="${on}"]`);
  }
  const bag = await (await fetch(`${server.base}/api/tiles?expansions=river,abbot,inns,traders`)).json();
  await page.waitForFunction((n) => new RegExp(`${n} tiles`).test(document.querySelector('[data-testid="lobby-bag-size"]')?.textContent ?? ''), bag.bag);
  await page.selectOption('[data-testid="bot-level"]', 'easy');
  for (let seat = 1; seat <= 5; seat++) {
    await page.click('[data-testid="add-bot"]');
    await page.waitForSelector(`[data-testid="seat"][data-seat="${seat}"]`);
  }
  await page.screenshot({ path: path.join(shotDir, 'inns-traders-lobby.png') });
  await page.click('[data-testid="start"]');
  await page.waitForSelector('#view-room[data-phase="playing"]');
  const colors = await page.$$eval('[data-testid="player"]', (lis) => lis.map((li) => li.dataset.color));
  assert.deepEqual(colors, ['red', 'blue', 'green', 'yellow', 'black', 'pink'], 'six seats, the sixth pink');

  const done = { big: null, builder: null, pig: null, abbot: null, extra: null, keyboard: false };
  let phoneChecked = false;
  let turns = 0;
  let builders = 0;
  let extending = 0;
  let lastFarmer = 0;
  let builderAt = null; // the human's builder's road or city, as last seen
  for (;;) {
    await myTurnOrEnd(page, 90000);
    const info = await turnInfo(page);
    if (info.phase === 'finished') break;
    turns++;
    assert.ok(info.legal.length > 0, 'a turn offers placements');
    if (info.extra && !done.extra) {
      // The builder's extra part: the banner and the live region say so.
      await page.waitForSelector('[data-testid="extra-mine"]');
      assert.equal(await page.textContent('[data-testid="extra-mine"]'), 'Your builder: place another tile');
      await page.waitForFunction(() => /Your builder: place another tile/.test(document.getElementById('announce').textContent), null, { timeout: 5000 });
      done.extra = { number: info.number, tile: info.tile };
      await page.screenshot({ path: path.join(shotDir, 'inns-traders-extra.png') });
    }
    const facts = await entryFacts(page);
    const ports = (e, f) => e.figures?.[f] ?? [];
    if (facts.builderAt) builderAt = facts.builderAt;
    // What this turn does: a special figure still to try, else steering for the next ones.
    let choice = null;
    // Extending the builder's road or city comes first: the chance is the scarcest of all.
    const ext = facts.builderOnBoard && !done.extra ? facts.entries.findIndex((x) => x.extends) : -1;
    if (ext >= 0) {
      choice = { e: info.legal[ext], figure: null };
      extending++;
    }
    for (const f of choice ? [] : ['builder', 'pig', 'big', 'abbot']) {
      // The builder goes out again whenever it is back (until it has brought an extra part),
      // onto the road or city with the most open ends.
      if ((done[f] && !(f === 'builder' && !done.extra)) || (info.figures[f] ?? 0) < 1) continue;
      let best = null;
      info.legal.forEach((x, i) => {
        if (offered(x).length < 2) return; // a picker to choose in (one figure alone shows none)
        for (const port of ports(x, f)) {
          // A road first: most tiles have one, and a road is rarely boxed in.
          const where = facts.entries[i].open[port];
          const open = f === 'builder' && where ? (where.kind === 'road' ? 100 : 0) + where.open : 0;
          if (!best || open > best.open) best = { e: x, figure: f, port, open };
        }
      });
      if (best) { choice = best; break; }
    }
    if (!choice) {
      const idx = facts.entries.map((x, i) => i);
      // Another farmer when the pig found no place beside the last one for a few turns (its
      // farm may be small and closed in).
      const farmerAgain = !done.pig && (info.figures.pig ?? 0) > 0 && turns - lastFarmer >= 4;
      const wantKinds = !facts.followerOnRoadOrCity ? ['road', 'city'] : !facts.farmer || farmerAgain ? ['field'] : null;
      if (wantKinds && info.meeples > 0) {
        const i = idx.find((j) => Object.values(facts.entries[j].kinds).includes(wantKinds[0])) ??
          idx.find((j) => Object.values(facts.entries[j].kinds).some((k) => wantKinds.includes(k)));
        if (i !== undefined) {
          const kinds = Object.entries(facts.entries[i].kinds);
          const port = (kinds.find(([, k]) => k === wantKinds[0]) ?? kinds.find(([, k]) => wantKinds.includes(k)))[0];
          choice = { e: info.legal[i], figure: 'meeple', port };
          if (wantKinds[0] === 'field') lastFarmer = turns;
        }
      }
      if (!choice) choice = { e: info.legal[(turns * 7) % info.legal.length], figure: null };
    }
    await draftTo(page, choice.e);
    if (choice.figure && choice.figure !== 'meeple') {
      const keyboard = choice.figure === 'pig' || (choice.figure === 'big' && !done.keyboard);
      await pickAndPlace(page, choice.e, choice.figure, choice.port, { keyboard });
      if (keyboard) done.keyboard = true;
      const name = { big: 'Big meeple', builder: 'Builder', pig: 'Pig', abbot: 'Abbot' }[choice.figure];
      assert.match(await page.textContent('#action-hint'), new RegExp(`^${name} (on|in) the`), 'the hint names the chosen figure and its place');
      if (!done.builder && choice.figure === 'builder') await page.screenshot({ path: path.join(shotDir, 'inns-traders-picker.png') });
      await confirmDraft(page, info.version);
      const placed = await page.evaluate(({ x, y }) => window.__carc.store.state.events.filter((ev) => ev.type === 'placed' && ev.x === x && ev.y === y).at(-1), choice.e);
      assert.equal(placed.figure, choice.figure, `the server placed the ${choice.figure}`);
      assert.equal(placed.meeple, choice.port);
      done[choice.figure] = { x: choice.e.x, y: choice.e.y };
      if (choice.figure === 'builder') builders++;
      // On the board in its own shape (unless its feature scored at once and it came home).
      const stands = await page.evaluate(({ x, y, f }) => window.__carc.store.state.board.some((b) => b.x === x && b.y === y && b.meeple?.figure === f), { ...choice.e, f: choice.figure });
      if (stands) await page.waitForSelector(`#board [data-testid="board-meeple"][data-figure="${choice.figure}"][data-x="${choice.e.x}"][data-y="${choice.e.y}"] .figure-${choice.figure}, #board [data-testid="board-meeple"][data-figure="${choice.figure}"][data-x="${choice.e.x}"][data-y="${choice.e.y}"] .abbot`);
    } else if (choice.figure === 'meeple') {
      await page.focus(`[data-testid="meeple-spot"][data-figure="meeple"][data-port="${choice.port}"]`);
      await page.keyboard.press('Space');
      await page.waitForSelector(`[data-testid="meeple-spot"][data-figure="meeple"][data-port="${choice.port}"].chosen`);
      await confirmDraft(page, info.version);
    } else {
      await confirmDraft(page, info.version);
    }
    // The players' panels say what the state says: goods and figures in supply.
    const panels = await page.evaluate(() => {
      const s = window.__carc.store.state;
      return s.players.map((p) => {
        const li = document.querySelector(`[data-testid="player"][data-seat="${p.seat}"]`);
        const g = li.querySelector('[data-testid="goods"]');
        const figs = Object.fromEntries([...li.querySelectorAll('[data-testid="figure-supply"], [data-testid="abbot-supply"]')].map((e) => [e.dataset.figure ?? 'abbot', Number(e.dataset.count)]));
        return { goods: g ? { wine: Number(g.dataset.wine), grain: Number(g.dataset.grain), cloth: Number(g.dataset.cloth) } : null, want: p.goods, figs, wantFigs: p.figures };
      });
    });
    for (const p of panels) {
      assert.deepEqual(p.goods, p.want, 'goods in the panel as in the state');
      assert.deepEqual(p.figs, p.wantFigs, 'figures in supply as in the state');
    }
    if (!phoneChecked && turns >= 6) {
      phoneChecked = true;
      await phoneFit(browser, page, errors);
    }
  }
  console.log(`seed ${SEED}: ${turns} turns, builder placed ${builders}x, ${extending} turns extending it (last seen on ${builderAt ? `a ${builderAt.kind} of ${builderAt.cells} tiles, ${builderAt.open} open` : 'nothing'}), done: ${Object.keys(done).filter((k) => done[k]).join(' ')}`);
  return { ctx, page, done, turns };
}

// Six panels on a 360x640 phone (a watcher's page): nothing cut, nothing sideways, each with
// its goods and figures.
async function phoneFit(browser, page, errors) {
  const invite = await page.evaluate(() => window.__carc.inviteUrl());
  const { ctx, page: phone } = await openWatcher(browser, invite, errors, 'phone', { viewport: { width: 360, height: 640 }, locale: 'ja-JP', isMobile: true, hasTouch: true });
  await phone.waitForSelector('#view-room[data-phase="playing"] [data-testid="player"][data-seat="5"] [data-testid="goods"]');
  const fit = await phone.evaluate(() => {
    const lis = [...document.querySelectorAll('[data-testid="player"]')];
    const cut = [...document.querySelectorAll('.players .pname, .players .badge, .players .good-n, .players .score')].filter((e) => e.checkVisibility() && e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent);
    return {
      n: lis.length,
      outside: lis.filter((li) => { const r = li.getBoundingClientRect(); return r.left < -0.5 || r.right > innerWidth + 0.5; }).length,
      inner: lis.flatMap((li) => [...li.querySelectorAll('*')].filter((e) => { const r = e.getBoundingClientRect(); const b = li.getBoundingClientRect(); return (r.width || r.height) && (r.left < b.left - 0.5 || r.right > b.right + 0.5); }).map((e) => e.className?.baseVal ?? e.className)),
      sideways: document.documentElement.scrollWidth > innerWidth + 0.5,
      goods: lis.filter((li) => li.querySelector('[data-testid="goods"]')).length,
      figures: lis.filter((li) => li.querySelectorAll('[data-testid="figure-supply"]').length === 3 && li.querySelector('[data-testid="abbot-supply"]')).length,
      height: lis.reduce((h, li) => h + li.getBoundingClientRect().height, 0),
      cut,
    };
  });
  assert.equal(fit.n, 6);
  assert.equal(fit.outside, 0, 'every panel inside the phone\'s width');
  assert.deepEqual(fit.inner, [], 'nothing sticks out of a panel');
  assert.equal(fit.sideways, false, 'no horizontal scroll');
  assert.deepEqual(fit.cut, [], 'no name, badge or count cut');
  assert.equal(fit.goods, 6, 'goods in every panel');
  assert.equal(fit.figures, 6, 'big meeple, builder, pig and abbot in every panel');
  assert.ok(fit.height <= 640, `six panels take at most a screen's height (${Math.round(fit.height)} px)`);
  await phone.locator('#players').scrollIntoViewIfNeeded();
  await phone.screenshot({ path: path.join(shotDir, 'inns-traders-phone-players.png') });
  await ctx.close();
}

test('six players, all four expansions: each special figure from the picker, a builder\'s extra part, goods, to the end', { timeout: 300000 }, async (t) => {
  const { server, browser } = await setUp(t, { bin: testServerBin, env: { CARC_TEST_SEED: SEED } });
  await showingServerLog(server, async () => {
    assert.match(server.log(), new RegExp(`CARC_TEST_SEED=${SEED}: test-only fixed seeds are on`));
    const errors = [];
    const game = await playOneGame(browser, server, errors);
    const missing = [...SPECIAL, 'extra'].filter((k) => !game.done[k]);
    assert.deepEqual(missing, [], `seed ${SEED}: the game reached every goal (see the header to find another seed)`);
    const { page, done, turns } = game;
    assert.ok(turns >= 15, `the human played the whole game (${turns} turns)`);
    for (const f of SPECIAL) assert.ok(done[f], `the human placed their ${f} through the picker`);
    assert.ok(done.keyboard, 'a figure was picked with the keyboard');
    assert.ok(done.extra, 'the human played a builder\'s extra part');

    // The log: the extra parts (the human's and any computer player's), goods taken.
    const log = await page.evaluate(() => {
      const s = window.__carc.store.state;
      const names = Object.fromEntries(s.players.map((p) => [p.seat, p.name]));
      return {
        extras: s.events.filter((e) => e.type === 'extra').map((e) => e.seat),
        goods: s.events.filter((e) => e.type === 'goods').length,
        lines: [...document.querySelectorAll('#log li[data-line="extra"]')].map((li) => li.textContent),
        goodsLines: document.querySelectorAll('#log li[data-line="goods"]').length,
        extraPlaced: [...document.querySelectorAll('#log li[data-line="placed"]')].filter((li) => /builder’s extra tile/.test(li.textContent)).length,
        names,
      };
    });
    assert.equal(log.lines.length, log.extras.length, 'every extra part has its log line');
    log.extras.forEach((seat, i) => assert.match(log.lines[i], new RegExp(`plays a builder’s extra tile`)));
    assert.ok(log.extras.includes(0));
    assert.ok(log.extraPlaced >= 1, 'the extra tile\'s placement is marked in the log');
    assert.equal(log.goodsLines, log.goods, 'goods taken are in the log');

    // The end screen: goods, inns, cathedrals and pigs as their own columns, as the server says.
    await skipToEnd(page);
    const end = await page.evaluate(() => {
      const s = window.__carc.store.state;
      const heads = [...document.querySelectorAll('[data-testid="endgame"] thead th')].map((th) => th.textContent);
      const rows = [...document.querySelectorAll('[data-testid="breakdown"] tbody tr')].map((tr) => ({
        seat: Number(tr.dataset.seat), total: Number(tr.dataset.total),
        cells: Object.fromEntries([...tr.querySelectorAll('td.k')].map((td) => [td.dataset.kind, Number(td.querySelector('.sum').textContent)])),
      }));
      return { heads, rows, result: s.result };
    });
    console.log(`seed ${SEED}: final scores ${end.result.final_scores.join(' ')}`);
    for (const h of ['Roads', 'Cities', 'Inns', 'Cathedrals', 'Pigs', 'Goods', 'Gardens']) assert.ok(end.heads.includes(h), `a ${h} column: ${end.heads}`);
    assert.equal(end.rows.length, 6);
    for (const row of end.rows) {
      const b = end.result.breakdown.find((r) => r.seat === row.seat);
      assert.equal(row.total, end.result.final_scores[row.seat]);
      for (const [kind, v] of Object.entries(row.cells)) {
        // An unfinished inn road or cathedral city's loss at the end is read in its feature's column.
        const lost = (mark) => Math.min(0, b.end[mark] ?? 0);
        const fold = { road: lost('inn'), city: lost('cathedral'), inn: -lost('inn'), cathedral: -lost('cathedral') }[kind] ?? 0;
        const want = kind === 'field' || kind === 'pig' || kind === 'goods' ? (b.end[kind] ?? 0) : kind === 'abbot' ? (b.game.abbot ?? 0) : (b.game[kind] ?? 0) + (b.end[kind] ?? 0) + fold;
        assert.equal(v, want, `seat ${row.seat}: ${kind}`);
      }
      assert.equal(Object.values(row.cells).reduce((a, v) => a + v, 0), row.total, `seat ${row.seat}: the columns add up to the total`);
    }
    const chart = await page.$$eval('[data-testid="chart-line"]', (ls) => ls.map((l) => [Number(l.dataset.seat), Number(l.dataset.final)]).sort((a, b) => a[0] - b[0]).map(([, v]) => v));
    assert.deepEqual(chart, end.result.final_scores, 'the chart ends on the final scores (pigs and goods counted)');
    await page.screenshot({ path: path.join(shotDir, 'inns-traders-end.png') });

    // The replay viewer follows the room's events: every step, the figures, the same end.
    const room = await page.evaluate(() => window.__carc.room);
    const steps = await page.evaluate(() => window.__carc.store.state.events.filter((e) => e.type === 'placed' || e.type === 'discarded').length);
    await page.goto(`${server.base}/replay/${room}`);
    await page.waitForSelector('#view-replay[data-state="ready"]', { timeout: 15000 });
    assert.equal(Number(await page.getAttribute('#view-replay', 'data-steps')), steps);
    await page.click('[data-testid="replay-last"]');
    await page.waitForSelector(`[data-testid="replay-board"][data-move="${steps}"]`);
    const finals = await page.locator('[data-testid="replay-players"] [data-testid="player"]').evaluateAll((lis) => lis.map((li) => [Number(li.dataset.seat), Number(li.dataset.score)]).sort((a, b) => a[0] - b[0]).map(([, v]) => v));
    assert.deepEqual(finals, end.result.final_scores, 'the replay ends on the final scores');
    assert.ok(await page.locator('[data-testid="replay-board"] [data-testid="board-meeple"][data-figure="pig"][data-seat="0"]').count() >= 1, 'the human\'s pig is on the replay\'s board');
    assert.deepEqual(errors, [], 'no script errors');
  });
});
