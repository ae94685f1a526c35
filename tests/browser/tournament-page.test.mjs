// The tournament page (docs/tournaments.md, "The page"): a player creates a tournament from
// /t/new (a refused setting first: the server's reason shows, nothing is made), registers on
// its page, another player registers on theirs, a third through the API fills it; once it
// runs, the first player drops out from the page (asked twice) and the page says so. Then an
// organiser's turn-based tournament from /t/new with its clock and a computer entrant; on its
// page only the organiser removes a player, enters more computers, starts it, and drops a
// player between rounds; a player turns on "tell me when my table is ready" there, and the
// push of round 1's table reaches this test's push service (the page's PushManager hands out
// a subscription to it, as in notify-button.test.mjs; the rest is the page's own).
//
//   CARC_SERVER_BIN=build/carcassonne-server node --test --test-concurrency=1 tests/browser/tournament-page.test.mjs

import test from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setUp, showingServerLog, openStartPage } from './helpers.mjs';
import { b64url, receiver, decrypt, waitFor, makeCert } from './push-helpers.mjs';

test('a tournament created from the page, players registered on it, and one dropping out from it', { timeout: 120000 }, async (t) => {
  const { server, browser } = await setUp(t);
  const errors = [];
  await showingServerLog(server, async () => {
    const ann = await openStartPage(browser, server, errors);
    // From the start page, beside the leaderboard.
    await ann.click('[data-testid="new-tournament-link"]');
    await ann.waitForSelector('[data-testid="tour-new"]');
    assert.equal(new URL(ann.url()).pathname, '/t/new');

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

test('the organiser\'s page: clock and computer entrants from /t/new, remove, add a computer, start, drop a player', { timeout: 120000 }, async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'carc-tour-push-'));
  const tls = makeCert(dir);
  const pushService = await receiver(tls);
  t.after(() => { pushService.srv.close(); fs.rmSync(dir, { recursive: true, force: true }); });
  const { server, browser } = await setUp(t, { args: ['--allow-private-hooks', '--extra-ca', tls.certFile] });
  const errors = [];
  const api = async (p) => (await fetch(`${server.base}/api/tournaments${p}`)).json();
  await showingServerLog(server, async () => {
    const org = await openStartPage(browser, server, errors);
    await org.goto(`${server.base}/t/new`);
    await org.waitForSelector('[data-testid="tour-new"]');
    await org.fill('[data-testid="tour-new-name"]', 'Postal league');
    await org.selectOption('[data-testid="tour-new-format"]', 'round_robin');
    await org.fill('[data-testid="tour-new-seats"]', '5');
    // Live: a turn's seconds; turn-based: the bank, the increment and the round's length.
    assert.equal(await org.isVisible('[data-testid="tour-new-turn"]'), true);
    assert.equal(await org.isVisible('[data-testid="tour-new-bank"]'), false);
    await org.selectOption('[data-testid="tour-new-pace"]', 'turn_based');
    assert.equal(await org.isVisible('[data-testid="tour-new-turn"]'), false);
    await org.fill('[data-testid="tour-new-bank"]', '2');
    await org.fill('[data-testid="tour-new-increment"]', '12');
    await org.fill('[data-testid="tour-new-round-hours"]', '48');
    await org.fill('[data-testid="tour-new-bots"]', '1');
    await org.selectOption('[data-testid="tour-new-bot-level"]', 'medium');
    await org.click('[data-testid="tour-new-create"]');
    await org.waitForURL(/\/t\/[A-Za-z0-9_-]{6,}$/);
    const id = new URL(org.url()).pathname.split('/').pop();
    let made = await api(`/${id}`);
    assert.deepEqual([made.settings.pace, made.settings.bank_seconds, made.settings.increment_seconds, made.settings.round_hours],
      ['turn_based', 172800, 43200, 48]);
    assert.deepEqual(made.entrants.map((e) => [e.player, e.name]), [['bot:medium:1', 'Computer 1']]);
    await org.waitForSelector('[data-testid="tour-entrant"][data-player="bot:medium:1"]');

    // Starting with one player is refused: the server's reason shows, nothing changes.
    await org.click('[data-testid="tour-start"]');
    assert.match(await org.textContent('[data-testid="tour-org-error"]'), /needs 2 players/);
    assert.equal((await api(`/${id}`)).state, 'registering');

    // Dan registers on his page (no organiser's buttons there) and asks to be told of his
    // tables; Eve registers through the API.
    const dan = await openStartPage(browser, server, errors);
    const ecdh = crypto.createECDH('prime256v1');
    ecdh.generateKeys();
    const auth = crypto.randomBytes(16);
    await dan.context().grantPermissions(['notifications'], { origin: server.base });
    await dan.context().addInitScript(({ endpoint, p256dh, auth: a }) => {
      let sub = null;
      PushManager.prototype.subscribe = async function subscribe() {
        sub = { endpoint, toJSON: () => ({ endpoint, expirationTime: null, keys: { p256dh, auth: a } }) };
        return sub;
      };
      PushManager.prototype.getSubscription = async function getSubscription() { return sub; };
    }, { endpoint: `${pushService.base}/push/dan`, p256dh: b64url(ecdh.getPublicKey()), auth: b64url(auth) });
    await dan.goto(`${server.base}/t/${id}`);
    await dan.fill('[data-testid="tour-name-input"]', 'Dan');
    await dan.click('[data-testid="tour-register"]');
    await dan.waitForSelector('text=2 of 5 players registered');
    await dan.click('[data-testid="tour-notify"]');
    await dan.waitForSelector('[data-testid="tour-notify-on"]');
    await dan.reload();
    await dan.waitForSelector('[data-testid="tour-notify-on"]');
    // And a webhook for his new tables, from the page: an address the server cannot call is
    // refused before it is sent; then one is set (never shown back) and removed.
    const danKey = await dan.evaluate(() => localStorage.getItem('carc.playerKey'));
    assert.ok(danKey, 'the page keeps its player key');
    const hookSet = async () => (await (await fetch(`${server.base}/api/tournaments/${id}/notify`, { headers: { Authorization: `Bearer ${danKey}` } })).json()).webhook;
    await dan.click('[data-testid="webhook"] summary');
    await dan.fill('[data-testid="hook-url"]', 'ftp://example.org/x');
    await dan.click('[data-testid="hook-save"]');
    assert.match(await dan.textContent('[data-testid="hook-problem"]'), /\S/);
    assert.equal(await dan.getAttribute('[data-testid="hook-summary"]', 'data-set'), '0');
    assert.equal(await hookSet(), false);
    if (!(await dan.isVisible('[data-testid="hook-url"]'))) await dan.click('[data-testid="webhook"] summary');
    await dan.fill('[data-testid="hook-url"]', `${pushService.base}/hook/dan`);
    await dan.click('[data-testid="hook-save"]');
    await dan.waitForSelector('[data-testid="hook-summary"][data-set="1"]');
    assert.equal(await hookSet(), true);
    assert.equal(await dan.locator('[data-testid="tour-notify-on"]').count(), 1, 'the push subscription is kept');
    if (!(await dan.isVisible('[data-testid="hook-remove"]'))) await dan.click('[data-testid="webhook"] summary');
    await dan.click('[data-testid="hook-remove"]');
    await dan.waitForSelector('[data-testid="hook-summary"][data-set="0"]');
    assert.equal(await hookSet(), false);
    const { key } = await (await fetch(`${server.base}/api/keys`, { method: 'POST', body: '{}' })).json();
    const register = () => fetch(`${server.base}/api/tournaments/${id}/register`, {
      method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'Eve' }),
    });
    assert.equal((await register()).status, 200);
    await dan.waitForSelector('text=3 of 5 players registered');
    assert.equal(await dan.locator('[data-testid="tour-remove"]').count(), 0, 'only the organiser removes');
    assert.equal(await dan.locator('[data-testid="tour-start"]').count(), 0);

    // The organiser removes Eve (for good), enters an easy computer and starts it.
    made = await api(`/${id}`);
    const eve = made.entrants.find((e) => e.name === 'Eve').player;
    const danId = made.entrants.find((e) => e.name === 'Dan').player;
    await org.click(`[data-testid="tour-entrant"][data-player="${eve}"] [data-testid="tour-remove"]`, { timeout: 10000 });
    await org.waitForSelector(`[data-testid="tour-entrant"][data-player="${eve}"]`, { state: 'detached' });
    assert.deepEqual((await api(`/${id}`)).entrants.map((e) => e.name), ['Computer 1', 'Dan']);
    assert.equal((await register()).status, 403, 'a removed player cannot register again');
    await org.selectOption('[data-testid="tour-bot-level"]', 'easy');
    for (const n of [2, 3]) {
      await org.click('[data-testid="tour-add-bot"]');
      await org.waitForSelector(`[data-testid="tour-entrant"][data-player="bot:easy:${n}"]`);
    }
    await org.click('[data-testid="tour-start"]');
    await org.waitForSelector('[data-testid="tour-state"]:has-text("Round 1")');

    // Four players, two tables: Dan's is pushed to this browser's subscription, once.
    const round1 = (await api(`/${id}`)).rounds[0].tables;
    const mine = round1.find((x) => x.players.includes(danId));
    const told = () => pushService.got.filter((p) => p.url === '/push/dan').map((p) => decrypt(ecdh, auth, p.body)).filter((m) => m.event === 'new_table');
    await waitFor(() => told().length > 0, 'the push of Dan\'s table');
    await new Promise((r) => setTimeout(r, 1000));
    assert.deepEqual(told().map((m) => [m.room, m.tournament.round, m.tournament.name, m.seat]), [[mine.room, 1, 'Postal league', mine.players.indexOf(danId)]]);

    // Between rounds the organiser drops Dan (asked twice); Dan's page has no such button.
    assert.equal(await org.locator('[data-testid="tour-remove"]').count(), 0);
    await org.click(`[data-testid="tour-entrant"][data-player="${danId}"] [data-testid="tour-drop-player"]`);
    assert.equal((await api(`/${id}`)).entrants.find((e) => e.player === danId).dropped_after, null, 'one click only asks');
    await org.click('[data-testid="tour-drop-player-confirm"]');
    await org.waitForSelector(`[data-testid="tour-entrant"][data-player="${danId}"]:has-text("dropped")`);
    assert.equal((await api(`/${id}`)).entrants.find((e) => e.player === danId).dropped_after, 1);
    await dan.waitForSelector('[data-testid="tour-dropped"]', { timeout: 10000 });
    assert.equal(await dan.locator('[data-testid="tour-drop-player"]').count(), 0);
    assert.deepEqual(errors, []);
  });
});
