// Pure view arithmetic for the board: which pan and zoom show what, in CSS pixels.
// A view is {tx, ty, scale}: a board point p (in tile units, TILE per cell) is drawn at
// p * scale + t. A viewport is {w, h, insets: {top, right, bottom, left}, covers}: the insets
// are strips covered by overlays (the zoom buttons), where nothing the player needs may sit,
// and `covers` the overlays' own rectangles [{x, y, w, h}] (optional), which no legal cell
// the player can see should sit under either.

import { TILE } from '../tiles/geometry.js';

export const MIN_SCALE = 0.12;
export const MAX_SCALE = 3;
/** The scale cap of the automatic fit (an early board is not blown up past this). */
export const FIT_MAX_SCALE = 1.3;

/** What the player needs to read and hit, in CSS pixels. */
// spotUnits: the diameter of a meeple spot's ring in tile units (boardart.js draws it). On
// touch it is a little larger, so that 32 px spots need less zoom and the neighbouring
// tiles still fit on a phone.
export const SIZES = {
  desktop: { legalCell: 36, spot: 24, spotUnits: 24 },
  touch: { legalCell: 44, spot: 32, spotUnits: 26 },
};

const clamp = (v, lo, hi) => Math.max(lo, Math.min(hi, v));

/** The part of the viewport free of overlays. */
export function safeRect(vp) {
  const i = { top: 0, right: 0, bottom: 0, left: 0, ...(vp.insets ?? {}) };
  return { x: i.left, y: i.top, w: Math.max(1, vp.w - i.left - i.right), h: Math.max(1, vp.h - i.top - i.bottom) };
}

/** Bounds {minX, minY, maxX, maxY} (in cells) of some cells. */
export function cellBounds(cells) {
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (const c of cells) {
    minX = Math.min(minX, c.x); maxX = Math.max(maxX, c.x);
    minY = Math.min(minY, c.y); maxY = Math.max(maxY, c.y);
  }
  return cells.length ? { minX, minY, maxX, maxY } : null;
}

/** A view with board point (px, py) at screen point (sx, sy). */
function viewAt(scale, px, py, sx, sy) {
  return { scale, tx: sx - px * scale, ty: sy - py * scale };
}

/** The largest scale (up to `maxScale`) that shows `bounds` plus `pad` cells around it. */
export function fitScale(vp, bounds, { pad = 0.3, maxScale = FIT_MAX_SCALE } = {}) {
  const r = safeRect(vp);
  const bw = (bounds.maxX - bounds.minX + 1 + pad * 2) * TILE;
  const bh = (bounds.maxY - bounds.minY + 1 + pad * 2) * TILE;
  return clamp(Math.min(r.w / bw, r.h / bh), MIN_SCALE, maxScale);
}

/** Shows all of `bounds`, centred in the free part of the viewport. */
export function fitView(vp, bounds, opts = {}) {
  const r = safeRect(vp);
  const scale = fitScale(vp, bounds, opts);
  const cx = ((bounds.minX + bounds.maxX + 1) / 2) * TILE;
  const cy = ((bounds.minY + bounds.maxY + 1) / 2) * TILE;
  return viewAt(scale, cx, cy, r.x + r.w / 2, r.y + r.h / 2);
}

/** Screen rectangle of a cell in a view. */
export function cellRect(view, x, y) {
  const s = TILE * view.scale;
  return { x: x * s + view.tx, y: y * s + view.ty, w: s, h: s };
}

/** Whether a cell lies wholly inside the free part of the viewport. */
export function cellInside(vp, view, x, y, slack = 0.5) {
  const r = safeRect(vp);
  const c = cellRect(view, x, y);
  return c.x >= r.x - slack && c.y >= r.y - slack && c.x + c.w <= r.x + r.w + slack && c.y + c.h <= r.y + r.h + slack;
}

/** How many of `cells` a cover of the viewport hides, wholly or in part (in a view). */
export function coveredCells(vp, view, cells) {
  const covers = vp.covers ?? [];
  if (!covers.length) return 0;
  let n = 0;
  for (const c of cells) {
    const r = cellRect(view, c.x, c.y);
    if (covers.some((o) => r.x < o.x + o.w && o.x < r.x + r.w && r.y < o.y + o.h && o.y < r.y + r.h)) n++;
  }
  return n;
}

/**
 * The view for the start of a player's turn: the fit when it already shows the legal
 * cells at `minCell` px or more; otherwise zoomed in to `minCell`, placed to show as many
 * legal cells as possible (then as much of the rest of the board as possible).
 */
export function turnView(vp, bounds, legal, { minCell, pad = 0.3 } = {}) {
  const fit = fitView(vp, bounds, { pad });
  if (!legal.length || fit.scale * TILE >= minCell) return fit;
  const lb = cellBounds(legal);
  // As large as possible while all legal cells fit, but never below minCell.
  const scale = Math.max(minCell / TILE, Math.min(fitScale(vp, lb, { pad }), FIT_MAX_SCALE));
  const r = safeRect(vp);
  // No legal cell under a cover first (one there looks playable but takes no tap: a legal
  // cell beyond the free part is still drawn); then the most legal cells in the free part.
  const score = (v) => legal.filter((c) => cellInside(vp, v, c.x, c.y)).length - coveredCells(vp, v, legal) * (legal.length + 1);
  const centre = [((lb.minX + lb.maxX + 1) / 2) * TILE, ((lb.minY + lb.maxY + 1) / 2) * TILE];
  let best = viewAt(scale, centre[0], centre[1], r.x + r.w / 2, r.y + r.h / 2);
  let bestScore = score(best);
  const perfect = legal.length;
  if (bestScore < perfect) {
    // Too spread out, or a cell under a cover: try centring each legal cell, and (with
    // covers) each of those moved by up to one and a half cells in halves, and keep the
    // best. Moving by one cell at most left 17 of 5,000 seeded phone layouts with a legal
    // cell under the zoom buttons; by one and a half, none.
    const steps = vp.covers?.length ? [-1.5, -1, -0.5, 0, 0.5, 1, 1.5] : [0];
    for (const c of legal) {
      for (const dx of steps) {
        for (const dy of steps) {
          const v = viewAt(scale, (c.x + 0.5 + dx) * TILE, (c.y + 0.5 + dy) * TILE, r.x + r.w / 2, r.y + r.h / 2);
          const n = score(v);
          if (n > bestScore) {
            best = v;
            bestScore = n;
          }
        }
      }
    }
  }
  return best;
}

/**
 * The view once a cell is chosen: at least `minScale`, keeping the cell where it is on
 * screen when possible, then panned as little as possible so that the cell and the
 * neighbouring tiles (`keep`: the occupied cells among its eight neighbours) are inside
 * the free part of the viewport; when they cannot all fit, the cell is centred.
 */
export function focusView(vp, view, x, y, minScale, keep = [], margin = 6) {
  const full = safeRect(vp);
  const near = keep.filter((c) => Math.abs(c.x - x) <= 1 && Math.abs(c.y - y) <= 1);
  const block = cellBounds([{ x, y }, ...near]);
  const scale = clamp(Math.max(view.scale, minScale), MIN_SCALE, MAX_SCALE);
  const s = TILE * scale;
  const bw = (block.maxX - block.minX + 1) * s;
  const bh = (block.maxY - block.minY + 1) * s;
  // A small margin, when there is room for it, so the neighbours do not touch the edge.
  const m = Math.max(0, Math.min(margin, (full.w - bw) / 2, (full.h - bh) / 2));
  const r = { x: full.x + m, y: full.y + m, w: full.w - 2 * m, h: full.h - 2 * m };
  const px = (x + 0.5) * TILE;
  const py = (y + 0.5) * TILE;
  // Zoom about the cell's centre.
  const v = viewAt(scale, px, py, px * view.scale + view.tx, py * view.scale + view.ty);
  const fitAxis = (t, start, size, cellStart, lo, len) => {
    if (size > len) return t + (lo + len / 2) - (cellStart + s / 2);
    if (start < lo) return t + (lo - start);
    if (start + size > lo + len) return t - (start + size - (lo + len));
    return t;
  };
  const tx = fitAxis(v.tx, block.minX * s + v.tx, bw, x * s + v.tx, r.x, r.w);
  const ty = fitAxis(v.ty, block.minY * s + v.ty, bh, y * s + v.ty, r.y, r.h);
  return { scale, tx, ty };
}

/**
 * The view that shows cell (x, y) after a move: the same zoom, panned as little as
 * possible so that the cell (with a margin of a fifth of a cell when there is room) lies
 * in the free part of the viewport; centred when it cannot fit.
 */
export function followView(vp, view, x, y) {
  const r = safeRect(vp);
  const c = cellRect(view, x, y);
  const m = Math.max(0, Math.min(c.w / 5, (r.w - c.w) / 2, (r.h - c.h) / 2));
  const axis = (t, start, size, lo, len) => {
    if (size + 2 * m > len) return t + (lo + len / 2) - (start + size / 2);
    if (start < lo + m) return t + (lo + m - start);
    if (start + size > lo + len - m) return t - (start + size - (lo + len - m));
    return t;
  };
  return { scale: view.scale, tx: axis(view.tx, c.x, c.w, r.x, r.w), ty: axis(view.ty, c.y, c.h, r.y, r.h) };
}

/** A view as what outlives the page's size: its zoom and the board point in the middle. */
export function viewCentre(vp, view) {
  const r = safeRect(vp);
  return { scale: view.scale, cx: (r.x + r.w / 2 - view.tx) / view.scale, cy: (r.y + r.h / 2 - view.ty) / view.scale };
}

/** The view with board point (cx, cy) in the middle at `scale` (a remembered view), or null. */
export function viewFromCentre(vp, { scale, cx, cy } = {}) {
  if (![scale, cx, cy].every(Number.isFinite)) return null;
  const s = clamp(scale, MIN_SCALE, MAX_SCALE);
  const r = safeRect(vp);
  return viewAt(s, cx, cy, r.x + r.w / 2, r.y + r.h / 2);
}

/** The scale at which a meeple spot of `units` tile units is `px` CSS pixels across. */
export function spotScale(px, units) {
  return px / units;
}

const DIRS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

/**
 * The legal cell an arrow key moves to from `from` ({x, y}, cell units, may be
 * fractional, e.g. the centre of the view): the nearest cell in that direction, first
 * among those within 45 degrees of it, then among all cells on that side; "nearest"
 * counts a step sideways twice (straight ahead wins a tie). Null if there is none on
 * that side.
 */
export function nextCell(cells, from, key) {
  const d = DIRS[key];
  if (!d) return null;
  let best = null;
  let bestCost = Infinity;
  for (const c of cells) {
    const vx = c.x - from.x;
    const vy = c.y - from.y;
    const along = vx * d[0] + vy * d[1];
    if (along <= 1e-9) continue;
    const across = Math.abs(vx * d[1] - vy * d[0]);
    // In the cone first; outside it only when the cone is empty.
    const cost = (across <= along + 1e-9 ? 0 : 1e6) + along + 2 * across;
    if (cost < bestCost) {
      bestCost = cost;
      best = c;
    }
  }
  return best;
}

/** The board cell (fractional) at the centre of the free part of the viewport. */
export function viewCentreCell(vp, view) {
  const r = safeRect(vp);
  return {
    x: (r.x + r.w / 2 - view.tx) / (view.scale * TILE) - 0.5,
    y: (r.y + r.h / 2 - view.ty) / (view.scale * TILE) - 0.5,
  };
}

/** The meeple spot after `current` (the M key): each spot in turn, then none, then the first. */
export function nextSpot(spots, current) {
  if (!spots.length) return null;
  const i = spots.indexOf(current);
  if (current === null || current === undefined || i < 0) return spots[0];
  return i + 1 < spots.length ? spots[i + 1] : null;
}
