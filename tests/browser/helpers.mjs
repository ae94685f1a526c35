// Shared set-up of the browser tests: the real server binary on 127.0.0.1 and a free port
// with a fresh data folder, headless Chromium (Debian's, through playwright-core), and the
// page helpers several test files use.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { after } from 'node:test';
import { watchCsp, assertNoCspViolations, cspViolations } from './csp.mjs';
import { settled, cellsInView } from './seat-helpers.mjs';
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const serverBin = path.resolve(repoRoot, process.env.CARC_SERVER_BIN || 'build/carcassonne-server');
// The same server with the test hooks (main.cpp with CARC_TEST_HOOKS: CARC_TEST_SEED and the
// like), built beside it.
export const testServerBin = path.resolve(repoRoot, process.env.CARC_SERVER_TEST_BIN || path.join(path.dirname(serverBin), 'carcassonne-server-test'));
export const shotDir = path.resolve(process.env.CARC_SCREENSHOT_DIR || path.join(repoRoot, 'tests', 'browser', 'screenshots'));
export const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
// The client served (CARC_WEB_ROOT: another checkout's web-client, to see a test fail on it).
export const webRoot = process.env.CARC_WEB_ROOT || 'web-client';

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

export async function waitForHealth(base, proc, log, ms = 30000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (proc.exitCode !== null || proc.signalCode !== null) throw new Error(`server exited with ${proc.exitCode}:\n${log()}`);
    try {
      const res = await fetch(`${base}/healthz`);
      if (res.status === 200) return;
    } catch { /* not up yet */ }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`server did not answer /healthz within ${ms} ms:\n${log()}`);
}

// `bin`: testServerBin for a test hook, set in `env` (CARC_TEST_SEED=...).
// `botThinkMs`: the computer players think at most this long a move (--bot-think-ms): the
// browser tests check what the page shows of their moves, not their strength (the engine's
// suites and `carcassonne arena` do), and a hard level's 1.5 s a move made whole games wait
// minutes. 0: each level's own time.
export async function startServer({ args = [], bin = serverBin, env = null, botThinkMs = 100 } = {}) {
  assert.ok(fs.existsSync(bin), `server binary not found at ${bin} (build it, or set CARC_SERVER_BIN / CARC_SERVER_TEST_BIN)`);
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'carc-e2e-'));
  const base = `http://127.0.0.1:${port}`;
  let output = '';
  let proc = null;
  const launch = async () => {
    proc = spawn(bin, ['--port', String(port), '--bind', '127.0.0.1', '--data-dir', dataDir, '--web-root', webRoot,
      ...(botThinkMs > 0 ? ['--bot-think-ms', String(botThinkMs)] : []), ...args], {
      cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'], env: env ? { ...process.env, ...env } : process.env,
    });
    proc.stdout.on('data', (d) => { output += d; });
    proc.stderr.on('data', (d) => { output += d; });
    await waitForHealth(base, proc, () => output);
  };
  const kill = async () => {
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    const p = proc;
    p.kill('SIGTERM');
    const exited = await Promise.race([
      new Promise((r) => p.once('exit', () => r(true))),
      new Promise((r) => setTimeout(() => r(false), 5000)),
    ]);
    if (!exited) p.kill('SIGKILL');
  };
  await launch();
  return {
    base, dataDir, log: () => output,
    /** Stops the server and starts it again on the same port and data folder. */
    async restart() {
      await kill();
      await launch();
    },
    /** Stops the server (same port and data folder kept for up()). */
    async down() {
      await kill();
    },
    /** Starts it again after down(); resolves once /healthz answers. */
    async up() {
      await launch();
    },
    async stop() {
      await kill();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function loadPlaywright() {
  try {
    return await import('playwright-core');
  } catch (e) {
    throw new Error(`playwright-core is not installed (run npm ci at the repo root): ${e.message}`);
  }
}

// What a page shows: used to compare two pages.
export async function snapshot(page) {
  return page.evaluate(() => {
    const room = document.getElementById('view-room');
    const tiles = [...document.querySelectorAll('#board [data-testid="tile"]')]
      .map((e) => `${e.dataset.x},${e.dataset.y},${e.dataset.tile},${e.dataset.rotation}`).sort();
    const meeples = [...document.querySelectorAll('#board [data-testid="board-meeple"]')]
      .map((e) => `${e.dataset.x},${e.dataset.y},${e.dataset.at},${e.dataset.seat}`).sort();
    const players = [...document.querySelectorAll('[data-testid="player"]')]
      .map((e) => ({ seat: e.dataset.seat, score: e.dataset.score, meeples: e.dataset.meeples, active: e.dataset.active }));
    return { version: room.dataset.version, phase: room.dataset.phase, tiles, meeples, players, bag: document.querySelector('[data-testid="bag-left"]')?.textContent };
  });
}

export async function sameView(a, b, what) {
  // Both pages converge on the same version, then must show the same things.
  let sa;
  let sb;
  for (let i = 0; i < 100; i++) {
    [sa, sb] = [await snapshot(a), await snapshot(b)];
    if (sa.version && sa.version === sb.version) break;
    await a.waitForTimeout(100);
  }
  assert.equal(sa.version, sb.version, `${what}: same state version`);
  assert.deepEqual(sa.tiles, sb.tiles, `${what}: same tiles`);
  assert.deepEqual(sa.meeples, sb.meeples, `${what}: same meeples`);
  assert.deepEqual(sa.players, sb.players, `${what}: same scores and turn`);
  return sa;
}

// The first element of `selector` whose centre is really clickable (not under another element),
// with that centre (cx, cy). Click it there with page.mouse, as a player would: page.click
// first scrolls the element "into view", and after a reload that scroll put a cell the
// player could click under the turn banner, where no click reaches it.
export async function clickableTarget(page, selector) {
  return page.evaluate((sel) => {
    for (const el of document.querySelectorAll(sel)) {
      const r = el.getBoundingClientRect();
      if (!r.width || !r.height) continue;
      const cx = r.left + r.width / 2;
      const cy = r.top + r.height / 2;
      if (cx < 0 || cy < 0 || cx > innerWidth || cy > innerHeight) continue;
      const hit = document.elementFromPoint(cx, cy);
      if (hit && (hit === el || el.contains(hit))) return { x: el.dataset.x, y: el.dataset.y, port: el.dataset.port, cx, cy };
    }
    return null;
  }, selector);
}

export async function playTurn(page, { meeple, rotate, useKey, shot, keyboard }) {
  await page.waitForSelector('#view-room[data-my-turn="1"]');
  await page.waitForSelector('[data-testid="action-bar"][data-mine="1"]');
  assert.match(await page.title(), /your turn/i, 'the page title says it is your turn');
  if (keyboard) {
    // Keyboard only: an arrow picks a legal cell, Enter confirms (no meeple).
    await page.evaluate(() => document.activeElement?.blur());
    await page.keyboard.press('ArrowUp');
    await page.locator('[data-testid="ghost"]').waitFor();
    const version = await page.getAttribute('#view-room', 'data-version');
    await page.keyboard.press('Enter');
    await page.waitForFunction((v) => document.getElementById('view-room').dataset.version !== v, version);
    return {};
  }
  // A cell is picked where it is, once the board has stopped moving, and clicked there.
  await settled(page);
  let cell = await clickableTarget(page, '[data-testid="cell"]');
  if (!cell) {
    await page.click('[data-testid="fit"]');
    await page.waitForTimeout(100);
    await settled(page);
    cell = await clickableTarget(page, '[data-testid="cell"]');
  }
  assert.ok(cell, 'a highlighted cell can be clicked');
  await page.mouse.click(cell.cx, cell.cy);
  const ghost = page.locator('[data-testid="ghost"]');
  await ghost.waitFor();
  assert.equal(await ghost.getAttribute('data-x'), cell.x);
  assert.equal(await ghost.getAttribute('data-y'), cell.y);
  if (rotate && !(await page.locator('[data-testid="rotate"]').isDisabled())) {
    const before = await ghost.getAttribute('data-rotation');
    if (useKey) await page.keyboard.press('r');
    else await page.click('[data-testid="rotate"]');
    const after = await page.locator('[data-testid="ghost"]').getAttribute('data-rotation');
    assert.notEqual(after, before, 'rotate changes to another legal rotation');
  }
  let port = null;
  if (meeple) {
    await settled(page);
    const spot = await clickableTarget(page, '[data-testid="meeple-spot"]');
    if (spot) {
      await page.mouse.click(spot.cx, spot.cy);
      await page.waitForSelector(`[data-testid="meeple-spot"].chosen[data-port="${spot.port}"]`);
      port = spot.port;
    }
  } else {
    // Choose a spot, then take it back with "no meeple".
    await settled(page);
    const spot = await clickableTarget(page, '[data-testid="meeple-spot"]');
    if (spot) {
      await page.mouse.click(spot.cx, spot.cy);
      await page.waitForSelector('[data-testid="meeple-spot"].chosen');
      await page.click('[data-testid="no-meeple"]');
      assert.equal(await page.locator('[data-testid="meeple-spot"].chosen').count(), 0);
    }
  }
  if (shot) await page.screenshot({ path: path.join(shotDir, shot) });
  const version = await page.getAttribute('#view-room', 'data-version');
  await page.click('[data-testid="confirm"]');
  await page.waitForFunction((v) => {
    const room = document.getElementById('view-room');
    return room.dataset.version !== v && !document.querySelector('[data-testid="ghost"]');
  }, version);
  return { cell, port };
}

/**
 * Pages ask for reduced motion (the operating system's setting, which the client honours:
 * no board tweens, no pulses or flights) unless their file calls `animateBoards()` first: the
 * files that check the animations (feel, playfeel, camera, placing, the abbot's return) play
 * with them, as most players do; the others test what happens, not how it moves, and without
 * the tweens Chromium draws each move once instead of a frame at a time (e2e: about a fifth of
 * its CPU). A context that names its own `reducedMotion` keeps it.
 */
let motion = 'reduce';
export function animateBoards() { motion = 'no-preference'; }

// Every page of the browser is watched for Content-Security-Policy violations (csp.mjs).
export async function launchBrowser() {
  const { chromium } = await loadPlaywright();
  const browser = watchCsp(await chromium.launch({
    executablePath: chromiumPath,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync',
      // Chromium's new headless mode builds a browser window for every context, and each
      // window's address bar had its popup drawn by a WebUI page in a renderer of its own
      // (about 0.5 s of CPU a context, for a bar nobody sees).
      '--disable-features=WebUIOmniboxAimPopup,WebUIOmniboxFullPopup,WebUIOmniboxPopup'],
  }));
  pollEvery(browser, 40);
  const newContext = browser.newContext.bind(browser);
  browser.newContext = (options = {}) => newContext({ reducedMotion: motion, ...options });
  const slow = Number(process.env.CARC_SLOW_NET_MS || 0);
  return slow > 0 ? slowNetwork(browser, slow) : browser;
}

/**
 * `waitForFunction` checks its condition every `ms` milliseconds unless a call says otherwise.
 * Playwright's default checks it on every animation frame, and a page with a frame callback
 * pending draws 60 frames a second: two open pages waiting on each other kept the renderer,
 * the compositor and the browser process busy for the whole test, for nothing on screen.
 */
function pollEvery(browser, ms) {
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (...args) => {
    const context = await newContext(...args);
    context.once('page', (page) => {
      const frame = Object.getPrototypeOf(page.mainFrame());
      if (frame.__carcPolling) return;
      const waitForFunction = frame.waitForFunction;
      frame.waitForFunction = function (fn, arg, options = {}) {
        return waitForFunction.call(this, fn, arg, { polling: ms, ...options });
      };
      frame.__carcPolling = true;
    });
    return context;
  };
}

/**
 * CARC_SLOW_NET_MS=N (a tool, not a CI row): every page's /api/ requests wait 0..N ms
 * before they go, and its WebSocket frames arrive 0..N ms late, in order, both ways. A test
 * that fails with it reads the page before what the page waits for has arrived.
 */
function slowNetwork(browser, maxMs) {
  const pause = () => new Promise((r) => setTimeout(r, Math.random() * maxMs));
  // Each direction delivers frame k at max(its arrival + a random delay, frame k-1's delivery).
  const lane = () => {
    let last = Promise.resolve();
    return (deliver) => {
      const delay = pause();
      last = Promise.all([last, delay]).then(deliver, deliver);
    };
  };
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (...args) => {
    const context = await newContext(...args);
    await context.route(/\/api\//, async (route) => { await pause(); await route.fallback(); });
    await context.routeWebSocket(/\/ws\//, (ws) => {
      const server = ws.connectToServer();
      const up = lane();
      const down = lane();
      ws.onMessage((m) => up(() => server.send(m)));
      server.onMessage((m) => down(() => ws.send(m)));
      ws.onClose((code, reason) => up(() => server.close({ code, reason })));
      server.onClose((code, reason) => down(() => ws.close({ code, reason })));
    });
    return context;
  };
  return browser;
}

// Creates a room in A, joins it from B through the invite link, and starts the game.
export async function setUpGame(browser, server, errors, { nameA = 'Alice', nameB = 'Bob' } = {}) {
  const ctxA = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
  const ctxB = await browser.newContext({ viewport: { width: 1100, height: 760 }, locale: 'en-US' });
  const A = await ctxA.newPage();
  const B = await ctxB.newPage();
  for (const [name, page] of [['A', A], ['B', B]]) {
    page.on('pageerror', (e) => errors.push(`${name}: ${e.message}`));
    page.setDefaultTimeout(15000);
  }
  await A.goto(`${server.base}/`);
  await A.waitForSelector('body[data-ready="1"]');
  await createGame(A, nameA);
  const invite = await A.inputValue('[data-testid="invite-link"]');
  await B.goto(invite);
  await B.waitForSelector('[data-testid="join-dialog"]');
  await B.fill('[data-testid="join-name"]', nameB);
  await B.click('[data-testid="join-submit"]');
  await A.waitForSelector('[data-testid="seat"][data-seat="1"]');
  return { A, B, invite };
}

/**
 * The end dialog at once: once the game is over, the player asks for the scores ("Final
 * scores" in the banner) instead of watching the final scoring play out on the board (the
 * end tests watch it). Resolves when the dialog is open.
 */
export async function skipToEnd(page) {
  await page.waitForSelector('#view-room[data-phase="finished"]');
  await page.evaluate(() => {
    if (document.querySelector('[data-testid="endgame"]')?.checkVisibility()) return;
    document.querySelector('[data-testid="show-end"]')?.click();
  });
  await page.waitForSelector('[data-testid="endgame"]');
}

export function activePage(snap, pages) {
  return pages[Number(snap.players.find((p) => p.active === '1')?.seat ?? 0)];
}

// A fresh server (`opts`: startServer's) and browser for one test, both stopped when it ends.
export async function setUp(t, opts = {}) {
  const server = await startServer(opts);
  fs.mkdirSync(shotDir, { recursive: true });
  const browser = await launchBrowser();
  t.after(async () => {
    await browser.close().catch(() => {});
    await server.stop();
    assertNoCspViolations(browser);  // fails the test on any violation in its pages
  });
  return { server, browser };
}

/**
 * One server and browser for the tests of a file that share them (a server and a Chromium
 * cost seconds to start, a test of a few pages less): `const shared = sharedSetUp(opts)` at
 * the top, `const { server, browser } = await shared(t)` in each test, which opens its own
 * contexts and rooms. Both stop after the file's last test. A Content-Security-Policy
 * violation fails the test in which it was seen.
 */
export function sharedSetUp(opts = {}) {
  let ready = null;
  after(async () => {
    if (!ready) return;
    const { server, browser } = await ready;
    await browser.close().catch(() => {});
    await server.stop();
  });
  return async (t) => {
    ready ??= (async () => {
      const server = await startServer(opts);
      fs.mkdirSync(shotDir, { recursive: true });
      return { server, browser: await launchBrowser() };
    })();
    const got = await ready;
    const seenBefore = cspViolations(got.browser).length;
    t.after(() => {
      const fresh = cspViolations(got.browser).slice(seenBefore);
      if (fresh.length) throw new Error(`Content-Security-Policy violations in the pages:\n  ${[...new Set(fresh)].join('\n  ')}`);
    });
    return got;
  };
}

// Runs `body`; when it fails, shows the end of the server's log first.
export async function showingServerLog(server, body) {
  try {
    await body();
  } catch (e) {
    console.log(`--- server output ---\n${server.log().slice(-4000)}`);
    throw e;
  }
}


/**
 * A page of `server`'s start page in `browser` (in a new context: page.context()), its
 * uncaught errors collected in `errors` (none: not collected). `timeout`: the page's default
 * (none: Playwright's own).
 */
export async function openStartPage(browser, server, errors, { viewport = { width: 1280, height: 800 }, timeout = 20000 } = {}) {
  const ctx = await browser.newContext({ viewport, locale: 'en-US' });
  const page = await ctx.newPage();
  if (errors) page.on('pageerror', (e) => errors.push(e.message));
  if (timeout) page.setDefaultTimeout(timeout);
  await page.goto(`${server.base}/`);
  await page.waitForSelector('body[data-ready="1"]');
  return page;
}

/**
 * A watcher's page of `url` (a room's invite link) in a new browser context of `options`,
 * "Watch" clicked; its uncaught errors go to `errors`, after `label`. Resolves to {ctx, page}.
 */
export async function openWatcher(browser, url, errors, label, options) {
  const ctx = await browser.newContext(options);
  const page = await ctx.newPage();
  page.on('pageerror', (e) => errors.push(`${label}: ${e.message}`));
  await page.goto(url);
  await page.click('[data-testid="join-watch"]');
  return { ctx, page };
}

/** Creates a room from the start page as `name`; resolves in its lobby, seated as the host. */
export async function createGame(page, name) {
  await page.fill('[data-testid="create-name"]', name);
  await page.click('[data-testid="create-game"]');
  await page.waitForSelector('[data-testid="lobby"]:not([hidden]) [data-testid="seat"][data-seat="0"]');
}

/** What the page's store says of the turn, for the player of the page (legal: only on their turn). */
export function turnInfo(page) {
  return page.evaluate(() => {
    const p = window.__carc;
    const s = p.store.state;
    const me = s.players.find((x) => x.seat === p.store.seat);
    const mine = s.phase === 'playing' && s.turn?.seat === p.store.seat;
    return {
      phase: s.phase, mine, version: p.store.version, seat: p.store.seat, legal: mine ? s.turn.legal : [], extra: s.turn?.extra === true,
      figures: me?.figures ?? {}, abbot: me?.figures?.abbot ?? null, meeples: me?.meeples ?? 0, tile: s.turn?.tile ?? null, number: s.turn?.number ?? null,
    };
  });
}

/** Waits until the game is over or it is the page's turn with its action bar up. */
export async function myTurnOrEnd(page, timeout) {
  await page.waitForFunction(() => {
    const p = window.__carc;
    const s = p?.store?.state;
    return s && (s.phase === 'finished' || (s.turn?.seat === p.store.seat && document.querySelector('[data-testid="action-bar"][data-mine="1"]')));
  }, null, { timeout });
}

/**
 * A game of one human (`name`) against one computer player of `level`, made through the
 * lobby; `afterCreate` and `afterBot` run in the lobby before the bot is added and before
 * the start. Resolves on the human's first turn.
 */
export async function startSoloGame(page, { name = 'Ann', level = 'easy', afterCreate, afterBot } = {}) {
  await createGame(page, name);
  await afterCreate?.();
  await page.selectOption('[data-testid="bot-level"]', level);
  await page.click('[data-testid="add-bot"]');
  await page.waitForSelector('[data-testid="seat"][data-seat="1"]');
  await afterBot?.();
  await page.click('[data-testid="start"]');
  await page.waitForSelector('#view-room[data-phase="playing"]');
  await page.waitForSelector('#view-room[data-my-turn="1"]', { timeout: 60000 });
}

/** Plays the first legal placement of each of the page's turns, without a meeple, to the end. */
export async function playFirstLegalToEnd(page) {
  for (let turns = 0; ; turns++) {
    if (turns >= 100) throw new Error('the game did not end in 100 turns');
    await page.waitForFunction(() => {
      const p = window.__carc;
      const s = p?.store?.state;
      return s && (s.phase === 'finished' || (s.turn?.seat === p.store.seat && s.turn.legal.length > 0));
    }, null, { timeout: 60000 });
    const sent = await page.evaluate(() => {
      const p = window.__carc;
      const s = p.store.state;
      if (s.phase === 'finished') return null;
      const e = s.turn.legal[0];
      p.send({ type: 'play', version: p.store.version, x: e.x, y: e.y, rotation: e.rotation, meeple: null });
      return p.store.version;
    });
    if (sent === null) return;
    await page.waitForFunction((v) => window.__carc.store.version !== v, sent);
  }
}

/** Brings the page's draft to the legal entry `e` (its cell, then its rotation). */
export async function draftTo(page, e) {
  await page.evaluate(({ x, y }) => window.__carc.selectCell(x, y), e);
  await page.locator('[data-testid="ghost"]').waitFor();
  for (let i = 0; i < 4; i++) {
    if (Number(await page.getAttribute('[data-testid="ghost"]', 'data-rotation')) === e.rotation) return;
    await page.click('[data-testid="rotate"]');
  }
  assert.equal(Number(await page.getAttribute('[data-testid="ghost"]', 'data-rotation')), e.rotation, 'the draft reaches the chosen rotation');
}

/** Confirms the draft and waits for the state after it (a newer version, no ghost tile). */
export async function confirmDraft(page, version) {
  await page.click('[data-testid="confirm"]');
  await page.waitForFunction((v) => Number(document.getElementById('view-room').dataset.version) > v && !document.querySelector('[data-testid="ghost"]'), version);
}

/** A cell clicked, turned until its tile offers a meeple spot, and a spot chosen (the page's turn). */
export async function draftWithMeeple(page) {
  const cells = await cellsInView(page, (cs) => cs.some((c) => c.spots > 0));
  const cell = cells.find((c) => c.spots > 0);
  assert.ok(cell, 'a legal cell with a meeple spot can be clicked');
  await page.click(`[data-testid="cell"][data-x="${cell.x}"][data-y="${cell.y}"]`);
  await page.waitForSelector('[data-testid="ghost"]');
  for (let i = 0; i < 4 && !(await page.locator('[data-testid="meeple-spot"]').count()); i++) await page.click('[data-testid="rotate"]');
  await settled(page);
  const spot = await clickableTarget(page, '[data-testid="meeple-spot"]');
  assert.ok(spot, 'a meeple spot can be clicked');
  await page.mouse.click(spot.cx, spot.cy);
  await page.waitForSelector('[data-testid="meeple-spot"].chosen');
}
