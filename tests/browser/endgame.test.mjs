// The end of a game in Chromium: the end dialog fits (every element inside it, no sideways
// overflow) at 1280x800 and 390x844 in English, French and Japanese, with every name and
// total and the score-over-time chart; and a live end plays the final scoring on the board
// before the dialog opens. Games are played from node over the WebSocket protocol.
//
//   CARC_SERVER_BIN=build/carcassonne-server node --test --test-concurrency=1 tests/browser/endgame.test.mjs

import test from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { setUp, showingServerLog, shotDir } from './helpers.mjs';
import { startRoom, playUntil, randomPick, openWithToken } from './wsclient.mjs';

const NAMES = ['Ada Lovelace-Byron 12345', 'Bruno', 'Chloé de la Montagne', '大和田さくらこ', 'Eve'];
const SIZES = [['desktop', { viewport: { width: 1280, height: 800 } }], ['phone', { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }]];

// Elements of the dialog card that stick out of it, and whether anything overflows sideways.
function dialogFit(page) {
  return page.evaluate(() => {
    const card = document.querySelector('[data-testid="endgame"]');
    const r = card.getBoundingClientRect();
    const out = [];
    for (const e of card.querySelectorAll('*')) {
      const b = e.getBoundingClientRect();
      if (!b.width && !b.height) continue;
      if (b.left < r.left - 0.5 || b.right > r.right + 0.5 || b.top < r.top - 0.5 || b.bottom > r.bottom + 0.5) {
        out.push(`${e.tagName.toLowerCase()}.${e.getAttribute('class') ?? ''} [${Math.round(b.left)},${Math.round(b.right)}]x[${Math.round(b.top)},${Math.round(b.bottom)}]`);
      }
    }
    return {
      out,
      card: { left: r.left, right: r.right, top: r.top, bottom: r.bottom },
      sideways: card.scrollWidth > card.clientWidth + 0.5 || document.documentElement.scrollWidth > innerWidth + 0.5,
      inViewport: r.left >= 0 && r.top >= 0 && r.right <= innerWidth && r.bottom <= innerHeight,
      rows: [...card.querySelectorAll('[data-testid="breakdown"] tbody tr')].map((tr) => ({
        seat: Number(tr.dataset.seat), name: tr.querySelector('.pname')?.textContent, total: tr.querySelector('.total')?.textContent,
      })),
      lines: [...card.querySelectorAll('[data-testid="chart-line"]')].map((g) => ({
        seat: Number(g.dataset.seat), final: Number(g.dataset.final), stroke: g.querySelector('.line').getAttribute('stroke'),
      })),
      steps: card.querySelectorAll('[data-testid="chart-step"]').length,
      download: !!card.querySelector('[data-testid="download-record"][href$="/record"]'),
    };
  });
}

test('the end dialog fits at 1280x800 and 390x844 in en, fr and ja, with every total and the score chart', { timeout: 240000 }, async (t) => {
  const { server, browser } = await setUp(t);
  await showingServerLog(server, async () => {
    const { room, clients } = await startRoom(server.base, NAMES);
    const end = await playUntil(clients, () => false, randomPick(11));
    assert.equal(end.phase, 'finished');
    const finals = end.result.final_scores;
    const gains = end.events.filter((e) => e.type === 'scored' && e.points > 0).reduce((n, e) => n + e.seats.length, 0);
    const token = clients[0].token;
    await Promise.all(clients.map((c) => c.close()));
    for (const lang of ['en', 'fr', 'ja']) {
      for (const [size, opts] of SIZES) {
        const { ctx, page } = await openWithToken(browser, server.base, room, token, { ...opts, locale: lang });
        const errors = [];
        page.on('pageerror', (e) => errors.push(e.message));
        await page.waitForSelector('[data-testid="endgame"]');
        await page.waitForSelector('[data-testid="chart-line"]');
        assert.equal(await page.evaluate(() => document.documentElement.lang), lang);
        const fit = await dialogFit(page);
        const what = `${lang} ${size}`;
        assert.deepEqual(fit.out, [], `${what}: every element lies inside the dialog`);
        assert.equal(fit.sideways, false, `${what}: no horizontal overflow`);
        assert.ok(fit.inViewport, `${what}: the dialog is inside the window`);
        assert.equal(fit.rows.length, 5, `${what}: a row per player`);
        for (const row of fit.rows) {
          assert.equal(row.name, NAMES[row.seat], `${what}: the name of seat ${row.seat}`);
          assert.equal(Number(row.total), finals[row.seat], `${what}: the total of seat ${row.seat}`);
        }
        // The chart: one line per player in their colour, ending at their final score.
        assert.deepEqual(fit.lines.map((l) => l.seat).sort(), [0, 1, 2, 3, 4]);
        const colors = await page.evaluate(() => [...document.querySelectorAll('[data-testid="player"]')].map((li) => [Number(li.dataset.seat), getComputedStyle(li.querySelector('.chip use')).fill]));
        for (const l of fit.lines) {
          assert.equal(l.final, finals[l.seat], `${what}: chart line of seat ${l.seat} ends at the final score`);
          const chip = colors.find(([s]) => s === l.seat)[1];
          assert.equal(hex(chip), l.stroke.toLowerCase(), `${what}: seat ${l.seat}'s line is in their colour`);
        }
        assert.equal(fit.steps, gains, `${what}: a dot for every feature that scored for a player`);
        assert.ok(fit.download, `${what}: the record download is there`);
        await page.screenshot({ path: path.join(shotDir, `end-${lang}-${size}.png`) });
        // The longest winners line: all five share the victory (a random game may end in a
        // tie); the dialog, drawn by the page's own renderEnd, still fits.
        const tie = await page.evaluate(async () => {
          const { renderEnd } = await import('/js/end/endscreen.js');
          const s = window.__carc.store.state;
          renderEnd(document.getElementById('end-modal'), { ...s, result: { ...s.result, winners: s.players.map((p) => p.seat) } }, s.seat);
          return document.querySelectorAll('[data-testid="winners"] .pname').length;
        });
        assert.equal(tie, 5, `${what}: five winners named`);
        const tied = await dialogFit(page);
        assert.deepEqual(tied.out, [], `${what}, a five-way tie: every element lies inside the dialog`);
        assert.equal(tied.sideways, false, `${what}, a five-way tie: no horizontal overflow`);
        assert.deepEqual(errors, [], `${what}: no script errors`);
        await ctx.close();
      }
    }
  });
});

function hex(rgb) {
  const m = /rgb\((\d+), (\d+), (\d+)\)/.exec(rgb);
  return m ? `#${m.slice(1).map((v) => Number(v).toString(16).padStart(2, '0')).join('')}` : rgb;
}


test('a live end: the final scoring plays on the board first, then the dialog opens; no zero-point lines', { timeout: 180000 }, async (t) => {
  const { server, browser } = await setUp(t);
  await showingServerLog(server, async () => {
    const { room, clients } = await startRoom(server.base, ['Ada', 'Bruno', 'Chloé']);
    // Up to the last move: the bag is empty and one player still holds a tile.
    const pick = randomPick(4);
    const last = await playUntil(clients, (s) => s.bag.left === 0 && s.players.filter((p) => p.tile).length === 1, pick);
    assert.equal(last.phase, 'playing');
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
    const page = await ctx.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${server.base}/r/${room}`);
    await page.click('[data-testid="join-watch"]');
    await page.waitForSelector('#view-room[data-phase="playing"]');
    await page.waitForTimeout(300);
    // The page notes what it shows as the end arrives.
    await page.evaluate(() => {
      window.__endTrace = [];
      const board = document.getElementById('board');
      const modal = document.getElementById('end-modal');
      const note = () => window.__endTrace.push({ t: performance.now(), scoring: board.dataset.finalScoring ?? '', open: !modal.hidden, fx: board.querySelectorAll('[data-testid="score-fx"]').length });
      new MutationObserver(note).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['hidden', 'data-final-scoring', 'data-final-step'] });
    });
    await playUntil(clients, () => false, pick);
    await page.waitForSelector('#view-room[data-phase="finished"]');
    await page.waitForSelector('[data-testid="endgame"]', { timeout: 30000 });
    const trace = await page.evaluate(() => window.__endTrace);
    const end = clients[0].state;
    const scoring = end.events.filter((e) => e.type === 'scored' && e.end && e.points > 0 && e.seats.length);
    assert.ok(scoring.length > 0, 'the final scoring has features worth points');
    const firstOpen = trace.findIndex((x) => x.open);
    const during = trace.slice(0, firstOpen);
    assert.ok(during.some((x) => x.scoring === '1' && x.fx > 0), 'features lit up on the board before the dialog');
    assert.ok(trace[firstOpen].scoring !== '1', 'the dialog opened once the final scoring was over');
    const shown = Math.max(...during.map((x) => x.fx));
    assert.ok(shown >= 1);
    const steps = await page.getAttribute('#board', 'data-final-step');
    assert.equal(Number(steps), scoring.length, 'every feature that scored was shown in turn');
    // The log: one line per final scoring worth points, none for the others.
    const finals = await page.locator('[data-testid="log"] li[data-line="final"]').count();
    assert.equal(finals, scoring.length);
    await page.screenshot({ path: path.join(shotDir, 'end-live.png') });
    // "Look at the board", then the banner's button opens the dialog again.
    await page.click('#end-close');
    assert.equal(await page.locator('[data-testid="endgame"]').isVisible(), false);
    await page.click('[data-testid="show-end"]');
    await page.waitForSelector('[data-testid="endgame"]');
    assert.deepEqual(errors, []);
    await Promise.all(clients.map((c) => c.close()));
  });
});
