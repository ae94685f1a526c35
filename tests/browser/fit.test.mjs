// The page fits: at 1366x768 and 390x844 the chat input stays reachable and no
// label is cut; German and Spanish are chosen like the other languages and say the board
// in words; the replay's banner says what its log says, and its title names the players
// and the date.
//
//   CARC_SERVER_BIN=build/carcassonne-server node --test tests/browser/fit.test.mjs

import test from 'node:test';
import assert from 'node:assert/strict';
import { setUp, showingServerLog } from './helpers.mjs';
import { startRoom, playUntil, spreadPick, openWithToken } from './wsclient.mjs';
import { pageOnTurn, cellsInView, LAPTOP, PHONE } from './seat-helpers.mjs';

// Elements whose text is cut: wider (or, for the banner's parts, taller) than their box.
function cutLabels(page) {
  return page.evaluate(() => {
    const visible = (e) => e.checkVisibility() && e.getClientRects().length;
    const sel = '.turn-banner > *, .badge, .btn, .action-hint, .pname, .conn-text, .bag-item .count, .panel-title';
    return [...document.querySelectorAll(sel)].filter(visible).filter((e) => {
      const tall = e.closest('.turn-banner') && e.scrollHeight > e.clientHeight + 1;
      return e.scrollWidth > e.clientWidth + 1 || tall;
    }).map((e) => `${e.className}: ${e.textContent.trim().slice(0, 40)}`);
  });
}

// Whether the chat input can be typed into where it is (scrolled to, for a phone).
async function chatReachable(page, scroll) {
  if (scroll) await page.locator('#chat-input').scrollIntoViewIfNeeded();
  return page.evaluate(() => {
    const e = document.getElementById('chat-input');
    const r = e.getBoundingClientRect();
    const inside = r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
    return inside && document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2) === e;
  });
}

test('a 1366x768 laptop and a 390x844 phone: the chat input on screen, the log readable, no label cut', async (t) => {
  const { server, browser } = await setUp(t);
  await showingServerLog(server, async () => {
    const names = ['Ann', 'Bartholomew', 'Chloé', 'Daichi', 'Evangelina'];
    for (const [size, opts] of [['laptop', LAPTOP], ['phone', PHONE]]) {
      const { page, clients } = await pageOnTurn(browser, server, { names, ready: (s) => s.turn.number >= 20, ctxOptions: { ...opts, locale: 'en-US' } });
      clients[0].send({ type: 'chat', text: 'good game so far' });
      // A legal cell that can be clicked where it is (a forced click on the first cell hit
      // whatever covered it on a phone, once the header's link home: the page left the room).
      const cells = await cellsInView(page);
      assert.ok(cells.length > 0, `${size}: a legal cell to click`);
      await page.click(`[data-testid="cell"][data-x="${cells[0].x}"][data-y="${cells[0].y}"]`);
      await page.waitForSelector('[data-testid="ghost"]');
      assert.deepEqual(await cutLabels(page), [], `${size}: no label cut during a turn`);
      assert.ok(await chatReachable(page, size === 'phone'), `${size}: the chat input can be reached and typed in`);
      if (size === 'laptop') {
        assert.ok(await chatReachable(page, false), 'laptop: the chat input is on screen without scrolling');
        const log = await page.evaluate(() => {
          const ol = document.getElementById('log');
          const box = ol.getBoundingClientRect();
          const lines = [...ol.children].filter((li) => {
            const r = li.getBoundingClientRect();
            return r.top >= box.top - 0.5 && r.bottom <= box.bottom + 0.5;
          });
          return lines.length;
        });
        assert.ok(log >= 5, `laptop: at least five whole lines of the log in view (${log})`);
      }
      await page.context().close();
      for (const c of clients) await c.close();
    }
    // The lobby's clock menu: its longest choice is not cut.
    for (const [size, opts] of [['laptop', LAPTOP], ['phone', PHONE]]) {
      const ctx = await browser.newContext({ ...opts, locale: 'en-US' });
      const page = await ctx.newPage();
      await page.goto(`${server.base}/`);
      await page.waitForSelector('body[data-ready="1"]');
      await page.fill('[data-testid="create-name"]', 'Ann');
      await page.click('[data-testid="create-game"]');
      await page.waitForSelector('[data-testid="lobby"]:not([hidden]) [data-testid="seat"]');
      await page.evaluate(() => document.querySelectorAll('details.lobby-clock').forEach((d) => { d.open = true; }));
      const cut = await page.evaluate(() => [...document.querySelectorAll('.lobby-card select')].map((s) => {
        const probe = document.createElement('span');
        probe.style.cssText = `position:absolute;visibility:hidden;white-space:nowrap;font:${getComputedStyle(s).font}`;
        document.body.appendChild(probe);
        const widest = Math.max(...[...s.options].map((o) => { probe.textContent = o.textContent; return probe.getBoundingClientRect().width; }));
        probe.remove();
        return { text: [...s.options].map((o) => o.textContent).join('|'), room: s.clientWidth - 28, widest };
      }).filter((x) => x.widest > x.room));
      assert.deepEqual(cut, [], `${size}: every choice of the lobby's menus fits its menu`);
      await ctx.close();
    }
  });
});

test('German and Spanish are chosen like the others, and say the board in words', async (t) => {
  const { server, browser } = await setUp(t);
  await showingServerLog(server, async () => {
    for (const [locale, lang, create, board, bag] of [
      ['de-DE', 'de', 'Spiel erstellen', 'Spielbrett', /Plättchen übrig/],
      ['es-ES', 'es', 'Crear una partida', 'Tablero', /Quedan? \d+ losetas?/],
    ]) {
      const ctx = await browser.newContext({ ...LAPTOP, locale });
      const page = await ctx.newPage();
      await page.goto(`${server.base}/`);
      await page.waitForSelector('body[data-ready="1"]');
      assert.equal(await page.getAttribute('html', 'lang'), lang);
      assert.equal((await page.textContent('[data-testid="create-game"]')).trim(), create);
      await ctx.close();
      const { page: p, clients } = await pageOnTurn(browser, server, { ready: (s) => s.turn.number >= 3, ctxOptions: { ...LAPTOP, locale } });
      assert.equal(await p.getAttribute('#board', 'aria-label'), board);
      assert.match(await p.textContent('[data-testid="bag-left"]'), bag);
      const item = await p.getAttribute('.bag-item[data-letter="D"]', 'title');
      assert.ok(item.length > 6 && !/^[A-X]$/.test(item), `a bag tile in words: ${item}`);
      // The live region is emptied for a moment before each announcement (so that the same
      // words are said again): wait for the words rather than read it once.
      const yourTurn = lang === 'de' ? 'Du bist dran' : 'Tu turno';
      await p.waitForFunction((w) => document.getElementById('announce').textContent.includes(w), yourTurn, { timeout: 5000 })
        .catch(() => {});
      assert.match(await p.textContent('#announce'), new RegExp(yourTurn));
      await p.context().close();
      for (const c of clients) await c.close();
    }
  });
});

test('the replay: its banner says what its log says; its title names the players and the date', async (t) => {
  const { server, browser } = await setUp(t);
  await showingServerLog(server, async () => {
    const { room, clients } = await startRoom(server.base, ['Ann', 'Ben']);
    await playUntil(clients, () => false, (l, s, i) => spreadPick(l, s, i));
    const token = clients[0].token;
    for (const c of clients) await c.close();
    // The page that played the game knows when.
    const { page } = await openWithToken(browser, server.base, room, token, LAPTOP);
    await page.waitForSelector('#view-room[data-phase="finished"]');
    await page.goto(`${server.base}/replay/${room}?move=1`);
    await page.waitForSelector('#view-replay[data-state="ready"]');
    const year = String(new Date().getFullYear());
    const title = await page.title();
    assert.ok(title.startsWith('Ann and Ben · ') && title.includes(year) && title.endsWith('— Carcassonne'), title);
    for (let k = 1; k <= 30; k++) {
      await page.evaluate((step) => window.__carc.go(step), k);
      const { banner, log } = await page.evaluate(() => ({
        banner: [...document.querySelectorAll('[data-testid="replay-line"]')].map((e) => e.textContent.trim()),
        log: [...document.querySelectorAll('#replay-log li.current')].filter((li) => !['final', 'game_over'].includes(li.dataset.line)).map((e) => e.textContent.trim()),
      }));
      assert.ok(banner.length >= 1, `move ${k}: the banner says the move`);
      assert.deepEqual(banner, log, `move ${k}: the banner and the log agree`);
    }
  });
});

test('a move the computer made for an away player is logged as the computer\'s', async (t) => {
  const { server, browser } = await setUp(t);
  await showingServerLog(server, async () => {
    const res = await fetch(`${server.base}/api/rooms`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
    const { room } = await res.json();
    const { WsClient } = await import('./wsclient.mjs');
    const ann = await WsClient.connect(server.base, room);
    ann.send({ type: 'join', name: 'Ann' });
    await ann.next('welcome', 0);
    const ben = await WsClient.connect(server.base, room);
    ben.send({ type: 'join', name: 'Ben' });
    await ben.next('welcome', 0);
    ann.send({ type: 'settings', away_seconds: 5 });
    await ann.until((c) => c.state?.settings?.away_seconds === 5, 'the setting');
    ann.send({ type: 'start' });
    await ann.until((c) => c.state?.phase === 'playing', 'the start');
    const ctx = await browser.newContext({ ...LAPTOP, locale: 'en-US' });
    const page = await ctx.newPage();
    await page.goto(`${server.base}/r/${room}`);
    await page.click('[data-testid="join-watch"]');
    await page.waitForSelector('#view-room[data-phase="playing"]');
    // Ann plays; Ben is gone when his turn comes, and the computer plays it after 5 s.
    await ben.close();
    const l = ann.state.turn.legal[0];
    ann.send({ type: 'play', version: ann.version, x: l.x, y: l.y, rotation: l.rotation, meeple: null });
    await page.waitForSelector('[data-testid="auto-move"]', { timeout: 20000 });
    const line = await page.textContent('#log li:has([data-testid="auto-move"])');
    assert.match(line, /^Ben .*\(played by the computer for them\)$/);
    assert.equal(await page.locator('[data-testid="auto-move"]').count(), 1, 'Ann\'s own move is hers');
    await ann.close();
  });
});

test('words: "1 tile left" and its plurals in every language, names listed the way each language lists them', async (t) => {
  const { server, browser } = await setUp(t);
  await showingServerLog(server, async () => {
    // A lobby of three, seen from the join dialog in Japanese: a Japanese list.
    const res = await fetch(`${server.base}/api/rooms`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
    const { room: lobbyRoom } = await res.json();
    const { WsClient } = await import('./wsclient.mjs');
    const seated = [];
    for (const name of ['Ann', 'Ben', 'Chloé']) {
      const c = await WsClient.connect(server.base, lobbyRoom);
      c.send({ type: 'join', name });
      await c.next('welcome', 0);
      seated.push(c);
    }
    const ja = await browser.newContext({ ...LAPTOP, locale: 'ja-JP' });
    const jp = await ja.newPage();
    await jp.goto(`${server.base}/r/${lobbyRoom}`);
    await jp.waitForSelector('.join-names');
    assert.equal(await jp.textContent('.join-names'), 'Ann、Ben、Chloé');
    await ja.close();
    for (const c of seated) await c.close();
    // A game down to its last tile in the bag.
    const { room, clients } = await startRoom(server.base, ['Ann', 'Ben']);
    await playUntil(clients, (s) => s.bag.left <= 1, (l, s, i) => spreadPick(l, s, i));
    assert.equal(clients[0].state.bag.left, 1);
    const ctx = await browser.newContext({ ...LAPTOP, locale: 'en-US' });
    const page = await ctx.newPage();
    await page.goto(`${server.base}/r/${room}`);
    await page.click('[data-testid="join-watch"]');
    await page.waitForSelector('#view-room[data-phase="playing"]');
    for (const [lang, text] of [['en', '1 tile left'], ['fr', '1 tuile restante'], ['de', '1 Plättchen übrig'], ['es', 'Queda 1 loseta'], ['ja', '残り1枚']]) {
      await page.selectOption('[data-testid="lang-select"]', lang);
      assert.equal(await page.textContent('[data-testid="bag-left"]'), text, lang);
    }
    await ctx.close();
    for (const c of clients) await c.close();
  });
});
