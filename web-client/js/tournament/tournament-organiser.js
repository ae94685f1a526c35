// The tournament page's list of players, with the organiser's controls
// (docs/tournaments.md#registration-removal-drops): before the start, remove a player, enter
// a computer player, start it; while it runs, drop a player after the round being played
// (asked twice). Only the organiser's page shows them; the server checks the key again.

import { t } from '../i18n/i18n.js';
import { h } from '../platform/dom.js';
import { currentKey } from '../platform/playerkey.js';
import { local } from '../platform/storage.js';

const LEVELS = ['easy', 'medium', 'hard'];

/** One organiser's request: answers the server's error message, or '' when it was done. */
async function ask(id, action, body) {
  const key = currentKey(local);
  const res = await fetch(`/api/tournaments/${encodeURIComponent(id)}/${action}`, {
    method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body ?? {}),
  }).catch(() => null);
  if (!res) return t('tour.failed');
  if (res.ok) return '';
  const answer = await res.json().catch(() => ({}));
  return answer.message ?? t('tour.failed');
}

/**
 * The players' card for `page` (a TournamentPage: data, me, id, refresh(), render()), with the
 * organiser's buttons when `page.me` organises it.
 */
export function entrantsCard(page) {
  const d = page.data;
  const organiser = Boolean(page.me) && d.organiser === page.me;
  const act = async (action, body) => {
    page.orgError = await ask(d.id ?? page.id, action, body);
    page.confirmDropOf = null;
    await page.refresh();
  };
  const row = (e) => {
    const label = e.dropped_after ? `${e.name} (${t('tour.dropped')})` : e.name;
    const item = h('li', { 'data-testid': 'tour-entrant', 'data-player': e.player }, h('span', { text: label }));
    if (!organiser) return item;
    if (d.state === 'registering') {
      item.append(' ', h('button', { type: 'button', class: 'link-btn', 'data-testid': 'tour-remove', text: t('tour.remove'),
        onclick: () => act('remove', { player: e.player }) }));
    } else if (d.state === 'running' && !e.dropped_after) {
      if (page.confirmDropOf === e.player) {
        item.append(' ', h('button', { type: 'button', class: 'btn primary', 'data-testid': 'tour-drop-player-confirm',
          text: t('tour.dropPlayerSure', { name: e.name }), onclick: () => act('drop', { player: e.player }) }),
        ' ', h('button', { type: 'button', class: 'btn', text: t('tour.dropKeep'), onclick: () => { page.confirmDropOf = null; page.render(); } }));
      } else {
        item.append(' ', h('button', { type: 'button', class: 'link-btn', 'data-testid': 'tour-drop-player', text: t('tour.dropPlayer'),
          onclick: () => { page.confirmDropOf = e.player; page.render(); } }));
      }
    }
    return item;
  };
  const card = h('section', { class: 'home-card', 'data-testid': 'tour-entrants' },
    h('h2', { text: t('tour.players') }), h('ul', { class: 'open-list' }, ...d.entrants.map(row)));
  if (organiser && d.state === 'registering') {
    const level = h('select', { 'data-testid': 'tour-bot-level' }, ...LEVELS.map((l) => h('option', { value: l, text: t(`tour.bot.${l}`) })));
    card.append(h('p', { class: 'invite-row' }, level,
      h('button', { type: 'button', class: 'btn', 'data-testid': 'tour-add-bot', text: t('tour.addBot'), onclick: () => act('bots', { level: level.value }) }),
      h('button', { type: 'button', class: 'btn primary', 'data-testid': 'tour-start', text: t('tour.start'), onclick: () => act('start') })));
  }
  if (organiser && page.orgError) card.append(h('p', { class: 'form-error', role: 'alert', 'data-testid': 'tour-org-error', text: page.orgError }));
  return card;
}
