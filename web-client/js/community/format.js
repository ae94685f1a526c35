// Numbers, dates and expansion sets as the ratings' pages write them (docs/community.md).

import { t, getLanguage } from '../i18n/i18n.js';

/** A rating with one decimal, in the page's language ("12.3", "12,3"). */
export function ratingText(v) {
  if (!Number.isFinite(v)) return t('rank.unrated');
  return new Intl.NumberFormat(getLanguage(), { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(v);
}

/** A change with its sign ("+3.2", "−1.0"). */
export function changeText(v) {
  if (!Number.isFinite(v)) return '';
  const s = new Intl.NumberFormat(getLanguage(), { minimumFractionDigits: 1, maximumFractionDigits: 1, signDisplay: 'exceptZero' }).format(v);
  return s.replace('-', '−');
}

export function numberText(v, digits = 1) {
  return new Intl.NumberFormat(getLanguage(), { maximumFractionDigits: digits }).format(Number(v) || 0);
}

export function percentText(v) {
  return new Intl.NumberFormat(getLanguage(), { style: 'percent', maximumFractionDigits: 0 }).format(Number(v) || 0);
}

export function dateText(ms) {
  return new Intl.DateTimeFormat(getLanguage(), { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(ms));
}

/** "a,b" as the expansions' names, or the base game. */
export function setText(ids) {
  const list = String(ids ?? '').split(',').filter(Boolean);
  return list.length ? list.map((id) => t(`exp.${id}`)).join(', ') : t('rank.base');
}

export const paceText = (pace) => t(pace === 'turn-based' ? 'rank.turnBased' : 'rank.live');

/** A player's page. */
export const playerPath = (id) => `/p/${encodeURIComponent(id)}`;
export const PLAYER_ID = /^[A-Za-z0-9_-]{16}$/;
