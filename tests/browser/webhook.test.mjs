// The room's webhook from the lobby (docs/turn-based.md), in Chromium against the real server
// (--allow-private-hooks, so a receiver on loopback may be named): only the host has the
// control; a bad address is refused in the page and nothing is sent; the URL never reaches
// another player; removing and setting again work; the game's first "your turn" reaches a
// real HTTP receiver in the chosen format.

import test from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { setUp, setUpGame, showingServerLog } from './helpers.mjs';

async function receiver() {
  const got = [];
  const srv = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      got.push({ url: req.url, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200).end();
    });
  });
  await new Promise((r) => srv.listen(0, '127.0.0.1', r));
  return { got, srv, base: `http://127.0.0.1:${srv.address().port}` };
}

const webhookSet = (page) => page.evaluate(() => window.__carc.store.state.settings.webhook);

test('the lobby\'s webhook: the host sets, removes and sets it; the first turn reaches the receiver', { timeout: 120000 }, async (t) => {
  const { server, browser } = await setUp(t, { args: ['--allow-private-hooks'] });
  const hooks = await receiver();
  t.after(() => hooks.srv.close());
  const errors = [];
  await showingServerLog(server, async () => {
    const { A, B, invite } = await setUpGame(browser, server, errors, { nameA: 'Alice', nameB: 'Bob' });
    const room = new URL(invite).pathname.split('/').pop();
    assert.equal(await B.locator('[data-testid="webhook"]').count(), 0, 'only the host has the control');
    assert.equal(await A.getAttribute('[data-testid="hook-summary"]', 'data-set'), '0');

    // Refused in the page: nothing is sent.
    await A.click('[data-testid="webhook"] summary');
    await A.fill('[data-testid="hook-url"]', 'ftp://example.org/x');
    await A.click('[data-testid="hook-save"]');
    assert.match(await A.textContent('[data-testid="hook-problem"]'), /not an https:\/\/ or http:\/\/ address/);
    await A.waitForTimeout(300);
    assert.equal(await webhookSet(B), false);

    // Set: everyone's state says so; the address stays with the server.
    const url = `${hooks.base}/carc-hook-secret`;
    await A.fill('[data-testid="hook-url"]', url);
    await A.selectOption('[data-testid="hook-format"]', 'ntfy');
    await A.click('[data-testid="hook-save"]');
    await B.waitForFunction(() => window.__carc.store.state.settings.webhook === true);
    await A.waitForSelector('[data-testid="hook-summary"][data-set="1"]');
    assert.equal(await A.inputValue('[data-testid="hook-url"]'), '', 'the page does not keep the secret');
    for (const page of [A, B]) {
      assert.ok(!(await page.content()).includes('carc-hook-secret'));
      assert.ok(!(await page.evaluate(() => JSON.stringify(window.__carc.store.state))).includes('carc-hook-secret'));
    }
    const info = await (await fetch(`${server.base}/api/rooms/${room}`)).text();
    assert.ok(!info.includes('carc-hook-secret'), 'nor in the room\'s public info');

    // Removed, then set again (the control stays open through the redraws).
    await A.click('[data-testid="hook-remove"]');
    await B.waitForFunction(() => window.__carc.store.state.settings.webhook === false);
    await A.waitForSelector('[data-testid="hook-summary"][data-set="0"]');
    assert.equal(await A.locator('[data-testid="hook-url"]').isVisible(), true);
    await A.fill('[data-testid="hook-url"]', url);
    await A.selectOption('[data-testid="hook-format"]', 'ntfy');
    await A.click('[data-testid="hook-save"]');
    await B.waitForFunction(() => window.__carc.store.state.settings.webhook === true);

    // A turn-based game: Alice's first turn is posted to the receiver, as ntfy.
    await A.click('[data-testid="clock"] summary');
    await A.selectOption('[data-testid="clock-pace"]', 'turn_based');
    await B.waitForFunction(() => window.__carc.store.state.settings.pace === 'turn_based');
    await A.click('[data-testid="start"]');
    const until = Date.now() + 15000;
    while (!hooks.got.length && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    assert.equal(hooks.got.length, 1, 'one notification: Alice\'s turn');
    const [got] = hooks.got;
    assert.equal(got.url, '/carc-hook-secret');
    assert.match(got.headers['content-type'], /^text\/plain/);
    assert.equal(got.headers.title, 'Your turn in Carcassonne');
    assert.equal(got.headers.click, `${server.base}/r/${room}`);
    assert.match(got.body, /Alice/);
    assert.ok(got.headers['x-carcassonne-id']);
    assert.deepEqual(errors, []);
  });
});
