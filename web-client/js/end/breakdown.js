// The end screen's columns: the base game's kinds, then gardens and the abbot's take-backs
// (the Abbot), inns and cathedrals (what the mark changed, negative for an
// unfinished inn road or cathedral city), the pigs' extra farm points and the goods
// majorities (docs/expansions/traders-builders.md), each as its own column when the result's breakdown has it.
// The rows of a seat add up to its total (docs/protocol.md, result). An unfinished inn road
// or cathedral city is read in its own column: the breakdown scores it as a plain road or
// city at the end (+15) and takes it back under the mark (-15); the table shows Cities 0
// and leaves the mark's column to what marks won.

import { t } from '../i18n/i18n.js';

const BASE = ['road', 'city', 'monastery', 'field'];
const EXTRA = ['garden', 'abbot', 'inn', 'cathedral', 'pig', 'goods'];

/** The kinds of a breakdown, in the order the table shows them. */
export function breakdownKinds(rows) {
  const has = (k) => (rows ?? []).some((r) => (r?.game && k in r.game) || (r?.end && k in r.end));
  return [...BASE, ...EXTRA.filter(has)];
}

export function expansionLabels() {
  return { garden: t('end.gardens'), abbot: t('end.abbots'), inn: t('end.inn'), cathedral: t('end.cathedral'), pig: t('end.pig'), goods: t('end.goods') };
}

// Kinds scored only during the game (the abbot's take-back) or only at the end (farms).
export const ONE_PART = { field: 'end', abbot: 'game', pig: 'end', goods: 'end' };
// The mark whose loss at the end belongs to the feature's own column.
const FOLDED = { road: 'inn', city: 'cathedral' };
const MARKS = new Set(Object.values(FOLDED));

/**
 * One cell of the table: {during, final} for `kind` in a breakdown row. A mark's loss at
 * the end (negative: an unfinished inn road or cathedral city scores nothing) moves to its
 * feature's column, so that each column says what that kind really scored; the row still
 * adds up to the total.
 */
export function cellParts(row, kind) {
  const num = (part, k) => Number(row?.[part]?.[k] ?? 0) || 0;
  const during = ONE_PART[kind] === 'end' ? 0 : num('game', kind);
  let final = ONE_PART[kind] === 'game' ? 0 : num('end', kind);
  if (FOLDED[kind]) final += Math.min(0, num('end', FOLDED[kind]));
  if (MARKS.has(kind)) final -= Math.min(0, num('end', kind));
  return { during, final };
}

/** "6+2", "6-4": points during the game and at the end. */
export function splitText(during, final) {
  return `${during}${final < 0 ? '' : '+'}${final}`;
}
