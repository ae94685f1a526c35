// The special figures in a player's supply beside their meeples (README.md:
// players[].figures): the abbot in their colour while it is in supply, greyed on the board.

import { t } from '../i18n.js';
import { playerColor } from '../tileart.js';

const SVG_NS = 'http://www.w3.org/2000/svg';

export function figuresChips(p) {
  const n = p?.figures?.abbot;
  if (!Number.isInteger(n)) return null;
  const c = n > 0 ? playerColor(p.color) : { fill: '#e4dccb', stroke: '#b3a78f' };
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('viewBox', '-12 -14 32 28');
  svg.setAttribute('class', `mini-abbot${n > 0 ? '' : ' used'}`);
  svg.setAttribute('data-testid', 'abbot-supply');
  svg.setAttribute('data-count', String(n));
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', t('abbot.title', { state: t(n > 0 ? 'abbot.inSupply' : 'abbot.onBoard') }));
  const title = document.createElementNS(SVG_NS, 'title');
  title.textContent = svg.getAttribute('aria-label');
  svg.appendChild(title);
  svg.insertAdjacentHTML('beforeend', `<use href="#sym-crozier" fill="none" stroke="${c.stroke}" stroke-width="2.4" stroke-linecap="round"/><use href="#sym-abbot" fill="${c.fill}" stroke="${c.stroke}" stroke-width="1.4"/>`);
  return svg;
}
