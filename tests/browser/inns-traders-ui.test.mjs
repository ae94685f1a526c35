// The client's side of Inns & Cathedrals and Traders & Builders on states of the protocol's
// shape (docs/expansions/, "On the wire" of each page), fed to a real room page as `state`
// messages, so that every case is there whatever a game's bag brings: the new tiles with
// their marks on the board, the big meeple, builder and pig in their own shapes, the figure
// picker (mouse and keyboard, only what turn.legal allows), the builder's extra part to its
// player and to the others, six players' goods and figures on a 360x640 phone, the end
// screen's columns. inns-traders.test.mjs plays the same through a whole game.
//
//   CARC_SERVER_BIN=build/carcassonne-server node --test --test-concurrency=1 tests/browser/inns-traders-ui.test.mjs

import test from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { setUp, showingServerLog, shotDir, openStartPage, createGame, openWatcher } from './helpers.mjs';
import { openWithToken } from './wsclient.mjs';

const COLORS = ['red', 'blue', 'green', 'yellow', 'black', 'pink'];
const NAMES = ['Hildegard', 'Bot 2 (easy)', 'Bot 3 (easy)', 'Bot 4 (easy)', 'Bot 5 (easy)', 'Bot 6 (easy)'];

function players(turnSeat) {
  return COLORS.map((color, seat) => ({
    seat, name: NAMES[seat], color, score: 10 * seat, projected: 0, hints: 0, meeples: 7 - (seat % 3), connected: true,
    tile: seat === turnSeat ? 'T21' : 'I12', host: seat === 0, bot: seat ? 'easy' : null, away: false, bank_ms: null,
    goods: { wine: seat, grain: (seat * 2) % 5, cloth: seat === 5 ? 12 : 0 },
    figures: { big: seat % 2, builder: seat === 0 ? 1 : 0, pig: 1, abbot: 1 },
  }));
}

// Every new tile on the board in rows, with the special figures standing on some of them.
function board(tiles) {
  const ids = tiles.filter((x) => /^(I|T)\d/.test(x.letter)).map((x) => x.letter);
  const out = [{ x: 0, y: 0, tile: 'D', rotation: 0, meeple: null }];
  ids.forEach((id, i) => out.push({ x: (i % 9) - 4, y: 2 + Math.floor(i / 9), tile: id, rotation: 0, meeple: null }));
  const at = (id) => out.find((b) => b.tile === id);
  at('I14').meeple = { seat: 1, at: 'E', figure: 'big' };
  at('T16').meeple = { seat: 4, at: 'E', figure: 'builder' };
  at('T24').meeple = { seat: 5, at: 'NL', figure: 'pig' };
  at('T20').meeple = { seat: 2, at: 'C', figure: 'abbot' };
  at('I1').meeple = { seat: 3, at: 'N', figure: 'big' };
  return out;
}

const LEGAL = [
  { x: 1, y: 0, rotation: 0, meeples: ['N', 'SR', 'EL'], figures: { big: ['N', 'SR', 'EL'], builder: ['N'], pig: ['EL'], abbot: [] }, return: null },
  { x: 1, y: 0, rotation: 90, meeples: [], figures: { big: ['E'], builder: [], pig: [], abbot: [] }, return: null },
  { x: 0, y: -1, rotation: 0, meeples: ['N'], figures: { big: [], builder: [], pig: [], abbot: [] }, return: null },
];

function state(tiles, { phase = 'playing', seat = 0, extra = false, result = null } = {}) {
  return {
    room: 'x', phase, players: players(seat), spectators: 0, chat: [], rematch: null, events: [{ id: 0, type: 'started' }],
    settings: { turn_seconds: null, away_seconds: 60, pace: 'live', bank_seconds: 259200, increment_seconds: 86400, webhook: false, hints: false, expansions: ['abbot', 'inns', 'traders'] },
    turn: phase === 'playing' ? { number: 30, seat, tile: 'T21', extra, legal: seat === 0 ? LEGAL : [], deadline: null } : null,
    board: board(tiles), bag: { left: 40, tiles: { T21: 1 } }, result,
  };
}

async function feed(page, st) {
  await page.evaluate((s) => {
    const p = window.__carc;
    // Far ahead of the room's own versions: a patch of the real room still on its way is
    // then one the page already has, and changes nothing.
    p.onMessage({ type: 'state', version: p.store.version + 1000, state: s });
  }, st);
}

test('the new tiles and figures, the figure picker, the builder\'s extra part, six panels on a phone, the end columns', { timeout: 120000 }, async (t) => {
  const { server, browser } = await setUp(t);
  await showingServerLog(server, async () => {
    const tiles = (await (await fetch(`${server.base}/api/tiles?expansions=abbot,inns,traders`)).json()).tiles;
    const errors = [];
    const page = await openStartPage(browser, server, errors, { viewport: { width: 1280, height: 860 }, timeout: 10000 });
    await createGame(page, 'Hildegard');
    await feed(page, state(tiles, { extra: true }));
    await page.waitForSelector('#view-room[data-phase="playing"]');

    // The builder's extra part, to its player: the banner, the action bar, the live region.
    assert.equal(await page.textContent('[data-testid="extra-mine"]'), 'Your builder: place another tile');
    assert.match(await page.textContent('#action-hint'), /^Your builder: place another tile/);
    await page.waitForFunction(() => /Your builder: place another tile\. It fits on 2 squares\./.test(document.getElementById('announce').textContent));

    // The tiles: inns, cathedrals and goods drawn where the catalog says; the figures in their shapes.
    const marks = await page.evaluate(() => Object.fromEntries(['inn', 'cathedral', 'wine', 'grain', 'cloth'].map((m) => [m, [...document.querySelectorAll(`#board [data-testid="tile"] [data-mark="${m}"]`)].map((e) => e.closest('[data-testid="tile"]').dataset.tile).sort()])));
    assert.deepEqual(marks.inn, ['I11', 'I12', 'I13', 'I14', 'I15g', 'I16'], 'I15g stands for I15 with the abbot');
    assert.deepEqual(marks.cathedral, ['I1']);
    assert.deepEqual(marks.wine, ['T12', 'T13', 'T14', 'T15', 'T18', 'T19', 'T2', 'T4', 'T8g']);
    assert.deepEqual(marks.grain, ['T1', 'T10', 'T17', 'T21', 'T22', 'T5']);
    assert.deepEqual(marks.cloth, ['T11g', 'T3', 'T6', 'T7', 'T9']);
    const figs = await page.$$eval('#board [data-testid="board-meeple"]', (ms) => ms.map((m) => `${m.dataset.figure}:${m.querySelector('[data-figure], .meeple')?.getAttribute('class')?.split(' ').filter((c) => /^(figure-|abbot)/.test(c)).join('')}`).sort());
    assert.deepEqual(figs, ['abbot:abbot', 'big:figure-big', 'big:figure-big', 'builder:figure-builder', 'pig:figure-pig']);
    await page.evaluate(() => window.__carc.board.fitNow());
    await page.screenshot({ path: path.join(shotDir, 'inns-traders-tiles.png') });

    // The picker: only what the drafted entry offers; the board shows the picked figure's spots.
    await page.evaluate(() => window.__carc.selectCell(1, 0));
    await page.waitForSelector('[data-testid="figure-picker"]:not([hidden])');
    const offered = () => page.$$eval('[data-testid="pick-figure"]', (bs) => bs.map((b) => `${b.dataset.figure}${b.getAttribute('aria-pressed') === 'true' ? '*' : ''}`));
    const spots = () => page.$$eval('[data-testid="meeple-spot"]', (ss) => ss.map((s) => `${s.dataset.figure}:${s.dataset.port}`).sort());
    assert.deepEqual(await offered(), ['meeple*', 'big', 'builder', 'pig'], 'no abbot: turn.legal gives it no port');
    assert.deepEqual(await spots(), ['meeple:EL', 'meeple:N', 'meeple:SR']);
    assert.equal(await page.getAttribute('[data-testid="pick-figure"][data-figure="builder"]', 'aria-label'), 'builder: 1 place');
    assert.equal(await page.getAttribute('[data-testid="figure-picker"]', 'aria-label'), 'Figure to place');
    await page.click('[data-testid="pick-figure"][data-figure="builder"]');
    assert.deepEqual(await offered(), ['meeple', 'big', 'builder*', 'pig']);
    assert.deepEqual(await spots(), ['builder:N']);
    await page.click('[data-testid="meeple-spot"][data-figure="builder"]');
    await page.waitForSelector('[data-testid="meeple-spot"][data-figure="builder"].chosen');
    assert.match(await page.textContent('#action-hint'), /^Builder on the city/);
    await page.screenshot({ path: path.join(shotDir, 'inns-traders-picker-builder.png') });
    // The keyboard: Tab-reachable buttons, arrows move along, Enter picks (and does not confirm).
    await page.focus('[data-testid="pick-figure"][data-figure="builder"]');
    await page.keyboard.press('ArrowRight');
    assert.equal(await page.evaluate(() => document.activeElement.dataset.figure), 'pig');
    await page.keyboard.press('Enter');
    assert.deepEqual(await offered(), ['meeple', 'big', 'builder', 'pig*']);
    assert.deepEqual(await spots(), ['pig:EL'], 'the builder\'s spot gave way to the pig\'s');
    assert.equal(await page.locator('[data-testid="ghost"]').count(), 1, 'Enter on the picker picked, the placement is still being prepared');
    assert.equal(await page.evaluate(() => window.__carc.draft.meeple), null);
    await page.focus('[data-testid="meeple-spot"][data-figure="pig"]');
    await page.keyboard.press('Space');
    assert.equal(await page.evaluate(() => window.__carc.draft.meeple), 'pig:EL');
    assert.match(await page.textContent('#action-hint'), /^Pig in the field/);
    // M goes through every figure's spots; the picker follows.
    await page.evaluate(() => document.activeElement.blur());
    await page.keyboard.press('m');
    assert.equal(await page.evaluate(() => window.__carc.draft.meeple), null);
    await page.keyboard.press('m');
    await page.keyboard.press('m');
    await page.keyboard.press('m');
    await page.keyboard.press('m');
    assert.equal(await page.evaluate(() => window.__carc.draft.meeple), 'big:N');
    assert.deepEqual(await offered(), ['meeple', 'big*', 'builder', 'pig']);
    assert.deepEqual(await spots(), ['big:EL', 'big:N', 'big:SR']);
    const play = await page.evaluate(() => {
      const sent = [];
      const p = window.__carc;
      const real = p.conn.send.bind(p.conn);
      p.conn.send = (m) => { sent.push(m); return true; };
      p.confirmDraft();
      p.conn.send = real;
      return sent[0];
    });
    assert.deepEqual({ ...play, version: 0 }, { type: 'play', version: 0, x: 1, y: 0, rotation: 0, meeple: 'N', figure: 'big' }, 'play sends figure beside meeple');
    // A rotation whose entry offers the big meeple alone: no picker, the big meeple's spot.
    await page.evaluate(() => { window.__carc.draft = null; }); // the sent play was never answered
    await feed(page, state(tiles, { extra: true }));
    await page.evaluate(() => window.__carc.selectCell(1, 0));
    await page.click('[data-testid="rotate"]');
    await page.waitForSelector('[data-testid="figure-picker"][hidden]', { state: 'attached' });
    assert.deepEqual(await spots(), ['big:E'], 'one figure alone: no picker, its spots on the tile');
    await page.evaluate(() => window.__carc.cancelDraft());

    // The same seat on a 360x640 phone: the picker's buttons fit the action bar, none cut.
    const room = await page.evaluate(() => window.__carc.room);
    const token = await page.evaluate((r) => localStorage.getItem(`carc.token.${r}`), room);
    const mobile = await openWithToken(browser, server.base, room, token, { viewport: { width: 360, height: 640 }, isMobile: true, hasTouch: true, locale: 'ja-JP' });
    mobile.page.on('pageerror', (e) => errors.push(`mobile: ${e.message}`));
    await mobile.page.waitForSelector('#view-room[data-phase="lobby"][data-seat="0"]');
    await feed(mobile.page, state(tiles, { extra: true }));
    await mobile.page.evaluate(() => window.__carc.selectCell(1, 0));
    await mobile.page.click('[data-testid="pick-figure"][data-figure="big"]');
    await mobile.page.click('[data-testid="meeple-spot"][data-figure="big"][data-port="SR"]', { force: true });
    const pickerFit = await mobile.page.evaluate(() => [...document.querySelectorAll('#action-bar .btn')].filter((b) => b.checkVisibility()).map((b) => {
      const r = b.getBoundingClientRect();
      return r.left >= -0.5 && r.right <= innerWidth + 0.5 && b.scrollWidth <= b.clientWidth + 1 ? 'ok' : `${b.textContent.trim()} ${Math.round(r.left)}..${Math.round(r.right)}`;
    }));
    await mobile.page.screenshot({ path: path.join(shotDir, 'inns-traders-picker-phone.png') });
    assert.deepEqual(pickerFit.filter((x) => x !== 'ok'), [], 'every button of the action bar fits a 360 px phone');
    assert.equal(pickerFit.length, 8, 'rotate, no figure, cancel, confirm and the four figures');
    assert.equal(await mobile.page.textContent('[data-testid="extra-mine"]'), 'あなたの建築士：もう1枚タイルを置いてください');
    await mobile.ctx.close();

    // Six panels: goods and figures as the state says; on a 360x640 phone they fit.
    const panel = await page.evaluate(() => [...document.querySelectorAll('[data-testid="player"]')].map((li) => {
      const g = li.querySelector('[data-testid="goods"]');
      return [li.dataset.color, g.dataset.wine, g.dataset.grain, g.dataset.cloth, g.getAttribute('aria-label'),
        [...li.querySelectorAll('[data-testid="figure-supply"]')].map((f) => `${f.dataset.figure}${f.dataset.count}`).join(' ')];
    }));
    assert.deepEqual(panel[5], ['pink', '5', '0', '12', 'Goods: 5 wine, 0 grain, 12 cloth', 'big1 builder0 pig1']);
    assert.deepEqual(panel[0].slice(0, 4), ['red', '0', '0', '0']);
    const roomUrl = `${server.base}/r/${await page.evaluate(() => window.__carc.room)}`;
    const { page: phone } = await openWatcher(browser, roomUrl, errors, 'phone', { viewport: { width: 360, height: 640 }, locale: 'fr-FR', isMobile: true, hasTouch: true });
    await phone.waitForSelector('#view-room[data-phase="lobby"]');
    await feed(phone, state(tiles, { seat: 3, extra: true }));
    await phone.waitForSelector('[data-testid="player"][data-seat="5"] [data-testid="goods"]');
    const fit = await phone.evaluate(() => {
      const lis = [...document.querySelectorAll('[data-testid="player"]')];
      const sticks = (e, box) => { const r = e.getBoundingClientRect(); return (r.width || r.height) && (r.left < box.left - 0.5 || r.right > box.right + 0.5); };
      return {
        n: lis.length,
        outside: lis.filter((li) => sticks(li, { left: 0, right: innerWidth })).length,
        inner: lis.flatMap((li) => [...li.querySelectorAll('*')].filter((e) => sticks(e, li.getBoundingClientRect())).map((e) => e.className?.baseVal ?? e.className)),
        sideways: document.documentElement.scrollWidth > innerWidth + 0.5,
        cut: [...document.querySelectorAll('.players .pname, .players .badge, .players .good-n, .players .score')].filter((e) => e.checkVisibility() && e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent),
        height: Math.round(lis.at(-1).getBoundingClientRect().bottom - lis[0].getBoundingClientRect().top),
      };
    });
    assert.equal(fit.n, 6);
    assert.equal(fit.outside, 0, 'every panel inside the width');
    assert.deepEqual(fit.inner, [], 'nothing sticks out of a panel');
    assert.equal(fit.sideways, false, 'no horizontal scroll');
    assert.deepEqual(fit.cut, [], 'no name, badge or count cut');
    assert.ok(fit.height <= 640, `the six panels fit one screen's height (${fit.height} px)`);
    // The others see whose builder's extra part it is (banner and live region), in French here.
    assert.equal(await phone.getAttribute('[data-testid="banner-turn"]', 'data-extra'), '1');
    assert.match(await phone.textContent('[data-testid="banner-turn"]'), /^Ordinateur 4 joue la tuile en plus de son bâtisseur/);
    await phone.waitForFunction(() => /Ordinateur 4 joue la tuile en plus de son bâtisseur\./.test(document.getElementById('announce').textContent));
    await phone.locator('#players').scrollIntoViewIfNeeded();
    await phone.screenshot({ path: path.join(shotDir, 'inns-traders-phone-panels.png') });

    // The end screen: inns, cathedrals, pigs and goods as their own columns; on the phone too.
    const breakdown = COLORS.map((c, seat) => ({
      seat, game: { road: 4, city: 10, monastery: 0, garden: 0, abbot: 0, inn: 4, cathedral: 0 },
      end: { road: 1, city: 2, monastery: 3, field: 9, garden: 0, inn: -1, cathedral: -2, pig: seat, goods: seat === 5 ? 20 : 0 }, total: 30 + seat + (seat === 5 ? 20 : 0),
    }));
    const result = { final_scores: breakdown.map((b) => b.total), winners: [5], breakdown };
    for (const pg of [page, phone]) await feed(pg, state(tiles, { phase: 'finished', result }));
    await page.waitForSelector('[data-testid="endgame"]');
    const heads = await page.$$eval('[data-testid="endgame"] thead th', (ths) => ths.map((th) => th.textContent));
    assert.deepEqual(heads, ['Player', 'Roads', 'Cities', 'Monasteries', 'Farms', 'Gardens', 'Abbot back', 'Inns', 'Cathedrals', 'Pigs', 'Goods', 'Total']);
    const last = await page.$$eval('[data-testid="breakdown"] tbody tr[data-seat="5"] td.k', (tds) => tds.map((td) => `${td.dataset.kind}=${td.querySelector('.sum').textContent}${td.querySelector('.split') ? `(${td.querySelector('.split').textContent})` : ''}`));
    // An unfinished inn road and cathedral city at the end (-1, -2) are read in their own
    // columns: the roads and cities scored nothing more at the end, the marks what they won.
    assert.deepEqual(last, ['road=4(4+0)', 'city=10(10+0)', 'monastery=3(0+3)', 'field=9', 'garden=0(0+0)', 'abbot=0', 'inn=4(4+0)', 'cathedral=0(0+0)', 'pig=5', 'goods=20']);
    await page.screenshot({ path: path.join(shotDir, 'inns-traders-end-columns.png') });
    await phone.waitForSelector('[data-testid="endgame"]');
    const endFit = await phone.evaluate(() => {
      const card = document.querySelector('[data-testid="endgame"]');
      const r = card.getBoundingClientRect();
      const out = [...card.querySelectorAll('[data-testid="breakdown"] *')].filter((e) => { const b = e.getBoundingClientRect(); return (b.width || b.height) && (b.left < r.left - 0.5 || b.right > r.right + 0.5); }).length;
      return { out, labels: [...document.querySelectorAll('[data-testid="breakdown"] tbody tr:first-child td.k')].map((td) => td.dataset.label), sideways: document.documentElement.scrollWidth > innerWidth + 0.5 };
    });
    assert.equal(endFit.out, 0, 'every cell inside the dialog on the phone');
    assert.equal(endFit.sideways, false);
    assert.deepEqual(endFit.labels, ['Routes', 'Villes', 'Abbayes', 'Prés', 'Jardins', 'Abbé repris', 'Auberges', 'Cathédrales', 'Cochons', 'Marchandises']);
    await phone.screenshot({ path: path.join(shotDir, 'inns-traders-end-phone.png') });
    assert.deepEqual(errors, [], 'no script errors');
  });
});
