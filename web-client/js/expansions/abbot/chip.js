// The abbot in a player's supply (docs/expansions/abbot.md): its own chip, robe and crozier,
// in the player's colour while in supply, greyed while on the board.

import { t } from '../../i18n/i18n.js';
import { playerColor } from '../../tiles/meeple-art.js';
import { svgImage } from '../../platform/svg.js';

export function abbotChip(p, n) {
  const c = n > 0 ? playerColor(p.color) : { fill: '#e4dccb', stroke: '#b3a78f' };
  return svgImage(t('abbot.title', { state: t(n > 0 ? 'figure.inSupply' : 'figure.onBoard') }),
    { viewBox: '-12 -14 32 28', class: `mini-abbot${n > 0 ? '' : ' used'}`, 'data-testid': 'abbot-supply', 'data-count': String(n) },
    `<use href="#sym-crozier" fill="none" stroke="${c.stroke}" stroke-width="2.4" stroke-linecap="round"/><use href="#sym-abbot" fill="${c.fill}" stroke="${c.stroke}" stroke-width="1.4"/>`);
}
