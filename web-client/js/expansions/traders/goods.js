// The goods of Traders & Builders (docs/expansions/traders-builders.md): the three kinds,
// and the tokens a player holds (players[].goods) as the tiles' own badges with a count,
// beside their figures.

import { t } from '../../i18n/i18n.js';
import { h } from '../../platform/dom.js';

export const GOODS = ['wine', 'grain', 'cloth'];

const SVG_NS = 'http://www.w3.org/2000/svg';

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
