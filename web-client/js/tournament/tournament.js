// The tournament page, /t/<id> (docs/tournaments.md): standings, pairings, results and each
// table's replay, kept up to date by polling while the page is seen; registration with the
// browser's player key, and the player's own tables (the seat's token is kept where the room
// page looks for it, so the link takes the seat), the player's "tell me when my table is
// ready" (Web Push) and the webhook its new tables are posted to; the players, with the
// organiser's controls (tournament-organiser.js).

import { t } from '../i18n/i18n.js';
import { h } from '../platform/dom.js';
import { currentKey, ensureKey } from '../platform/playerkey.js';
import { enableNotifications, notifyAvailable } from '../platform/notify.js';
import { KEYS, local } from '../platform/storage.js';
import { isEntrant, roundRows, standingRows } from './tournament-view.js';
import { renderCreate } from './tournament-create.js';
import { entrantsCard } from './tournament-organiser.js';
import { tournamentPath } from '../pages/routes.js';
import { readHookDraft, webhookSection } from '../lobby/webhook.js';

// The page that makes a tournament (a tournament's id is never this word).
export const NEW_TOURNAMENT = 'new';

const POLL_MS = 3000;

export class TournamentPage {
  constructor(id) {
    this.id = id;
    this.data = null;
    this.me = null;
    this.seats = [];
    this.error = '';
    this.root = h('main', { class: 'home tournament', id: 'view-tournament', 'data-testid': 'tournament' });
  }

  async enter() {
    document.body.appendChild(this.root);
    if (this.id === NEW_TOURNAMENT) return renderCreate(this.root);
    const key = currentKey(local);
    if (key) {
      const me = await fetch('/api/me', { headers: { Authorization: `Bearer ${key}` } }).then((r) => r.json()).catch(() => null);
      this.me = me?.player_id ?? null;
    }
    await this.refresh();
    setInterval(() => { if (document.visibilityState === 'visible') this.refresh(); }, POLL_MS);
  }

  relabel() {
    if (this.id === NEW_TOURNAMENT) renderCreate(this.root);
    else this.render();
  }

  async refresh() {
    const res = await fetch(`/api/tournaments/${encodeURIComponent(this.id)}`).catch(() => null);
    if (!res) return;
    if (res.status === 404) { this.data = null; this.error = t('tour.notFound'); return this.render(); }
    if (!res.ok) return;
    this.data = await res.json();
    const key = currentKey(local);
    if (key && isEntrant(this.data, this.me) && this.data.state !== 'finished') {
      this.notify = await fetch(`/api/tournaments/${encodeURIComponent(this.id)}/notify`, { headers: { Authorization: `Bearer ${key}` } })
        .then((r) => (r.ok ? r.json() : null)).catch(() => null);
    }
    if (key && isEntrant(this.data, this.me) && this.data.state === 'running') {
      const seats = await fetch(`/api/tournaments/${encodeURIComponent(this.id)}/seats`, { headers: { Authorization: `Bearer ${key}` } })
        .then((r) => r.json()).catch(() => null);
      this.seats = seats?.seats ?? [];
      for (const s of this.seats) local.set(KEYS.token(s.room), s.token);
    }
    this.render();
  }

  async register(name) {
    const key = await ensureKey(local);
    const res = await fetch(`/api/tournaments/${encodeURIComponent(this.id)}/register`, {
      method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ name }),
    });
    const body = await res.json().catch(() => ({}));
    if (!this.me) this.me = (await fetch('/api/me', { headers: { Authorization: `Bearer ${key}` } }).then((r) => r.json())).player_id;
    const known = ['full', 'started', 'removed', 'already_registered', 'signin_required', 'bad_name'];
    this.error = res.ok ? '' : known.includes(body.error) ? t(`tour.err.${body.error}`) : t('tour.failed');
    await this.refresh();
  }

  // The player drops out (docs/tournaments.md: after the round being played).
  async dropOut() {
    const key = currentKey(local);
    const res = await fetch(`/api/tournaments/${encodeURIComponent(this.id)}/drop`, {
      method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ player: this.me }),
    }).catch(() => null);
    this.confirmDrop = false;
    this.error = res?.ok ? '' : t('tour.failed');
    await this.refresh();
  }

  // On a click: this browser's push subscription becomes where the player's new tables are
  // told (docs/tournaments.md#notifications).
  async enableNotify() {
    const key = currentKey(local);
    let posted = Promise.resolve(null);
    const outcome = await enableNotifications((msg) => {
      posted = fetch(`/api/tournaments/${encodeURIComponent(this.id)}/notify`, {
        method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ push: msg.subscription }),
      }).catch(() => null);
    }).catch(() => 'unsupported');
    const res = await posted;
    this.error = outcome === 'denied' ? t('tour.notifyBlocked') : outcome !== 'enabled' || !res?.ok ? t('tour.notifyFailed') : '';
    await this.refresh();
  }

  /** An entrant's "tell me when my table is ready", or that it is on. */
  notifyRow(d) {
    if (d.state === 'finished' || !isEntrant(d, this.me) || !this.notify) return null;
    if (this.notify.push) return h('p', { class: 'muted', 'data-testid': 'tour-notify-on', text: t('tour.notifyOn') });
    if (!notifyAvailable()) return null;
    return h('p', {}, h('button', { type: 'button', class: 'btn small', 'data-testid': 'tour-notify', text: t('tour.notify'),
      onclick: () => this.enableNotify() }));
  }

  // The webhook the player's new tables are posted to (docs/tournaments.md#notifications): set,
  // replaced or removed; the address is never shown back, and a refusal says the server's reason.
  async setHook(webhook) {
    const key = currentKey(local);
    const res = await fetch(`/api/tournaments/${encodeURIComponent(this.id)}/notify`, {
      method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ webhook }),
    }).catch(() => null);
    const body = res ? await res.json().catch(() => ({})) : {};
    this.error = res?.ok ? '' : body.reason || body.message || t('tour.failed');
    await this.refresh();
  }

  hookRow(d) {
    if (d.state === 'finished' || !isEntrant(d, this.me) || !this.notify) return null;
    return webhookSection({ webhook: this.notify.webhook === true }, {
      onSettings: (msg) => this.setHook(msg.webhook), draft: this.hookDraft ?? {}, title: 'tour.hookTitle', hint: 'tour.hookHint',
    });
  }

  /** The entrant's own line while it runs: drop out (asked twice), or that it has. */
  dropRow(d) {
    const mine = d.entrants.find((e) => e.player === this.me);
    if (d.state !== 'running' || !mine) return null;
    if (mine.dropped_after) return h('p', { class: 'muted', 'data-testid': 'tour-dropped', text: t('tour.youDropped', { n: mine.dropped_after }) });
    if (!this.confirmDrop) {
      return h('p', {}, h('button', { type: 'button', class: 'btn', 'data-testid': 'tour-drop', text: t('tour.drop'),
        onclick: () => { this.confirmDrop = true; this.render(); } }));
    }
    return h('p', {}, h('button', { type: 'button', class: 'btn primary', 'data-testid': 'tour-drop-confirm', text: t('tour.dropSure'),
      onclick: () => this.dropOut() }),
    ' ', h('button', { type: 'button', class: 'btn', text: t('tour.dropKeep'), onclick: () => { this.confirmDrop = false; this.render(); } }));
  }

  render() {
    const d = this.data;
    this.hookDraft = readHookDraft(this.root); // what was typed survives the page's polling
    this.root.replaceChildren();
    if (!d) {
      this.root.append(h('section', { class: 'home-card' }, h('p', { class: 'form-error', text: this.error || t('tour.loading') })));
      return;
    }
    const s = d.settings;
    const head = h('section', { class: 'home-card' },
      h('h1', { text: s.name, 'data-testid': 'tour-name' }),
      h('p', { class: 'muted', 'data-testid': 'tour-what' },
        t(`tour.format.${s.format}`), ' · ', s.rounds ? t('tour.rounds', { n: s.rounds }) + ' · ' : '',
        t('tour.perTable', { n: s.per_table }), ' · ', t(s.pace === 'live' ? 'tour.live' : 'tour.turnBased')),
      h('p', { 'data-testid': 'tour-state', text: d.state === 'running' ? t('tour.round', { n: d.round }) : t(`tour.state.${d.state}`) }),
      h('p', { class: 'muted', text: t('tour.entrants', { n: d.entrants.length, seats: s.seats }) }));
    this.root.append(head);
    if (d.state === 'registering' && !isEntrant(d, this.me)) {
      const input = h('input', { maxlength: 24, required: true, 'data-testid': 'tour-name-input', value: local.get(KEYS.name) ?? '' });
      const form = h('form', { class: 'invite-row', onsubmit: (e) => { e.preventDefault(); this.register(input.value.trim()); } },
        input, h('button', { type: 'submit', class: 'btn primary', 'data-testid': 'tour-register', text: t('tour.register') }));
      head.append(form);
    }
    const notify = this.notifyRow(d);
    if (notify) head.append(notify);
    const hook = this.hookRow(d);
    if (hook) head.append(hook);
    const drop = this.dropRow(d);
    if (drop) head.append(drop);
    if (this.error) head.append(h('p', { class: 'form-error', role: 'alert', text: this.error }));
    if (this.seats.length) {
      head.append(h('p', {}, ...this.seats.map((x) => h('a', { class: 'btn primary', href: `/r/${x.room}`, 'data-testid': 'tour-my-table', text: t('tour.play', { n: x.round }) }))));
    }
    if (d.entrants.length) this.root.append(entrantsCard(this));
    const rows = standingRows(d);
    if (rows.length) {
      const knockout = rows[0].points === null;
      const headRow = h('tr', {}, h('th', { text: '#' }), h('th', { text: t('tour.player') }),
        knockout ? null : h('th', { text: t('tour.points') }), knockout ? null : h('th', { text: t('tour.buchholz') }),
        knockout ? null : h('th', { text: t('tour.scored') }));
      const body = rows.map((r) => h('tr', { class: r.dropped ? 'muted' : '' }, h('td', { text: String(r.rank) }),
        h('td', { text: r.dropped ? `${r.name} (${t('tour.dropped')})` : r.name }),
        knockout ? null : h('td', { text: r.points }), knockout ? null : h('td', { text: r.buchholz }),
        knockout ? null : h('td', { text: String(r.scored) })));
      this.root.append(h('section', { class: 'home-card' }, h('h2', { text: t('tour.standings') }),
        h('table', { class: 'tour-standings', 'data-testid': 'tour-standings' }, h('thead', {}, headRow), h('tbody', {}, ...body))));
    }
    for (const r of roundRows(d)) {
      const list = h('ul', { class: 'open-list' }, ...r.tables.map((x) => h('li', { 'data-testid': 'tour-table' },
        x.bye ? t('tour.bye', { name: x.seats[0].name })
          : x.seats.map((p) => (p.score === null ? p.name : `${p.name} ${p.score}${p.gone ? ` (${t('tour.gone')})` : ''}`)).join(' – '),
        x.room ? h('a', { class: 'link-btn', href: x.done ? `/replay/${x.room}` : `/r/${x.room}`, text: x.done ? t('tour.replay') : t('tour.watch') }) : null)));
      this.root.append(h('section', { class: 'home-card' }, h('h2', { text: t('tour.round', { n: r.round }) }), list));
    }
    this.root.append(h('p', {}, h('a', { class: 'link-btn', href: tournamentPath(NEW_TOURNAMENT), 'data-testid': 'tour-create-link', text: t('tour.create') })));
  }
}
