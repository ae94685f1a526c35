// An extra part of a turn (docs/protocol-details.md: turn.extra, an expansion's figure may
// give one): while `turn.extra` is true the same seat places a second tile. Its player
// reads so in the banner and hears it through the live region; everybody else reads that
// this seat plays an extra tile. Pure: the words come from i18n.js.

import { t, playerName } from '../i18n/i18n.js';
import { legalCells } from '../game/state.js';

/** Whether the state's turn is an extra part. */
export function isExtra(state) {
  return state?.phase === 'playing' && state.turn?.extra === true;
}

/** A key that changes when an extra part starts (the same turn number, seat, another tile). */
export function extraKey(state) {
  return isExtra(state) ? `${state.turn.number}:${state.turn.seat}:${state.turn.tile}` : null;
}

/**
 * What the live region says when an extra part starts (null when none started since
 * `prevKey`): to its player that they place another tile, to the others who plays it.
 */
export function extraAnnouncement(prevKey, state, mySeat) {
  const key = extraKey(state);
  if (!key || key === prevKey) return null;
  if (state.turn.seat === mySeat) return t('extra.announceMine', { n: legalCells(state).length });
  const p = (state.players ?? []).find((q) => q.seat === state.turn.seat);
  return t('extra.announceOther', { name: playerName(p) });
}
