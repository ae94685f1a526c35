// Hints (docs/protocol-details.md): the Hint button of the action bar (and the H key), the hinted move drawn
// as a ghost tile with its figure (the same ghost the replay review draws for a better
// move), and the host's checkbox in the lobby. The server computes the move: the client
// sends {"type":"hint"} and gets {"type":"hint","turn","move"} (docs/protocol-details.md).

import { t } from '../i18n/i18n.js';
import { h } from '../platform/dom.js';
import { isMyTurn } from '../game/state.js';
import { spotLayout } from '../board/spots.js';
import { spotChoice, choiceFits, RETURN } from '../game/figure-spots.js';
import { figureIds } from '../expansions/registry.js';
import { startDraft } from './draft.js';

/**
 * A move ({x, y, rotation, meeple?, figure?}) of `tile` as the board's ghost
 * ({x, y, tile, rotation, spots, meeple, color, label}), or null if it places nothing.
 */
export function moveGhost(move, tile, def, color, label) {
  if (!move || !def || !Number.isInteger(move.x) || !Number.isInteger(move.y)) return null;
  const rotation = Number(move.rotation) || 0;
  const figure = figureIds().includes(move.figure) ? move.figure : 'meeple'; // a special figure (expansions/registry.js)
  const spots = move.meeple ? spotLayout(def, rotation, [move.meeple], 24, figure) : [];
  return { x: move.x, y: move.y, tile, rotation, spots, meeple: move.meeple ? spotChoice(move.meeple, figure) : null, color, label };
}

/**
 * The hinted move as the turn's draft (draft.js): its cell, its rotation and its figure,
 * so that a click on the hint's ghost takes it; null when the board no longer allows it.
 */
export function hintDraft(state, move) {
  if (!move || !Number.isInteger(move.x) || !Number.isInteger(move.y)) return null;
  const d = startDraft(state, move.x, move.y);
  if (!d) return null;
  const idx = d.options.findIndex((o) => o.rotation === (Number(move.rotation) || 0));
  if (idx < 0) return null;
  const figure = figureIds().includes(move.figure) ? move.figure : 'meeple';
  const choice = move.return ? RETURN : move.meeple ? spotChoice(move.meeple, figure) : null;
  const meeple = choiceFits(d.options[idx], choice) ? choice : null;
  return { ...d, idx, meeple, ...(meeple && figure !== 'meeple' ? { figure } : {}) };
}

/** Whether a hint may be asked now: the room's hints on, the game running, my turn. */
export function canAskHint(state, store) {
  return !!state?.settings?.hints && state.phase === 'playing' && !!state.turn && isMyTurn(store);
}

/** The hint message if it is for the current turn (a later turn forgets it), else null. */
export function hintForTurn(hint, state) {
  return hint && state?.phase === 'playing' && state.turn && hint.turn === state.turn.number ? hint : null;
}

/**
 * Shows the Hint button in the action bar while hints are on; `onAsk` asks for one. `why`:
 * the shown hint's reason in words (why.js), on a line of its own over the buttons (also
 * on a phone, where the bar's other line is left out), or null.
 */
export function hintButton(bar, { state, store, asking, onAsk, why = null }) {
  const row = bar.querySelector('.action-buttons');
  if (!row) return;
  let line = bar.querySelector('#hint-why');
  if (!line) {
    line = h('p', { class: 'hint-why', id: 'hint-why', 'data-testid': 'hint-why', role: 'status' });
    bar.prepend(line);
  }
  line.hidden = !why;
  line.textContent = why ? t('hint.why', { reason: why }) : '';
  let btn = row.querySelector('#btn-hint');
  if (!btn) {
    btn = h('button', { type: 'button', class: 'btn hint-btn', id: 'btn-hint', 'data-testid': 'hint', 'aria-keyshortcuts': 'H' });
    row.insertBefore(btn, row.firstChild);
  }
  btn.onclick = onAsk;
  btn.hidden = !state?.settings?.hints || state.phase !== 'playing';
  btn.disabled = !canAskHint(state, store) || asking;
  btn.textContent = asking ? t('hint.asking') : t('hint.button');
  btn.title = t('hint.title');
}

/** The lobby's checkbox: the host sets it, everyone sees it. */
export function hintsSetting(state, { canSet, onSettings }) {
  const box = h('input', { type: 'checkbox', id: 'lobby-hints', 'data-testid': 'lobby-hints', checked: !!state.settings?.hints, disabled: !canSet });
  box.addEventListener('change', () => onSettings({ type: 'settings', hints: box.checked }));
  return h('label', { class: 'lobby-hints', for: 'lobby-hints' }, box, ' ', h('span', { text: t('lobby.hints') }));
}
