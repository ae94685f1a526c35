// The start page's open games (docs/community.md, "Open games and quick play"): the list of
// lobbies whose host opened them, kept up to date by polling GET /api/open-games with
// If-None-Match (a 304 costs the server one hash), each joined with one click under the
// name in the form; and "Quick play", which asks the server for the best fit or a new lobby.

import { t } from '../i18n/i18n.js';
import { $ } from '../pages/page.js';
import { h, bankText } from '../room/panels.js';
import { durationText } from '../lobby/lobby-card.js';
import { KEYS, local, session } from '../platform/storage.js';
import { roomPath } from '../pages/routes.js';
import { currentKey } from '../platform/playerkey.js';
import { ratingText } from '../community/format.js';

/** "Host: Ann · rating 12.3", or "not rated yet" (docs/community.md: the host's rating). */
export function hostText(g) {
  const name = String(g.host ?? '');
  return Number.isFinite(g.rating) ? t('open.hostRated', { name, rating: ratingText(g.rating) }) : t('open.hostUnrated', { name });
}

const ROOM_ID = /^[A-Za-z0-9_-]{10,64}$/;
export const POLL_MS = 3000;

/** One game's line of facts: seats, expansions, pace and clock (pure but for t()). */
export function gameFacts(g) {
  const exps = Array.isArray(g.expansions) && g.expansions.length ? g.expansions.map((id) => t(`exp.${id}`)).join(', ') : t('open.base');
  let pace;
  if (g.pace === 'turn_based') {
    const inc = g.increment_seconds ? bankText(g.increment_seconds * 1000) : t('tb.noIncrement');
    pace = t('open.turnBased', { bank: bankText((g.bank_seconds ?? 0) * 1000), inc });
  } else {
    pace = g.turn_seconds ? t('open.liveClock', { time: durationText(g.turn_seconds) }) : t('open.live');
  }
  return [t('open.seats', { taken: g.seats_taken, seats: g.seats }), exps, pace];
}

/** The name to play under: the form's, else the one kept; null (and the form asks) if none. */
function nameOrAsk() {
  const input = $('create-name');
  const n = input.value.trim();
  if (n) return n;
  $('open-error').textContent = t('open.needName');
  input.focus();
  return null;
}

/** Goes to `room`, joining under `name` (the room page joins without asking). */
function enter(room, name, { openOnJoin = false } = {}) {
  local.set(KEYS.name, name);
  session.set(KEYS.pendingName(room), name);
  if (openOnJoin) session.set(KEYS.openOnJoin(room), '1');
  location.assign(roomPath(room));
}

export class OpenGamesList {
  constructor({ expansions, pace }) {
    this.chosen = { expansions, pace }; // () => the form's expansions and pace
    this.etag = null;
    this.games = [];
    this.timer = null;
  }

  show() {
    $('open-games').hidden = false;
    $('quick-play').addEventListener('click', () => this.quickPlay());
    this.poll();
    document.addEventListener('visibilitychange', () => {
      if (!document.hidden) this.poll();
    });
  }

  async poll() {
    clearTimeout(this.timer);
    try {
      const headers = this.etag ? { 'If-None-Match': this.etag } : {};
      const res = await fetch('/api/open-games', { headers });
      if (res.status === 200) {
        this.etag = res.headers.get('ETag');
        const body = await res.json();
        this.games = Array.isArray(body?.games) ? body.games.filter((g) => ROOM_ID.test(g?.room ?? '')) : [];
        this.render();
      }
    } catch { /* the server is away: try again later */ }
    // Only while the page is seen: a tab in the background asks nothing.
    if (!document.hidden) this.timer = setTimeout(() => this.poll(), POLL_MS);
  }

  render() {
    const list = $('open-list');
    $('open-none').hidden = this.games.length > 0;
    list.replaceChildren(...this.games.map((g) => h('li', { class: 'open-game', 'data-testid': 'open-game', 'data-room': g.room },
      h('div', { class: 'open-what' },
        h('strong', { class: 'open-host', 'data-testid': 'open-host', text: hostText(g) }),
        h('span', { class: 'muted open-facts', 'data-testid': 'open-facts', text: gameFacts(g).join(' · ') })),
      h('button', {
        type: 'button', class: 'btn primary', 'data-testid': 'open-join', text: t('open.join'),
        onclick: () => {
          const name = nameOrAsk();
          if (name) enter(g.room, name);
        },
      }))));
  }

  async quickPlay() {
    const name = nameOrAsk();
    if (!name) return;
    const btn = $('quick-play');
    btn.disabled = true;
    $('open-error').textContent = '';
    try {
      // The player key, when this browser has one: quick play prefers the host rated closest.
      const key = currentKey(local);
      const res = await fetch('/api/quick-play', {
        method: 'POST', headers: { 'Content-Type': 'application/json', ...(key ? { Authorization: `Bearer ${key}` } : {}) },
        body: JSON.stringify({ expansions: this.chosen.expansions(), pace: this.chosen.pace() }),
      });
      const body = await res.json().catch(() => null);
      if ((res.status === 200 || res.status === 201) && ROOM_ID.test(body?.room ?? '')) {
        // A new lobby: this player hosts it and opens it once seated (roomlife.js).
        return enter(body.room, name, { openOnJoin: body.created === true });
      }
      $('open-error').textContent = t(body?.error === 'limit_reached' ? 'open.limit' : 'open.quickFailed');
    } catch {
      $('open-error').textContent = t('open.quickFailed');
    }
    btn.disabled = false;
  }

  relabel() {
    this.render();
  }
}
