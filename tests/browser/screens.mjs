// Screenshots of the pages a player sees, at a 1366x768 laptop and a 390x844 phone: the
// start page, the lobby, a game in progress (the player's turn, a tile on a cell with its
// meeple spots) and the end screen. Not a test: a look for the eye (docs/screens-32/, before
// and after). CARC_WEB_ROOT picks the client served.
//
//   node tests/browser/screens.mjs OUT_DIR PREFIX

import fs from 'node:fs';
import path from 'node:path';
import { startServer, launchBrowser } from './helpers.mjs';
import { startRoom, playUntil, spreadPick, openWithToken } from './wsclient.mjs';

const [outDir = '/tmp/screens', prefix = 'shot'] = process.argv.slice(2);
fs.mkdirSync(outDir, { recursive: true });
const SIZES = { laptop: { width: 1366, height: 768 }, phone: { width: 390, height: 844 } };

const server = await startServer();
const browser = await launchBrowser();
try {
  for (const [size, viewport] of Object.entries(SIZES)) {
    const mobile = size === 'phone' ? { isMobile: true, hasTouch: true } : {};
    const shot = (page, what) => page.screenshot({ path: path.join(outDir, `${prefix}-${what}-${size}.png`) });
    // The start page.
    const ctx = await browser.newContext({ viewport, locale: 'en-US', ...mobile });
    const home = await ctx.newPage();
    await home.goto(`${server.base}/`);
    await home.waitForSelector('body[data-ready="1"]');
    await shot(home, 'start');
    // The lobby.
    await home.fill('[data-testid="create-name"]', 'Ann');
    await home.click('[data-testid="create-game"]');
    await home.waitForSelector('[data-testid="lobby"]:not([hidden]) [data-testid="seat"]');
    await home.waitForTimeout(300);
    await shot(home, 'lobby');
    await ctx.close();
    // A game in progress at turn 24, the player's turn, a tile on a cell.
    const { room, clients } = await startRoom(server.base, ['Ann', 'Ben', 'Chloé']);
    await playUntil(clients, (s) => s.turn.number >= 24 && s.turn.seat === 0, (l, s, i) => spreadPick(l, s, i));
    const token = clients[0].token;
    await clients[0].close();
    const { ctx: c2, page } = await openWithToken(browser, server.base, room, token, { viewport, ...mobile });
    await page.waitForSelector('#view-room[data-my-turn="1"]');
    clients[1].send({ type: 'chat', text: 'Nice city!' });
    await page.waitForTimeout(600);
    await shot(page, 'turn');
    const cells = await page.$$('[data-testid="cell"]');
    for (const cell of cells) {
      await cell.click({ force: true }).catch(() => {});
      await page.waitForTimeout(400);
      if (await page.$('[data-testid="meeple-spot"]')) break;
    }
    await page.waitForTimeout(400);
    await shot(page, 'placing');
    await c2.close();
    for (const c of clients) await c.close();
  }
} finally {
  await browser.close();
  await server.stop();
}
