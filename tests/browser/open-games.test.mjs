// Open games and quick play on the start page (docs/community.md): a host opens the lobby
// with the lobby's toggle; two players on their own browser contexts find it in the start
// page's list (kept up to date by polling), join with one click, and the host starts it;
// quick play joins the open game that fits, or opens a new one hosted by the asker.
//
//   CARC_SERVER_BIN=build/carcassonne-server node --test --test-concurrency=1 tests/browser/open-games.test.mjs

import test from 'node:test';
import assert from 'node:assert/strict';
import { setUp, showingServerLog, openStartPage, createGame } from './helpers.mjs';
import { LAPTOP, PHONE } from './seat-helpers.mjs';

const roomOf = (page) => new URL(page.url()).pathname.split('/').pop();
const seatOf = (page) => page.evaluate(() => window.__carc.store.seat);

async function openGames(server) {
  const res = await fetch(`${server.base}/api/open-games`);
  return (await res.json()).games;
}

test('three players: the host opens the lobby, two find it on the start page and join with one click, the host starts', { timeout: 120000 }, async (t) => {
  const { server, browser } = await setUp(t);
  const errors = [];
  await showingServerLog(server, async () => {
    const ann = await openStartPage(browser, server, errors, LAPTOP);
    const ben = await openStartPage(browser, server, errors, LAPTOP);
    const cleo = await openStartPage(browser, server, errors, PHONE);
    // Nothing open yet: the list says so.
    await ben.waitForSelector('[data-testid="open-none"]:not([hidden])');
    assert.equal(await ben.locator('[data-testid="open-game"]').count(), 0);

    await createGame(ann, 'Ann');
    const room = roomOf(ann);
    const toggle = ann.locator('[data-testid="open-toggle"]');
    assert.equal(await toggle.isChecked(), false, 'a new lobby is private');
    await toggle.check();
    // The server's word comes back and the box stays ticked through the redraws.
    await ann.waitForFunction(() => window.__carc.life.open === true);
    assert.equal(await toggle.isChecked(), true);

    // Ben's start page shows it without a reload.
    const entry = ben.locator(`[data-testid="open-game"][data-room="${room}"]`);
    await entry.waitFor();
    assert.match(await entry.textContent(), /Ann/);
    assert.match(await entry.locator('[data-testid="open-facts"]').textContent(), /1\/5 seated.*Base game.*Live/);
    // No name yet: the join asks for one and goes nowhere.
    await entry.locator('[data-testid="open-join"]').click();
    await ben.waitForSelector('[data-testid="open-error"]:has-text("Enter your name first")');
    assert.equal(new URL(ben.url()).pathname, '/');
    await ben.fill('[data-testid="create-name"]', 'Ben');
    await entry.locator('[data-testid="open-join"]').click();
    await ben.waitForSelector('[data-testid="lobby"]:not([hidden]) [data-testid="seat"][data-seat="1"]');
    assert.equal(roomOf(ben), room);
    assert.equal(await seatOf(ben), 1);
    await ben.waitForSelector('[data-testid="open-listed"]');  // a guest reads that it is listed

    // Cleo (a phone) sees the seat Ben took, then joins with one click.
    await cleo.fill('[data-testid="create-name"]', 'Cleo');
    const hers = cleo.locator(`[data-testid="open-game"][data-room="${room}"] [data-testid="open-facts"]`);
    await cleo.waitForFunction((r) => document.querySelector(`[data-testid="open-game"][data-room="${r}"] [data-testid="open-facts"]`)?.textContent.startsWith('2/5'), room);
    assert.match(await hers.textContent(), /^2\/5 seated/);
    await cleo.click(`[data-testid="open-game"][data-room="${room}"] [data-testid="open-join"]`);
    await cleo.waitForSelector('[data-testid="lobby"]:not([hidden]) [data-testid="seat"][data-seat="2"]');
    assert.equal(await seatOf(cleo), 2);

    await ann.waitForSelector('[data-testid="seat"][data-seat="2"]');
    await ann.click('[data-testid="start"]');
    for (const page of [ann, ben, cleo]) await page.waitForSelector('#view-room[data-phase="playing"]');
    // A started game leaves the list.
    const deadline = Date.now() + 5000;
    while ((await openGames(server)).length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(await openGames(server), []);
    assert.deepEqual(errors, []);
  });
});

test('quick play: a new lobby opened by its asker, found by the next with the same wish; another pace gets its own', { timeout: 120000 }, async (t) => {
  const { server, browser } = await setUp(t);
  const errors = [];
  await showingServerLog(server, async () => {
    const dee = await openStartPage(browser, server, errors, LAPTOP);
    await dee.fill('[data-testid="create-name"]', 'Dee');
    await dee.check('[data-testid="home-expansion-river"]');
    await dee.click('[data-testid="quick-play"]');
    await dee.waitForSelector('[data-testid="lobby"]:not([hidden]) [data-testid="seat"][data-seat="0"]');
    const room = roomOf(dee);
    // Dee hosts the new lobby, with her expansions, and it is open without a click.
    await dee.waitForSelector('[data-testid="host-badge"]');
    await dee.waitForFunction(() => window.__carc.life.open === true);
    assert.equal(await dee.locator('[data-testid="open-toggle"]').isChecked(), true);
    assert.deepEqual(await dee.evaluate(() => window.__carc.store.state.settings.expansions), ['river']);

    const eve = await openStartPage(browser, server, errors, PHONE);
    await eve.fill('[data-testid="create-name"]', 'Eve');
    await eve.check('[data-testid="home-expansion-river"]');
    await eve.click('[data-testid="quick-play"]');
    await eve.waitForSelector('[data-testid="lobby"]:not([hidden]) [data-testid="seat"][data-seat="1"]');
    assert.equal(roomOf(eve), room, 'the same wish lands in the open lobby');

    const fay = await openStartPage(browser, server, errors, LAPTOP);
    await fay.fill('[data-testid="create-name"]', 'Fay');
    await fay.check('[data-testid="home-expansion-river"]');
    await fay.selectOption('[data-testid="home-pace"]', 'turn_based');
    await fay.click('[data-testid="quick-play"]');
    await fay.waitForSelector('[data-testid="lobby"]:not([hidden]) [data-testid="seat"][data-seat="0"]');
    assert.notEqual(roomOf(fay), room, 'another pace: a lobby of its own');
    assert.equal(await fay.evaluate(() => window.__carc.store.state.settings.pace), 'turn_based');

    await fay.waitForFunction(() => window.__carc.life.open === true);

    await dee.waitForSelector('[data-testid="seat"][data-seat="1"]');
    await dee.click('[data-testid="start"]');
    await eve.waitForSelector('#view-room[data-phase="playing"]');
    let games = await openGames(server);
    for (const end = Date.now() + 5000; games.length !== 1 && Date.now() < end;) {
      await new Promise((r) => setTimeout(r, 100));
      games = await openGames(server);
    }
    assert.deepEqual(games.map((g) => g.room), [roomOf(fay)], 'the started game left the list; Fay\'s is open');
    assert.equal(games[0].host, 'Fay');
    assert.deepEqual(errors, []);
  });
});

test('the public name: saved from the start page with a new player key, changed at most once a day, the join dialog starts from it', { timeout: 120000 }, async (t) => {
  const { server, browser } = await setUp(t);
  const errors = [];
  await showingServerLog(server, async () => {
    const page = await openStartPage(browser, server, errors, LAPTOP);
    await page.waitForSelector('[data-testid="profile-card"]:not([hidden])');
    await page.fill('[data-testid="profile-name"]', 'Gwen');
    await page.click('[data-testid="profile-save"]');
    await page.waitForSelector('[data-testid="profile-status"]:has-text("Saved.")');
    const key = await page.evaluate(() => localStorage.getItem('carc.playerKey'));
    assert.match(key, /^[A-Za-z0-9_-]{43}$/, 'a key was made for the name');
    const me = await (await fetch(`${server.base}/api/me/name`, { headers: { Authorization: `Bearer ${key}` } })).json();
    assert.equal(me.name, 'Gwen');
    // A second change the same day is refused, and said so.
    await page.fill('[data-testid="profile-name"]', 'Gwendolyn');
    await page.click('[data-testid="profile-save"]');
    await page.waitForSelector('[data-testid="profile-status"]:has-text("less than a day ago")');
    const names = await (await fetch(`${server.base}/api/players/${me.player}/names`)).json();
    assert.deepEqual(names.names.map((n) => n.name), ['Gwen']);

    // Another room's invite link in the same browser: the join dialog offers the public name.
    const other = await openStartPage(browser, server, errors, LAPTOP);
    await createGame(other, 'Hal');
    const invite = await other.inputValue('[data-testid="invite-link"]');
    await page.evaluate(() => localStorage.removeItem('carc.name'));
    await page.goto(invite);
    await page.waitForSelector('[data-testid="join-dialog"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="join-name"]').value === 'Gwen');
    // And the start page's form, after a reload with nothing else kept.
    await page.goto(`${server.base}/`);
    await page.evaluate(() => localStorage.removeItem('carc.name'));
    await page.reload();
    await page.waitForFunction(() => document.querySelector('[data-testid="create-name"]').value === 'Gwen');
    assert.deepEqual(errors, []);
  });
});
