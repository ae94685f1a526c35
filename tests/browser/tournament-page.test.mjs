// The tournament page (docs/tournaments.md, "The page"): a player creates a tournament from
// /t/new (a refused setting first: the server's reason shows, nothing is made), registers on
// its page, another player registers on theirs, a third through the API fills it; once it
// runs, the first player drops out from the page (asked twice) and the page says so.
//
//   CARC_SERVER_BIN=build/carcassonne-server node --test --test-concurrency=1 tests/browser/tournament-page.test.mjs

import test from 'node:test';
import assert from 'node:assert/strict';
import { setUp, showingServerLog, openStartPage } from './helpers.mjs';

test('a tournament created from the page, players registered on it, and one dropping out from it', { timeout: 120000 }, async (t) => {
  const { server, browser } = await setUp(t);
  const errors = [];
  await showingServerLog(server, async () => {
    const ann = await openStartPage(browser, server, errors);
    await ann.goto(`${server.base}/t/new`);
    await ann.waitForSelector('[data-testid="tour-new"]');

    // A Swiss of 5 rounds needs 6 players: refused with the server's reason, nothing made.
    await ann.fill('[data-testid="tour-new-name"]', 'Club night');
    await ann.fill('[data-testid="tour-new-rounds"]', '5');
    await ann.fill('[data-testid="tour-new-seats"]', '3');
    await ann.click('[data-testid="tour-new-create"]');
    await ann.waitForSelector('[data-testid="tour-new-error"]:not([hidden])');
    assert.match(await ann.textContent('[data-testid="tour-new-error"]'), /^The tournament was not created: .*\d/);
    assert.deepEqual((await (await fetch(`${server.base}/api/tournaments`)).json()).tournaments, []);

    // A round robin of 3: the rounds field goes; created, the page is the tournament's.
    await ann.selectOption('[data-testid="tour-new-format"]', 'round_robin');
    assert.equal(await ann.isVisible('[data-testid="tour-new-rounds"]'), false);
    await ann.click('[data-testid="tour-new-create"]');
    await ann.waitForURL(/\/t\/[A-Za-z0-9_-]{6,}$/);
    const id = new URL(ann.url()).pathname.split('/').pop();
    assert.equal(await ann.textContent('[data-testid="tour-name"]'), 'Club night');
    const made = await (await fetch(`${server.base}/api/tournaments/${id}`)).json();
    assert.deepEqual([made.settings.format, made.settings.seats, made.settings.pace, made.settings.rated], ['round_robin', 3, 'live', false]);

    // Ann and Ben register on the page; Cat through the API fills it and it starts.
    await ann.fill('[data-testid="tour-name-input"]', 'Ann');
    await ann.click('[data-testid="tour-register"]');
    await ann.waitForSelector('text=1 of 3 players registered');
    const ben = await openStartPage(browser, server, errors);
    await ben.goto(`${server.base}/t/${id}`);
    await ben.fill('[data-testid="tour-name-input"]', 'Ben');
    await ben.click('[data-testid="tour-register"]');
    await ben.waitForSelector('text=2 of 3 players registered');
    const { key } = await (await fetch(`${server.base}/api/keys`, { method: 'POST', body: '{}' })).json();
    const cat = await fetch(`${server.base}/api/tournaments/${id}/register`, {
      method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'Cat' }),
    });
    assert.equal(cat.status, 200);
    assert.equal((await cat.json()).state, 'running');

    // Ann drops out: one click asks, the second drops; the page and the API say so.
    await ann.click('[data-testid="tour-drop"]', { timeout: 10000 });
    await ann.click('[data-testid="tour-drop-confirm"]');
    await ann.waitForSelector('[data-testid="tour-dropped"]');
    assert.equal(await ann.textContent('[data-testid="tour-dropped"]'), 'You dropped out after round 1: you are not paired again.');
    const after = await (await fetch(`${server.base}/api/tournaments/${id}`)).json();
    assert.deepEqual(after.entrants.map((e) => [e.name, e.dropped_after]), [['Ann', 1], ['Ben', null], ['Cat', null]]);
    // Ben is still in: his page offers him the drop, not the notice.
    await ben.waitForSelector('[data-testid="tour-drop"]', { timeout: 10000 });
    assert.equal(await ben.locator('[data-testid="tour-dropped"]').count(), 0);
    assert.deepEqual(errors, []);
  });
});
