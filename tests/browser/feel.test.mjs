// Play feel in Chromium, late in a 5-player game played from node over the WebSocket
// protocol (turn 50 or later): the sizes of legal cells and meeple spots on a desktop and a
// touch phone, the keyboard, the last round (each player's last tile framed, the log in
// words, a hovered line shown on the board).
//
//   CARC_SERVER_BIN=build/carcassonne-server node --test --test-concurrency=1 tests/browser/feel.test.mjs

import test from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { setUp, showingServerLog, shotDir, animateBoards } from './helpers.mjs';
import { startRoom, playUntil, randomPick, spreadPick, openWithToken } from './wsclient.mjs';

animateBoards(); // this file checks how the board moves (helpers.mjs)

const NAMES = ['Ada', 'Bruno', 'Chloé', 'Daichi', 'Eve'];
const DESKTOP = { viewport: { width: 1280, height: 800 } };
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

// A 5-player game at turn 50 or later, with the seat whose turn it is handed to the page.
async function lateGame(server, seed) {
  const { room, clients } = await startRoom(server.base, NAMES);
  // Stop on a turn where the player still has a meeple and some cell offers two spots.
  const ready = (s) => s.turn.number >= 50 && s.turn.legal.length >= 4
    && s.players.find((p) => p.seat === s.turn.seat).meeples > 0 && s.turn.legal.some((l) => l.meeples.length >= 2);
  // Two moves in three reach for the far edge: a sprawling board, the hard case for sizes.
  const casual = randomPick(seed, 0.4);
  const pick = (legal, s, i) => (i % 3 ? spreadPick(legal, s, i) : casual(legal, s, i));
  const state = await playUntil(clients, ready, pick);
  assert.equal(state.phase, 'playing');
  assert.ok(state.turn.number >= 50, `turn ${state.turn.number}`);
  const seat = state.turn.seat;
  const token = clients[seat].token;
  await clients[seat].close();
  return { room, clients, state, seat, token };
}

async function settled(page) {
  await page.waitForFunction(() => document.getElementById('board').dataset.moving !== '1');
  await page.waitForTimeout(50);
}

// The legal cells as drawn: their size and whether they can be clicked where they are.
function legalCells(page) {
  return page.evaluate(() => {
    const board = document.getElementById('board').getBoundingClientRect();
    return [...document.querySelectorAll('[data-testid="cell"]')].map((g) => {
      const r = g.querySelector('rect').getBoundingClientRect();
      const size = Math.min(r.width, r.height) + 6 * (r.width / 94); // the rect is inset 3 units of 100
      const cx = r.left + r.width / 2;
      const cy = r.top + r.height / 2;
      const inView = r.left >= board.left && r.top >= board.top && r.right <= board.right && r.bottom <= board.bottom;
      const hit = inView ? document.elementFromPoint(cx, cy) : null;
      const clickable = !!hit && g.contains(hit);
      // What covers it, for the failure message: tag, id, classes, test id.
      const cover = hit && !clickable
        ? `${hit.tagName.toLowerCase()}${hit.id ? '#' + hit.id : ''}${hit.classList.length ? '.' + [...hit.classList].join('.') : ''}${hit.dataset.testid ? `[${hit.dataset.testid}]` : ''}`
        : null;
      return { x: Number(g.dataset.x), y: Number(g.dataset.y), size, inView, clickable, cover };
    });
  });
}

function spotsAndNeighbours(page) {
  return page.evaluate(() => {
    const board = document.getElementById('board').getBoundingClientRect();
    const ghost = document.querySelector('[data-testid="ghost"]');
    // The tile's own square (the frame is 98 units of 100, inset by 1): spots may overhang it.
    const f = ghost.querySelector('.ghost-frame').getBoundingClientRect();
    const unit = f.width / 98;
    const g = { left: f.left - unit, top: f.top - unit, width: 100 * unit, height: 100 * unit };
    const spots = [...document.querySelectorAll('[data-testid="meeple-spot"]')].map((s) => {
      const r = s.querySelector('.spot-ring').getBoundingClientRect();
      return { port: s.dataset.port, size: Math.min(r.width, r.height) };
    });
    // The tiles among the eight neighbouring cells: each wholly in view?
    const inside = (r) => r.left >= board.left - 0.5 && r.top >= board.top - 0.5 && r.right <= board.right + 0.5 && r.bottom <= board.bottom + 0.5;
    const x = Number(ghost.dataset.x);
    const y = Number(ghost.dataset.y);
    const neighbours = [];
    for (const dx of [-1, 0, 1]) for (const dy of [-1, 0, 1]) {
      const tile = (dx || dy) && document.querySelector(`[data-testid="tile"][data-x="${x + dx}"][data-y="${y + dy}"]`);
      if (tile) neighbours.push({ dx, dy, inView: inside(tile.getBoundingClientRect()) });
    }
    return { spots, neighbours, tile: g.width, x, y };
  });
}

test('late in a 5-player game: legal cells and meeple spots big enough to read and hit', { timeout: 240000 }, async (t) => {
  const { server, browser } = await setUp(t);
  await showingServerLog(server, async () => {
    const { room, token, state } = await lateGame(server, 5);
    console.log(`late game: turn ${state.turn.number}, ${state.board.length} tiles, ${state.turn.legal.length} legal placements`);

    // Desktop, 1280x800: legal cells at 36 px or more without zooming by hand.
    const desk = await openWithToken(browser, server.base, room, token, DESKTOP);
    await desk.page.waitForSelector('#view-room[data-my-turn="1"]');
    await desk.page.waitForSelector('[data-testid="cell"]');
    await settled(desk.page);
    let cells = await legalCells(desk.page);
    const shown = cells.filter((c) => c.inView);
    assert.ok(shown.length >= 1, 'legal cells are in view');
    const min = Math.min(...shown.map((c) => c.size));
    const fitPx = await desk.page.evaluate(() => Math.round(100 * window.__carc.board.fitScale()));
    console.log(`desktop: ${shown.length}/${cells.length} legal cells in view, smallest ${min.toFixed(1)} px (the whole board would show cells of ${fitPx} px)`);
    assert.ok(min >= 36 - 0.5, `legal cells are at least 36 px (${min.toFixed(1)})`);
    assert.ok(shown.every((c) => c.clickable), `no legal cell in view is covered (by the zoom buttons or anything else): ${JSON.stringify(shown.filter((c) => !c.clickable))}`);
    await desk.page.screenshot({ path: path.join(shotDir, 'feel-late-desktop.png') });

    // Choose a cell with meeple spots: spots of 24 px or more, the neighbours in view.
    const withSpots = new Set(state.turn.legal.filter((l) => l.meeples.length >= 2).map((l) => `${l.x},${l.y}`));
    const pick = shown.find((c) => withSpots.has(`${c.x},${c.y}`)) ?? shown[0];
    await desk.page.click(`[data-testid="cell"][data-x="${pick.x}"][data-y="${pick.y}"]`);
    await desk.page.waitForSelector('[data-testid="ghost"]');
    await settled(desk.page);
    let sp = await spotsAndNeighbours(desk.page);
    assert.ok(sp.spots.length >= 1, 'the chosen cell has meeple spots');
    const dmin = Math.min(...sp.spots.map((s) => s.size));
    console.log(`desktop: ${sp.spots.length} meeple spots, smallest ${dmin.toFixed(1)} px, tile ${sp.tile.toFixed(0)} px`);
    assert.ok(dmin >= 24 - 0.5, `meeple spots are at least 24 px (${dmin.toFixed(1)})`);
    assert.ok(sp.neighbours.length >= 1, 'a legal cell has a tile next to it');
    assert.deepEqual(sp.neighbours.filter((n) => !n.inView), [], 'the neighbouring tiles are in view');
    await desk.page.screenshot({ path: path.join(shotDir, 'feel-late-desktop-spots.png') });
    await desk.ctx.close();

    // Phone, 390x844 with touch: about 44 px cells, then 32 px spots after a tap.
    const phone = await openWithToken(browser, server.base, room, token, PHONE);
    await phone.page.waitForSelector('#view-room[data-my-turn="1"]');
    await phone.page.waitForSelector('[data-testid="cell"]');
    await settled(phone.page);
    cells = await legalCells(phone.page);
    const pshown = cells.filter((c) => c.inView);
    assert.ok(pshown.length >= 1, 'phone: legal cells are in view');
    const pmin = Math.min(...pshown.map((c) => c.size));
    console.log(`phone: ${pshown.length}/${cells.length} legal cells in view, smallest ${pmin.toFixed(1)} px`);
    assert.ok(pmin >= 44 - 0.5, `phone: legal cells are about 44 px (${pmin.toFixed(1)})`);
    assert.ok(pshown.every((c) => c.clickable), `phone: no legal cell in view is covered: ${JSON.stringify(pshown.filter((c) => !c.clickable))}`);
    await phone.page.screenshot({ path: path.join(shotDir, 'feel-late-phone.png') });
    const ppick = pshown.find((c) => withSpots.has(`${c.x},${c.y}`)) ?? pshown[0];
    await phone.page.tap(`[data-testid="cell"][data-x="${ppick.x}"][data-y="${ppick.y}"]`);
    await phone.page.waitForSelector('[data-testid="ghost"]');
    await settled(phone.page);
    sp = await spotsAndNeighbours(phone.page);
    const pspot = Math.min(...sp.spots.map((s) => s.size));
    console.log(`phone: ${sp.spots.length} meeple spots, smallest ${pspot.toFixed(1)} px, tile ${sp.tile.toFixed(0)} px`);
    assert.ok(pspot >= 32 - 0.5, `phone: meeple spots are at least 32 px (${pspot.toFixed(1)})`);
    assert.deepEqual(sp.neighbours.filter((n) => !n.inView), [], 'phone: the neighbouring tiles are in view');
    // Tapping a spot chooses it (it is not hidden under anything).
    const spot = await phone.page.$('[data-testid="meeple-spot"]');
    await spot.tap();
    await phone.page.waitForSelector('[data-testid="meeple-spot"].chosen');
    await phone.page.screenshot({ path: path.join(shotDir, 'feel-late-phone-spots.png') });
    await phone.ctx.close();
  });
});

test('keyboard: each arrow moves in its direction, and Enter after a mouse Rotate confirms', { timeout: 180000 }, async (t) => {
  const { server, browser } = await setUp(t);
  await showingServerLog(server, async () => {
    const { room, token, state } = await lateGame(server, 8);
    const { page } = await openWithToken(browser, server.base, room, token, DESKTOP);
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.waitForSelector('#view-room[data-my-turn="1"]');
    await settled(page);
    assert.ok(await page.locator('[data-testid="key-legend"]').isVisible(), 'the key legend shows');
    const cells = state.turn.legal.map((l) => [l.x, l.y]);
    const ghost = async () => page.evaluate(() => {
      const g = document.querySelector('[data-testid="ghost"]');
      return g ? { x: Number(g.dataset.x), y: Number(g.dataset.y), rotation: Number(g.dataset.rotation) } : null;
    });
    const dirs = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    // The first press already goes its way: from the centre of the view.
    const centre = await page.evaluate(() => window.__carc.board.centreCell());
    const left = cells.some(([x]) => x < centre.x);
    await page.keyboard.press(left ? 'ArrowLeft' : 'ArrowRight');
    const at = await ghost();
    assert.ok(at, 'an arrow chooses a legal cell');
    assert.ok(left ? at.x < centre.x : at.x > centre.x, `the first arrow from the view's centre (${centre.x.toFixed(2)}) goes its way (${at.x})`);
    let moves = 0;
    for (let round = 0; round < 3; round++) {
      for (const [key, [dx, dy]] of Object.entries(dirs)) {
        const from = await ghost();
        const ahead = cells.filter(([x, y]) => (x - from.x) * dx + (y - from.y) * dy > 0);
        await page.keyboard.press(key);
        const to = await ghost();
        if (!ahead.length) {
          assert.deepEqual([to.x, to.y], [from.x, from.y], `${key}: nothing that way, no move`);
          continue;
        }
        const along = (to.x - from.x) * dx + (to.y - from.y) * dy;
        const across = Math.abs((to.x - from.x) * dy - (to.y - from.y) * dx);
        assert.ok(along > 0, `${key} from ${from.x},${from.y} moves that way (to ${to.x},${to.y})`);
        // The nearest in that direction (a step sideways counts twice): no legal cell
        // within 45 degrees is nearer.
        if (across <= along) {
          const closer = ahead.filter(([x, y]) => {
            const a = (x - from.x) * dx + (y - from.y) * dy;
            const c = Math.abs((x - from.x) * dy - (y - from.y) * dx);
            return c <= a && a + 2 * c < along + 2 * across;
          });
          assert.deepEqual(closer, [], `${key}: the nearest cell that way`);
        }
        moves++;
      }
    }
    assert.ok(moves >= 4, `arrows moved the tile ${moves} times`);
    await page.screenshot({ path: path.join(shotDir, 'feel-keyboard.png') });

    // A mouse click on Rotate (the button gives the focus back), then Enter: the turn is played.
    const rotatable = state.turn.legal.filter((l) => state.turn.legal.filter((m) => m.x === l.x && m.y === l.y).length >= 2);
    assert.ok(rotatable.length, 'a cell with two rotations');
    // The arrows left the tile somewhere; the cell under it has no marker to click (the
    // tile stands there), so pick another one when there is one.
    const here = await ghost();
    const onIt = (l) => here && l.x === here.x && l.y === here.y;
    const c = rotatable.find((l) => !onIt(l)) ?? rotatable[0];
    if (!onIt(c)) {
      const target = page.locator(`[data-testid="cell"][data-x="${c.x}"][data-y="${c.y}"]`);
      await target.scrollIntoViewIfNeeded().catch(() => {});
      await page.evaluate(([x, y]) => window.__carc.board.focusCell(x, y), [c.x, c.y]);
      await settled(page);
      await page.click(`[data-testid="cell"][data-x="${c.x}"][data-y="${c.y}"]`);
    }
    const before = await ghost();
    assert.deepEqual([before.x, before.y], [c.x, c.y], 'the tile stands on the chosen cell');
    await page.click('[data-testid="rotate"]');
    const rotated = await ghost();
    assert.notEqual(rotated.rotation, before.rotation, 'the mouse rotated the tile');
    assert.notEqual(await page.evaluate(() => document.activeElement?.dataset.testid), 'rotate', 'the clicked Rotate button gave the focus back');
    const version = await page.getAttribute('#view-room', 'data-version');
    await page.keyboard.press('Enter');
    await page.waitForFunction((v) => document.getElementById('view-room').dataset.version !== v, version);
    await page.waitForSelector(`[data-testid="tile"][data-x="${c.x}"][data-y="${c.y}"][data-rotation="${rotated.rotation}"]`);
    assert.equal(await page.locator('[data-testid="ghost"]').count(), 0, 'Enter confirmed the placement');
    assert.deepEqual(errors, []);
  });
});

test('the last round: each player\'s last tile framed in their colour, the log in words, a line shown on the board', { timeout: 180000 }, async (t) => {
  const { server, browser } = await setUp(t);
  await showingServerLog(server, async () => {
    const { room, token, state } = await lateGame(server, 3);
    const { page } = await openWithToken(browser, server.base, room, token, DESKTOP);
    await page.waitForSelector('#view-room[data-my-turn="1"]');
    await page.click('[data-testid="fit"]');
    await settled(page);
    const frames = await page.evaluate(() => [...document.querySelectorAll('[data-testid="last-placed"], [data-testid="recent-placed"]')].map((g) => ({
      newest: g.dataset.testid === 'last-placed', seat: Number(g.dataset.seat), x: Number(g.dataset.x), y: Number(g.dataset.y),
      stroke: g.querySelector('.last-frame').getAttribute('stroke'), halo: getComputedStyle(g.querySelector('.last-halo')).stroke,
    })));
    assert.equal(frames.length, 5, 'one frame per player');
    assert.equal(frames.filter((f) => f.newest).length, 1, 'one of them marks the newest tile');
    assert.deepEqual(frames.map((f) => f.seat).sort(), [0, 1, 2, 3, 4]);
    const colors = await page.evaluate(() => Object.fromEntries([...document.querySelectorAll('[data-testid="player"]')].map((li) => [li.dataset.seat, li.querySelector('.chip use').getAttribute('fill')])));
    for (const f of frames) {
      assert.equal(f.stroke.toLowerCase(), colors[f.seat].toLowerCase(), `seat ${f.seat}'s frame is in their colour`);
      assert.match(f.halo, /rgba?\(255, 255, 255/, 'over a light halo');
    }
    // The log in words, without coordinates; hovering a line outlines its cells.
    const lines = await page.locator('[data-testid="log"] li').allTextContents();
    assert.ok(lines.length >= state.turn.number - 1, `a line per move at least (${lines.length})`);
    assert.deepEqual(lines.filter((l) => /\(-?\d+, -?\d+\)/.test(l)), [], 'no coordinates in the log');
    assert.ok(lines.some((l) => /extended|claimed|closed/.test(l)), 'placements are told in words');
    const line = page.locator('[data-testid="log"] li.linked').last();
    await line.scrollIntoViewIfNeeded();
    await line.hover();
    await page.waitForSelector('[data-testid="log-highlight"] rect');
    const n = await page.locator('[data-testid="log-highlight"] rect').count();
    assert.equal(n, JSON.parse(await line.getAttribute('data-cells')).length, 'the hovered line\'s cells are outlined');
    await page.screenshot({ path: path.join(shotDir, 'feel-last-round.png') });
    await page.mouse.move(5, 400);
    await page.waitForSelector('[data-testid="log-highlight"]', { state: 'detached' });
  });
});
