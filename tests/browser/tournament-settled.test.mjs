// A tournament table settled at its round's deadline, in the room a player has open
// (docs/tournaments.md#rounds): a turn-based round robin of two with one-hour rounds; Ann
// registers on its page and opens her table from there; once the test build's clock
// (CARC_TEST_CLOCK_FILE) passes the deadline, her room says the tournament settled the table,
// and the end dialog says why and who lost on time. The tournament page then links the
// table's replay, which says so too.
//
//   CARC_SERVER_BIN=build/carcassonne-server node --test tests/browser/tournament-settled.test.mjs

import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setUp, showingServerLog, openStartPage, testServerBin } from './helpers.mjs';

test('a table settled at its round\'s deadline: the room says so, and why', { timeout: 90000 }, async (t) => {
  const clock = path.join(os.tmpdir(), `carc-settled-clock-${process.pid}`);
  fs.writeFileSync(clock, '0');
  t.after(() => fs.rmSync(clock, { force: true }));
  const { server, browser } = await setUp(t, { bin: testServerBin, env: { CARC_TEST_CLOCK_FILE: clock } });
  const errors = [];
  const api = async (method, p, key, body) => (await fetch(`${server.base}${p}`, {
    method, headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' }, body: body ? JSON.stringify(body) : undefined,
  })).json();
  await showingServerLog(server, async () => {
    const { key } = await (await fetch(`${server.base}/api/keys`, { method: 'POST', body: '{}' })).json();
    const made = await api('POST', '/api/tournaments', key, {
      name: 'Postal', format: 'round_robin', seats: 2, pace: 'turn_based', bank_seconds: 172800, round_hours: 1,
    });
    await api('POST', `/api/tournaments/${made.id}/register`, key, { name: 'Bob' });

    const ann = await openStartPage(browser, server, errors);
    await ann.goto(`${server.base}/t/${made.id}`);
    await ann.fill('[data-testid="tour-name-input"]', 'Ann');
    await ann.click('[data-testid="tour-register"]');
    await ann.click('[data-testid="tour-my-table"]');
    await ann.waitForSelector('#view-room[data-phase="playing"]');
    const room = new URL(ann.url()).pathname.split('/').pop();

    // Past the round's deadline: the banner, then the end dialog with the reason.
    fs.writeFileSync(clock, String(3600 * 1000 + 60000));
    await ann.waitForSelector('[data-testid="settled-banner"]', { timeout: 20000 });
    assert.equal(await ann.textContent('[data-testid="settled-banner"]'), 'The tournament settled this table at its round\'s deadline');
    await ann.waitForSelector('[data-testid="end-settled"]:not([hidden])');
    assert.match(await ann.textContent('[data-testid="end-settled"]'),
      /^The round's deadline passed before the game ended, so the tournament settled this table as it stood: (Ann|Bob) was to move and loses on time, and the scores so far count\./);

    // The tournament page: the table is done, and links its replay.
    await ann.goto(`${server.base}/t/${made.id}`);
    const link = ann.locator(`a[href="/replay/${room}"]`);
    await link.waitFor();
    assert.equal(await link.textContent(), 'Replay');
    // Its replay stops where the game stood, and says why.
    await link.click();
    await ann.waitForSelector('[data-testid="replay-notice"]:not([hidden])');
    assert.equal(await ann.textContent('[data-testid="replay-notice"]'), 'The tournament settled this game at its round\'s deadline: the scores so far counted.');
    assert.deepEqual(errors, []);
  });
});
