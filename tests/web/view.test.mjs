import test from 'node:test';
import assert from 'node:assert/strict';
import {
  fitView, turnView, focusView, nextCell, cellInside, cellRect, safeRect, viewCentreCell, spotScale, SIZES, FIT_MAX_SCALE,
} from '../../web-client/js/board/view.js';
import * as view from '../../web-client/js/board/view.js';

const desktop = { w: 940, h: 640, insets: { right: 56 } };
const phone = { w: 390, h: 470, insets: { bottom: 56 } };

test('the fit shows the whole board, centred in the free part, and caps its zoom', () => {
  const bounds = { minX: -6, minY: -4, maxX: 7, maxY: 5 };
  const v = fitView(desktop, bounds);
  for (const [x, y] of [[-6, -4], [7, 5], [-6, 5], [7, -4]]) assert.ok(cellInside(desktop, v, x, y), `corner ${x},${y}`);
  const small = fitView(desktop, { minX: 0, minY: 0, maxX: 0, maxY: 0 });
  assert.equal(small.scale, FIT_MAX_SCALE);
  const r = safeRect(desktop);
  assert.equal(r.w, 884);
});

test('a turn view keeps the fit when legal cells are big enough', () => {
  const bounds = { minX: -2, minY: -2, maxX: 2, maxY: 2 };
  const legal = [{ x: -2, y: 0 }, { x: 2, y: 1 }];
  assert.deepEqual(turnView(desktop, bounds, legal, { minCell: 36 }), fitView(desktop, bounds));
});

test('a late board: the turn view zooms to the minimum size and shows the legal cells', () => {
  const bounds = { minX: -14, minY: -10, maxX: 15, maxY: 11 }; // a sprawling 5-player board
  const legal = [];
  for (let x = -13; x <= 14; x += 3) legal.push({ x, y: -9 }, { x, y: 10 });
  const fit = fitView(desktop, bounds);
  assert.ok(fit.scale * 100 < 36, 'the fit alone would be too small');
  const v = turnView(desktop, bounds, legal, { minCell: SIZES.desktop.legalCell });
  assert.ok(v.scale * 100 >= 36 - 1e-9);
  const shown = legal.filter((c) => cellInside(desktop, v, c.x, c.y)).length;
  assert.ok(shown >= 4, `some legal cells are in view (${shown})`);
  // Legal cells close together: all of them in view, bigger than the minimum if they fit.
  const near = [{ x: 3, y: 3 }, { x: 4, y: 3 }, { x: 5, y: 4 }];
  const v2 = turnView(desktop, bounds, near, { minCell: 36 });
  for (const c of near) assert.ok(cellInside(desktop, v2, c.x, c.y));
  assert.ok(v2.scale * 100 >= 36);
  // On touch, about 44 px.
  const v3 = turnView(phone, bounds, legal, { minCell: SIZES.touch.legalCell });
  assert.ok(v3.scale * 100 >= 44 - 1e-9);
  assert.ok(legal.some((c) => cellInside(phone, v3, c.x, c.y)));
});

test('focusing a chosen cell zooms to the spot size and keeps the neighbours in view', () => {
  const view = { scale: 0.4, tx: 100, ty: 50 };
  const s = spotScale(SIZES.desktop.spot, SIZES.desktop.spotUnits);
  const all = [];
  for (let dx = -1; dx <= 1; dx++) for (let dy = -1; dy <= 1; dy++) if (dx || dy) all.push({ x: 8 + dx, y: 10 + dy });
  const v = focusView(desktop, view, 8, 10, s, [...all, { x: 30, y: 30 }]);
  assert.ok(v.scale >= s);
  for (const c of all) assert.ok(cellInside(desktop, v, c.x, c.y), `neighbour ${c.x},${c.y}`);
  // Only the tiles around it count: a cell at the edge of the view with its tiles inside stays put.
  const edge = { scale: 1.2, tx: 0, ty: 0 }; // cell (6, 2) is at the right edge of the free part
  assert.ok(cellInside(desktop, edge, 6, 2));
  assert.deepEqual(focusView(desktop, edge, 6, 2, 1, [{ x: 5, y: 2 }, { x: 6, y: 1 }]), edge, 'no jump when the tiles around are in view');
  assert.notDeepEqual(focusView(desktop, edge, 6, 2, 1, [{ x: 7, y: 2 }]), edge, 'a tile beyond the edge brings the view along');
  // Already big and in view: nothing moves.
  const big = { scale: 1.2, tx: 0, ty: 0 };
  assert.deepEqual(focusView(desktop, big, 3, 2, 1), big);
  // A phone: 3 cells at the touch size may not fit; the cell is then centred.
  const st = spotScale(SIZES.touch.spot, SIZES.touch.spotUnits);
  const p = focusView(phone, { scale: 0.44, tx: 0, ty: 0 }, -5, 7, st, [{ x: -6, y: 7 }, { x: -4, y: 6 }]);
  assert.ok(p.scale >= st);
  const c = cellRect(p, -5, 7);
  const r = safeRect(phone);
  assert.ok(Math.abs(c.x + c.w / 2 - (r.x + r.w / 2)) < 1 || cellInside(phone, p, -6, 7));
  assert.ok(cellInside(phone, p, -5, 7));
  assert.ok(cellInside(phone, p, -6, 7) && cellInside(phone, p, -4, 6), 'the tiles around it fit on a phone');
  assert.ok(r.w >= 3 * 100 * p.scale, 'three tiles fit across a phone at the touch spot size');
});

test('each arrow moves to the nearest legal cell in its own direction', () => {
  const cells = [{ x: 0, y: -1 }, { x: 1, y: 0 }, { x: 0, y: 4 }, { x: 1, y: 1 }, { x: -3, y: 0 }, { x: 5, y: -1 }];
  const from = { x: 0, y: 0 };
  assert.deepEqual(nextCell(cells, from, 'ArrowUp'), { x: 0, y: -1 });
  assert.deepEqual(nextCell(cells, from, 'ArrowRight'), { x: 1, y: 0 });
  assert.deepEqual(nextCell(cells, from, 'ArrowLeft'), { x: -3, y: 0 });
  // Down: (1, 1) is one row down and within 45 degrees: it beats (0, 4), four rows down.
  assert.deepEqual(nextCell(cells, from, 'ArrowDown'), { x: 1, y: 1 });
  // Nothing on that side: no move.
  assert.equal(nextCell([{ x: 0, y: -1 }], from, 'ArrowDown'), null);
  // Outside the cone only: still on the right side.
  assert.deepEqual(nextCell([{ x: 1, y: 5 }], from, 'ArrowRight'), { x: 1, y: 5 });
  // From a fractional point (the centre of the view), the first press has a direction too.
  const c = { x: 0.4, y: 0.2 };
  assert.deepEqual(nextCell(cells, c, 'ArrowLeft'), { x: -3, y: 0 }, 'in line beats off to the side');
  assert.deepEqual(nextCell(cells, c, 'ArrowUp'), { x: 0, y: -1 });
  assert.deepEqual(nextCell(cells, c, 'ArrowRight'), { x: 1, y: 0 });
});

test('the centre of the view, in cells', () => {
  const v = { scale: 0.5, tx: 442 - 50 * 0.5 * 2, ty: 320 };
  const c = viewCentreCell(desktop, v);
  assert.ok(Math.abs(c.x - 0.5) < 1e-9);
  assert.ok(Math.abs(c.y + 0.5) < 1e-9);
});

test('the meeple key cycles through the spots, then none', () => {
  const { nextSpot } = view;
  assert.equal(nextSpot(['N', 'E'], null), 'N');
  assert.equal(nextSpot(['N', 'E'], 'N'), 'E');
  assert.equal(nextSpot(['N', 'E'], 'E'), null);
  assert.equal(nextSpot(['N', 'E'], 'S'), 'N');
  assert.equal(nextSpot([], null), null);
});

test('a turn view keeps legal cells out from under the zoom buttons when it can', () => {
  // A phone: the zoom buttons are a row at the bottom right, inside the bottom strip.
  const covered = { ...phone, covers: [{ x: 247, y: 420, w: 135, h: 44 }] };
  const inBoard = (v, c) => {
    const r = cellRect(v, c.x, c.y);
    return r.x >= 0 && r.y >= 0 && r.x + r.w <= covered.w && r.y + r.h <= covered.h;
  };
  const shown = (vp, v, cells) => cells.filter((c) => cellInside(vp, v, c.x, c.y)).length;
  let seed = 7;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  let before = 0;
  let after = 0;
  for (let i = 0; i < 500; i++) {
    const w = 8 + Math.floor(rnd() * 12);
    const h = 6 + Math.floor(rnd() * 10);
    const bounds = { minX: -w, minY: -h, maxX: w, maxY: h };
    const legal = [];
    const n = 3 + Math.floor(rnd() * 30);
    for (let k = 0; k < n; k++) legal.push({ x: -w + Math.floor(rnd() * (2 * w + 1)), y: -h + Math.floor(rnd() * (2 * h + 1)) });
    const blind = turnView(phone, bounds, legal, { minCell: SIZES.touch.legalCell }); // knows only the strip
    const seeing = turnView(covered, bounds, legal, { minCell: SIZES.touch.legalCell });
    assert.ok(seeing.scale * 100 >= SIZES.touch.legalCell - 1e-9);
    // Never fewer legal cells in the free part than before.
    assert.ok(shown(covered, seeing, legal) >= shown(phone, blind, legal), `layout ${i}`);
    if (view.coveredCells(covered, blind, legal.filter((c) => inBoard(blind, c)))) before++;
    if (view.coveredCells(covered, seeing, legal.filter((c) => inBoard(seeing, c)))) after++;
  }
  assert.ok(before >= 10, `the layouts put legal cells under the buttons without the covers (${before} of 500)`);
  assert.equal(after, 0, `with the covers, legal cells under the buttons in ${after} of 500 layouts (${before} without)`);
});

test('a turn view puts no legal cell under the zoom buttons, on 2,000 seeded phone layouts', () => {
  // The phone's zoom buttons sit in the strip at the bottom: a cell there is drawn but
  // takes no tap. (Before, the view traded one such cell for one more in the free part.)
  const vp = { w: 390, h: 470, insets: { bottom: 56 }, covers: [{ x: 246, y: 416, w: 142, h: 52 }] };
  let seed = 7;
  const rnd = (n) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  let covered = 0;
  for (let i = 0; i < 2000; i++) {
    const legal = [];
    const n = 4 + rnd(30);
    const span = 6 + rnd(14);
    for (let k = 0; k < n; k++) legal.push({ x: rnd(span) - span / 2, y: rnd(span) - span / 2 });
    const bounds = { minX: -span / 2 - 1, minY: -span / 2 - 1, maxX: span / 2 + 1, maxY: span / 2 + 1 };
    const v = turnView(vp, bounds, legal, { minCell: SIZES.touch.legalCell });
    if (view.coveredCells(vp, v, legal) > 0) covered++;
    assert.ok(legal.some((c) => cellInside(vp, v, c.x, c.y)), 'some legal cell in the free part');
  }
  assert.equal(covered, 0, `layouts with a legal cell under the buttons: ${covered}`);
});
