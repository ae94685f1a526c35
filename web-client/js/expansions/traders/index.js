// Traders & Builders (docs/expansions/traders-builders.md) as the web client knows it: the
// builder and the pig (strength 0), goods (marks on cities, tokens a player holds, their
// majorities scored at the end), the builder's extra tile in the log, and the end screen's
// columns.

import { t } from '../../i18n/i18n.js';
import { tradersDefs, builderBody, pigBody } from './art.js';
import { GOODS, goodsChips } from './goods.js';
import { expansionLine, expansionLogLine } from './log.js';
import * as strings from './strings.js';

export default {
  id: 'traders',
  figures: [
    { id: 'builder', order: 2, picker: true, strength: 0, body: builderBody },
    { id: 'pig', order: 3, picker: true, strength: 0, body: pigBody },
  ],
  tileDefs: tradersDefs,
  tileMarks: (f) => (f.kind === 'city' && GOODS.includes(f.goods) ? f.goods : null),
  tileWords: (f) => (f.goods ? [t('tile.goods', { good: t(`goods.${f.goods}`) })] : []),
  tokens: [{ name: 'goods', event: 'goods', start: () => Object.fromEntries(GOODS.map((g) => [g, 0])) }],
  playerChips: goodsChips,
  eventLine: expansionLine,
  logLine: expansionLogLine,
  endEvents: [{ type: 'goods_scored', kind: 'goods' }],
  breakdown: [{ kind: 'pig', label: 'end.pig', part: 'end' }, { kind: 'goods', label: 'end.goods', part: 'end' }],
  strings,
};
