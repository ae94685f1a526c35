// The log's words for the Princess & the Dragon (docs/web-client-expansions.md, "The
// Princess & the Dragon"): the dragon flying to a volcano, each step of its move with what it
// ate, the dragon tiles joining the bag, the fairy moved, the princess sending a knight home,
// and the fairy's points (scoring events with "feature": "fairy"). game/narrate.js turns the
// events into lines (princessLine, fairyScoredLine), room/log.js says them (princessLogLine),
// both through expansions/registry.js. The log's and the replay's feature maps follow the
// figures (portalCell, figuresGone), and a replayed step knows where the dragon and the
// fairy are (piecesAfter).

import { t } from '../../i18n/i18n.js';

const cell = (c) => (c && Number.isInteger(c.x) && Number.isInteger(c.y) ? [c.x, c.y] : null);
const seatOf = (v) => (Number.isInteger(v) ? v : null);

/** The figures a step ate: [{seat, x, y, at, figure}] (well-formed ones only). */
function eatenOf(list) {
  return (Array.isArray(list) ? list : []).filter((e) => e && Number.isInteger(e.seat))
    .map((e) => ({ seat: e.seat, x: e.x, y: e.y, at: e.at, figure: typeof e.figure === 'string' ? e.figure : 'meeple' }));
}

/** A narrate.js line for one of this expansion's events, or null. */
export function princessLine(ev) {
  switch (ev?.type) {
    case 'dragon_flew': {
      const c = cell(ev);
      // The server sends it before the volcano's placement: the log says it after (narrate.js).
      return { type: 'dragon_flew', id: ev.id, seat: seatOf(ev.seat), cells: c ? [c] : [], afterPlacement: true };
    }
    case 'dragon_step': {
      const to = cell(ev.to);
      const from = cell(ev.from);
      return {
        type: 'dragon_step', id: ev.id, seat: seatOf(ev.seat), step: Number.isInteger(ev.step) ? ev.step : null,
        eaten: eatenOf(ev.eaten), cells: [to, from].filter(Boolean),
      };
    }
    case 'dragon_tiles':
      return { type: 'dragon_tiles', id: ev.id, n: Number.isInteger(ev.count) ? ev.count : 12, cells: [], afterPlacement: true };
    case 'fairy': {
      const c = cell(ev);
      return { type: 'fairy_moved', id: ev.id, seat: seatOf(ev.seat), cells: c ? [c] : [] };
    }
    case 'princess': {
      const c = cell(ev);
      return { type: 'princess', id: ev.id, seat: seatOf(ev.seat), owner: seatOf(ev.owner), cells: c ? [c] : [] };
    }
    default:
      return null;
  }
}

const spot = (s) => (s && Number.isInteger(s.x) && Number.isInteger(s.y) && typeof s.at === 'string' ? { x: s.x, y: s.y, at: s.at } : null);

/** The cell a portal placement's figure stands on (`placed.portal`), or null. */
export function portalCell(ev) {
  return cell(ev?.portal) ? { x: ev.portal.x, y: ev.portal.y } : null;
}

/** The figures an event takes off the board: those the dragon ate, the knight sent home. */
export function figuresGone(ev) {
  if (ev?.type === 'dragon_step') return eatenOf(ev.eaten).map(spot).filter(Boolean);
  if (ev?.type === 'princess') return [spot(ev)].filter(Boolean);
  return [];
}

/** Where the dragon and the fairy are after these events (a replayed step's `dragon` and `fairy`). */
export function piecesAfter(events) {
  let dragon = null;
  let fairy = null;
  for (const ev of events ?? []) {
    if (ev?.type === 'dragon_flew' && cell(ev)) dragon = { x: ev.x, y: ev.y };
    else if (ev?.type === 'dragon_step' && cell(ev.to)) dragon = { x: ev.to.x, y: ev.to.y };
    else if (ev?.type === 'fairy' && spot(ev)) fairy = { x: ev.x, y: ev.y, next_to: { x: ev.x, y: ev.y, at: ev.at, seat: seatOf(ev.seat) } };
  }
  return { dragon, fairy };
}

/** "(through the magic portal)" after a portal placement's line. */
export function portalNote(line) {
  return line?.away ? t('log.throughPortal') : null;
}

/** The fairy's point or bonus (a `scored` event with "feature": "fairy"), or null for any other scoring. */
export function fairyScoredLine(ev, common) {
  if (ev?.feature !== 'fairy' && ev?.kind !== 'fairy') return null;
  return { type: 'fairy_points', ...common, kind: 'fairy', end: ev.end === true, bonus: (ev.points ?? 0) > 1 };
}


/** Fills `li` for one of this expansion's lines; false when the line is not one. helpers: {fill, who, namesOf} of log.js. */
export function princessLogLine(li, line, { fill, who, namesOf }) {
  switch (line.type) {
    case 'dragon_flew':
      fill(li, 'log.dragonFlew', { x: line.cells[0]?.[0] ?? '?', y: line.cells[0]?.[1] ?? '?' });
      return true;
    case 'dragon_step': {
      const [x, y] = line.cells[0] ?? ['?', '?'];
      if (line.eaten.length) {
        const owners = [...new Set(line.eaten.map((e) => e.seat))];
        fill(li, 'log.dragonAte', { x, y, eaten: t('dragon.ateCount', { n: line.eaten.length }) }, { name: who(line.seat), owners: namesOf(owners) });
        li.classList.add('eaten');
      } else fill(li, 'log.dragonStep', { x, y }, { name: who(line.seat) });
      return true;
    }
    case 'dragon_tiles':
      fill(li, 'log.dragonTiles', { n: line.n });
      return true;
    case 'fairy_moved':
      fill(li, 'log.fairyMoved', {}, { name: who(line.seat) });
      return true;
    case 'princess':
      fill(li, 'log.princess', {}, { name: who(line.seat), owner: who(line.owner) });
      return true;
    case 'fairy_points':
      if (!line.seats?.length) return true;
      fill(li, line.bonus ? 'log.fairyBonus' : 'log.fairyPoint', { points: line.points }, { names: namesOf(line.seats) });
      li.classList.add('scored');
      return true;
    default:
      return false;
  }
}
