// The board: SVG rendering of the placed tiles, meeples, legal cells and the tile being
// placed, pan (drag) and zoom input (boardinput.js), the view's tween, and the board's
// animations. The camera (the fit, the view kept per room, the turn view, a chosen cell
// brought close, the review's framed move) is boardcamera.js's; view.js does the arithmetic.
//
// The camera keeps the player's view (camera: 'keep', the room): the board is fitted once,
// then only followed, panned smoothly at the same zoom, when a new tile falls outside the
// view; the zoom and the centre are remembered (`memory`, per room) across reloads. The
// replay viewer (camera: 'fit') fits every step until the player moves the view.

import { pulseCells, hoverCells, flashScore, playFinalScoring } from './boardfx.js';
import { SIZES } from './view.js';
import { cameraMethods } from './boardcamera.js';
import { bindBoardInput, focusedKey, restoreFocus } from './boardinput.js';
import { cleanBoard, tilesMarkup, lastMarkup, meeplesMarkup, expansionLayerMarkup, legalMarkup, draftMarkup, previewMarkup } from './boardart.js';

const SVG_NS = 'http://www.w3.org/2000/svg';
const TWEEN_MS = 200;
// Meeples grow when the board is zoomed out, up to this factor, so that they stay about
// MEEPLE_MIN_PX tall and their colour and glyph can be told apart.
const MEEPLE_MIN_PX = 16;
const MEEPLE_MAX_ZOOM = 1.7;

function el(name, attrs = {}) {
  const e = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

export class Board {
  /** overlay: an element over the board (the zoom buttons) where no needed cell may sit. */
  /** memory: {load() -> {scale, cx, cy} | null, save(v)}: where the view is kept (camera 'keep'). */
  constructor(svg, { onCellClick, onSpotClick, onGhostClick, onActionClick, onUserMove, overlay = null, camera = 'fit', memory = null } = {}) {
    this.svg = svg;
    this.camera = camera;
    this.memory = memory;
    this.hasView = false; // the first view (fit or remembered) was set
    this.overlay = overlay ?? svg.parentElement?.querySelector('.board-tools') ?? null;
    this.tween = null;
    this.onCellClick = onCellClick ?? (() => {});
    this.onSpotClick = onSpotClick ?? (() => {});
    this.onGhostClick = onGhostClick ?? (() => {});
    this.onActionClick = onActionClick ?? (() => {}); // an expansion's button (data-action)
    this.onUserMove = onUserMove ?? (() => {});
    this.tiles = {};
    this.view = { tx: 0, ty: 0, scale: 1 };
    // autoFit: the board chooses the view (the fit, or the turn view while the player's
    // turn asks for one); false once the player moved it. autoMoved: the view was moved
    // by the board itself (a chosen cell brought close), so it may go back afterwards.
    this.autoFit = true;
    this.autoMoved = false;
    this.turnLegal = null;
    this.fitAsked = false;
    this.lastBoundsKey = '';
    this.viewSize = null; // the board's size when the view was last set
    this.pointers = new Map();
    this.gesture = null;
    this.suppressClick = false;

    this.vp = el('g', { class: 'vp' });
    this.layers = {};
    for (const name of ['tiles', 'last', 'meeples', 'pieces', 'legal', 'draft', 'fx']) {
      this.layers[name] = el('g', { class: `layer-${name}` });
      this.vp.appendChild(this.layers[name]);
    }
    svg.appendChild(this.vp);
    bindBoardInput(this);
    if (typeof ResizeObserver === 'function') {
      new ResizeObserver(() => {
        const now = this.size();
        const was = this.viewSize;
        if (this.autoFit) this.autoView();
        else if (was && this.camera === 'keep') {
          // The same board point stays in the middle when the page changes size. The shift
          // is from the size the view was made for: a view set after the change (the turn
          // view of the host's first turn, made as the lobby card gave way to the board)
          // is already right and does not move.
          this.view = { ...this.view, tx: this.view.tx + (now.w - was.w) / 2, ty: this.view.ty + (now.h - was.h) / 2 };
          this.apply();
        } else this.apply();
        this.viewSize = now;
      }).observe(svg);
    }
  }

  setCatalog(catalog) {
    this.tiles = Object.fromEntries(catalog.tiles.map((t) => [t.letter, t]));
  }

  // Read when asked, not kept: a box kept from the last layout was stale when the same redraw
  // changed the page's layout (the action bar appearing on a phone's first turn), and the
  // turn's view then put a legal cell under the zoom buttons.
  size() {
    const r = this.svg.getBoundingClientRect();
    return { w: r.width || 1, h: r.height || 1 };
  }

  /** The viewport for view.js: the size, less the strip the overlay covers. */
  viewport() {
    const r = this.svg.getBoundingClientRect();
    const o = this.overlay?.getBoundingClientRect?.();
    const w = r.width || 1;
    const h = r.height || 1;
    const insets = { top: 0, right: 0, bottom: 0, left: 0 };
    const covers = [];
    if (o && o.width && o.height) {
      // A tall overlay on the right takes a column; a wide one at the bottom, a row.
      if (o.height >= o.width) insets.right = Math.max(0, r.right - o.left + 4);
      else insets.bottom = Math.max(0, r.bottom - o.top + 4);
      covers.push({ x: o.left - r.left - 2, y: o.top - r.top - 2, w: o.width + 4, h: o.height + 4 });
    }
    return { w, h, insets, covers };
  }

  /** Whether this is a touch screen (view.js's sizes differ). */
  static touch() {
    return !!globalThis.matchMedia?.('(pointer: coarse)').matches;
  }

  sizes() {
    return Board.touch() ? SIZES.touch : SIZES.desktop;
  }

  apply() {
    const { tx, ty, scale } = this.tweenView ?? this.view;
    this.vp.setAttribute('transform', `translate(${tx.toFixed(2)} ${ty.toFixed(2)}) scale(${scale.toFixed(4)})`);
    // The target scale, even while a move is animated.
    this.svg.dataset.scale = this.view.scale.toFixed(3);
    const zoom = Math.max(1, Math.min(MEEPLE_MAX_ZOOM, MEEPLE_MIN_PX / (24 * scale)));
    this.svg.style.setProperty('--meeple-zoom', zoom.toFixed(3));
  }

  /** Moves the view to `v`, animated (a short ease) unless asked not to or reduced motion. */
  setView(v, { animate = false } = {}) {
    this.viewSize = this.size(); // the size the view is made for (the resize observer's base)
    cancelAnimationFrame(this.tween ?? 0);
    this.tween = null;
    const from = this.tweenView ?? this.view;
    this.view = v;
    this.tweenView = null;
    const reduced = globalThis.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
    const still = Math.abs(v.scale - from.scale) < 1e-4 && Math.abs(v.tx - from.tx) < 0.5 && Math.abs(v.ty - from.ty) < 0.5;
    if (!animate || still || reduced || typeof requestAnimationFrame !== 'function') {
      this.svg.dataset.moving = '0';
      this.apply();
      return;
    }
    const t0 = performance.now();
    this.svg.dataset.moving = '1';
    const step = (now) => {
      const k = Math.min(1, (now - t0) / TWEEN_MS);
      const e = 1 - (1 - k) ** 3;
      this.tweenView = k >= 1 ? null : {
        scale: from.scale + (v.scale - from.scale) * e, tx: from.tx + (v.tx - from.tx) * e, ty: from.ty + (v.ty - from.ty) * e,
      };
      this.apply();
      if (k < 1) this.tween = requestAnimationFrame(step);
      else {
        this.tween = null;
        this.svg.dataset.moving = '0';
      }
    };
    this.tween = requestAnimationFrame(step);
  }

  stopTween() {
    if (!this.tweenView) return;
    cancelAnimationFrame(this.tween ?? 0);
    this.tween = null;
    this.view = { ...this.tweenView }; // stay where the eye is
    this.tweenView = null;
    this.svg.dataset.moving = '0';
  }

  /**
   * Draws everything. view = {state, legalCells: [{x, y, rotation}], draft:
   * {x, y, tile, rotation, spots, meeple, color} | null, bounds, previewTile}
   */
  render({ state, legalCells = [], draft = null, bounds, previewTile = null, cellLabel = () => '', layerCtx = {} }) {
    const board = cleanBoard(state);
    this.placed = board.map((b) => ({ x: b.x, y: b.y }));
    // The newest tile slides in once, when it is new to this page.
    const lastKey = board.length > 1 ? `${board.length}:${board[board.length - 1].x},${board[board.length - 1].y}` : '';
    const fresh = this.freshKey !== undefined && lastKey !== this.freshKey && board.length > 1;
    this.freshKey = lastKey;
    const focus = this.focusedKey();
    this.drawTiles(board, fresh);
    this.setLayer('last', () => (board.length > 1 ? lastMarkup(state) : ''));
    this.setLayer('meeples', () => meeplesMarkup(board, this.tiles, state));
    this.setLayer('pieces', () => expansionLayerMarkup(state, board, this.tiles, layerCtx)); // the expansions' (expansions/registry.js)
    if (focus?.cell) this.cellFocus = focus.cell;
    this.previewDef = previewTile ? this.tiles[previewTile] ?? null : null;
    this.setLayer('legal', () => legalMarkup(legalCells, draft, { labelOf: cellLabel, focusKey: this.cellFocus }));
    // The tile turns from the rotation shown before, once per change of rotation.
    const ghostKey = draft ? `${draft.x},${draft.y}` : '';
    if (!draft) this.turning = null;
    else if (!this.turning || this.turning.cell !== ghostKey) this.turning = { cell: ghostKey, rotation: draft.rotation, from: null };
    else if (this.turning.rotation !== draft.rotation) this.turning = { cell: ghostKey, rotation: draft.rotation, from: this.turning.rotation };
    this.setLayer('draft', () => draftMarkup(draft && { ...draft, turnFrom: this.turning?.from }, this.tiles, this.sizes().spotUnits));
    this.restoreFocus(focus);

    const key = bounds ? `${bounds.minX},${bounds.minY},${bounds.maxX},${bounds.maxY}` : '';
    if (bounds) this.bounds = bounds;
    if (bounds && !this.hasView) {
      this.lastBoundsKey = key;
      this.firstView();
    } else if (this.camera === 'keep') {
      if (fresh) {
        // The board was fitted once; from the first move on, only followed.
        this.autoFit = false;
        this.follow(board.at(-1).x, board.at(-1).y);
      }
    } else if (key !== this.lastBoundsKey) {
      this.lastBoundsKey = key;
      if (this.autoFit) this.autoView();
    }
  }

  /**
   * The tiles' layer, one <g> per tile in the board's order. Only what changed is touched:
   * a new tile is appended and the ones before it stay, so the page does not restyle, lay
   * out and repaint the whole board for every move (a replay going back removes the last).
   */
  drawTiles(board, fresh) {
    const layer = this.layers.tiles;
    const drawn = board.filter((b) => this.tiles[b.tile]);
    const keys = drawn.map((b) => `${b.x},${b.y},${b.tile},${b.rotation}`);
    const old = this.tileKeys ?? [];
    let same = 0;
    while (same < old.length && same < keys.length && old[same] === keys[same]) same++;
    if (same === old.length && same === keys.length) return;
    if (layer.childElementCount !== old.length) same = 0; // drawn by someone else: start over
    while (layer.childElementCount > same) layer.lastElementChild.remove();
    for (const g of layer.querySelectorAll('.fresh')) g.classList.remove('fresh');
    const freshIndex = fresh && drawn.at(-1) === board.at(-1) ? drawn.length - 1 - same : -1;
    layer.insertAdjacentHTML('beforeend', tilesMarkup(drawn.slice(same), this.tiles, freshIndex));
    this.tileKeys = keys;
  }

  /** The mouse came over a legal cell: the tile held, drawn faintly there (made once per cell and tile). */
  showPreview(cell) {
    const def = this.previewDef;
    const [x, y, r] = ['x', 'y', 'rotation'].map((k) => Number(cell.getAttribute(`data-${k}`)));
    const want = def ? `${def.letter}:${r}` : '';
    if (cell.getAttribute('data-preview') === want) return;
    cell.setAttribute('data-preview', want);
    cell.querySelector('.preview')?.remove();
    cell.insertAdjacentHTML('afterbegin', previewMarkup(def, x, y, r));
  }

  /** Redraws a layer only when what it shows changed, so that focus and animations survive. */
  setLayer(name, markup, key = null) {
    const k = key ?? markup();
    if (this.layerKeys?.[name] === k) return;
    (this.layerKeys ??= {})[name] = k;
    this.layers[name].innerHTML = key === null ? k : markup();
  }

  focusedKey() {
    return focusedKey(this);
  }

  restoreFocus(key) {
    restoreFocus(this, key);
  }

  /** Moves the focus to the tile being placed (after the keyboard chose a cell). */
  focusGhost() {
    this.layers.draft.querySelector('[data-testid="ghost"]')?.focus({ preventScroll: true });
  }

  /** Briefly outlines some cells (a log line was clicked), bringing them into view. */
  pulseCells(cells) {
    pulseCells(this, cells);
  }

  /** Outlines cells while a log line is hovered (null clears). */
  hoverCells(cells) {
    hoverCells(this, cells);
  }

  /** Points rising from a scored feature: event.cells, event.points, seat colours. */
  flashScore(event, colors) {
    flashScore(this, event, colors);
  }

  /** The final scoring, feature by feature (see boardfx.js). */
  playFinalScoring(items, colorsOf, opts) {
    return playFinalScoring(this, items, colorsOf, opts);
  }
}

// The camera: boardcamera.js.
Object.assign(Board.prototype, cameraMethods);
