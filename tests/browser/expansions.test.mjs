// A River + Abbot game in Chromium against two computer players ("easy": greedy and fast),
// played to the end through the page: the host ticks the expansions in the lobby, the river
// tiles are drawn with water, the human puts their abbot on a monastery or a garden through
// its own spot on the board, takes it back with the action bar's "take your abbot back: +N"
// (N from the server's return_points, checked against the points the log then shows), and
// the end screen has a gardens column. The human's moves come from turn.legal; the page's
// own draft (selectCell, the same call a cell click makes) picks the cell, and every other
// choice is a real click.
//
//   CARC_SERVER_BIN=build/carcassonne-server node --test --test-concurrency=1 tests/browser/expansions.test.mjs

import test from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import fs from 'node:fs';
import { setUp, showingServerLog, shotDir, skipToEnd, repoRoot, draftTo, confirmDraft, openStartPage, createGame, openWatcher, myTurnOrEnd, turnInfo, animateBoards } from './helpers.mjs';
import { openWithToken } from './wsclient.mjs';

animateBoards(); // this file checks how the board moves (helpers.mjs)

async function openRecordFile(page, base, record) {
  await page.goto(`${base}/`);
  await page.waitForSelector('body[data-ready="1"]');
  await page.setInputFiles('[data-testid="record-file"]', { name: 'game.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(record)) });
}

function replayScores(page) {
  return page.locator('[data-testid="replay-players"] [data-testid="player"]')
    .evaluateAll((lis) => lis.map((li) => [Number(li.dataset.seat), Number(li.dataset.score)]).sort((a, b) => a[0] - b[0]).map(([, v]) => v));
}

let played = null; // the game of the first test: its record and what the human did

test('a River + Abbot game against two computer players, to the end, with an abbot taken back', { timeout: 300000 }, async (t) => {
  const { server, browser } = await setUp(t);
  await showingServerLog(server, async () => {
    const errors = [];
    const page = await openStartPage(browser, server, errors);
    const ctx = page.context();
    await createGame(page, 'Hildegard');

    // The lobby: the host ticks both expansions; the bag grows to the river + abbot set.
    await page.waitForSelector('[data-testid="expansions"][data-expansions=""]');
    assert.match(await page.textContent('[data-testid="expansions"]'), /The River.*river tiles.*The Abbot.*garden/s);
    await page.check('[data-testid="expansion-river"]');
    await page.waitForSelector('[data-testid="expansions"][data-expansions="river"]');
    await page.check('[data-testid="expansion-abbot"]');
    await page.waitForSelector('[data-testid="expansions"][data-expansions="river,abbot"]');
    await page.waitForFunction(() => /82 tiles/.test(document.querySelector('[data-testid="lobby-bag-size"]')?.textContent ?? ''));
    // Everybody sees them: a watcher in French reads the ticked ones, without a control.
    const invite = await page.inputValue('[data-testid="invite-link"]');
    const { ctx: watchCtx, page: watcher } = await openWatcher(browser, invite, errors, 'watcher', { viewport: { width: 390, height: 844 }, locale: 'fr-FR', isMobile: true, hasTouch: true });
    await watcher.waitForSelector('[data-testid="expansions"][data-expansions="river,abbot"]');
    // The bag's size comes with the catalogue of that set, fetched once the set is known.
    await watcher.waitForFunction(() => /82/.test(document.querySelector('[data-testid="lobby-bag-size"]')?.textContent ?? ''));
    assert.match(await watcher.textContent('[data-testid="expansions"]'), /Extensions.*82 tuiles.*La Rivière.*L’Abbé/s);
    assert.deepEqual(await watcher.$$eval('[data-testid="expansions"] input', (ins) => ins.map((i) => [i.checked, i.disabled])), [[true, true], [true, true]]);
    await watchCtx.close();
    await page.selectOption('[data-testid="bot-level"]', 'easy');
    await page.click('[data-testid="add-bot"]');
    await page.waitForSelector('[data-testid="seat"][data-seat="1"]');
    await page.click('[data-testid="add-bot"]');
    await page.waitForSelector('[data-testid="seat"][data-seat="2"]');
    await page.screenshot({ path: path.join(shotDir, 'expansions-lobby.png') });
    await page.click('[data-testid="start"]');
    await page.waitForSelector('#view-room[data-phase="playing"]');

    // The spring is the start tile, drawn with water; the bag panel lists the river tiles.
    await page.waitForSelector('#board [data-testid="tile"][data-tile="RS"]');
    const water = await page.evaluate(() => {
      const river = document.querySelector('#defs-root #tile-R1 [data-river]');
      const garden = document.querySelector('#defs-root #tile-Eg [data-garden]');
      return { river: river?.getAttribute('stroke'), spring: !!document.querySelector('#defs-root #tile-RS .river-end'), garden: !!garden, plain: !!document.querySelector('#defs-root #tile-E [data-garden]') };
    });
    assert.deepEqual(water, { river: 'url(#pat-water)', spring: true, garden: true, plain: false }, 'water on river tiles, a garden on Eg only');
    assert.equal(await page.locator('#board [data-testid="tile"][data-tile="D"]').count(), 0, 'no D start tile with the river');
    assert.ok(await page.locator('[data-testid="bag"] [data-letter="RL"]').count() === 1, 'the lake is in the bag panel');
    assert.ok(await page.locator('[data-testid="bag"] [data-letter="Eg"]').count() === 1, 'a garden tile is in the bag panel');

    let placedAbbot = 0;
    let tookBack = null; // {points, turn}
    let turns = 0;
    let shotRiver = false;
    for (;;) {
      await myTurnOrEnd(page, 60000);
      const info = await turnInfo(page);
      if (info.phase === 'finished') break;
      turns++;
      const legal = info.legal;
      assert.ok(legal.length > 0, 'a turn offers placements');
      const withAbbot = info.abbot === 1 ? legal.find((e) => (e.figures?.abbot ?? []).length) : null;
      const withReturn = info.abbot === 0 && !tookBack ? legal.find((e) => e.return) : null;
      if (withAbbot) {
        await draftTo(page, withAbbot);
        const port = withAbbot.figures.abbot[0];
        const spot = page.locator(`[data-testid="meeple-spot"][data-figure="abbot"][data-port="${port}"]`);
        await spot.click();
        await page.waitForSelector(`[data-testid="meeple-spot"][data-figure="abbot"].chosen`);
        // The spot's own name (spots.js, with the abbot's words): figure, feature, worth.
        assert.match(await page.textContent('#action-hint'), /^Abbot (on the monastery|in the garden)/);
        assert.match(await spot.getAttribute('aria-label'), /^abbot (on the monastery|in the garden)/);
        await page.screenshot({ path: path.join(shotDir, 'expansions-abbot-spot.png') });
        await confirmDraft(page, info.version);
        await page.waitForSelector(`#board [data-testid="board-meeple"][data-figure="abbot"][data-x="${withAbbot.x}"][data-y="${withAbbot.y}"]`);
        await page.waitForSelector('[data-testid="player"][data-seat="0"] [data-testid="abbot-supply"][data-count="0"]');
        placedAbbot++;
      } else if (withReturn) {
        await draftTo(page, withReturn);
        const btn = page.locator('[data-testid="take-back"]');
        await btn.waitFor({ state: 'visible' });
        const text = await btn.textContent();
        assert.equal(text, `Take your abbot back: +${withReturn.return_points}`, 'the take-back says the server\'s points');
        const scoreBefore = Number(await page.getAttribute('[data-testid="player"][data-seat="0"]', 'data-score'));
        await btn.click();
        assert.equal(await btn.getAttribute('aria-pressed'), 'true');
        await page.waitForSelector(`#board [data-testid="board-meeple"][data-figure="abbot"].returning[data-x="${withReturn.return.x}"][data-y="${withReturn.return.y}"]`);
        assert.match(await page.textContent('#action-hint'), new RegExp(`abbot comes back: \\+${withReturn.return_points}`));
        await page.screenshot({ path: path.join(shotDir, 'expansions-take-back.png') });
        await confirmDraft(page, info.version);
        tookBack = { points: withReturn.return_points, at: withReturn.return };
        // The abbot left the board and is back in supply; the log says so with the points.
        await page.waitForSelector('[data-testid="player"][data-seat="0"] [data-testid="abbot-supply"][data-count="1"]');
        assert.equal(await page.locator(`#board [data-testid="board-meeple"][data-figure="abbot"][data-x="${tookBack.at.x}"][data-y="${tookBack.at.y}"]`).count(), 0);
        await page.waitForFunction((n) => [...document.querySelectorAll('#log li')].some((li) => li.textContent.includes(`took their abbot back: +${n}`)), tookBack.points, { timeout: 3000 }).catch(async (e) => {
          console.log(JSON.stringify(await page.evaluate(() => window.__carc.store.state.events.slice(-6))));
          console.log(await page.evaluate(() => [...document.querySelectorAll('#log li')].slice(-5).map((li) => li.textContent).join('\n')));
          throw e;
        });
        const scoreAfter = Number(await page.getAttribute('[data-testid="player"][data-seat="0"]', 'data-score'));
        assert.ok(scoreAfter >= scoreBefore + tookBack.points, `the take-back scored (${scoreBefore} -> ${scoreAfter}, +${tookBack.points})`);
      } else {
        await draftTo(page, legal[0]);
        if (!shotRiver && /^R/.test(info.tile)) {
          await page.screenshot({ path: path.join(shotDir, 'expansions-river.png') });
          shotRiver = true;
        }
        await confirmDraft(page, info.version);
      }
    }
    assert.ok(turns >= 20, `the human played the whole game (${turns} turns)`);
    assert.ok(placedAbbot >= 1, 'the human placed their abbot');
    assert.ok(tookBack, 'the human took their abbot back');

    // The end screen: gardens and abbots as their own columns, every total as the server's.
    await skipToEnd(page);
    const end = await page.evaluate(() => {
      const s = window.__carc.store.state;
      const heads = [...document.querySelectorAll('[data-testid="endgame"] thead th')].map((th) => th.textContent);
      const rows = [...document.querySelectorAll('[data-testid="breakdown"] tbody tr')].map((tr) => ({
        seat: Number(tr.dataset.seat), total: Number(tr.dataset.total),
        garden: tr.querySelector('td[data-kind="garden"] .sum')?.textContent ?? null,
        abbot: tr.querySelector('td[data-kind="abbot"] .sum')?.textContent ?? null,
      }));
      return { heads, rows, result: s.result };
    });
    assert.ok(end.heads.includes('Gardens'), `a gardens column: ${end.heads}`);
    assert.ok(end.heads.includes('Abbot back'), `an abbots column: ${end.heads}`);
    for (const row of end.rows) {
      const b = end.result.breakdown.find((r) => r.seat === row.seat);
      assert.equal(row.total, end.result.final_scores[row.seat]);
      assert.equal(Number(row.garden), (b.game.garden ?? 0) + (b.end.garden ?? 0), `seat ${row.seat}'s gardens`);
      assert.equal(Number(row.abbot), b.game.abbot ?? 0, `seat ${row.seat}'s take-backs`);
    }
    assert.ok(Number(end.rows.find((r) => r.seat === 0).abbot) >= tookBack.points, 'the human\'s take-back is in the abbot column');
    await page.screenshot({ path: path.join(shotDir, 'expansions-end.png') });

    // On a phone, in French: the two more columns still fit the dialog, nothing sideways.
    const room0 = await page.evaluate(() => window.__carc.room);
    const token = await page.evaluate((r) => localStorage.getItem(`carc.token.${r}`), room0);
    const phone = await openWithToken(browser, server.base, room0, token, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, locale: 'fr-FR' });
    phone.page.on('pageerror', (e) => errors.push(`phone: ${e.message}`));
    await phone.page.waitForSelector('[data-testid="endgame"]');
    const fit = await phone.page.evaluate(() => {
      const card = document.querySelector('[data-testid="endgame"]');
      const r = card.getBoundingClientRect();
      const out = [...card.querySelectorAll('[data-testid="breakdown"] *')].filter((e) => {
        const b = e.getBoundingClientRect();
        return (b.width || b.height) && (b.left < r.left - 0.5 || b.right > r.right + 0.5);
      }).map((e) => e.className || e.tagName);
      const labels = [...document.querySelectorAll('[data-testid="breakdown"] tbody tr:first-child td.k')].map((td) => td.dataset.label);
      const names = [...document.querySelectorAll('[data-testid="breakdown"] tbody tr .who .pname')].map((n) => (n.getBoundingClientRect().width > 30 ? n.textContent : ''));
      return { out, sideways: card.scrollWidth > card.clientWidth + 0.5 || document.documentElement.scrollWidth > innerWidth + 0.5, labels, names };
    });
    assert.deepEqual(fit.out, [], 'every cell of the breakdown lies inside the dialog on a phone');
    assert.equal(fit.sideways, false, 'no horizontal overflow on a phone');
    assert.deepEqual(fit.labels, ['Routes', 'Villes', 'Abbayes', 'Prés', 'Jardins', 'Abbé repris']);
    assert.deepEqual([...fit.names].sort(), ['Hildegard', 'Ordinateur 2', 'Ordinateur 3'], 'every name shows in its row');
    await phone.page.screenshot({ path: path.join(shotDir, 'expansions-end-phone-fr.png') });
    await phone.ctx.close();

    // The record download (checked by the next test).
    const href = await page.getAttribute('[data-testid="download-record"]', 'href');
    played = { record: await (await fetch(new URL(href, server.base))).json(), tookBack, placedAbbot, finals: end.result.final_scores };

    // The replay viewer: the browser's rules are the base game, so a room's expansion game
    // replays from the room's own events: the abbot on the board, then gone at the take-back.
    const room = await page.evaluate(() => window.__carc.room);
    const events = await page.evaluate(() => window.__carc.store.state.events);
    const moveEvents = events.filter((e) => e.type === 'placed' || e.type === 'discarded');
    // The human's take-back (a computer player may have taken its own abbot back before).
    const backStep = moveEvents.findIndex((e) => e.seat === 0 && e.return?.x === tookBack.at.x && e.return?.y === tookBack.at.y) + 1;
    assert.ok(backStep > 0, 'the take-back is among the events');
    const at = `[data-testid="replay-board"] [data-testid="board-meeple"][data-figure="abbot"][data-seat="0"][data-x="${tookBack.at.x}"][data-y="${tookBack.at.y}"]`;
    await page.goto(`${server.base}/replay/${room}?move=${backStep - 1}`);
    await page.waitForSelector('#view-replay[data-state="ready"]', { timeout: 10000 }).catch(async (e) => {
      console.log('replay problem:', await page.textContent('[data-testid="replay-problem"]'));
      throw e;
    });
    assert.equal(Number(await page.getAttribute('#view-replay', 'data-steps')), moveEvents.length);
    assert.equal(await page.locator(at).count(), 1, 'the abbot stands there before the take-back');
    assert.equal(await page.locator('[data-testid="replay-board"] [data-testid="tile"][data-tile="RS"]').count(), 1);
    await page.click('[data-testid="replay-next"]');
    await page.waitForSelector(`[data-testid="replay-board"][data-move="${backStep}"]`);
    assert.equal(await page.locator(at).count(), 0, 'and is gone after it');
    // One of the step's lines (the same tile may also close a feature, whose line comes after).
    assert.equal(await page.locator('#replay-log li.current', { hasText: /took their abbot back/ }).count(), 1);
    assert.match(await page.textContent('[data-testid="replay-step"]'), new RegExp(`Hildegard took their abbot back: \\+${tookBack.points}`));
    await page.click('[data-testid="replay-last"]');
    await page.waitForSelector(`[data-testid="replay-board"][data-move="${moveEvents.length}"]`);
    const finals = await page.locator('[data-testid="replay-players"] [data-testid="player"]').evaluateAll((lis) => lis.map((li) => [Number(li.dataset.seat), Number(li.dataset.score)]).sort((a, b) => a[0] - b[0]));
    assert.deepEqual(finals.map(([, v]) => v), end.result.final_scores, 'the replay ends on the final scores');
    await page.click('[data-testid="replay-show-end"]');
    await page.waitForSelector('[data-testid="endgame"] td[data-kind="garden"]');
    await page.screenshot({ path: path.join(shotDir, 'expansions-replay.png') });

    // A record file with expansions opened on the start page: the server replays it
    // (POST /api/replay) and the viewer steps through it; a broken one is named by its move.
    const small = JSON.parse(fs.readFileSync(path.join(repoRoot, 'tests', 'core', 'data', 'abbot_worked_example.json'), 'utf8'));
    const bad = JSON.parse(fs.readFileSync(path.join(repoRoot, 'tests', 'core', 'data', 'abbot_refused_abbot_on_road.json'), 'utf8'));
    await openRecordFile(page, server.base, small);
    await page.waitForSelector('#view-replay[data-state="ready"]');
    await page.click('[data-testid="replay-last"]');
    await page.waitForSelector(`[data-testid="replay-board"][data-move="${small.moves.length}"]`);
    assert.deepEqual(await replayScores(page), [10, 8], 'abbot.md\'s worked example ends 10 : 8');
    assert.equal(await page.locator('[data-testid="replay-board"] [data-testid="board-meeple"][data-figure="abbot"]').count(), 2, 'both abbots on the board');
    await openRecordFile(page, server.base, bad);
    await page.waitForFunction(() => document.querySelector('[data-testid="record-error"]').textContent.length > 0);
    assert.match(await page.textContent('[data-testid="record-error"]'), new RegExp(`^Move ${bad.expect.move + 1} breaks a rule`));
    assert.equal(await page.locator('#view-replay').isVisible(), false, 'the start page stays');
    assert.deepEqual(errors, [], 'no script errors');
    await ctx.close();
  });
});

test('the record download of that game carries its expansions, the abbot and the take-back', () => {
  assert.ok(played, 'the game above was played');
  const { record, tookBack } = played;
  assert.deepEqual([...record.expansions].sort(), ['abbot', 'river']);
  assert.ok(record.moves.some((m) => m.figure === 'abbot'), 'an abbot placement is in the record');
  assert.ok(record.moves.some((m) => m.return?.x === tookBack.at.x && m.return?.y === tookBack.at.y), 'the take-back is in the record');
});

test('the record file of that whole game replays through the server to the same end', { timeout: 60000 }, async (t) => {
  assert.ok(played, 'the game above was played');
  const { server, browser } = await setUp(t);
  await showingServerLog(server, async () => {
    const page = await (await browser.newContext({ locale: 'en-US' })).newPage();
    await openRecordFile(page, server.base, played.record);
    await page.waitForSelector('#view-replay[data-state="ready"]', { timeout: 10000 }).catch(async (e) => {
      throw new Error(`${e.message}: ${await page.textContent('[data-testid="record-error"]')}`);
    });
    await page.click('[data-testid="replay-last"]');
    await page.waitForSelector(`[data-testid="replay-board"][data-move="${played.record.moves.length}"]`);
    assert.deepEqual(await replayScores(page), played.finals);
  });
});
