// The leaderboard page, /leaderboard (docs/community.md, "The pages"): the best rated
// players of one pace, with their games, optionally only the games of exactly one expansion
// set. Reads GET /api/leaderboard; the form's choice is kept in the address (?pace=,
// &expansions=) so a board can be linked. Names are user text: textContent only.

import { t } from '../i18n/i18n.js';
import { h } from '../platform/dom.js';
import { offeredIds } from '../expansions/registry.js';
import { ratingText, paceText, setText, playerPath, PLAYER_ID } from './format.js';

/** {pace: 'live'|'turn-based', expansions: null | [id, ...]} from an address's query. Pure. */
export function boardQuery(search) {
  const q = new URLSearchParams(search ?? '');
  const pace = q.get('pace') === 'turn-based' ? 'turn-based' : 'live';
  const raw = q.get('expansions');
  const expansions = raw === null ? null : raw.split(',').filter(Boolean);
  return { pace, expansions };
}

/** The API's and the page's query for `choice`. Pure. */
export function boardSearch({ pace, expansions }) {
  const q = new URLSearchParams({ pace });
  if (expansions) q.set('expansions', expansions.join(','));
  return q.toString().replace(/%2C/g, ',');
}

export class LeaderboardPage {
  constructor(root) {
    this.root = root;
    this.choice = boardQuery(location.search);
    this.body = null;
    this.failed = false;
  }

  async enter() {
    document.title = `${t('rank.leaderboard')} · ${t('app.title')}`;
    this.render();
    await this.load();
  }

  async load() {
    this.failed = false;
    try {
      const res = await fetch(`/api/leaderboard?${boardSearch(this.choice)}`);
      this.body = res.ok ? await res.json() : null;
      this.failed = !res.ok;
    } catch {
      this.failed = true;
    }
    this.renderTable();
  }

  relabel() {
    this.render();
    this.renderTable();
  }

  render() {
    const { pace, expansions } = this.choice;
    const paceSel = h('select', { id: 'board-pace', 'data-testid': 'board-pace' },
      h('option', { value: 'live', text: t('rank.live') }), h('option', { value: 'turn-based', text: t('rank.turnBased') }));
    paceSel.value = pace;
    const exact = h('input', { type: 'checkbox', id: 'board-exact', 'data-testid': 'board-exact', checked: !!expansions });
    const boxes = offeredIds().map((id) => h('label', { class: 'board-exp' },
      h('input', { type: 'checkbox', value: id, 'data-testid': `board-exp-${id}`, checked: !!expansions?.includes(id) }), ' ', t(`exp.${id}`)));
    const form = h('form', { class: 'board-form', 'data-testid': 'board-form' },
      h('label', { class: 'board-pace' }, h('span', { text: t('rank.pace') }), paceSel),
      h('fieldset', { class: 'board-set' }, h('legend', { text: t('rank.set') }),
        h('label', {}, exact, ' ', t('rank.exactSet')), h('div', { class: 'board-exps' }, ...boxes)),
      h('button', { type: 'submit', class: 'btn primary', 'data-testid': 'board-show', text: t('rank.show') }));
    form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      const ids = [...form.querySelectorAll('.board-exps input:checked')].map((i) => i.value);
      this.choice = { pace: paceSel.value === 'turn-based' ? 'turn-based' : 'live', expansions: exact.checked ? ids : null };
      history.replaceState(null, '', `/leaderboard?${boardSearch(this.choice)}`);
      this.load();
    });
    this.tableBox = h('div', { class: 'table-wrap', id: 'board-table-box', 'aria-live': 'polite' });
    this.root.replaceChildren(h('section', { class: 'community-card' },
      h('h1', { text: t('rank.leaderboard') }),
      h('p', { class: 'muted', text: t('rank.leaderboardHint') }),
      form, this.tableBox));
  }

  renderTable() {
    if (!this.tableBox) return;
    if (this.failed || !this.body) {
      this.tableBox.replaceChildren(h('p', { class: 'form-error', role: 'alert', 'data-testid': 'board-error', text: t('rank.failed') }));
      return;
    }
    const players = Array.isArray(this.body.players) ? this.body.players : [];
    const caption = `${paceText(this.body.pace)} · ${this.body.expansions === undefined ? t('rank.anySet') : setText(this.body.expansions)}`;
    if (!players.length) {
      this.tableBox.replaceChildren(h('p', { class: 'muted', 'data-testid': 'board-empty', text: `${caption}: ${t('rank.empty')}` }));
      return;
    }
    this.tableBox.replaceChildren(h('table', { class: 'community-table', 'data-testid': 'board-table' },
      h('caption', { text: caption }),
      h('thead', {}, h('tr', {},
        h('th', { scope: 'col', text: t('rank.rank') }), h('th', { scope: 'col', text: t('rank.player') }),
        h('th', { scope: 'col', class: 'num', text: t('rank.rating') }), h('th', { scope: 'col', class: 'num', text: t('rank.games') }))),
      h('tbody', {}, ...players.map((p, i) => h('tr', { 'data-testid': 'board-row', 'data-player': p.player },
        h('td', { text: String(i + 1) }),
        h('th', { scope: 'row' }, PLAYER_ID.test(p.player ?? '') ? h('a', { href: playerPath(p.player), text: String(p.name ?? '') }) : String(p.name ?? '')),
        h('td', { class: 'num', 'data-testid': 'board-rating' }, ratingText(p.rating),
          p.provisional ? h('span', { class: 'muted provisional', text: ` (${t('rank.provisional')})` }) : null),
        h('td', { class: 'num', 'data-testid': 'board-games', text: String(p.games) }))))));
  }
}
