// The board: SVG rendering of the placed tiles, meeples, legal cells and the tile being
// placed, plus pan (drag), zoom (wheel, pinch, buttons) and fit.

import { meepleAnchor, featureAt, TILE } from './geometry.js';
import { tileMarkup, meepleMarkup, playerColor } from './tileart.js';
import { playerBySeat } from './state.js';

const SVG_NS = 'http://www.w3.org/2000/svg';
const MIN_SCALE = 0.12;
const MAX_SCALE = 3;
const DRAG_THRESHOLD = 6;

function el(name, attrs = {}) {
  const e = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

const PORT_RE = /^(?:[NESW][LR]?|C)$/;

function validPlacement(b) {
  return b && Number.isInteger(b.x) && Number.isInteger(b.y) && [0, 90, 180, 270].includes(b.rotation) && /^[A-Z]$/.test(b.tile);
}

export class Board {
  constructor(svg, { onCellClick, onSpotClick, onGhostClick, onUserMove } = {}) {
    this.svg = svg;
    this.onCellClick = onCellClick ?? (() => {});
    this.onSpotClick = onSpotClick ?? (() => {});
    this.onGhostClick = onGhostClick ?? (() => {});
    this.onUserMove = onUserMove ?? (() => {});
    this.tiles = {};
    this.view = { tx: 0, ty: 0, scale: 1 };
    this.autoFit = true;
    this.lastBoundsKey = '';
    this.pointers = new Map();
    this.gesture = null;
    this.suppressClick = false;

    this.vp = el('g', { class: 'vp' });
    this.layers = {};
    for (const name of ['tiles', 'last', 'meeples', 'legal', 'draft', 'fx']) {
      this.layers[name] = el('g', { class: `layer-${name}` });
      this.vp.appendChild(this.layers[name]);
    }
    svg.appendChild(this.vp);
    this.bindInput();
    if (typeof ResizeObserver === 'function') {
      new ResizeObserver(() => {
        if (this.autoFit) this.fit();
        else this.apply();
      }).observe(svg);
    }
  }

  setCatalog(catalog) {
    this.tiles = Object.fromEntries(catalog.tiles.map((t) => [t.letter, t]));
  }

  size() {
    const r = this.svg.getBoundingClientRect();
    return { w: r.width || 1, h: r.height || 1 };
  }

  apply() {
    const { tx, ty, scale } = this.view;
    this.vp.setAttribute('transform', `translate(${tx.toFixed(2)} ${ty.toFixed(2)}) scale(${scale.toFixed(4)})`);
    this.svg.dataset.scale = scale.toFixed(3);
  }

  /** Shows the whole board (and the given extra cells) in the view. */
  fit(bounds = this.bounds) {
    if (!bounds) return;
    this.bounds = bounds;
    const { w, h } = this.size();
    const pad = 0.6;
    const bw = (bounds.maxX - bounds.minX + 1 + pad * 2) * TILE;
    const bh = (bounds.maxY - bounds.minY + 1 + pad * 2) * TILE;
    const scale = Math.max(MIN_SCALE, Math.min(1.3, Math.min(w / bw, h / bh)));
    const cx = ((bounds.minX + bounds.maxX + 1) / 2) * TILE;
    const cy = ((bounds.minY + bounds.maxY + 1) / 2) * TILE;
    this.view = { scale, tx: w / 2 - cx * scale, ty: h / 2 - cy * scale };
    this.apply();
  }

  fitNow() {
    this.autoFit = true;
    this.fit();
  }

  /** Centres a cell, zooming in to at least `minScale` (used on touch screens). */
  focusCell(x, y, minScale = 1.1) {
    const { w, h } = this.size();
    const scale = Math.min(MAX_SCALE, Math.max(this.view.scale, minScale));
    const cx = (x + 0.5) * TILE;
    const cy = (y + 0.5) * TILE;
    this.view = { scale, tx: w / 2 - cx * scale, ty: h / 2 - cy * scale };
    this.autoFit = false;
    this.apply();
  }

  zoomBy(factor, sx, sy) {
    const { w, h } = this.size();
    if (sx === undefined) { sx = w / 2; sy = h / 2; }
    const { tx, ty, scale } = this.view;
    const ns = Math.max(MIN_SCALE, Math.min(MAX_SCALE, scale * factor));
    const wx = (sx - tx) / scale;
    const wy = (sy - ty) / scale;
    this.view = { scale: ns, tx: sx - wx * ns, ty: sy - wy * ns };
    this.autoFit = false;
    this.apply();
    this.onUserMove();
  }

  localPoint(ev) {
    const r = this.svg.getBoundingClientRect();
    return [ev.clientX - r.left, ev.clientY - r.top];
  }

  bindInput() {
    const svg = this.svg;
    svg.addEventListener('wheel', (ev) => {
      ev.preventDefault();
      const [sx, sy] = this.localPoint(ev);
      const delta = ev.deltaMode === 1 ? ev.deltaY * 16 : ev.deltaY;
      this.zoomBy(Math.exp(-delta * 0.0015), sx, sy);
    }, { passive: false });

    svg.addEventListener('pointerdown', (ev) => {
      if (ev.button !== undefined && ev.button > 0) return;
      this.pointers.set(ev.pointerId, this.localPoint(ev));
      if (this.pointers.size === 1) {
        this.gesture = { kind: 'maybe-pan', start: this.localPoint(ev), view: { ...this.view }, id: ev.pointerId };
        this.suppressClick = false;
      } else if (this.pointers.size === 2) {
        const [a, b] = [...this.pointers.values()];
        this.gesture = {
          kind: 'pinch',
          dist: Math.hypot(a[0] - b[0], a[1] - b[1]) || 1,
          mid: [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2],
          view: { ...this.view },
        };
        this.suppressClick = true;
        for (const id of this.pointers.keys()) {
          try { svg.setPointerCapture(id); } catch { /* pointer gone */ }
        }
      }
    });

    svg.addEventListener('pointermove', (ev) => {
      if (!this.pointers.has(ev.pointerId)) return;
      const p = this.localPoint(ev);
      this.pointers.set(ev.pointerId, p);
      const g = this.gesture;
      if (!g) return;
      if (g.kind === 'maybe-pan' || g.kind === 'pan') {
        const dx = p[0] - g.start[0];
        const dy = p[1] - g.start[1];
        if (g.kind === 'maybe-pan' && Math.hypot(dx, dy) < DRAG_THRESHOLD) return;
        if (g.kind === 'maybe-pan') {
          g.kind = 'pan';
          this.suppressClick = true;
          svg.classList.add('panning');
          try { svg.setPointerCapture(ev.pointerId); } catch { /* ignore */ }
        }
        this.view = { ...g.view, tx: g.view.tx + dx, ty: g.view.ty + dy };
        this.autoFit = false;
        this.apply();
      } else if (g.kind === 'pinch' && this.pointers.size >= 2) {
        const [a, b] = [...this.pointers.values()];
        const dist = Math.hypot(a[0] - b[0], a[1] - b[1]) || 1;
        const mid = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
        const v = g.view;
        const ns = Math.max(MIN_SCALE, Math.min(MAX_SCALE, v.scale * (dist / g.dist)));
        const wx = (g.mid[0] - v.tx) / v.scale;
        const wy = (g.mid[1] - v.ty) / v.scale;
        this.view = { scale: ns, tx: mid[0] - wx * ns, ty: mid[1] - wy * ns };
        this.autoFit = false;
        this.apply();
      }
    });

    const end = (ev) => {
      if (!this.pointers.has(ev.pointerId)) return;
      this.pointers.delete(ev.pointerId);
      svg.classList.remove('panning');
      if (this.gesture && (this.gesture.kind === 'pan' || this.gesture.kind === 'pinch')) this.onUserMove();
      if (this.pointers.size === 1 && this.gesture?.kind === 'pinch') {
        const [id, p] = [...this.pointers.entries()][0];
        this.gesture = { kind: 'pan', start: p, view: { ...this.view }, id };
      } else if (this.pointers.size === 0) {
        this.gesture = null;
      }
    };
    svg.addEventListener('pointerup', end);
    svg.addEventListener('pointercancel', end);

    svg.addEventListener('click', (ev) => {
      if (this.suppressClick) {
        this.suppressClick = false;
        return;
      }
      const t = ev.target instanceof Element ? ev.target : null;
      if (!t) return;
      const spot = t.closest('[data-spot]');
      if (spot) return this.onSpotClick(spot.getAttribute('data-spot'));
      const ghost = t.closest('[data-ghost]');
      if (ghost) return this.onGhostClick();
      const cell = t.closest('[data-cell]');
      if (cell) return this.onCellClick(Number(cell.getAttribute('data-x')), Number(cell.getAttribute('data-y')));
    });
  }

  colorOfSeat(state, seat) {
    return playerBySeat(state, seat)?.color ?? 'black';
  }

  /**
   * Draws everything. view = {state, legalCells: [{x,y}], draft: {x,y,rotation,spots,meeple,color}|null}
   */
  render({ state, legalCells = [], draft = null, bounds, previewTile = null }) {
    // Only well-formed entries reach the markup (it is built as a string).
    const board = (state?.board ?? []).filter(validPlacement).map((b) => ({
      ...b, meeple: b.meeple && PORT_RE.test(b.meeple.at) && Number.isInteger(b.meeple.seat) ? b.meeple : null,
    }));
    legalCells = legalCells.filter((c) => Number.isInteger(c.x) && Number.isInteger(c.y));
    // Tiles.
    let tiles = '';
    const lastTile = board.length > 1 ? board[board.length - 1] : null;
    const lastKey = lastTile ? `${board.length}:${lastTile.x},${lastTile.y}` : '';
    const fresh = this.freshKey !== undefined && lastKey !== this.freshKey;
    this.freshKey = lastKey;
    for (const b of board) {
      const def = this.tiles[b.tile];
      if (!def) continue;
      const cls = fresh && b === lastTile ? 'tile fresh' : 'tile';
      tiles += `<g class="${cls}" data-testid="tile" data-x="${b.x}" data-y="${b.y}" data-tile="${b.tile}" data-rotation="${b.rotation}" transform="translate(${b.x * TILE} ${b.y * TILE})">${tileMarkup(def, b.rotation)}</g>`;
    }
    this.layers.tiles.innerHTML = tiles;

    // The last placed tile (the start tile does not count).
    const last = board.length > 1 ? board[board.length - 1] : null;
    if (last) {
      const placedEv = [...(state.events ?? [])].reverse().find((e) => e.type === 'placed');
      const c = playerColor(this.colorOfSeat(state, placedEv?.seat));
      this.layers.last.innerHTML = `<rect class="last-placed" data-testid="last-placed" data-x="${last.x}" data-y="${last.y}" x="${last.x * TILE + 1.5}" y="${last.y * TILE + 1.5}" width="${TILE - 3}" height="${TILE - 3}" rx="3" fill="none" stroke="${c.fill}" stroke-width="4"/>`;
    } else {
      this.layers.last.innerHTML = '';
    }

    // Meeples on the board.
    let meeples = '';
    for (const b of board) {
      if (!b.meeple) continue;
      const def = this.tiles[b.tile];
      if (!def) continue;
      const a = meepleAnchor(def, b.rotation, b.meeple.at);
      if (!a) continue;
      const farmer = featureAt(def, b.rotation, b.meeple.at)?.kind === 'field';
      meeples += `<g data-testid="board-meeple" data-seat="${b.meeple.seat}" data-x="${b.x}" data-y="${b.y}" data-at="${b.meeple.at}">${meepleMarkup(b.x * TILE + a[0], b.y * TILE + a[1], this.colorOfSeat(state, b.meeple.seat), { farmer, scale: 0.95 })}</g>`;
    }
    this.layers.meeples.innerHTML = meeples;

    // Legal cells.
    let legal = '';
    for (const c of legalCells) {
      if (draft && draft.x === c.x && draft.y === c.y) continue;
      const def = previewTile ? this.tiles[previewTile] : null;
      const preview = def && c.rotation !== undefined
        ? `<g class="preview" transform="translate(${c.x * TILE} ${c.y * TILE})">${tileMarkup(def, c.rotation)}</g>` : '';
      legal += `<g class="legal-cell" data-testid="cell" data-cell="1" data-x="${c.x}" data-y="${c.y}">${preview}
        <rect x="${c.x * TILE + 3}" y="${c.y * TILE + 3}" width="${TILE - 6}" height="${TILE - 6}" rx="8"/>
        <path d="M${c.x * TILE + 50} ${c.y * TILE + 38} v24 M${c.x * TILE + 38} ${c.y * TILE + 50} h24"/></g>`;
    }
    this.layers.legal.innerHTML = legal;

    // The tile being placed, with its meeple spots.
    let d = '';
    if (draft) {
      const def = this.tiles[draft.tile];
      if (def) {
        const ox = draft.x * TILE;
        const oy = draft.y * TILE;
        d += `<g class="ghost" data-ghost="1" data-testid="ghost" data-x="${draft.x}" data-y="${draft.y}" data-rotation="${draft.rotation}" transform="translate(${ox} ${oy})">${tileMarkup(def, draft.rotation)}<rect class="ghost-frame" x="1" y="1" width="98" height="98" rx="3"/></g>`;
        for (const port of (draft.spots ?? []).filter((p) => PORT_RE.test(p))) {
          const a = meepleAnchor(def, draft.rotation, port);
          if (!a) continue;
          const farmer = featureAt(def, draft.rotation, port)?.kind === 'field';
          const chosen = draft.meeple === port;
          d += `<g class="spot${chosen ? ' chosen' : ''}" data-spot="${port}" data-testid="meeple-spot" data-port="${port}" transform="translate(${ox + a[0]} ${oy + a[1]})">
            <circle r="10" class="spot-ring"/>
            ${chosen ? meepleMarkup(0, 0, draft.color, { farmer, scale: 0.95 }) : `<g opacity=".55">${meepleMarkup(0, 0, draft.color, { farmer, scale: 0.7 })}</g>`}
          </g>`;
        }
      }
    }
    this.layers.draft.innerHTML = d;

    const key = bounds ? `${bounds.minX},${bounds.minY},${bounds.maxX},${bounds.maxY}` : '';
    if (bounds) this.bounds = bounds;
    if (key !== this.lastBoundsKey) {
      this.lastBoundsKey = key;
      if (this.autoFit) this.fit();
    }
  }

  /** Briefly outlines some cells (a log line was clicked), bringing them into view. */
  pulseCells(cells) {
    if (!cells.length) return;
    const g = el('g', { class: 'pulse-fx' });
    for (const [x, y] of cells) {
      g.appendChild(el('rect', { class: 'pulse-cell', x: x * TILE + 2, y: y * TILE + 2, width: TILE - 4, height: TILE - 4, rx: 5 }));
    }
    // Pan (without zooming) so that the first cell is visible.
    const { w, h } = this.size();
    const [x0, y0] = cells[0];
    const sx = (x0 + 0.5) * TILE * this.view.scale + this.view.tx;
    const sy = (y0 + 0.5) * TILE * this.view.scale + this.view.ty;
    if (sx < 0 || sy < 0 || sx > w || sy > h) {
      this.view = { ...this.view, tx: w / 2 - (x0 + 0.5) * TILE * this.view.scale, ty: h / 2 - (y0 + 0.5) * TILE * this.view.scale };
      this.autoFit = false;
      this.apply();
    }
    this.layers.fx.appendChild(g);
    setTimeout(() => g.remove(), 1900);
  }

  /** Points rising from a scored feature: event.cells, event.points, seat colours. */
  flashScore(event, colors) {
    const cells = event.cells ?? [];
    if (!cells.length) return;
    const first = colors[0] ? playerColor(colors[0]) : { fill: '#f5c542', text: '#222' };
    const g = el('g', { class: 'score-fx' });
    for (const c of cells) {
      g.appendChild(el('rect', {
        class: 'score-cell', x: c.x * TILE + 2, y: c.y * TILE + 2, width: TILE - 4, height: TILE - 4, rx: 4,
        fill: first.fill, stroke: first.fill,
      }));
    }
    const cx = (cells.reduce((a, c) => a + c.x, 0) / cells.length + 0.5) * TILE;
    const cy = (cells.reduce((a, c) => a + c.y, 0) / cells.length + 0.5) * TILE;
    const labels = colors.length ? colors : [null];
    labels.forEach((colorName, i) => {
      const pc = colorName ? playerColor(colorName) : first;
      const txt = el('text', {
        class: 'score-pop', x: cx + (i - (labels.length - 1) / 2) * 60, y: cy, 'text-anchor': 'middle',
        fill: pc.fill, stroke: pc.fill === '#2b2b2b' ? '#fff' : '#1c1408',
      });
      txt.textContent = `+${event.points}`;
      g.appendChild(txt);
    });
    this.layers.fx.appendChild(g);
    setTimeout(() => g.remove(), 2600);
  }
}
