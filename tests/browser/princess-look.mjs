// The Princess & the Dragon on the room page, for the eye (not a test: the server does not
// play the expansion yet, docs/web-client-expansions.md): a base game's page gets a state of
// the expansion's shape injected (the dragon's move at step 2, then the figure step's portal,
// princess, fairy and volcano), its sends are caught instead of going out, and each view is a
// screenshot. Prints what the banner and the action bar said and what the page would send.
//
//   CARC_SERVER_BIN=build/carcassonne-server node tests/browser/princess-look.mjs OUT_DIR

import fs from 'node:fs';
import { startServer, launchBrowser } from './helpers.mjs';
import { startRoom, openWithToken } from './wsclient.mjs';

const [outDir = '/tmp/princess-look'] = process.argv.slice(2);
fs.mkdirSync(outDir, { recursive: true });

/** The dragon's move, step 2 of 6, seen by the stepping seat (1) and the placer (0) on a phone. */
async function dragonStage() {
  const server = await startServer();
  const browser = await launchBrowser();
  const out = {};
  try {
    const ctx0 = await browser.newContext({ locale: 'en-US', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const home = await ctx0.newPage();
    const errors = [];
    home.on('pageerror', (e) => errors.push(String(e)));
    await home.goto(`${server.base}/`);
    await home.waitForSelector('body[data-ready="1"]');
    out.homeExpansions = await home.$$eval('[data-testid^="home-expansion-"]', (l) => l.map((e) => e.value));
    const { room, clients } = await startRoom(server.base, ['Ann', 'Ben']);
    for (const seat of [1, 0]) {
      const { ctx, page } = await openWithToken(browser, server.base, room, clients[seat].token, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
      page.on('pageerror', (e) => errors.push(String(e)));
      await page.waitForSelector('#view-room[data-phase="playing"]');
      await page.evaluate(() => {
        const p = window.__carc;
        const s = p.store.state;
        const M = (seat, at) => [{ seat, at }];
        const state = {
          ...s,
          board: [
            { x: 0, y: 0, tile: 'D', rotation: 0, meeples: [] },
            { x: -1, y: 0, tile: 'U', rotation: 0, meeples: [] },
            { x: 1, y: 0, tile: 'U', rotation: 0, meeples: M(1, 'E') },
            { x: 2, y: 0, tile: 'U', rotation: 0, meeples: [] },
            { x: 0, y: -1, tile: 'F', rotation: 90, meeples: [] },
            { x: 0, y: 1, tile: 'B', rotation: 0, meeples: M(0, 'C') },
            { x: 3, y: 0, tile: 'U', rotation: 0, meeples: [] },
          ],
          dragon: { x: 0, y: 0 }, fairy: { x: 1, y: 0, next_to: { x: 1, y: 0, at: 'E', seat: 1 } }, dragon_tiles_waiting: 0,
          turn: { ...s.turn, seat: 0, tile: 'U', stage: 'dragon', legal: [], fairy: [], dragon: { seat: 1, step: 2, options: [{ x: 0, y: -1 }, { x: 0, y: 1 }], visited: [{ x: -1, y: 0 }, { x: 0, y: 0 }] } },
        };
        window.__sent = [];
        p.send = (m) => { window.__sent.push(m); return true; };
        p.store = { ...p.store, state };
        p.render();
      });
      await page.waitForTimeout(500);
      out[`banner${seat}`] = await page.textContent('#turn-banner');
      out[`hint${seat}`] = await page.textContent('#action-hint');
      out[`options${seat}`] = await page.$$eval('[data-testid="dragon-option"]', (l) => l.map((e) => e.getAttribute('data-action')));
      out[`myTurn${seat}`] = await page.getAttribute('#view-room', 'data-my-turn');
      await page.screenshot({ path: `${outDir}/dragon-seat${seat}.png` });
      if (seat === 1) {
        await page.click('[data-action="dragon:0,1"]', { force: true });
        await page.waitForTimeout(200);
        out.sent = await page.evaluate(() => window.__sent);
      }
      await ctx.close();
    }
    out.errors = errors;
    for (const c of clients) await c.close();
  } finally {
    await browser.close();
    await server.stop();
}

return out;
}

/** The figure step on a laptop: a portal spot, the princess's knight, the fairy, a volcano's note. */
async function figureStep() {
  const server = await startServer();
  const browser = await launchBrowser();
  const out = {};
  try {
    const { room, clients } = await startRoom(server.base, ['Ann', 'Ben']);
    const { page } = await openWithToken(browser, server.base, room, clients[0].token, { viewport: { width: 1366, height: 768 } });
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.waitForSelector('#view-room[data-phase="playing"]');
    const inject = (kind) => page.evaluate((kind) => {
      const p = window.__carc;
      const s = p.store.state;
      const entry = { x: 2, y: 0, rotation: 0, meeples: ['E'], figures: {}, princess: kind === 'princess' ? [{ x: 0, y: 0, at: 'N' }] : [],
        ...(kind === 'portal' ? { portal: [{ x: 0, y: 0, meeples: ['N', 'WR'] }] } : {}) };
      const volcano = { x: 2, y: 0, rotation: 0, meeples: [], figures: {}, princess: [] };
      const state = {
        ...s,
        board: [
          { x: 0, y: 0, tile: 'D', rotation: 0, meeples: kind === 'princess' ? [{ seat: 1, at: 'N' }] : [] },
          { x: -1, y: 0, tile: 'U', rotation: 0, meeples: [] },
          { x: 1, y: 0, tile: 'U', rotation: 0, meeples: [{ seat: 0, at: 'NL' }] },
        ],
        dragon: { x: -1, y: 0 }, fairy: null, dragon_tiles_waiting: 0,
        turn: { ...s.turn, seat: 0, tile: 'U', stage: 'place', fairy: kind === 'fairy' ? [{ x: 1, y: 0, at: 'NL' }] : [], legal: [kind === 'volcano' ? volcano : entry] },
      };
      window.__sent = [];
      p.send = (m) => { window.__sent.push(m); return true; };
      p.draft = null;
      if (kind === 'volcano') p.tiles = { ...p.tiles, U: { ...p.tiles.U, symbol: 'volcano' } };
      p.store = { ...p.store, state, version: p.store.version + 1 };
      p.render();
    }, kind);
    for (const kind of ['portal', 'princess', 'fairy', 'volcano']) {
      await inject(kind);
      await page.waitForTimeout(200);
      await page.click('[data-testid="cell"][data-x="2"][data-y="0"]', { force: true });
      await page.waitForTimeout(300);
      const target = await page.$(`[data-testid="${kind}-target"]`);
      out[`${kind}Targets`] = (await page.$$(`[data-testid="${kind}-target"]`)).length;
      if (target) {
        await target.click({ force: true });
        await page.waitForTimeout(200);
      }
      out[`${kind}Hint`] = await page.textContent('#action-hint');
      await page.screenshot({ path: `${outDir}/figure-${kind}.png` });
      await page.click('#btn-confirm');
      await page.waitForTimeout(200);
      out[`${kind}Sent`] = await page.evaluate(() => window.__sent);
    }
    out.errors = errors;
    for (const c of clients) await c.close();
  } finally {
    await browser.close();
    await server.stop();
}

return out;
}

console.log(JSON.stringify({ dragon: await dragonStage(), figure: await figureStep() }, null, 1));
