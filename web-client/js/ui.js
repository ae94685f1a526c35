// DOM rendering of the panels: players, bag, log, chat, lobby and the end screen.
// Names and chat are user text: they only ever go into the page through textContent.

import { t, getLanguage } from './i18n.js';
import { h, add, tileIcon, colorChip, nameSpan } from './dom.js';
import { playerBySeat } from './state.js';
import { presence, awayFor, formatClock } from './clock.js';

export { h, add, tileIcon, colorChip, nameSpan } from './dom.js';
export { logLine, renderLog, bindLog } from './log.js';
export { renderEnd } from './endscreen.js';

/** "away 3 min", or just "away" when the page does not know since when. */
export function awayText(since, now = Date.now()) {
  const d = awayFor(since, now);
  return d ? t('presence.awayFor', { time: t(`time.${d.unit}`, { n: d.n }) }) : t('presence.away');
}

/** The badges of a seat: computer player, a computer playing for them, or away. */
export function presenceBadge(p, awaySince, now = Date.now()) {
  switch (presence(p)) {
    case 'bot':
      return h('span', { class: 'badge bot', 'data-testid': 'bot-badge', title: t('presence.botTitle'), text: t('presence.bot', { level: t(`level.${p.bot}`) }) });
    case 'auto':
      return h('span', { class: 'badge auto', 'data-testid': 'away-badge', 'data-away': 'auto', title: t('presence.autoTitle'), text: t('presence.auto') });
    case 'away':
      return h('span', { class: 'badge away', 'data-testid': 'away-badge', 'data-away': 'disconnected', text: awayText(awaySince?.[p.seat], now) });
    default:
      return null;
  }
}

/**
 * opts: {awaySince: {seat: ms|null}, clockMs: ms left on the turn or null, now}.
 * The current player's panel shows the countdown when the room has a clock.
 */
export function renderPlayers(ul, state, mySeat, tiles, { awaySince = {}, clockMs = null, now = Date.now() } = {}) {
  ul.replaceChildren();
  const turnSeat = state.phase === 'playing' ? state.turn?.seat : null;
  for (const p of state.players ?? []) {
    const active = turnSeat === p.seat;
    const li = h('li', {
      class: `player c-${p.color}${active ? ' active' : ''}${p.connected ? '' : ' disconnected'}${p.seat === mySeat ? ' me' : ''}${p.bot ? ' bot' : ''}`,
      'data-testid': 'player', 'data-seat': p.seat, 'data-score': p.score, 'data-meeples': p.meeples,
      'data-active': active ? '1' : '0', 'data-connected': p.connected ? '1' : '0', 'data-presence': presence(p) ?? '',
    });
    const meeples = h('span', { class: 'meeple-row', title: t('meeplesLeft', { n: p.meeples }) });
    for (let i = 0; i < 7; i++) meeples.appendChild(colorChip(i < p.meeples ? p.color : 'none', `mini-meeple${i < p.meeples ? '' : ' used'}`));
    const held = p.tile ? tileIcon(tiles[p.tile], 0, 'tile-icon held') : h('span', { class: 'held-empty' });
    if (p.tile) held.setAttribute('data-testid', 'held-tile');
    const clock = active && clockMs !== null
      ? h('span', { class: `clock${clockMs <= 10000 ? ' urgent' : ''}`, 'data-testid': 'clock', role: 'timer', title: t('clock.title'), text: formatClock(clockMs) })
      : null;
    const online = p.bot ? null : h('span', { class: `dot ${p.connected ? 'on' : 'off'}`, title: t(p.connected ? 'online' : 'offline'), 'aria-label': t(p.connected ? 'online' : 'offline') });
    add(li,
      h('span', { class: 'turn-mark', 'aria-hidden': 'true', text: active ? '▶' : '' }),
      colorChip(p.color),
      h('span', { class: 'pinfo' },
        h('span', { class: 'pname-line' }, nameSpan(p), online, clock),
        h('span', { class: 'pmeta' },
          p.seat === mySeat ? h('span', { class: 'badge you', text: t('you') }) : null,
          p.host ? h('span', { class: 'badge', text: t('host') }) : null,
          presenceBadge(p, awaySince, now),
          state.phase !== 'lobby' ? meeples : null)),
      state.phase !== 'lobby' ? h('span', { class: 'held-wrap', title: t('holds') }, held, h('span', { class: 'held-cap', text: t('holdsShort') })) : null,
      state.phase !== 'lobby' ? h('span', { class: 'score', 'data-testid': 'score', text: String(p.score) }) : null,
    );
    ul.appendChild(li);
  }
}

/** Updates the countdown in place (between renders), returns false if there is none. */
export function updateClock(ul, clockMs) {
  const el = ul.querySelector('[data-testid="clock"]');
  if (!el || clockMs === null) return false;
  el.textContent = formatClock(clockMs);
  el.classList.toggle('urgent', clockMs <= 10000);
  return true;
}

/** Puts a translated text with one {name} into `el`, the name as an element. */
function withName(el, key, params, player) {
  const parts = t(key, { ...params, name: '\u0000' }).split('\u0000');
  el.append(parts[0], nameSpan(player), parts[1] ?? '');
  return el;
}

/**
 * The turn banner: one line of fixed height. opts: {mine, mySeat, picked (a cell is
 * chosen), awaySince, now, finalScoring, onShowEnd}.
 */
export function renderBanner(banner, state, { mine, mySeat, picked = false, awaySince = {}, now = Date.now(), finalScoring = false, onShowEnd } = {}) {
  banner.replaceChildren();
  banner.className = 'turn-banner';
  banner.dataset.mine = mine ? '1' : '0';
  if (state.phase === 'playing' && state.turn) {
    const p = playerBySeat(state, state.turn.seat);
    banner.append(h('span', { class: 'turn-no', text: t('turn.number', { n: state.turn.number }) }));
    if (mine) {
      banner.classList.add('mine');
      banner.append(h('strong', { text: picked ? t('turn.yoursPicked') : t('turn.yours') }));
      return;
    }
    const line = h('span', { 'data-testid': 'banner-turn', 'data-presence': presence(p) ?? '' });
    const kind = presence(p);
    if (kind === 'auto') withName(line, 'turn.otherAuto', {}, p);
    else if (kind === 'bot') withName(line, 'turn.otherBot', {}, p);
    else if (kind === 'away') {
      const d = awayFor(awaySince?.[p.seat], now);
      if (d) withName(line, 'turn.otherAway', { time: t(`time.${d.unit}`, { n: d.n }) }, p);
      else withName(line, 'turn.otherAwayNoTime', {}, p);
      line.classList.add('away-note');
    } else withName(line, 'turn.other', {}, p);
    banner.append(line);
    if (mySeat === null || mySeat === undefined) banner.append(h('span', { class: 'muted spect', text: t('turn.spectating') }));
  } else if (state.phase === 'finished') {
    banner.append(h('strong', { text: finalScoring ? t('turn.finalScoring') : t('end.title') }));
    banner.append(h('button', { type: 'button', class: 'btn small', 'data-testid': 'show-end', onclick: onShowEnd, text: t('end.show') }));
  } else if (state.phase === 'lobby') {
    banner.append(h('span', { text: t('lobby.title') }));
  }
}

export function renderBag(grid, leftEl, state, catalog) {
  leftEl.textContent = t('bag.left', { n: state.bag?.left ?? 0 });
  grid.replaceChildren();
  const tilesLeft = state.bag?.tiles ?? {};
  for (const def of catalog.tiles) {
    const n = tilesLeft[def.letter] ?? 0;
    grid.appendChild(h('span', { class: `bag-item${n ? '' : ' empty'}`, title: def.letter, 'data-letter': def.letter, 'data-count': n },
      tileIcon(def, 0, 'tile-icon small'), h('span', { class: 'count', text: `×${n}` })));
  }
}

let timeFormat = null;
/** A chat time in the page's language (24 h in French and Japanese, as they write it). */
export function chatTime(date, lang = getLanguage()) {
  if (timeFormat?.lang !== lang) timeFormat = { lang, f: new Intl.DateTimeFormat(lang, { hour: '2-digit', minute: '2-digit' }) };
  return timeFormat.f.format(date);
}

export function renderChat(ol, state) {
  const atBottom = ol.scrollHeight - ol.scrollTop - ol.clientHeight < 40;
  ol.replaceChildren(...(state.chat ?? []).map((m) => {
    const p = m.seat === null || m.seat === undefined ? null : playerBySeat(state, m.seat);
    const who = p ? nameSpan({ ...p, name: m.name ?? p.name }) : h('span', { class: 'pname spectator', text: m.name ?? t('chat.spectator') });
    const time = m.time ? new Date(m.time) : null;
    return h('li', { class: 'msg', 'data-testid': 'chat-message' },
      time ? h('time', { class: 'muted', datetime: time.toISOString(), text: chatTime(time) }) : null,
      who, h('span', { class: 'sep', text: ': ' }), h('span', { class: 'text', text: m.text }));
  }));
  if (atBottom || ol.dataset.init !== '1') ol.scrollTop = ol.scrollHeight;
  ol.dataset.init = '1';
}

export function renderLobby(card, state, { mySeat, inviteUrl, onCopy, onStart, onShare }) {
  card.replaceChildren();
  const players = state.players ?? [];
  const me = players.find((p) => p.seat === mySeat);
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
