// The end screen's columns: the base game's kinds, then each expansion's (expansions/registry.js:
// breakdown), each as its own column when the result's breakdown has it. The rows of a seat
// add up to its total (docs/protocol.md, result). A kind scored only during the game or only
// at the end (`part`) shows one number. A mark's column (`folds`: the road or city it marks)
// keeps what the mark won: an unfinished marked feature is read in its feature's column, as
// the breakdown scores it as a plain road or city at the end (+15) and takes it back under
// the mark (-15); the table shows 0 there and leaves the mark's column to what marks won.

import { t } from '../i18n/i18n.js';
import { listed } from '../expansions/registry.js';

const BASE = ['road', 'city', 'monastery', 'field'];

/** The kinds of a breakdown, in the order the table shows them. */
export function breakdownKinds(rows) {
  const has = (k) => (rows ?? []).some((r) => (r?.game && k in r.game) || (r?.end && k in r.end));
  // A game whose fields are not played (docs/options.md, no_fields) has no field row at the
  // end beside its other base rows: no column for it then.
  const noFields = (rows ?? []).length > 0 && rows.every((r) => r?.end && 'city' in r.end && !('field' in r.end));
  return [...BASE.filter((k) => k !== 'field' || !noFields), ...listed('breakdown').map((c) => c.kind).filter(has)];
}

export function expansionLabels() {
  return Object.fromEntries(listed('breakdown').map((c) => [c.kind, t(c.label)]));
}

/** Whether a kind is scored only at the end ('end') or only during the game ('game'), else null. */
export function onePart(kind) {
  if (kind === 'field') return 'end'; // farms
  return listed('breakdown').find((c) => c.kind === kind)?.part ?? null;
}

/**
 * One cell of the table: {during, final} for `kind` in a breakdown row. A mark's loss at
 * the end (negative: an unfinished marked feature scores nothing) moves to its feature's
 * column, so that each column says what that kind really scored; the row still adds up to
 * the total.
 */
export function cellParts(row, kind) {
  const num = (part, k) => Number(row?.[part]?.[k] ?? 0) || 0;
  const folded = listed('breakdown').find((c) => c.folds === kind)?.kind; // the mark of this feature
  const isMark = listed('breakdown').some((c) => c.kind === kind && c.folds);
  const during = onePart(kind) === 'end' ? 0 : num('game', kind);
  let final = onePart(kind) === 'game' ? 0 : num('end', kind);
  if (folded) final += Math.min(0, num('end', folded));
  if (isMark) final -= Math.min(0, num('end', kind));
  return { during, final };
}

/** "6+2", "6-4": points during the game and at the end. */
export function splitText(during, final) {
  return `${during}${final < 0 ? '' : '+'}${final}`;
}
