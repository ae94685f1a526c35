// Hints (docs/protocol-details.md): the Hint button of the action bar (and the H key), the hinted move drawn
// as a ghost tile with its figure (the same ghost the replay review draws for a better
// move), and the host's checkbox in the lobby. The server computes the move: the client
// sends {"type":"hint"} and gets {"type":"hint","turn","move"} (docs/protocol-details.md).

import { t } from './i18n.js';
import { h } from './dom.js';
import { isMyTurn } from './state.js';
import { spotLayout } from './spots.js';
import { spotChoice, FIGURES } from './expansions/abbot.js';

/**
 * A move ({x, y, rotation, meeple?, figure?}) of `tile` as the board's ghost
 * ({x, y, tile, rotation, spots, meeple, color, label}), or null if it places nothing.
 */
export function moveGhost(move, tile, def, color, label) {
  if (!move || !def || !Number.isInteger(move.x) || !Number.isInteger(move.y)) return null;
  const rotation = Number(move.rotation) || 0;
  const figure = FIGURES.includes(move.figure) ? move.figure : 'meeple'; // the abbot, big meeple, builder or pig
  const spots = move.meeple ? spotLayout(def, rotation, [move.meeple], 24, figure) : [];
  return { x: move.x, y: move.y, tile, rotation, spots, meeple: move.meeple ? spotChoice(move.meeple, figure) : null, color, label };
}

/** Whether a hint may be asked now: the room's hints on, the game running, my turn. */
export function canAskHint(state, store) {
  return !!state?.settings?.hints && state.phase === 'playing' && !!state.turn && isMyTurn(store);
}

/** The hint message if it is for the current turn (a later turn forgets it), else null. */
export function hintForTurn(hint, state) {
  return hint && state?.phase === 'playing' && state.turn && hint.turn === state.turn.number ? hint : null;
}

/** Shows the Hint button in the action bar while hints are on; `onAsk` asks for one. */
export function hintButton(bar, { state, store, asking, onAsk }) {
  const row = bar.querySelector('.action-buttons');
  if (!row) return;
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
