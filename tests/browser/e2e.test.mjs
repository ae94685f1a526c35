// End-to-end: the real server and the web client in headless Chromium.
//
//   CARC_SERVER_BIN=build/carcassonne-server node --test tests/browser/
//
// Starts the server binary itself (a missing binary FAILS the test), opens two browser
// contexts, creates a room in one, joins from the invite link in the other, starts, plays
// several turns by clicking highlighted cells and meeple spots, reloads one page mid-game,
// and checks that both pages show the same board and scores. Screenshots go to
// tests/browser/screenshots/ (or $CARC_SCREENSHOT_DIR).

import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {
  repoRoot,
  serverBin,
  shotDir,
  chromiumPath,
  freePort,
  waitForHealth,
  startServer,
  loadPlaywright,
  snapshot,
  sameView,
  clickableTarget,
  playTurn,
  launchBrowser,
  setUpGame,
  activePage,
  setUp,
  showingServerLog,
  skipToEnd,
} from './helpers.mjs';
import { playOverProtocol } from './games-helpers.mjs';

const TURNS = Number(process.env.CARC_E2E_TURNS || 8);

test('two browsers play a game from an invite link', { timeout: 240000 }, async (t) => {
  const { server, browser } = await setUp(t);
  console.log(`screenshots: ${shotDir}`);
  const errors = [];
  await showingServerLog(server, async () => {
    const ctxA = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
    const ctxB = await browser.newContext({ viewport: { width: 1100, height: 760 }, locale: 'en-US' });
    const A = await ctxA.newPage();
    const B = await ctxB.newPage();
    for (const [name, page] of [['A', A], ['B', B]]) {
      page.on('pageerror', (e) => errors.push(`${name}: ${e.message}`));
      page.setDefaultTimeout(15000);
    }

    // A creates a game from the start page.
    await A.goto(`${server.base}/`);
    await A.waitForSelector('body[data-ready="1"]');
    await A.fill('[data-testid="create-name"]', 'Alice');
    await A.screenshot({ path: path.join(shotDir, '01-home.png') });
    await A.click('[data-testid="create-game"]');
    await A.waitForURL(/\/r\/[A-Za-z0-9_-]{10,}$/);
    await A.waitForSelector('[data-testid="lobby"]:not([hidden]) [data-testid="seat"][data-seat="0"]');
    const invite = await A.inputValue('[data-testid="invite-link"]');
    const room = new URL(invite).pathname.split('/').pop();
    assert.equal(new URL(A.url()).pathname, `/r/${room}`);
    assert.equal(await A.getAttribute('#view-room', 'data-seat'), '0');
    assert.ok(await A.evaluate((r) => !!localStorage.getItem(`carc.token.${r}`), room), 'the seat token is stored');

    // B opens the invite link, is asked for a name, and joins.
    await B.goto(invite);
    await B.waitForSelector('[data-testid="join-dialog"]');
    await B.fill('[data-testid="join-name"]', 'Bob <img src=x>');
    await B.click('[data-testid="join-submit"]');
    await B.waitForSelector('#view-room[data-seat="1"]');
    await A.waitForSelector('[data-testid="seat"][data-seat="1"]');
    const bobName = await A.locator('[data-testid="seat"][data-seat="1"] .pname').textContent();
    assert.equal(bobName, 'Bob <img src=x>', 'names are shown as text');
    assert.equal(await A.locator('[data-testid="lobby"] img').count(), 0);
    await A.screenshot({ path: path.join(shotDir, '02-lobby.png') });

    // Only the host has a start button; the host starts.
    assert.equal(await B.locator('[data-testid="start"]').count(), 0);
    await A.click('[data-testid="start"]');
    await Promise.all([A, B].map((p) => p.waitForSelector('#view-room[data-phase="playing"]')));
    await sameView(A, B, 'after start');

    // Chat: text, never HTML.
    await A.fill('[data-testid="chat-input"]', '<b>hello</b> & welcome');
    await A.click('[data-testid="chat-send"]');
    await B.waitForSelector('[data-testid="chat-message"]');
    assert.equal(await B.locator('[data-testid="chat-message"] .text').first().textContent(), '<b>hello</b> & welcome');
    assert.equal(await B.locator('[data-testid="chat"] b').count(), 0);

    // Play turns, alternating; B reloads its page in the middle of the game.
    const pages = [A, B];
    let reloaded = false;
    for (let turn = 0; turn < TURNS; turn++) {
      const s = await snapshot(A);
      if (s.phase !== 'playing') break;
      const activeSeat = Number(s.players.find((p) => p.active === '1')?.seat ?? turn % 2);
      const page = pages[activeSeat];
      const other = pages[1 - activeSeat];
      if (!reloaded && turn >= TURNS / 2 && page === B) {
        await B.reload();
        await B.waitForSelector('#view-room[data-phase="playing"][data-seat="1"]');
        assert.equal(await B.locator('[data-testid="join-dialog"]').isVisible(), false, 'no name asked after a reload');
        await A.waitForSelector('[data-testid="player"][data-seat="1"][data-connected="1"]');
        await B.screenshot({ path: path.join(shotDir, '05-after-reload.png') });
        reloaded = true;
      }
      await other.waitForSelector('#view-room[data-my-turn="0"]');
      await playTurn(page, {
        meeple: turn % 3 !== 2,
        rotate: turn % 2 === 0,
        useKey: turn % 4 === 0,
        keyboard: turn === 2,
        shot: turn === 0 ? '03-turn.png' : undefined,
      });
      const view = await sameView(A, B, `after turn ${turn + 1}`);
      assert.ok(view.tiles.length >= 2 + turn, 'the placed tile is on both boards');
    }
    assert.ok(reloaded, 'B reloaded mid-game');

    // Wheel zoom, drag to pan, and the fit button.
    const box = await A.locator('[data-testid="board"]').boundingBox();
    const scale0 = Number(await A.getAttribute('[data-testid="board"]', 'data-scale'));
    await A.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await A.mouse.wheel(0, -400);
    await A.waitForFunction((s0) => Number(document.querySelector('[data-testid="board"]').dataset.scale) > s0, scale0);
    const vp = () => A.locator('[data-testid="board"] > g.vp').getAttribute('transform');
    const t0 = await vp();
    await A.mouse.move(box.x + 40, box.y + 40);
    await A.mouse.down();
    await A.mouse.move(box.x + 140, box.y + 90, { steps: 5 });
    await A.mouse.up();
    assert.notEqual(await vp(), t0, 'dragging pans the board');
    await A.click('[data-testid="fit"]');
    await A.waitForFunction(() => document.getElementById('board').dataset.moving !== '1');
    // The board keeps the player's zoom from move to move; the fit button shows
    // the whole board.
    const outside = await A.evaluate(() => {
      const b = document.getElementById('board').getBoundingClientRect();
      return [...document.querySelectorAll('#board [data-testid="tile"]')].filter((g) => {
        const r = g.getBoundingClientRect();
        return r.left < b.left - 1 || r.top < b.top - 1 || r.right > b.right + 1 || r.bottom > b.bottom + 1;
      }).length;
    });
    assert.equal(outside, 0, 'fit shows every tile');

    // The last placed tile is highlighted; the log shows the placements.
    assert.equal(await A.locator('[data-testid="last-placed"]').count(), 1);
    assert.ok((await A.locator('[data-testid="log"] [data-event="placed"]').count()) >= TURNS - 1);
    await A.screenshot({ path: path.join(shotDir, '06-A.png') });
    await B.screenshot({ path: path.join(shotDir, '07-B.png') });

    // A spectator sees the same board.
    const ctxC = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, locale: 'ja-JP' });
    const C = await ctxC.newPage();
    C.on('pageerror', (e) => errors.push(`C: ${e.message}`));
    // A stale token in storage: the server answers bad_token, the client forgets it and asks for a name.
    await C.goto(`${server.base}/`);
    await C.evaluate((r) => localStorage.setItem(`carc.token.${r}`, 'not-a-real-token'), room);
    await C.goto(invite);
    await C.waitForSelector('[data-testid="join-dialog"]');
    await C.waitForSelector('#join-notice:not([hidden])');
    assert.equal(await C.evaluate((r) => localStorage.getItem(`carc.token.${r}`), room), null, 'the bad token is forgotten');
    assert.equal(await C.evaluate(() => document.documentElement.lang), 'ja', 'the browser language is the default');
    await C.click('[data-testid="join-watch"]');
    await C.waitForSelector('#view-room[data-phase="playing"]');
    await sameView(A, C, 'spectator');
    assert.equal(await C.getAttribute('#view-room', 'data-seat'), '');
    assert.equal(await C.locator('[data-testid="confirm"]').isVisible(), false, 'a spectator has no turn controls');
    await A.waitForFunction(() => /1/.test(document.querySelector('[data-testid="spectators"]').textContent));
    // The language switcher, persisted.
    await C.selectOption('[data-testid="lang-select"]', 'fr');
    assert.equal(await C.locator('.players-panel .panel-title [data-i18n="players"]').textContent(), 'Joueurs');
    assert.equal(await C.evaluate(() => localStorage.getItem('carc.lang')), 'fr');
    await C.screenshot({ path: path.join(shotDir, '08-spectator-phone.png'), fullPage: true });

    // The record download.
    const res = await A.request.get(`${server.base}/api/rooms/${room}/record`);
    assert.equal(res.status(), 200);
    const record = await res.json();
    assert.equal(record.format, 'carcassonne-record/1');
    assert.equal(record.players, 2);

    assert.deepEqual(errors, [], 'no script errors in the pages');
  });
});

test('players take their seats back by themselves after the server restarts', { timeout: 180000 }, async (t) => {
  const { server, browser } = await setUp(t);
  const errors = [];
  await showingServerLog(server, async () => {
    const { A, B } = await setUpGame(browser, server, errors, { nameA: 'Chloé', nameB: 'Daichi' });
    await A.click('[data-testid="start"]');
    await Promise.all([A, B].map((p) => p.waitForSelector('#view-room[data-phase="playing"]')));
    let snap = await sameView(A, B, 'after start');
    await playTurn(activePage(snap, [A, B]), { meeple: true });
    const before = await sameView(A, B, 'before the restart');

    await server.restart();
    for (const page of [A, B]) {
      await page.waitForSelector('[data-testid="conn-status"][data-state="open"]', { timeout: 30000 });
    }
    snap = await sameView(A, B, 'after the restart');
    assert.deepEqual(snap.tiles, before.tiles, 'the board survived the restart');
    assert.deepEqual(snap.players.map((p) => p.score), before.players.map((p) => p.score));
    assert.equal(await A.getAttribute('#view-room', 'data-seat'), '0');
    assert.equal(await B.getAttribute('#view-room', 'data-seat'), '1');
    for (const page of [A, B]) assert.equal(await page.locator('[data-testid="join-dialog"]').isVisible(), false);

    await playTurn(activePage(snap, [A, B]), { meeple: false });
    const after = await sameView(A, B, 'a turn after the restart');
    assert.equal(after.tiles.length, before.tiles.length + 1);
    await A.screenshot({ path: path.join(shotDir, '09-after-restart.png') });
    assert.deepEqual(errors, [], 'no script errors in the pages');
  });
});

test('a whole game to the end screen, the breakdown and the record download', { timeout: 180000 }, async (t) => {
  const { server, browser } = await setUp(t);
  const errors = [];
  await showingServerLog(server, async () => {
    const { A, B, invite } = await setUpGame(browser, server, errors, { nameA: 'Ada', nameB: 'Basile' });
    const room = new URL(invite).pathname.split('/').pop();
    // A spectator on a phone follows every patch of the whole game.
    const ctxS = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, locale: 'en-US' });
    const S = await ctxS.newPage();
    S.on('pageerror', (e) => errors.push(`S: ${e.message}`));
    await S.goto(invite);
    await S.click('[data-testid="join-watch"]');
    await S.waitForSelector('#view-room[data-phase="lobby"]');
    await A.click('[data-testid="start"]');
    await Promise.all([A, B, S].map((p) => p.waitForSelector('#view-room[data-phase="playing"]')));
    const pages = [A, B];
    // Whose turn: the page that says so, or the end.
    const next = async () => {
      for (let i = 0; i < 300; i++) {
        for (const p of pages) {
          const d = await p.evaluate(() => ({ ...document.getElementById('view-room').dataset }));
          if (d.phase === 'finished') return 'end';
          if (d.myTurn === '1') return p;
        }
        await A.waitForTimeout(50);
      }
      assert.fail('someone has the turn, or the game is over');
    };
    // The first turns by clicking (the invite test above clicks a longer opening).
    let clicked = 0;
    for (; clicked < 3; clicked++) await playTurn(await next(), { meeple: clicked !== 1 });
    await sameView(A, S, 'the spectator, early');

    // The middle of the game through both seats from a protocol client (the pages see their
    // seats taken elsewhere); then Ada takes hers back with "Play here", Basile reloads, and
    // they play their last tiles by clicking.
    const helper = await (await browser.newContext()).newPage();
    await helper.goto(`${server.base}/healthz`);
    const tokens = await Promise.all(pages.map((p) => p.evaluate((r) => localStorage.getItem(`carc.token.${r}`), room)));
    await playOverProtocol(helper, { room, tokens, untilBagEmpty: true, seed: 3 });
    await A.waitForSelector('[data-testid="conn-status"][data-state="closed"]');
    await A.click('#conn-retry');
    await B.reload();
    for (const p of pages) await p.waitForSelector('[data-testid="conn-status"][data-state="open"]');
    for (let page = await next(); page !== 'end'; page = await next()) {
      await playTurn(page, { meeple: true });
      clicked++;
    }
    assert.ok(clicked >= 4, 'the last tiles were placed by clicking');
    // The scores at once (the final scoring on the board is endgame.test.mjs's).
    for (const p of [A, B]) await skipToEnd(p);
    const view = await sameView(A, B, 'at the end');
    await sameView(A, S, 'the spectator, at the end');
    assert.equal(view.phase, 'finished');
    const rows = await A.locator('[data-testid="breakdown"] tbody tr').evaluateAll((trs) => trs.map((tr) => ({ seat: tr.dataset.seat, total: tr.dataset.total })));
    assert.equal(rows.length, 2);
    for (const r of rows) {
      assert.equal(r.total, view.players.find((p) => p.seat === r.seat).score, 'breakdown total is the final score');
    }
    assert.match(await A.locator('[data-testid="winners"]').textContent(), /Ada|Basile/);
    await A.screenshot({ path: path.join(shotDir, '10-end.png') });

    const [download] = await Promise.all([A.waitForEvent('download'), A.click('[data-testid="download-record"]')]);
    const file = await download.path();
    const record = JSON.parse(fs.readFileSync(file, 'utf8'));
    assert.equal(record.format, 'carcassonne-record/1');
    assert.equal(record.players, 2);
    assert.ok(record.moves.length >= 70, `every tile was played (${record.moves.length} moves)`);
    assert.ok(record.result, 'a finished record has its result');
    assert.deepEqual(record.result.final_scores.map(String), ['0', '1'].map((s) => view.players.find((p) => p.seat === s).score));

    // Closing the end screen shows the board; the banner brings the scores back.
    await A.click('#end-close');
    assert.equal(await A.locator('[data-testid="endgame"]').isVisible(), false);
    await A.click('[data-testid="show-end"]');
    await A.waitForSelector('[data-testid="endgame"]');
    assert.deepEqual(errors, [], 'no script errors in the pages');
  });
});

test('a seat opened in a second tab moves there, without a tug of war', { timeout: 90000 }, async (t) => {
  const { server, browser } = await setUp(t);
  const ctx = await browser.newContext({ viewport: { width: 1100, height: 700 }, locale: 'en-US' });
  const first = await ctx.newPage();
  await first.goto(`${server.base}/`);
  await first.waitForSelector('body[data-ready="1"]');
  await first.fill('[data-testid="create-name"]', 'Eve');
  await first.click('[data-testid="create-game"]');
  await first.waitForSelector('#view-room[data-seat="0"]');
  const second = await ctx.newPage();
  await second.goto(first.url());
  await second.waitForSelector('#view-room[data-seat="0"]');
  await first.waitForSelector('[data-testid="conn-status"][data-state="closed"]');
  await first.waitForTimeout(1500); // no automatic reconnect takes the seat back
  assert.equal(await second.getAttribute('[data-testid="conn-status"]', 'data-state'), 'open');
  await first.click('#conn-retry'); // "Play here"
  await first.waitForSelector('[data-testid="conn-status"][data-state="open"]');
  await second.waitForSelector('[data-testid="conn-status"][data-state="closed"]');
});
