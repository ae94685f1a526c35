// The special figures in a player's supply beside their meeples (docs/protocol-details.md:
// players[].figures): each in their colour while in supply, greyed while on the board
// (the abbot, the big meeple, the builder, the pig), and the goods tokens they hold
// (docs/expansions/traders-builders.md: players[].goods) as the tiles' own badges with a count.

import { t } from '../i18n/i18n.js';
import { h } from '../platform/dom.js';
import { playerColor } from '../tiles/tileart.js';
import { figureIcon, SPECIAL_FIGURES } from '../tiles/figures-art.js';
import { GOODS } from '../tiles/marks.js';

const SVG_NS = 'http://www.w3.org/2000/svg';
const ORDER = [...SPECIAL_FIGURES, 'abbot'];

function svgWith(label, attrs, inner) {
  const svg = document.createElementNS(SVG_NS, 'svg');
  for (const [k, v] of Object.entries(attrs)) svg.setAttribute(k, v);
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', label);
  const title = document.createElementNS(SVG_NS, 'title');
  title.textContent = label;
  svg.appendChild(title);
  svg.insertAdjacentHTML('beforeend', inner);
  return svg;
}

function abbotChip(p, n) {
  const c = n > 0 ? playerColor(p.color) : { fill: '#e4dccb', stroke: '#b3a78f' };
  return svgWith(t('abbot.title', { state: t(n > 0 ? 'abbot.inSupply' : 'abbot.onBoard') }),
    { viewBox: '-12 -14 32 28', class: `mini-abbot${n > 0 ? '' : ' used'}`, 'data-testid': 'abbot-supply', 'data-count': String(n) },
    `<use href="#sym-crozier" fill="none" stroke="${c.stroke}" stroke-width="2.4" stroke-linecap="round"/><use href="#sym-abbot" fill="${c.fill}" stroke="${c.stroke}" stroke-width="1.4"/>`);
}

function figureChip(p, figure, n) {
  const label = t('figures.supply', { figure: t(`figure.${figure}`), state: t(n > 0 ? 'abbot.inSupply' : 'abbot.onBoard') });
  return svgWith(label, { viewBox: '-15 -15 34 30', class: `mini-figure mini-${figure}${n > 0 ? '' : ' used'}`, 'data-testid': 'figure-supply', 'data-figure': figure, 'data-count': String(n) },
    figureIcon(figure, n > 0 ? p.color : null));
}

/** The figures in supply (null without any): the abbot alone keeps its one chip. */
export function figuresChips(p) {
  const figs = p?.figures;
  if (!figs || typeof figs !== 'object') return null;
  const present = ORDER.filter((f) => Number.isInteger(figs[f]));
  if (!present.length) return null;
  const row = h('span', { class: 'figure-row', 'data-testid': 'figures' });
  for (const f of present) row.append(f === 'abbot' ? abbotChip(p, figs.abbot) : figureChip(p, f, figs[f]));
  return row;
}

/** The goods a player holds (null outside Traders & Builders): "wine 2, grain 0, cloth 1". */
export function goodsChips(p) {
  const g = p?.goods;
  if (!g || typeof g !== 'object') return null;
  const counts = GOODS.map((k) => (Number.isInteger(g[k]) ? g[k] : 0));
  const list = GOODS.map((k, i) => t('goods.count', { n: counts[i], good: t(`goods.${k}`) })).join(', ');
  const row = h('span', { class: 'goods-row', 'data-testid': 'goods', role: 'img', 'aria-label': t('goods.title', { list }), title: t('goods.title', { list }) });
  GOODS.forEach((k, i) => {
    row.dataset[k] = String(counts[i]);
    const svg = document.createElementNS(SVG_NS, 'svg');
    svg.setAttribute('viewBox', '-10 -10 20 20');
    svg.setAttribute('class', `mini-good${counts[i] ? '' : ' none'}`);
    svg.setAttribute('aria-hidden', 'true');
    svg.innerHTML = `<use href="#sym-${k}"/>`;
    row.append(h('span', { class: `good good-${k}`, 'data-good': k }, svg, h('span', { class: 'good-n', text: String(counts[i]) })));
  });
  return row;
}
