// The replay viewer in Chromium against the real server: a finished game at
// /replay/<room> (stepping with the buttons, the slider and the arrow keys, deep links with
// ?move=K, the same events and scores as the live game), and record files opened from disk
// (the file picker, drag and drop, and files that are not records or break a rule).

import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { shotDir, setUp, showingServerLog } from './helpers.mjs';
import { playOverProtocol, comparableEvents } from './games-helpers.mjs';
import { randomGame } from '../reference/random-game.mjs';
import { replay as referenceReplay } from '../../web-client/js/game/record.js';

const board = '[data-testid="replay-board"]';
const atStep = (k) => `${board}[data-move="${k}"]`;

async function newPage(browser, errors, opts = {}) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US', ...opts });
  const page = await ctx.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  page.setDefaultTimeout(15000);
  return page;
}

const scores = (page) => page.locator('[data-testid="replay-players"] [data-testid="player"]')
  .evaluateAll((lis) => lis.map((li) => Number(li.dataset.score)));

test('a finished game steps forward and back, deep-links with ?move=K, and ends on the live scores', { timeout: 120000 }, async (t) => {
  const { server, browser } = await setUp(t);
  const errors = [];
  await showingServerLog(server, async () => {
    const page = await newPage(browser, errors);
    await page.goto(`${server.base}/`);
    await page.waitForSelector('body[data-ready="1"]');
    const live = await playOverProtocol(page, { names: ['Ann', 'Ben', 'Cléa'], seed: 7 });
    assert.equal(live.state.phase, 'finished');
    const record = await (await fetch(`${server.base}/api/rooms/${live.room}/record`)).json();
    const steps = record.moves.length;
    assert.ok(steps >= 60, `a whole game (${steps} moves)`);

    await page.goto(`${server.base}/replay/${live.room}`);
    await page.waitForSelector(atStep(0));
    assert.equal(await page.getAttribute(board, 'data-tiles'), '1', 'step 0: the start tile alone');
    assert.deepEqual(await scores(page), [0, 0, 0]);
    assert.equal(await page.locator('[data-testid="replay-count"]').textContent(), `0 / ${steps}`);
    assert.match(await page.locator('[data-testid="replay-players"]').textContent(), /Ann.*Ben.*Cléa/s, 'the players\' names');
    assert.ok(await page.locator('[data-testid="replay-first"]').isDisabled());

    // The buttons.
    const tilesAfter = (k) => String(1 + record.moves.slice(0, k).filter((m) => !m.discard).length);
    await page.click('[data-testid="replay-next"]');
    await page.waitForSelector(atStep(1));
    assert.equal(await page.getAttribute(board, 'data-tiles'), tilesAfter(1));
    const last = page.locator('[data-testid="replay-board"] [data-testid="last-placed"]');
    assert.equal(await last.count(), 1, 'the last placement is highlighted');
    assert.deepEqual([await last.getAttribute('data-x'), await last.getAttribute('data-y')], [String(record.moves[0].x), String(record.moves[0].y)]);
    // The banner words the move as the log does: "placed", "claimed a city"...
    assert.match(await page.locator('[data-testid="replay-step"]').textContent(), /Move 1 of \d+.*Ann (placed|claimed|extended|closed|put)/);
    await page.click('[data-testid="replay-next"]');
    await page.click('[data-testid="replay-prev"]');
    await page.waitForSelector(atStep(1));

    // The arrow keys.
    await page.locator('body').focus();
    for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowRight');
    await page.waitForSelector(atStep(5));
    await page.keyboard.press('ArrowLeft');
    await page.waitForSelector(atStep(4));
    assert.equal(await page.getAttribute(board, 'data-tiles'), tilesAfter(4));
    const logLines = await page.locator('[data-testid="replay-log"] li').count();
    assert.ok(logLines >= 5, 'the log up to this move');
    assert.ok(await page.locator('[data-testid="replay-log"] li.current').count() >= 1, 'the move shown is marked in the log');

    // The slider.
    await page.locator('[data-testid="replay-slider"]').fill('30');
    await page.waitForSelector(atStep(30));
    assert.equal(await page.getAttribute(board, 'data-tiles'), tilesAfter(30));
    const ref = referenceReplay(record);
    assert.deepEqual(await scores(page), ref.scores_after_move[29], 'the scores after move 30');
    const supply = await page.locator('[data-testid="replay-players"] [data-testid="player"]').evaluateAll((lis) => lis.map((li) => Number(li.dataset.meeples)));
    assert.equal(supply.length, 3);
    const onBoard = await page.locator('[data-testid="replay-board"] [data-testid="board-meeple"]').count();
    assert.equal(supply.reduce((a, n) => a + 7 - n, 0), onBoard, 'each meeple is in a supply or on the board');
    await page.screenshot({ path: path.join(shotDir, 'replay-step.png') });

    // The end: the live game's scores, result and events.
    await page.click('[data-testid="replay-last"]');
    await page.waitForSelector(atStep(steps));
    assert.deepEqual(await scores(page), live.state.result.final_scores, 'the final scores are the live game\'s');
    assert.deepEqual(await scores(page), record.result.final_scores, 'and the record\'s result');
    assert.equal(await page.getAttribute(board, 'data-tiles'), String(live.state.board.length));
    assert.match(await page.locator('[data-testid="replay-winners"]').textContent(), /wins|share/);
    const replayed = await page.evaluate(() => window.__carc.replay.frames.at(-1).events);
    assert.deepEqual(comparableEvents(replayed), comparableEvents(live.state.events), 'the replay\'s events are the live game\'s');
    await page.waitForFunction((n) => location.search === `?move=${n}`, steps);
    await page.screenshot({ path: path.join(shotDir, 'replay-end.png') });
    // The end dialog of the room, for the replayed game: every total is the record's.
    await page.click('[data-testid="replay-show-end"]');
    await page.waitForSelector('[data-testid="endgame"]');
    const totals = await page.locator('[data-testid="breakdown"] tbody tr').evaluateAll((trs) => trs.map((tr) => [Number(tr.dataset.seat), Number(tr.dataset.total)]));
    assert.deepEqual(totals.sort((x, y) => x[0] - y[0]).map((x) => x[1]), record.result.final_scores);
    assert.equal(await page.locator('[data-testid="score-chart"]').count(), 1);
    await page.screenshot({ path: path.join(shotDir, 'replay-end-dialog.png') });
    await page.click('#end-close');
    assert.equal(await page.locator('[data-testid="endgame"]').isVisible(), false);

    // Deep links.
    await page.goto(`${server.base}/replay/${live.room}?move=12`);
    await page.waitForSelector(atStep(12));
    assert.equal(await page.getAttribute(board, 'data-tiles'), tilesAfter(12));
    assert.equal(await page.inputValue('[data-testid="replay-slider"]'), '12');
    assert.deepEqual(await scores(page), ref.scores_after_move[11]);
    await page.goto(`${server.base}/replay/${live.room}?move=999`);
    await page.waitForSelector(atStep(steps));

    // Autoplay moves on by itself.
    await page.click('[data-testid="replay-first"]');
    await page.click('[data-testid="replay-play"]');
    await page.waitForSelector(atStep(2), { timeout: 5000 });
    await page.click('[data-testid="replay-play"]');

    // An unknown room.
    await page.goto(`${server.base}/replay/nosuchroom12345`);
    await page.waitForSelector('[data-testid="replay-problem"]:not([hidden])');
    assert.match(await page.locator('[data-testid="replay-problem"]').textContent(), /does not exist/);

    // A game still in its lobby has nothing to replay.
    const waiting = await (await fetch(`${server.base}/api/rooms`, { method: 'POST', body: '{}' })).json();
    await page.goto(`${server.base}/replay/${waiting.room}`);
    await page.waitForSelector('[data-testid="replay-problem"]:not([hidden])');
    assert.match(await page.locator('[data-testid="replay-problem"]').textContent(), /not started yet/);

    // On a phone.
    const phone = await newPage(browser, errors, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, locale: 'ja-JP' });
    await phone.goto(`${server.base}/replay/${live.room}?move=40`);
    await phone.waitForSelector(atStep(40));
    assert.match(await phone.locator('[data-testid="replay-count"]').textContent(), /^40 \//);
    const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - innerWidth);
    assert.ok(overflow <= 0, `nothing sticks out sideways (${overflow}px)`);
    await phone.screenshot({ path: path.join(shotDir, 'replay-phone.png'), fullPage: true });
    assert.deepEqual(errors, [], 'no script errors in the pages');
  });
});

test('a record file is opened from disk; files that are not records or break a rule are named and change nothing', { timeout: 90000 }, async (t) => {
  const { server, browser } = await setUp(t);
  const errors = [];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'carc-records-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const good = randomGame(4, 31);
  const ref = referenceReplay(good);
  const goodFile = path.join(dir, 'four-players.json');
  fs.writeFileSync(goodFile, JSON.stringify({ ...good, result: { final_scores: ref.final_scores } }));
  const broken = structuredClone(good);
  const at = broken.moves.findIndex((m, i) => i > 5 && !m.discard);
  broken.moves[at] = { ...broken.moves[at], x: broken.moves[at].x + 40 };
  const brokenFile = path.join(dir, 'broken.json');
  fs.writeFileSync(brokenFile, JSON.stringify(broken));
  const textFile = path.join(dir, 'notes.json');
  fs.writeFileSync(textFile, 'these are not the moves you are looking for');

  await showingServerLog(server, async () => {
    const page = await newPage(browser, errors);
    await page.goto(`${server.base}/`);
    await page.waitForSelector('body[data-ready="1"]');
    await page.fill('[data-testid="create-name"]', 'Zoé');
    await page.screenshot({ path: path.join(shotDir, 'home-record.png') });

    // Not JSON: a clear message, the start page as it was.
    await page.setInputFiles('[data-testid="record-file"]', textFile);
    await page.waitForFunction(() => document.querySelector('[data-testid="record-error"]').textContent.length > 0);
    assert.equal(await page.locator('[data-testid="record-error"]').textContent(), 'This file is not a game record: it is not JSON text.');
    assert.equal(await page.locator('#view-home').isVisible(), true);
    assert.equal(await page.locator('#view-replay').isVisible(), false);
    assert.equal(await page.inputValue('[data-testid="create-name"]'), 'Zoé', 'nothing else on the page changes');

    // A record that breaks a rule: the move (counted from 1) and the reason.
    await page.setInputFiles('[data-testid="record-file"]', brokenFile);
    await page.waitForFunction(() => /breaks a rule/.test(document.querySelector('[data-testid="record-error"]').textContent));
    const text = await page.locator('[data-testid="record-error"]').textContent();
    assert.match(text, new RegExp(`^Move ${at + 1} breaks a rule: tile ${broken.moves[at].tile} cannot go at \\(${broken.moves[at].x}, ${broken.moves[at].y}\\)`));
    assert.equal(await page.locator('#view-replay').isVisible(), false);
    await page.screenshot({ path: path.join(shotDir, 'home-record-error.png') });

    // A good record with the file picker: it replays with no server state, to its result.
    await page.setInputFiles('[data-testid="record-file"]', goodFile);
    await page.waitForSelector(atStep(0));
    assert.equal(await page.locator('#view-home').isVisible(), false);
    assert.match(await page.locator('[data-testid="replay-source"]').textContent(), /four-players\.json.*4 players/s);
    await page.locator('body').focus();
    await page.keyboard.press('End');
    await page.waitForSelector(atStep(good.moves.length));
    assert.deepEqual(await scores(page), ref.final_scores);
    assert.equal(await page.locator('[data-testid="replay-notice"]').isVisible(), false, 'the stated result matches');
    await page.keyboard.press('Home');
    await page.waitForSelector(atStep(0));
    await page.keyboard.press('PageDown');
    await page.waitForSelector(atStep(10));

    // Dropping a broken file on the viewer: named, and the replay stays where it was.
    const drop = async (name, content) => {
      const dt = await page.evaluateHandle(([n, c]) => {
        const d = new DataTransfer();
        d.items.add(new File([c], n, { type: 'application/json' }));
        return d;
      }, [name, content]);
      for (const type of ['dragenter', 'dragover', 'drop']) await page.dispatchEvent('#view-replay .board-wrap', type, { dataTransfer: dt });
    };
    await drop('broken.json', fs.readFileSync(brokenFile, 'utf8'));
    await page.waitForFunction(() => /breaks a rule/.test(document.querySelector('[data-testid="replay-file-error"]').textContent));
    assert.equal(await page.getAttribute(board, 'data-move'), '10', 'the replay did not change');
    assert.match(await page.locator('[data-testid="replay-source"]').textContent(), /four-players\.json/);

    // Dropping a good file opens it.
    const other = randomGame(2, 8);
    await drop('two.json', JSON.stringify(other));
    await page.waitForFunction(() => /two\.json/.test(document.querySelector('[data-testid="replay-source"]').textContent));
    await page.waitForSelector(atStep(0));
    assert.equal(await page.locator('[data-testid="replay-file-error"]').textContent(), '');
    assert.equal(await page.locator('[data-testid="replay-players"] [data-testid="player"]').count(), 2);
    await page.screenshot({ path: path.join(shotDir, 'replay-file.png') });

    // Close: back to the start page. Dropping a file on the start page works too.
    await page.click('[data-testid="replay-close"]');
    await page.waitForSelector('#view-home:not([hidden])');
    const home = await page.evaluateHandle((c) => {
      const d = new DataTransfer();
      d.items.add(new File([c], 'again.json', { type: 'application/json' }));
      return d;
    }, fs.readFileSync(goodFile, 'utf8'));
    for (const type of ['dragenter', 'dragover', 'drop']) await page.dispatchEvent('#view-home', type, { dataTransfer: home });
    await page.waitForSelector(atStep(0));
    assert.match(await page.locator('[data-testid="replay-source"]').textContent(), /again\.json/);

    // A record whose stated result differs from its moves says so.
    const lying = path.join(dir, 'lying.json');
    fs.writeFileSync(lying, JSON.stringify({ ...good, result: { final_scores: ref.final_scores.map((s) => s + 1) } }));
    await page.setInputFiles('[data-testid="replay-file"]', lying);
    await page.waitForSelector('[data-testid="replay-notice"]:not([hidden])');
    assert.match(await page.locator('[data-testid="replay-notice"]').textContent(), /says the final scores were/);
    assert.deepEqual(errors, [], 'no script errors in the page');
  });
});
