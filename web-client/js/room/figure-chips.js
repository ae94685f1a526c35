// The special figures in a player's supply beside their meeples (docs/protocol-details.md:
// players[].figures): each in their colour while in supply, greyed while on the board, in
// the registry's order (expansions/registry.js: figures; a figure may draw its own chip).

import { t } from '../i18n/i18n.js';
import { h } from '../platform/dom.js';
import { svgImage } from '../platform/svg.js';
import { figureIcon } from '../tiles/figures-art.js';
import { figures, figureById, hooks } from '../expansions/registry.js';

function figureChip(p, figure, n) {
  const label = t('figures.supply', { figure: t(`figure.${figure}`), state: t(n > 0 ? 'figure.inSupply' : 'figure.onBoard') });
  return svgImage(label, { viewBox: '-15 -15 34 30', class: `mini-figure mini-${figure}${n > 0 ? '' : ' used'}`, 'data-testid': 'figure-supply', 'data-figure': figure, 'data-count': String(n) },
    figureIcon(figure, n > 0 ? p.color : null));
}

/** The figures in supply (null without any). */
export function figuresChips(p) {
  const figs = p?.figures;
  if (!figs || typeof figs !== 'object') return null;
  const present = figures().map((f) => f.id).filter((f) => Number.isInteger(figs[f]));
  if (!present.length) return null;
  const row = h('span', { class: 'figure-row', 'data-testid': 'figures' });
  for (const f of present) row.append(figureById(f).chip?.(p, figs[f]) ?? figureChip(p, f, figs[f]));
  return row;
}

/** What else a player holds (an expansion's tokens): elements, none when nothing. */
export function tokenChips(p) {
  return hooks('playerChips').map((f) => f(p)).filter(Boolean);
}
