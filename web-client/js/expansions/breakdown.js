// The end screen's columns: the base game's kinds, then gardens and the abbot's take-backs
// (the Abbot), inns and cathedrals (what the mark changed, negative for an
// unfinished inn road or cathedral city), the pigs' extra farm points and the goods
// majorities (Traders & Builders), each as its own column when the result's breakdown has it.
// The rows of a seat add up to its total (docs/protocol.md, result).

import { t } from '../i18n.js';

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

/** "6+2", "6-4": points during the game and at the end. */
export function splitText(during, final) {
  return `${during}${final < 0 ? '' : '+'}${final}`;
}
