// The board's camera, mixed into Board (board.js): the fit and the fit button, the view
// kept per room, a new tile followed at the same zoom, the view for the player's turn, a
// chosen cell brought close, the review's framed move, zoom by the buttons and the wheel.
// view.js does the arithmetic.

import { TILE } from '../tiles/geometry.js';
import {
  MIN_SCALE, MAX_SCALE, fitView, cellBounds, turnView, focusView, followView, spotScale, cellInside, coveredCells, viewCentreCell, viewCentre, viewFromCentre,
} from './view.js';

export const cameraMethods = {
  /** Shows the whole board (and the given extra cells) in the view. */
  fit(bounds = this.bounds, opts = {}) {
    if (!bounds) return;
    this.bounds = bounds;
    this.setView(fitView(this.viewport(), bounds), opts);
  },

  /** The scale of the whole-board fit now (what the fit button would show). */
  fitScale() {
    return this.bounds ? fitView(this.viewport(), this.bounds).scale : this.view.scale;
  },

  /** The fit button: the whole board, even when that makes the cells small. */
  fitNow() {
    this.autoFit = true;
    this.autoMoved = false;
    this.fitAsked = true;
    this.fit();
    this.remember();
  },

  /** Keeps the view (its zoom and the board point in the middle) for the next visit. */
  remember() {
    if (this.camera !== 'keep' || !this.memory || !this.hasView) return;
    this.memory.save(viewCentre(this.viewport(), this.view));
  },

  /** The player moved the view (pan, pinch, wheel, buttons). */
  userMoved() {
    this.framed = false;
    this.remember();
    this.onUserMove();
  },

  /** The first view: the one remembered for this room, else the fit. */
  firstView() {
    this.hasView = true;
    const saved = this.camera === 'keep' ? this.memory?.load() : null;
    if (saved) {
      this.autoFit = false;
      this.setView(viewFromCentre(this.viewport(), saved));
    } else this.autoView();
  },

  /** A new tile at (x, y): the view pans to it, at the same zoom, only if it is outside. */
  follow(x, y) {
    const vp = this.viewport();
    if (cellInside(vp, this.view, x, y)) return false;
    this.autoFit = false;
    this.setView(followView(vp, this.view, x, y), { animate: true });
    this.remember();
    return true;
  },

  /** The view the board chooses: the turn view during the player's turn, else the fit. */
  autoView(opts = {}) {
    if (!this.bounds) return;
    if (!this.turnLegal || this.fitAsked) return this.fit(this.bounds, opts);
    this.setView(turnView(this.viewport(), this.bounds, this.turnLegal, { minCell: this.sizes().legalCell }), opts);
  },

  /**
   * The view at the start of the player's turn: legal cells at a size that can be read
   * and hit (view.js turnView). Keeps a view the player chose when it already shows a
   * legal cell at that size. Returns true if the view moved.
   */
  showTurn(legal) {
    this.turnLegal = legal.length ? legal : null;
    this.fitAsked = false;
    if (!this.turnLegal || !this.bounds) return false;
    const vp = this.viewport();
    const min = this.sizes().legalCell;
    // The view stays if it shows a legal cell large enough to hit and none under the zoom buttons.
    const shown = this.view.scale * TILE >= min - 0.5 && legal.some((c) => cellInside(vp, this.view, c.x, c.y))
      && coveredCells(vp, this.view, legal) === 0;
    if ((this.camera === 'keep' || !this.autoFit) && shown) return false;
    this.autoFit = this.camera !== 'keep';
    this.autoMoved = false;
    // At once, not animated: the legal cells are where they will stay as soon as the
    // player (or a test) sees that it is their turn.
    if (this.camera === 'keep') {
      this.setView(turnView(vp, this.bounds, this.turnLegal, { minCell: min }));
      this.remember();
    } else this.autoView();
    return true;
  },

  /** The player's turn is over: a view the board moved by itself goes back to the fit. */
  endTurn() {
    if (!this.turnLegal && !this.autoMoved) return;
    this.turnLegal = null;
    this.fitAsked = false;
    if (this.camera === 'keep') {
      // The view goes back to where it was before a chosen cell was brought close.
      if (this.autoMoved && this.beforeFocus) this.setView(this.beforeFocus, { animate: true });
      this.autoMoved = false;
      this.beforeFocus = null;
      return;
    }
    if (this.autoMoved) {
      this.autoFit = true;
      this.autoMoved = false;
    }
    if (this.autoFit) this.autoView({ animate: true });
  },

  /**
   * Brings a chosen cell close enough to tap its meeple spots (24 px on a desktop, 32 px
   * on touch), with the tiles around it in view. Returns true if the view moved.
   */
  focusCell(x, y) {
    const { spot, spotUnits } = this.sizes();
    const v = focusView(this.viewport(), this.view, x, y, spotScale(spot, spotUnits), this.placed ?? []);
    const same = Math.abs(v.scale - this.view.scale) < 1e-6 && Math.abs(v.tx - this.view.tx) < 0.5 && Math.abs(v.ty - this.view.ty) < 0.5;
    if (same) return false;
    if (!this.autoMoved) this.beforeFocus = { ...this.view };
    this.autoFit = false;
    this.autoMoved = true;
    this.setView(v, { animate: true });
    return true;
  },

  /**
   * Frames some cells with some of their neighbours at a readable size (at most 100 px a tile): the
   * review's move and its better one. The view stays until the board is fitted again.
   */
  frameCells(cells) {
    const b = cellBounds(cells);
    if (!b) return;
    this.autoFit = false;
    this.framed = true;
    this.setView(fitView(this.viewport(), b, { pad: 0.6, maxScale: 1 }), { animate: true });
  },

  /** After a framed move: the whole board again, as before (unless the player moved the view). */
  unframe() {
    if (!this.framed) return;
    this.framed = false;
    this.fitNow();
  },

  /** The cell (fractional) at the centre of the visible board: where arrows start from. */
  centreCell() {
    return viewCentreCell(this.viewport(), this.view);
  },

  zoomBy(factor, sx, sy) {
    const { w, h } = this.size();
    if (sx === undefined) { sx = w / 2; sy = h / 2; }
    this.stopTween();
    const { tx, ty, scale } = this.view;
    const ns = Math.max(MIN_SCALE, Math.min(MAX_SCALE, scale * factor));
    const wx = (sx - tx) / scale;
    const wy = (sy - ty) / scale;
    this.view = { scale: ns, tx: sx - wx * ns, ty: sy - wy * ns };
    this.autoFit = false;
    this.autoMoved = false;
    this.apply();
    this.userMoved();
  },
};
