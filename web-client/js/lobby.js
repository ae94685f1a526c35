// The lobby card: the invite link, the seats and the host's start button.
// Names are user text: they only reach the page through textContent.

import { t } from './i18n.js';
import { h, add, colorChip, nameSpan } from './ui.js';
import { playerBySeat } from './state.js';

export function renderLobby(card, state, { mySeat, inviteUrl, onCopy, onStart, onShare }) {
  card.replaceChildren();
  const players = state.players ?? [];
  const me = playerBySeat(state, mySeat);
  const host = players.find((p) => p.host);
  const input = h('input', { class: 'invite-input', readonly: true, value: inviteUrl, 'data-testid': 'invite-link', 'aria-label': t('lobby.invite') });
  input.addEventListener('focus', () => input.select());
  const seats = h('ul', { class: 'seats', 'data-testid': 'seats' });
  for (let i = 0; i < 5; i++) {
    const p = players[i];
    if (p) {
      seats.appendChild(h('li', { class: `seat c-${p.color}`, 'data-testid': 'seat', 'data-seat': p.seat },
        colorChip(p.color), nameSpan(p),
        p.seat === mySeat ? h('span', { class: 'badge you', text: t('you') }) : null,
        p.host ? h('span', { class: 'badge', text: t('host') }) : null,
        h('span', { class: `dot ${p.connected ? 'on' : 'off'}` })));
    } else {
      seats.appendChild(h('li', { class: 'seat empty', text: t('lobby.emptySeat') }));
    }
  }
  const canStart = me?.host && players.length >= 2;
  add(card,
    h('h2', { text: t('lobby.title') }),
    h('label', { class: 'muted', text: t('lobby.invite') }),
    h('div', { class: 'invite-row' }, input,
      h('button', { type: 'button', class: 'btn', 'data-testid': 'copy-invite', onclick: onCopy, text: t('lobby.copy') }),
      typeof navigator !== 'undefined' && navigator.share ? h('button', { type: 'button', class: 'btn', onclick: onShare, text: t('lobby.share') }) : null),
    h('h3', { text: t('lobby.seats', { n: players.length }) }),
    seats,
    h('p', { class: 'muted', text: t('spectators', { n: state.spectators ?? 0 }) }),
  );
  if (me?.host) {
    add(card,
      h('button', { type: 'button', class: 'btn primary big', 'data-testid': 'start', disabled: !canStart, onclick: onStart, text: t('lobby.start') }),
      players.length < 2 ? h('p', { class: 'muted', text: t('lobby.needPlayers') }) : null,
    );
  } else if (host) {
    const p = h('p', { class: 'muted wait-host' });
    const text = t('lobby.waitHost', { name: '\u0000' }).split('\u0000');
    p.append(text[0], nameSpan(host), text[1] ?? '');
    card.append(p);
  }
}

/** Copies the invite link (clipboard API, else the selected input); the button says so. */
export async function copyInvite(btn, url) {
  let ok = false;
  try {
    await navigator.clipboard.writeText(url);
    ok = true;
  } catch {
    const input = document.querySelector('[data-testid="invite-link"]');
    if (input) {
      input.select();
      try { ok = document.execCommand('copy'); } catch { ok = false; }
    }
  }
  if (btn && ok) {
    btn.textContent = t('lobby.copied');
    setTimeout(() => { btn.textContent = t('lobby.copy'); }, 1800);
  }
}
