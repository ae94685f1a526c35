// A room page's turn being prepared: picking a cell (by click, arrow key or the tile in the
// action bar), turning the tile, choosing a spot, cancelling, confirming, a move made
// offline sent once the connection is back, and the unsent placement kept through a reload
// (session storage, `carc.draft.<room>`). RoomPage's methods (room.js mixes them in);
// the draft's pure logic is draft.js.

import { isMyTurn, legalCells, legalAt } from '../game/state.js';
import { t } from '../i18n/i18n.js';
import {
  startDraft, nearestCell, entryOf, rotateDraft, toggleMeeple, withoutMeeple, markPending, keepDraft, stepTarget, playMessage, savedDraft, restoreDraft,
} from './draft.js';
import { KEYS, session } from '../platform/storage.js';
import { toast } from '../pages/page.js';
import { choiceFits } from '../game/figure-spots.js';
import { ask } from '../expansions/registry.js';

export const draftActions = {
  /** After each render: the unsent placement as a reload would find it (nothing once sent or gone). */
  keepForReload() {
    const saved = savedDraft(this.draft);
    const text = saved ? JSON.stringify(saved) : null;
    if (text === this.savedText) return;
    this.savedText = text;
    if (text) session.set(KEYS.draft(this.room), text);
    else if (!this.draft || this.draft.pending) session.del(KEYS.draft(this.room));
  },

  /** The state is here: the placement a reload interrupted comes back, if its turn still runs. */
  restoreFromReload() {
    if (this.draft || this.restoreTried || !isMyTurn(this.store)) return;
    this.restoreTried = true;
    let saved = null;
    try {
      saved = JSON.parse(session.get(KEYS.draft(this.room)) ?? 'null');
    } catch {
      saved = null;
    }
    const d = restoreDraft(this.store.state, saved);
    if (!d) return;
    this.draft = d;
  },

  selectCell(x, y) {
    if (!isMyTurn(this.store) || this.draft?.pending) return;
    if (this.draft && this.draft.x === x && this.draft.y === y) return this.rotate();
    const d = startDraft(this.store.state, x, y);
    if (!d) return;
    this.draft = d;
    // Close enough to tap the meeple spots (24 px, 32 px on touch), neighbours in view.
    this.board.focusCell(x, y);
    this.render();
  },

  // Arrow keys move the tile to the nearest legal cell in that direction (from the middle
  // of the view for the first press).
  stepCell(key) {
    if (this.draft?.pending) return;
    const best = stepTarget(legalCells(this.store.state), this.draft, key, this.board.centreCell());
    if (!best) return;
    this.selectCell(best.x, best.y);
    // The keyboard goes on with the tile: its name says where it is (assistive technology).
    this.board.focusGhost();
  },

  /** The tile in the action bar: turns the tile being placed, or picks a cell to start with. */
  previewClick() {
    if (!isMyTurn(this.store) || this.draft?.pending) return;
    if (this.draft) return this.rotate();
    const best = nearestCell(legalCells(this.store.state), this.board.centreCell());
    if (best) this.selectCell(best.x, best.y);
  },

  updateDraft(next) {
    if (next === this.draft) return;
    this.draft = next;
    this.render();
  },

  rotate() {
    this.updateDraft(rotateDraft(this.draft));
  },

  /** A spot's choice (a port, "<figure>:<port>", "return": game/figure-spots.js). */
  chooseSpot(choice) {
    this.updateDraft(toggleMeeple(this.draft, choice));
  },

  noMeeple() {
    this.updateDraft(withoutMeeple(this.draft));
  },

  cancelDraft() {
    if (!this.draft || this.draft.pending) return;
    this.draft = null;
    this.render();
  },

  confirmDraft() {
    const d = this.draft;
    if (!d || d.pending || !isMyTurn(this.store)) return;
    if (!this.send(playMessage(d, this.store.version))) {
      // The connection is down: the move waits, says so, and goes once it is back (if the
      // board still allows it, see sendQueued).
      this.queued = d;
      toast(t('offline.queued'), 'info', 6000);
    }
    this.updateDraft(markPending(d));
  },

  /**
   * A button an expansion drew on the board (`data-action`, expansions/registry.js:
   * boardAction): a message to send (a step of a stage, once per version) or a draft choice.
   */
  boardAction(action) {
    const { state, version } = this.store;
    const r = ask('boardAction', action, { state, seat: this.store.seat, version });
    if (r?.send) {
      if (this.actionSent === version) return;
      if (this.send(r.send)) this.actionSent = version;
      else toast(t('offline.banner'), 'error', 5000);
    } else if (r?.choose && this.draft && !this.draft.pending) this.chooseSpot(r.choose);
  },

  /** Back online (a welcome): the move made while offline is sent if it is still legal. */
  sendQueued() {
    const d = this.queued;
    if (!d) return;
    this.queued = null;
    const rotation = entryOf(d).rotation;
    const entry = legalAt(this.store.state, d.x, d.y).find((l) => l.rotation === rotation);
    const still = keepDraft(d, this.store) && entry && choiceFits(entry, d.meeple, this.store.state.turn); // a special figure, a take-back or an expansion's choice too
    if (still && this.send(playMessage(d, this.store.version))) {
      this.draft = markPending(d);
      toast(t('offline.sent'), 'info', 4000);
    } else {
      this.draft = null;
      toast(t('offline.dropped'), 'error', 7000);
    }
    this.render();
  },
};
