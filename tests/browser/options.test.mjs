// The rule options in Chromium against the real server (docs/options.md): the host ticks
// "No fields" and "Small city" in the lobby, the guest (in German) sees them ticked and
// cannot change them, the game starts with them (the room's record names them), and no
// placement the host is offered puts a figure on a field.
//
//   CARC_SERVER_BIN=build/carcassonne-server node --test --test-concurrency=1 tests/browser/options.test.mjs

import test from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { setUp, showingServerLog, shotDir, createGame, openStartPage, turnInfo, myTurnOrEnd } from './helpers.mjs';

const FIELD_PORTS = ['NL', 'NR', 'EL', 'ER', 'SL', 'SR', 'WL', 'WR', 'I'];

test('the host ticks the options, the guest sees them, the game starts with them', { timeout: 120000 }, async (t) => {
  const { server, browser } = await setUp(t);
  await showingServerLog(server, async () => {
    const errors = [];
    const host = await openStartPage(browser, server, errors);
    await createGame(host, 'Hanna');
    await host.waitForSelector('[data-testid="options"][data-options=""]');
    assert.match(await host.textContent('[data-testid="options"]'), /Rule options.*No fields.*Small city/s);

    const invite = await host.inputValue('[data-testid="invite-link"]');
    const ctx = await browser.newContext({ viewport: { width: 1100, height: 760 }, locale: 'de-DE' });
    const guest = await ctx.newPage();
    guest.on('pageerror', (e) => errors.push(`guest: ${e.message}`));
    await guest.goto(invite);
    await guest.waitForSelector('[data-testid="join-dialog"]');
    await guest.fill('[data-testid="join-name"]', 'Gast');
    await guest.click('[data-testid="join-submit"]');
    await host.waitForSelector('[data-testid="seat"][data-seat="1"]');
    // Before the host ticks anything the guest reads the standard rules.
    await guest.waitForSelector('[data-testid="options"][data-options=""]');
    assert.match(await guest.textContent('[data-testid="options"]'), /Regeloptionen.*Normale Regeln/s);

    await host.check('[data-testid="option-no_fields"]');
    await host.waitForSelector('[data-testid="options"][data-options="no_fields"]');
    await host.check('[data-testid="option-small_city"]');
    await host.waitForSelector('[data-testid="options"][data-options="no_fields,small_city"]');

    await guest.waitForSelector('[data-testid="options"][data-options="no_fields,small_city"]');
    assert.match(await guest.textContent('[data-testid="options"]'), /Ohne Wiesen.*Kleine Stadt/s);
    assert.deepEqual(await guest.$$eval('[data-testid="options"] input', (ins) => ins.map((i) => [i.checked, i.disabled])),
      [[true, true], [true, true]]);
    await guest.screenshot({ path: path.join(shotDir, 'options-lobby-guest.png') });

    // The host takes one back and ticks it again: the guest follows each change.
    await host.uncheck('[data-testid="option-small_city"]');
    await guest.waitForSelector('[data-testid="options"][data-options="no_fields"]');
    await host.check('[data-testid="option-small_city"]');
    await guest.waitForSelector('[data-testid="options"][data-options="no_fields,small_city"]');

    await host.click('[data-testid="start"]');
    await host.waitForSelector('#view-room[data-phase="playing"]');
    await guest.waitForSelector('#view-room[data-phase="playing"]');
    const room = new URL(invite).pathname.split('/').pop();
    const record = await (await fetch(`${server.base}/api/rooms/${room}/record`)).json();
    assert.deepEqual(record.options, ['no_fields', 'small_city']);

    // The host's first turn: what the page was offered has no field port.
    await myTurnOrEnd(host, 20000);
    const info = await turnInfo(host);
    assert.ok(info.legal?.length > 0, 'the host has legal placements');
    const ports = info.legal.flatMap((e) => e.meeples ?? []);
    assert.ok(ports.length > 0, 'some figure target is offered');
    assert.deepEqual(ports.filter((p) => FIELD_PORTS.includes(p)), []);
    await ctx.close();
    assert.deepEqual(errors, []);
  });
});
