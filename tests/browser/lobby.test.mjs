// Lobby life and rematch in Chromium against the real server (docs/protocol.md):
// computer players and the clock in the lobby, leaving, the host hand-over, removing a
// player, "Play again" at the end (everyone connected lands seated in the new lobby; an
// away player follows the old room's link), and a solo game against the computer from the
// start page, played to the end screen.

import test from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { shotDir, setUp, setUpGame, showingServerLog, playTurn, skipToEnd } from './helpers.mjs';
import { seatOverProtocol, closeProtocolSeats, playOverProtocol } from './games-helpers.mjs';

async function newPage(browser, errors, name, opts = {}) {
  const ctx = await browser.newContext({ viewport: { width: 1200, height: 800 }, locale: 'en-US', ...opts });
  const page = await ctx.newPage();
  page.on('pageerror', (e) => errors.push(`${name}: ${e.message}`));
  page.setDefaultTimeout(15000);
  return page;
}

async function joinFromInvite(page, invite, name) {
  await page.goto(invite);
  await page.waitForSelector('[data-testid="join-dialog"]');
  await page.fill('[data-testid="join-name"]', name);
  await page.click('[data-testid="join-submit"]');
  await page.waitForSelector('#view-room[data-seat]:not([data-seat=""])');
}

const SEAT_NAMES = '[data-testid="lobby"] [data-testid="seat"] .pname';
const seatNames = (page) => page.locator(SEAT_NAMES).allTextContents();
// The seats' names on `page` become `want` (the page may not have heard of the change yet);
// when they do not, the assertion says what the page shows.
async function seatNamesBecome(page, want) {
  await page.waitForFunction(([sel, w]) => JSON.stringify([...document.querySelectorAll(sel)].map((e) => e.textContent)) === w,
    [SEAT_NAMES, JSON.stringify(want)], { timeout: 10000 }).catch(() => {});
  assert.deepEqual(await seatNames(page), want);
}
const tokenOf = (page, room) => page.evaluate((r) => localStorage.getItem(`carc.token.${r}`), room);

test('the lobby: computer players, the clock, leaving, the host hand-over and removing a player', { timeout: 120000 }, async (t) => {
  const { server, browser } = await setUp(t);
  const errors = [];
  await showingServerLog(server, async () => {
    const { A, B, invite } = await setUpGame(browser, server, errors, { nameA: 'Alice', nameB: 'Bob' });
    const room = new URL(invite).pathname.split('/').pop();
    const C = await newPage(browser, errors, 'C');
    await joinFromInvite(C, invite, 'Cy');
    await A.waitForSelector('[data-testid="seat"][data-seat="2"]');

    // Only the host has the host's controls.
    assert.equal(await B.locator('[data-testid="add-bot"]').count(), 0);
    assert.equal(await B.locator('[data-testid="kick"]').count(), 0);
    assert.equal(await B.locator('[data-testid="clock-turn_seconds"]').count(), 0);
    assert.equal(await A.locator('[data-testid="kick"]').count(), 2, 'the host can remove the two others');

    // A computer player, at the level the host picks.
    await A.selectOption('[data-testid="bot-level"]', 'hard');
    await A.click('[data-testid="add-bot"]');
    await B.waitForSelector('[data-testid="seat"][data-seat="3"][data-bot="hard"]');
    assert.match(await B.locator('[data-testid="seat"][data-seat="3"]').textContent(), /computer · hard/);
    assert.equal(await A.inputValue('[data-testid="bot-level"]'), 'hard', 'the level stays picked');

    // The clock: the host opens it and sets it, everyone sees it.
    assert.equal(await A.locator('[data-testid="clock-turn_seconds"]').isVisible(), false, 'closed at first');
    await A.click('[data-testid="clock"] summary');
    await A.selectOption('[data-testid="clock-turn_seconds"]', '120');
    await A.selectOption('[data-testid="clock-away_seconds"]', '30');
    await A.waitForFunction(() => /2 min/.test(document.querySelector('[data-testid="clock-summary"]').textContent));
    assert.equal(await A.locator('[data-testid="clock-away_seconds"]').isVisible(), true, 'it stays open through the redraws');
    await B.waitForFunction(() => /2 min.*30 s/.test(document.querySelector('[data-testid="clock-summary"]')?.textContent ?? ''));
    assert.equal(await B.evaluate(() => JSON.stringify(window.__carc.store.state.settings)),
      '{"turn_seconds":120,"away_seconds":30,"expansions":[],"options":[],"pace":"live","bank_seconds":259200,"increment_seconds":86400,"webhook":false,"hints":false}');
    await A.selectOption('[data-testid="clock-away_seconds"]', '');
    await C.waitForFunction(() => /waited for/.test(document.querySelector('[data-testid="clock-summary"]')?.textContent ?? ''));
    await A.screenshot({ path: path.join(shotDir, 'lobby-host.png') });
    await B.screenshot({ path: path.join(shotDir, 'lobby-guest.png') });
    // On a phone, in Japanese (longer words): nothing of the lobby sticks out sideways.
    await A.setViewportSize({ width: 390, height: 844 });
    await A.selectOption('[data-testid="lang-select"]', 'ja');
    await A.waitForFunction(() => /コンピューター4/.test(document.querySelector('[data-testid="seat"][data-seat="3"]').textContent));
    const lobbyFit = await A.evaluate(() => {
      const card = document.querySelector('[data-testid="lobby"]');
      const r = card.getBoundingClientRect();
      const out = [...card.querySelectorAll('*')].filter((e) => {
        const b = e.getBoundingClientRect();
        return (b.width || b.height) && (b.left < r.left - 0.5 || b.right > r.right + 0.5);
      }).map((e) => `${e.tagName.toLowerCase()}.${e.getAttribute('class') ?? ''}`);
      return { out, sideways: card.scrollWidth > card.clientWidth + 0.5 || document.documentElement.scrollWidth > innerWidth + 0.5 };
    });
    assert.deepEqual(lobbyFit, { out: [], sideways: false }, 'the lobby fits a phone in Japanese');
    await A.screenshot({ path: path.join(shotDir, 'lobby-host-phone-ja.png'), fullPage: true });
    await A.selectOption('[data-testid="lang-select"]', 'en');
    await A.setViewportSize({ width: 1200, height: 800 });

    // The host removes the computer player...
    await A.click('[data-testid="remove-bot"][data-seat="3"]');
    await B.waitForFunction(() => document.querySelectorAll('[data-testid="seat"][data-seat]').length === 3);
    // ... and Cy, who stays as a spectator with a clear message; Cy's seat token is gone.
    assert.ok(await tokenOf(C, room));
    await A.click('[data-testid="kick"][data-seat="2"]');
    await C.waitForSelector('#view-room[data-seat=""]');
    await C.waitForSelector('[data-testid="lobby-notice"]');
    assert.match(await C.locator('[data-testid="lobby-notice"]').textContent(), /host removed you/);
    assert.equal(await tokenOf(C, room), null, 'the removed player\'s token is forgotten');
    assert.equal(await C.locator('[data-testid="take-seat"]').count(), 0, 'no seat offered to a removed player');
    await seatNamesBecome(B, ['Alice', 'Bob']);
    await C.screenshot({ path: path.join(shotDir, 'lobby-kicked.png') });

    // The host leaves: Bob moves up, becomes the host and gets the start button.
    await A.click('[data-testid="leave"]');
    await B.waitForSelector('#view-room[data-seat="0"]');
    await B.waitForSelector('[data-testid="start"]');
    await B.waitForSelector('[data-testid="toast-info"]');
    assert.match(await B.locator('[data-testid="toast-info"]').allTextContents().then((x) => x.join(' ')), /host now/);
    assert.equal(await B.locator('[data-testid="seat"][data-seat="0"] [data-testid="host-badge"]').count(), 1);
    await A.waitForSelector('#view-room[data-seat=""]');
    assert.match(await A.locator('[data-testid="lobby-notice"]').textContent(), /You left your seat/);
    assert.equal(await tokenOf(A, room), null);
    await seatNamesBecome(C, ['Bob']);

    // Alice takes a seat again, from the lobby.
    await A.click('[data-testid="take-seat"]');
    await A.waitForSelector('[data-testid="join-dialog"]');
    await A.fill('[data-testid="join-name"]', 'Alice');
    await A.click('[data-testid="join-submit"]');
    await A.waitForSelector('#view-room[data-seat="1"]');
    assert.ok(await tokenOf(A, room), 'a new token for the new seat');
    assert.equal(await A.locator('[data-testid="lobby-notice"]').count(), 0);
    await seatNamesBecome(C, ['Bob', 'Alice']);

    // The new host starts; leaving is refused once the game runs (the button is gone).
    await B.click('[data-testid="start"]');
    await Promise.all([A, B].map((p) => p.waitForSelector('#view-room[data-phase="playing"]')));
    assert.equal(await A.locator('[data-testid="leave"]').isVisible(), false);
    assert.deepEqual(errors, [], 'no script errors in the pages');
  });
});

test('"Play again": everyone connected lands seated in the new lobby; an away player follows the old link', { timeout: 180000 }, async (t) => {
  const { server, browser } = await setUp(t);
  const errors = [];
  await showingServerLog(server, async () => {
    const { A, B, invite } = await setUpGame(browser, server, errors, { nameA: 'Ada', nameB: 'Bea' });
    const old = new URL(invite).pathname.split('/').pop();
    // A helper page (it draws no room) for the protocol clients of the test.
    const helper = await newPage(browser, errors, 'helper');
    await helper.goto(`${server.base}/healthz`);
    // A third player, Cho, plays from a plain protocol client.
    const cho = await seatOverProtocol(helper, old, 'Cho');
    assert.equal(cho.seat, 2);
    await A.waitForSelector('[data-testid="seat"][data-seat="2"]');
    await A.click('[data-testid="start"]');
    await Promise.all([A, B].map((p) => p.waitForSelector('#view-room[data-phase="playing"]')));
    await playTurn(A, { meeple: true });

    // The middle of the game is played quickly through Ada's and Bea's seats; then they
    // come back to their pages and play their last tiles by clicking.
    const tokens = [await tokenOf(A, old), await tokenOf(B, old)];
    await playOverProtocol(helper, { room: old, tokens, untilBagEmpty: true, seed: 5 });
    for (const p of [A, B]) {
      await p.reload();
      await p.waitForSelector('[data-testid="conn-status"][data-state="open"]');
      await p.waitForFunction(() => window.__carc.store.state);
    }
    for (let i = 0; i < 6; i++) {
      const states = await Promise.all([A, B].map((p) => p.evaluate(() => {
        const s = window.__carc.store;
        return { phase: s.state?.phase, mine: s.state?.turn?.seat === s.seat };
      })));
      if (states[0].phase === 'finished') break;
      const k = states.findIndex((x) => x.mine);
      if (k < 0) await A.waitForTimeout(100);
      else await playTurn([A, B][k], { meeple: true });
    }
    for (const p of [A, B]) await skipToEnd(p);
    assert.equal(await A.locator('[data-testid="end-replay"]').getAttribute('href'), `/replay/${old}`);
    await A.screenshot({ path: path.join(shotDir, 'end-rematch.png') });

    // Cho goes away (the seat and its token stay).
    await closeProtocolSeats(helper);

    // A spectator of the old room.
    const D = await newPage(browser, errors, 'D');
    await D.goto(invite);
    await D.waitForSelector('[data-testid="join-dialog"]');
    await D.click('[data-testid="join-watch"]');
    await D.waitForSelector('[data-testid="endgame"]');
    assert.equal(await D.locator('[data-testid="rematch"]').count(), 0, 'a spectator cannot ask for a rematch');

    // Bea presses "Play again": Ada and Bea land in the new lobby, seated, with no typing.
    await B.click('[data-testid="rematch"]');
    await Promise.all([A, B].map((p) => p.waitForURL((u) => u.pathname.startsWith('/r/') && !u.pathname.endsWith(old))));
    const fresh = new URL(A.url()).pathname.split('/').pop();
    assert.equal(new URL(B.url()).pathname, `/r/${fresh}`, 'the same new room');
    for (const p of [A, B]) {
      await p.waitForSelector('#view-room[data-phase="lobby"]');
      await p.waitForSelector('#view-room[data-seat]:not([data-seat=""])');
      assert.equal(await p.locator('[data-testid="join-dialog"]').isVisible(), false, 'no name asked');
      assert.ok(await tokenOf(p, fresh), 'the new seat\'s token is kept');
      assert.match(await p.locator('[data-testid="lobby-notice"]').textContent(), /same players/);
    }
    // The seats turn by one, so that another player starts; Ada is still the host.
    assert.equal(await B.getAttribute('#view-room', 'data-seat'), '0');
    assert.equal(await A.getAttribute('#view-room', 'data-seat'), '2');
    await seatNamesBecome(A, ['Bea', 'Cho', 'Ada']);
    assert.equal(await A.locator('[data-testid="start"]').count(), 1, 'the same host');
    await A.screenshot({ path: path.join(shotDir, 'rematch-lobby.png') });

    // The spectator is offered the new game to watch.
    await D.waitForSelector('[data-testid="rematch-watch"]');
    assert.equal(await D.locator('[data-testid="rematch-watch"]').getAttribute('href'), `/r/${fresh}`);

    // Cho comes back on the old room's link: the state names the rematch, which is offered;
    // one click takes Cho's new seat in it.
    const C = await newPage(browser, errors, 'C');
    await C.goto(`${server.base}/`);
    await C.evaluate(([r, tok]) => localStorage.setItem(`carc.token.${r}`, tok), [old, cho.token]);
    await C.goto(invite);
    await C.waitForSelector('[data-testid="rematch-ready"]:not([hidden])');
    await C.screenshot({ path: path.join(shotDir, 'rematch-offer.png') });
    assert.equal(new URL(C.url()).pathname, `/r/${old}`, 'the old game stays on screen until asked');
    await C.click('[data-testid="rematch-join"]');
    await C.waitForURL(`**/r/${fresh}`);
    await C.waitForSelector('#view-room[data-phase="lobby"][data-seat="1"]');
    await A.waitForSelector('[data-testid="seat"][data-seat="1"] .dot.on');

    // The host starts the rematch as usual.
    await A.click('[data-testid="start"]');
    await Promise.all([A, B, C].map((p) => p.waitForSelector('#view-room[data-phase="playing"]')));
    assert.equal(await B.getAttribute('#view-room', 'data-my-turn'), '1', 'Bea starts the rematch');
    assert.deepEqual(errors, [], 'no script errors in the pages');
  });
});

test('a solo game against the computer from the start page, played to the end screen', { timeout: 240000 }, async (t) => {
  const { server, browser } = await setUp(t);
  const errors = [];
  await showingServerLog(server, async () => {
    const page = await newPage(browser, errors, 'solo', { viewport: { width: 1280, height: 800 } });
    await page.goto(`${server.base}/`);
    await page.waitForSelector('body[data-ready="1"]');
    await page.fill('[data-testid="create-name"]', 'Solène');
    await page.click('[data-testid="play-computer"]');
    // A room, one medium computer player, started without another click.
    await page.waitForSelector('#view-room[data-phase="playing"][data-seat="0"]', { timeout: 20000 });
    const players = await page.evaluate(() => window.__carc.store.state.players.map((p) => ({ seat: p.seat, bot: p.bot, host: p.host })));
    assert.deepEqual(players, [{ seat: 0, bot: null, host: true }, { seat: 1, bot: 'medium', host: false }]);
    // A few turns by clicking, against the computer's answers; the middle of the game
    // through the player's seat from a protocol client; then the last tile by clicking.
    const myTurn = () => page.waitForFunction(() => {
      const s = window.__carc.store;
      return s.state.turn?.seat === s.seat && !window.__carc.draft?.pending;
    }, null, { timeout: 30000 });
    for (let turn = 0; turn < 3; turn++) {
      await myTurn();
      await playTurn(page, { meeple: turn % 2 === 0, shot: turn === 2 ? 'solo-turn.png' : undefined });
    }
    const room = await page.evaluate(() => window.__carc.room);
    const helper = await newPage(browser, errors, 'helper');
    await helper.goto(`${server.base}/healthz`);
    await playOverProtocol(helper, { room, tokens: [await page.evaluate((r) => localStorage.getItem(`carc.token.${r}`), room)], untilBagEmpty: true });
    await page.reload();
    await page.waitForSelector('[data-testid="conn-status"][data-state="open"]');
    await page.waitForFunction(() => window.__carc.store.state);
    if (await page.evaluate(() => window.__carc.store.state.phase === 'playing')) {
      await myTurn();
      await playTurn(page, { meeple: true });
    }
    await skipToEnd(page);
    const state = await page.evaluate(() => window.__carc.store.state);
    assert.equal(state.result.final_scores.length, 2);
    const record = await (await fetch(`${server.base}/api/rooms/${state.room}/record`)).json();
    assert.ok(record.moves.length >= 70, 'every tile was played');
    assert.ok(record.moves.filter((m, i) => i % 2 === 1 && !m.discard).length >= 30, 'the computer played its turns');
    await page.screenshot({ path: path.join(shotDir, 'solo-end.png') });
    assert.deepEqual(errors, [], 'no script errors in the page');
  });
});
