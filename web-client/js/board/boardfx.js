// The board's passing effects, drawn into its `fx` layer: a log line's cells (hover or
// click), points rising from a scored feature, and the final scoring played feature by
// feature with the meeples going home.

import { TILE } from '../tiles/geometry.js';
import { playerColor } from '../tiles/tileart.js';

const SVG_NS = 'http://www.w3.org/2000/svg';

function el(name, attrs = {}) {
  const e = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

function cellRects(g, cells, cls, attrs = {}) {
  for (const [x, y] of cells) {
    if (!Number.isInteger(x) || !Number.isInteger(y)) continue;
    g.appendChild(el('rect', { class: cls, x: x * TILE + 2, y: y * TILE + 2, width: TILE - 4, height: TILE - 4, rx: 5, ...attrs }));
  }
}

/** Outlines cells while a log line is hovered; `null` clears. */
export function hoverCells(board, cells) {
  board.layers.fx.querySelector('.hover-fx')?.remove();
  if (!cells?.length) return;
  const g = el('g', { class: 'hover-fx', 'data-testid': 'log-highlight' });
  cellRects(g, cells, 'hover-cell');
  board.layers.fx.appendChild(g);
}

/** Briefly outlines some cells (a log line was clicked or tapped), panning to the first. */
export function pulseCells(board, cells) {
  if (!cells.length) return;
  const g = el('g', { class: 'pulse-fx' });
  cellRects(g, cells, 'pulse-cell');
  const { w, h } = board.size();
  const [x0, y0] = cells[0];
  const v = board.view;
  const sx = (x0 + 0.5) * TILE * v.scale + v.tx;
  const sy = (y0 + 0.5) * TILE * v.scale + v.ty;
  if (sx < 0 || sy < 0 || sx > w || sy > h) {
    board.autoFit = false;
    board.autoMoved = false;
    board.setView({ ...v, tx: w / 2 - (x0 + 0.5) * TILE * v.scale, ty: h / 2 - (y0 + 0.5) * TILE * v.scale }, { animate: true });
  }
  board.layers.fx.appendChild(g);
  setTimeout(() => g.remove(), 1900);
}

/** Points rising from a scored feature: event.cells, event.points, the seats' colours. */
export function flashScore(board, event, colors, ms = 2600) {
  const cells = (event.cells ?? []).map((c) => [c.x, c.y]);
  if (!cells.length) return;
  const first = colors[0] ? playerColor(colors[0]) : { fill: '#f5c542' };
  const g = el('g', { class: 'score-fx', 'data-testid': 'score-fx', 'data-kind': event.kind ?? '' });
  g.style.setProperty('--fx-ms', `${ms}ms`);
  cellRects(g, cells, 'score-cell', { fill: first.fill, stroke: first.fill });
  const cx = (cells.reduce((a, c) => a + c[0], 0) / cells.length + 0.5) * TILE;
  const cy = (cells.reduce((a, c) => a + c[1], 0) / cells.length + 0.5) * TILE;
  const labels = colors.length ? colors : [null];
  labels.forEach((colorName, i) => {
    const pc = colorName ? playerColor(colorName) : first;
    const txt = el('text', {
      class: 'score-pop', x: cx + (i - (labels.length - 1) / 2) * 60, y: cy, 'text-anchor': 'middle',
      fill: pc.fill, stroke: pc.fill === '#2b2b2b' ? '#fff' : '#1c1408',
    });
    txt.textContent = `+${Number(event.points) || 0}`;
    g.appendChild(txt);
  });
  board.layers.fx.appendChild(g);
  setTimeout(() => g.remove(), ms);
}

/**
 * The final scoring, one feature after the other: its cells light up in the scorer's
 * colour with its points, and the meeples on it go home. items: [{event, meeples:
 * [{x, y, at}]}]; colorsOf(seats) gives colour names; onStep(item) runs as each starts.
 * Returns {done: Promise, skip()}; the board's meeples look as before once it is done.
 */
export function playFinalScoring(board, items, colorsOf, { onStep = () => {}, totalMs = 9000 } = {}) {
  const list = items.filter((it) => (it.event.points ?? 0) > 0 && (it.event.cells ?? []).length);
  const per = Math.max(350, Math.min(1100, totalMs / Math.max(1, list.length)));
  const timers = [];
  const touched = [];
  board.svg.dataset.finalScoring = '1';
  let finish;
  const done = new Promise((resolve) => { finish = resolve; });
  const end = () => {
    timers.forEach(clearTimeout);
    for (const m of touched) m.classList.remove('going-home');
    board.layers.fx.querySelectorAll('.score-fx').forEach((g) => g.remove());
    board.svg.dataset.finalScoring = '0';
    finish();
  };
  list.forEach((it, i) => {
    timers.push(setTimeout(() => {
      board.svg.dataset.finalStep = String(i + 1);
      flashScore(board, it.event, colorsOf(it.event.seats ?? []), Math.round(per * 1.8));
      for (const m of it.meeples) {
        const e = board.layers.meeples.querySelector(`[data-testid="board-meeple"][data-x="${m.x}"][data-y="${m.y}"][data-at="${m.at}"]`);
        if (e) {
          e.classList.add('going-home');
          touched.push(e);
        }
      }
      onStep(it);
    }, i * per));
  });
  timers.push(setTimeout(end, list.length * per + 600));
  return { done, skip: end, steps: list.length };
}
