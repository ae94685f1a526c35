// The end screen's rating changes (docs/community.md, "The end of a rated game"): the
// server's `rated` message, once the game's ratings are stored, as a table of each seat's
// rating before and after, each name linking to the player's page. Names are user text.

import { t } from '../i18n/i18n.js';
import { h, colorChip, nameSpan } from '../platform/dom.js';
import { playerBySeat } from '../game/state.js';
import { ratingText, changeText, playerPath, PLAYER_ID } from '../community/format.js';

/** Fills `section` from `rated` (or hides it when the game has none). */
export function renderRated(section, state, rated, mySeat) {
  const seats = Array.isArray(rated?.seats) ? [...rated.seats].sort((a, b) => (a.place ?? 0) - (b.place ?? 0)) : [];
  section.hidden = seats.length === 0;
  if (!seats.length) return section.replaceChildren();
  section.replaceChildren(
    h('h3', { id: 'end-ratings-title', text: t('rank.endTitle') }),
    h('div', { class: 'table-wrap' }, h('table', { class: 'community-table end-rated', 'data-testid': 'rated-table', 'aria-labelledby': 'end-ratings-title' },
      h('thead', {}, h('tr', {},
        h('th', { scope: 'col', text: t('rank.player') }), h('th', { scope: 'col', class: 'num', text: t('rank.before') }),
        h('th', { scope: 'col', class: 'num', text: t('rank.after') }), h('th', { scope: 'col', class: 'num', text: t('rank.change') }))),
      h('tbody', {}, ...seats.map((s) => {
        const p = playerBySeat(state, s.seat);
        const who = PLAYER_ID.test(s.player ?? '') ? h('a', { href: playerPath(s.player), 'data-testid': 'rated-player' }, nameSpan(p)) : nameSpan(p);
        return h('tr', { 'data-testid': 'rated-seat', 'data-seat': s.seat, class: s.seat === mySeat ? 'me' : null },
          h('th', { scope: 'row' }, p ? colorChip(p.color) : null, who),
          h('td', { class: 'num', text: ratingText(s.before) }),
          h('td', { class: 'num', 'data-testid': 'rated-after' }, ratingText(s.after),
            s.provisional ? h('span', { class: 'muted provisional', text: ` (${t('rank.provisional')})` }) : null),
          h('td', { class: 'num', 'data-testid': 'rated-change', text: changeText(s.change) }));
      })))));
}
