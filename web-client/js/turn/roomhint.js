// A room page's hint (hint.js): asking for it, the hinted move drawn as a ghost tile while
// no placement is prepared, its reason in words (why.js), and a click on the ghost that
// takes the move as the turn's placement. RoomPage's methods (room.js mixes them in).

import { t, getLanguage, playerName } from '../i18n/i18n.js';
import { isMyTurn, playerBySeat } from '../game/state.js';
import { moveGhost, canAskHint, hintForTurn, hintDraft } from './hint.js';
import { moveGains, reasonText } from './why.js';

export const hintActions = {
  askHint() {
    if (!canAskHint(this.store.state, this.store) || this.asking) return;
    if (hintForTurn(this.hint, this.store.state)) return this.render(); // already shown
    if (this.send({ type: 'hint' })) this.asking = true;
    this.render();
  },

  /** The hinted move of this turn as a ghost tile, while no placement is prepared. */
  hintGhost(state) {
    const hint = hintForTurn(this.hint, state);
    if (!hint || !isMyTurn(this.store)) return null;
    const m = hint.move ?? {};
    const label = t('hint.ghost', { x: m.x, y: m.y, deg: Number(m.rotation) || 0 });
    return moveGhost(m, state.turn.tile, this.tiles[state.turn.tile], playerBySeat(state, this.store.seat)?.color ?? 'red', label);
  },

  /** Why the hinted move, in words, while its ghost is shown (worked out once a turn). */
  hintWhy(state) {
    const hint = hintForTurn(this.hint, state);
    if (!hint || this.draft || !isMyTurn(this.store) || !state.turn) return null;
    const key = `${hint.turn}:${getLanguage()}`;
    if (this.whyKey !== key) {
      const names = (seats) => seats.map((s) => playerName(playerBySeat(state, s)));
      this.whyKey = key;
      this.whyText = reasonText(moveGains(state, this.tiles, state.turn.tile, hint.move, this.store.seat), names) || null;
    }
    return this.whyText;
  },

  /**
   * A click (or Space) on the tile being placed turns it; on the hint's ghost, the hinted
   * move becomes the placement, figure and all, ready to confirm. The ghost stands on its
   * cell, so this is the click that reaches it.
   */
  ghostClick() {
    if (this.draft) return this.rotate();
    const state = this.store.state;
    const hint = hintForTurn(this.hint, state);
    if (!hint || !isMyTurn(this.store)) return;
    const d = hintDraft(state, hint.move);
    if (!d) return;
    this.draft = d;
    this.board.focusCell(d.x, d.y);
    this.render();
  },
};
