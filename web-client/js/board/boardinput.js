// The board's pointer and keyboard input: drag to pan, wheel and pinch to zoom, clicks and
// taps on legal cells, the tile being placed and its meeple spots, and Enter or Space on
// a focused cell or spot (they are buttons for assistive technology).

import { MIN_SCALE, MAX_SCALE } from './view.js';

const DRAG_THRESHOLD = 6;

export function localPoint(svg, ev) {
  const r = svg.getBoundingClientRect();
  return [ev.clientX - r.left, ev.clientY - r.top];
}

/** What a click or key on `t` asks for: {action}, {spot, figure}, {ghost}, {cell: [x, y]} or null. */
function targetOf(t) {
  // An expansion's button on the board (a step of a stage of the turn, a target of the figure step).
  const action = t.closest('[data-action]');
  if (action) return { action: action.getAttribute('data-action') };
  const spot = t.closest('[data-spot]');
  // A spot names its port and its figure (a special figure may share port C with a monk).
  if (spot) return { spot: spot.getAttribute('data-spot'), figure: spot.getAttribute('data-figure') ?? 'meeple' };
  if (t.closest('[data-ghost]')) return { ghost: true };
  const cell = t.closest('[data-cell]');
  if (cell) return { cell: [Number(cell.getAttribute('data-x')), Number(cell.getAttribute('data-y'))] };
  return null;
}

function dispatch(board, target) {
  if (!target) return false;
  if (target.action) board.onActionClick(target.action);
  else if (target.spot) board.onSpotClick(target.spot, target.figure);
  else if (target.ghost) board.onGhostClick();
  else board.onCellClick(...target.cell);
  return true;
}

export function bindBoardInput(board) {
  const svg = board.svg;
  svg.addEventListener('wheel', (ev) => {
    ev.preventDefault();
    const [sx, sy] = localPoint(svg, ev);
    const delta = ev.deltaMode === 1 ? ev.deltaY * 16 : ev.deltaY;
    board.zoomBy(Math.exp(-delta * 0.0015), sx, sy);
  }, { passive: false });

  // A mouse over a legal cell shows the tile held there (a touch has no hover).
  svg.addEventListener('pointerover', (ev) => {
    if (ev.pointerType !== 'mouse') return;
    const cell = ev.target instanceof Element ? ev.target.closest('.legal-cell') : null;
    if (cell) board.showPreview(cell);
  });

  svg.addEventListener('pointerdown', (ev) => {
    if (ev.button !== undefined && ev.button > 0) return;
    board.stopTween();
    board.pointers.set(ev.pointerId, localPoint(svg, ev));
    if (board.pointers.size === 1) {
      board.gesture = { kind: 'maybe-pan', start: localPoint(svg, ev), view: { ...board.view }, id: ev.pointerId };
      board.suppressClick = false;
    } else if (board.pointers.size === 2) {
      const [a, b] = [...board.pointers.values()];
      board.gesture = {
        kind: 'pinch',
        dist: Math.hypot(a[0] - b[0], a[1] - b[1]) || 1,
        mid: [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2],
        view: { ...board.view },
      };
      board.suppressClick = true;
      for (const id of board.pointers.keys()) {
        try { svg.setPointerCapture(id); } catch { /* pointer gone */ }
      }
    }
  });

  svg.addEventListener('pointermove', (ev) => {
    if (!board.pointers.has(ev.pointerId)) return;
    const p = localPoint(svg, ev);
    board.pointers.set(ev.pointerId, p);
    const g = board.gesture;
    if (!g) return;
    if (g.kind === 'maybe-pan' || g.kind === 'pan') {
      const dx = p[0] - g.start[0];
      const dy = p[1] - g.start[1];
      if (g.kind === 'maybe-pan' && Math.hypot(dx, dy) < DRAG_THRESHOLD) return;
      if (g.kind === 'maybe-pan') {
        g.kind = 'pan';
        board.suppressClick = true;
        svg.classList.add('panning');
        try { svg.setPointerCapture(ev.pointerId); } catch { /* ignore */ }
      }
      board.view = { ...g.view, tx: g.view.tx + dx, ty: g.view.ty + dy };
      board.autoFit = false;
      board.autoMoved = false;
      board.apply();
    } else if (g.kind === 'pinch' && board.pointers.size >= 2) {
      const [a, b] = [...board.pointers.values()];
      const dist = Math.hypot(a[0] - b[0], a[1] - b[1]) || 1;
      const mid = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
      const v = g.view;
      const ns = Math.max(MIN_SCALE, Math.min(MAX_SCALE, v.scale * (dist / g.dist)));
      const wx = (g.mid[0] - v.tx) / v.scale;
      const wy = (g.mid[1] - v.ty) / v.scale;
      board.view = { scale: ns, tx: mid[0] - wx * ns, ty: mid[1] - wy * ns };
      board.autoFit = false;
      board.autoMoved = false;
      board.apply();
    }
  });

  const end = (ev) => {
    if (!board.pointers.has(ev.pointerId)) return;
    board.pointers.delete(ev.pointerId);
    svg.classList.remove('panning');
    if (board.gesture && (board.gesture.kind === 'pan' || board.gesture.kind === 'pinch')) board.userMoved();
    if (board.pointers.size === 1 && board.gesture?.kind === 'pinch') {
      const [id, p] = [...board.pointers.entries()][0];
      board.gesture = { kind: 'pan', start: p, view: { ...board.view }, id };
    } else if (board.pointers.size === 0) {
      board.gesture = null;
    }
  };
  svg.addEventListener('pointerup', end);
  svg.addEventListener('pointercancel', end);

  svg.addEventListener('click', (ev) => {
    if (board.suppressClick) {
      board.suppressClick = false;
      return;
    }
    const t = ev.target instanceof Element ? ev.target : null;
    if (t) dispatch(board, targetOf(t));
  });

  svg.addEventListener('keydown', (ev) => {
    const t = ev.target instanceof Element ? ev.target : null;
    if (!t || t === svg || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    // Arrows move among the meeple spots (one tab stop for all of them).
    const spot = t.closest('[data-spot]');
    if (spot && /^Arrow/.test(ev.key)) {
      const all = [...svg.querySelectorAll('[data-spot]')];
      const step = ev.key === 'ArrowRight' || ev.key === 'ArrowDown' ? 1 : -1;
      const next = all[(all.indexOf(spot) + step + all.length) % all.length];
      for (const s of all) s.setAttribute('tabindex', s === next ? '0' : '-1');
      next.focus({ preventScroll: true });
      ev.preventDefault();
      ev.stopPropagation();
      return;
    }
    if (ev.key !== 'Enter' && ev.key !== ' ') return;
    const target = targetOf(t);
    // Enter on the tile being placed confirms it (turn/keyboard.js); Space turns it.
    if (!target || (target.ghost && ev.key === 'Enter')) return;
    dispatch(board, target);
    ev.preventDefault();
    ev.stopPropagation();
  });
}

/** What has the keyboard focus inside the board: {cell: "x,y"} | {spot} | {ghost} | null. */
export function focusedKey(board) {
  const el = document.activeElement;
  if (!el || !board.svg.contains(el) || el === board.svg) return null;
  const g = el.closest('[data-testid]');
  if (!g) return null;
  if (g.dataset.testid === 'cell') return { cell: `${g.dataset.x},${g.dataset.y}` };
  if (g.dataset.testid === 'meeple-spot') return { spot: g.dataset.port, figure: g.dataset.figure ?? 'meeple' };
  if (g.dataset.testid === 'ghost') return { ghost: true };
  return null;
}

/** Gives the focus back after a redraw: the same control, else the tile being placed. */
export function restoreFocus(board, key) {
  if (!key || board.svg.contains(document.activeElement)) return;
  const { legal, draft } = board.layers;
  let el = null;
  if (key.cell) {
    const [x, y] = key.cell.split(',');
    el = legal.querySelector(`[data-testid="cell"][data-x="${x}"][data-y="${y}"]`);
  }
  // Port and figure: a special figure's spot and the monk's may share port C.
  if (key.spot) el = draft.querySelector(`[data-testid="meeple-spot"][data-port="${key.spot}"][data-figure="${key.figure}"]`);
  el ??= draft.querySelector('[data-testid="ghost"]') ?? legal.querySelector('[tabindex="0"]');
  el?.focus({ preventScroll: true });
}
