// A newcomer's way into a game at 1366x768 and on a 390x844 phone: the start
// page offers the expansions, and "Play against the computer" starts a game with the ones
// ticked; in the lobby the expansions come before "Start the game" and both are in view
// without scrolling inside the card (a phone scrolls the page, and the start stays in view);
// with Inns & Cathedrals every count says six seats.
//
//   CARC_SERVER_BIN=build/carcassonne-server node --test tests/browser/newcomer.test.mjs

import test from 'node:test';
import assert from 'node:assert/strict';
import { sharedSetUp, showingServerLog, openStartPage, createGame } from './helpers.mjs';
import { LAPTOP, PHONE, inView } from './seat-helpers.mjs';

const shared = sharedSetUp();

test('the start page offers the expansions; the game against the computer has the ones ticked', { timeout: 120000 }, async (t) => {
  const { server, browser } = await shared(t);
  const errors = [];
  await showingServerLog(server, async () => {
    for (const [size, opts, chosen] of [['phone', PHONE, ['river', 'inns']], ['laptop', LAPTOP, ['abbot', 'traders']]]) {
      const page = await openStartPage(browser, server, errors, opts);
      for (const id of ['river', 'abbot', 'inns', 'traders']) {
        assert.ok(await page.locator(`[data-testid="home-expansion-${id}"]`).isVisible(), `${size}: the start page offers ${id}`);
      }
      for (const id of chosen) await page.click(`label:has([data-testid="home-expansion-${id}"])`);
      assert.match(await page.textContent('[data-testid="home-expansions-what"]'), chosen.includes('river') ? /The River: 12 river tiles/ : /The Abbot: An abbot/,
        `${size}: what a ticked expansion adds is said`);
      if (size === 'laptop') { // the same form: the game with them is started once, on the phone
        await page.context().close();
        continue;
      }
      await page.fill('[data-testid="create-name"]', 'Ann');
      await page.selectOption('[data-testid="solo-level"]', 'easy');
      await page.click('[data-testid="play-computer"]');
      await page.waitForSelector('#view-room[data-phase="playing"]', { timeout: 30000 });
      assert.deepEqual(await page.evaluate(() => window.__carc.store.state.settings.expansions), chosen, `${size}: the game has the expansions ticked`);
      await page.context().close();
    }
    assert.deepEqual(errors, []);
  });
});

test('the lobby: the expansions before "Start the game", both in view without scrolling in the card; six seats with Inns & Cathedrals', async (t) => {
  const { server, browser } = await shared(t);
  await showingServerLog(server, async () => {
    for (const [size, opts] of [['laptop', LAPTOP], ['phone', PHONE]]) {
      const page = await openStartPage(browser, server, null, opts);
      // Inns & Cathedrals from the start page: six seats everywhere.
      assert.match(await page.textContent('.how'), /up to 4 friends \(5 with Inns & Cathedrals\)/, `${size}: the start page says how many friends`);
      await page.click('label:has([data-testid="home-expansion-inns"])');
      const counts = await page.$$eval('[data-testid="solo-count"] option', (os) => os.map((o) => o.textContent));
      assert.deepEqual(counts, ['1', '2', '3', '4', '5'], `${size}: five computer players with the sixth seat`);
      await createGame(page, 'Ann');
      for (const when of ['in the lobby', 'after a reload']) {
        await page.waitForFunction(() => window.__carc.store.state?.settings?.expansions?.includes('inns'));
        assert.equal(await page.textContent('[data-testid="seats-title"]'), 'Players (1/6)', `${size}, ${when}: the header`);
        assert.equal(await page.textContent('[data-testid="free-seats"]'), '5 free seats', `${size}, ${when}: the free seats`);
        if (when === 'in the lobby') {
          await page.reload();
          await page.waitForSelector('[data-testid="lobby"]:not([hidden]) [data-testid="seat"][data-seat="0"]');
        }
      }
      if (size === 'laptop') {
        const invite = await page.inputValue('[data-testid="invite-link"]');
        const other = await browser.newContext({ ...opts, locale: 'en-US' });
        const bob = await other.newPage();
        await bob.goto(invite);
        await bob.waitForFunction(() => /Players waiting/.test(document.getElementById('join-info')?.textContent ?? ''));
        assert.match(await bob.textContent('#join-info'), /^Players waiting: 1\/6/, 'the join dialog counts six seats');
        await other.close();
      }
      await page.click('[data-testid="add-bot"]');
      await page.waitForSelector('[data-testid="seat"][data-seat="1"]');
      // A phone's card is the page: the page scrolls to each (a card of its own that
      // scrolls would not show it). A laptop's card shows them as it opens.
      for (const sel of ['[data-testid="expansion-river"]', '[data-testid="expansion-traders"]', '[data-testid="start"]']) {
        if (size === 'phone') await page.evaluate((q) => document.querySelector(q).scrollIntoView({ block: 'center' }), sel);
        assert.ok(await inView(page, sel), `${size}: ${sel} is in view`);
      }
      assert.ok(await inView(page, '[data-testid="start"]'), `${size}: "Start the game" stays in view`);
      const order = await page.evaluate(() => {
        const all = [...document.querySelectorAll('.lobby-card *')];
        return all.indexOf(document.querySelector('[data-testid="expansions"]')) < all.indexOf(document.querySelector('[data-testid="start"]'));
      });
      assert.ok(order, `${size}: the expansions come before the start`);
      // Ticking one there is a click away, and the start then starts that game.
      await page.click('label:has([data-testid="expansion-abbot"])');
      await page.waitForFunction(() => window.__carc.store.state.settings.expansions.includes('abbot'));
      await page.click('[data-testid="start"]');
      await page.waitForSelector('#view-room[data-phase="playing"]');
      await page.context().close();
    }
  });
});

test('turn-based: the lobby shows and sets the bank and what a move adds; every player\'s bank in days and hours, as on the start page', { timeout: 120000 }, async (t) => {
  const { server, browser } = await shared(t);
  await showingServerLog(server, async () => {
    for (const [size, opts] of [['laptop', LAPTOP], ['phone', PHONE]]) {
      const page = await openStartPage(browser, server, null, opts);
      await page.selectOption('[data-testid="home-pace"]', 'turn_based');
      await createGame(page, 'Ann');
      await page.waitForFunction(() => window.__carc.store.state.settings.pace === 'turn_based');
      assert.equal(await page.textContent('[data-testid="clock-summary"]'), 'Turn-based: a bank of 3 d each, +1 d after each move', `${size}: the default bank`);
      await page.click('[data-testid="clock"] summary');
      await page.selectOption('[data-testid="clock-bank_seconds"]', '432000');
      await page.waitForFunction(() => window.__carc.store.state.settings.bank_seconds === 432000);
      await page.selectOption('[data-testid="clock-increment_seconds"]', '43200');
      await page.waitForFunction(() => window.__carc.store.state.settings.increment_seconds === 43200);
      assert.equal(await page.textContent('[data-testid="clock-summary"]'), 'Turn-based: a bank of 5 d each, +12 h after each move', `${size}: the bank set`);
      await page.click('[data-testid="add-bot"]');
      await page.waitForSelector('[data-testid="seat"][data-seat="1"]');
      await page.click('[data-testid="start"]');
      await page.waitForSelector('#view-room[data-my-turn="1"]');
      // Both players' banks, in days and hours: Ann's runs down from her deadline.
      const banks = () => page.$$eval('#players [data-testid="bank"]', (es) => es.map((e) => e.textContent));
      // (Right at the start the estimate of the server's clock may still read a full 5 d.)
      await page.waitForFunction(() => document.querySelector('#players [data-testid="bank"].running')?.textContent === '4 d 23 h', null, { timeout: 5000 })
        .catch(() => {});
      const [ann, bot] = await banks();
      assert.match(ann, /^4 d 23 h$/, `${size}: Ann's bank`);
      assert.equal(bot, '5 d', `${size}: the computer player's bank`);
      assert.equal(await page.locator('#players [data-testid="clock"]').count(), 0, `${size}: no 119:59:59 countdown`);
      // The start page says it the same way.
      await page.goto(`${server.base}/`);
      await page.waitForSelector('[data-testid="game-bank"]');
      assert.equal(await page.textContent('[data-testid="game-bank"]'), `${ann} left`, `${size}: "your games" says the same`);
      await page.context().close();
    }
  });
});
