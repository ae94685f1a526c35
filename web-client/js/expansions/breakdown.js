// The end screen's columns: the base game's kinds, then gardens and the abbot's take-backs
// as their own columns when the result's breakdown has them (abbot.md).

import { t } from '../i18n.js';

const BASE = ['road', 'city', 'monastery', 'field'];
const EXTRA = ['garden', 'abbot'];

/** The kinds of a breakdown, in the order the table shows them. */
export function breakdownKinds(rows) {
  const has = (k) => (rows ?? []).some((r) => (r?.game && k in r.game) || (r?.end && k in r.end));
  return [...BASE, ...EXTRA.filter(has)];
}

export function expansionLabels() {
  return { garden: t('end.gardens'), abbot: t('end.abbots') };
}
