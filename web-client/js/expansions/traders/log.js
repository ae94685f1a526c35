// The log's words for Traders & Builders: goods taken when a city is completed, the goods
// majorities at the end, and the builder's extra tile. game/narrate.js turns the events
// into lines (expansionLine), room/log.js says them (expansionLogLine), both through
// expansions/registry.js.

import { t } from '../../i18n/i18n.js';
import { GOODS } from './goods.js';

/** A narrate.js line for an expansion's event, or null. */
export function expansionLine(ev) {
  switch (ev?.type) {
    case 'goods': {
      const goods = Object.fromEntries(GOODS.map((k) => [k, Number.isInteger(ev.goods?.[k]) ? ev.goods[k] : 0]));
      const cells = Number.isInteger(ev.x) && Number.isInteger(ev.y) ? [[ev.x, ev.y]] : [];
      return { type: 'goods', id: ev.id, seat: ev.seat, goods, cells };
    }
    case 'goods_scored':
      return { type: 'goods_scored', id: ev.id, good: ev.good, points: ev.points ?? 0, seats: ev.seats ?? [], cells: [] };
    case 'extra':
      return { type: 'extra', id: ev.id, seat: ev.seat, cells: [] };
    default:
      return null;
  }
}

/** "1 wine and 2 cloth" for a goods line. */
export function goodsWords(goods) {
  return GOODS.filter((k) => goods[k] > 0).map((k) => t('goods.count', { n: goods[k], good: t(`goods.${k}`) })).join(', ');
}

/**
 * Fills `li` for an expansion's line; false when the line is not one. helpers: {fill, who,
 * namesOf} of log.js.
 */
export function expansionLogLine(li, line, { fill, who, namesOf }) {
  switch (line.type) {
    case 'goods':
      fill(li, 'log.goods', { goods: goodsWords(line.goods) }, { name: who(line.seat) });
      return true;
    case 'goods_scored':
      if (!line.seats.length || !line.points) return true;
      fill(li, 'log.goodsScored', { good: t(`goods.${line.good}`), points: line.points }, { names: namesOf(line.seats) });
      li.classList.add('scored');
      return true;
    case 'extra':
      fill(li, 'extra.announceOther', {}, { name: who(line.seat) });
      return true;
    default:
      return false;
  }
}
