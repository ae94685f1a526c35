// DOM rendering of the panels: players, bag, banner, chat (the log is log.js, the end
// screen endscreen.js, the lobby card lobby/lobby-card.js).
// Names and chat are user text: they only ever go into the page through textContent.

import { t, getLanguage } from '../i18n/i18n.js';
import { h, add, tileIcon, colorChip, nameSpan } from '../platform/dom.js';
import { playerBySeat } from '../game/state.js';
import { presence, awayFor, formatClock, bankParts } from '../game/clock.js';
import { tileWords } from '../board/spots.js';
import { figuresChips, tokenChips } from './figure-chips.js';

export { h, add, tileIcon, colorChip, nameSpan, namesSpan } from '../platform/dom.js';
export { logLine, renderLog, bindLog } from './log.js';
export { renderEnd } from '../end/endscreen.js';

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
  ul.classList.toggle('many', (state.players ?? []).length > 4); // five or six seats: compact rows
  const turnSeat = state.phase === 'playing' ? state.turn?.seat : null;
  const turnBased = state.settings?.pace === 'turn_based' && state.phase === 'playing';
  for (const p of state.players ?? []) {
    const active = turnSeat === p.seat;
    const li = h('li', {
      class: `player c-${p.color}${active ? ' active' : ''}${p.connected || p.bot ? '' : ' disconnected'}${p.seat === mySeat ? ' me' : ''}${p.bot ? ' bot' : ''}`,
      'data-testid': 'player', 'data-seat': p.seat, 'data-score': p.score, 'data-meeples': p.meeples, 'data-color': p.color,
      'data-active': active ? '1' : '0', 'data-connected': p.connected ? '1' : '0', 'data-presence': presence(p) ?? '',
    });
    const meeples = h('span', { class: 'meeple-row', title: t('meeplesLeft', { n: p.meeples }) });
    for (let i = 0; i < 7; i++) meeples.appendChild(colorChip(i < p.meeples ? p.color : 'none', `mini-meeple${i < p.meeples ? '' : ' used'}`));
    const held = p.tile ? tileIcon(tiles[p.tile], 0, 'tile-icon held') : h('span', { class: 'held-empty' });
    if (p.tile) held.setAttribute('data-testid', 'held-tile');
    // A turn-based room: every player's bank in days and hours (the one to move's runs
    // down from its deadline); a live one: the turn's countdown.
    const bankMs = turnBased ? (active && clockMs !== null ? clockMs : p.bank_ms) : null;
    const clock = turnBased && Number.isFinite(bankMs)
      ? h('span', { class: `bank${active ? ' running' : ''}`, 'data-testid': 'bank', 'data-format': 'bank', 'data-ms': Math.round(bankMs), role: active ? 'timer' : null, title: t('tb.bankTitle'), text: bankText(bankMs) })
      : !turnBased && active && clockMs !== null
        ? h('span', { class: `clock${clockMs <= 10000 ? ' urgent' : ''}`, 'data-testid': 'clock', role: 'timer', title: t('clock.title'), text: formatClock(clockMs) })
        : null;
    const online = p.bot ? null : h('span', { class: `dot ${p.connected ? 'on' : 'off'}`, role: 'img', title: t(p.connected ? 'online' : 'offline'), 'aria-label': t(p.connected ? 'online' : 'offline') });
    add(li,
      h('span', { class: 'turn-mark', 'aria-hidden': 'true', text: active ? '▶' : '' }),
      colorChip(p.color),
      h('span', { class: 'pinfo' },
        h('span', { class: 'pname-line' }, nameSpan(p), online, clock),
        h('span', { class: 'pmeta' },
          p.seat === mySeat ? h('span', { class: 'badge you', text: t('you') }) : null,
          p.host ? h('span', { class: 'badge', text: t('host') }) : null,
          presenceBadge(p, awaySince, now),
          state.phase !== 'lobby' ? meeples : null,
          state.phase !== 'lobby' ? figuresChips(p) : null, // special figures and tokens (figure-chips.js)
          ...(state.phase !== 'lobby' ? tokenChips(p) : []))),
      state.phase !== 'lobby' ? h('span', { class: 'held-wrap', title: t('holds') }, held, h('span', { class: 'held-cap', text: t('holdsShort') })) : null,
      state.phase !== 'lobby' ? h('span', { class: 'score-wrap' },
        h('span', { class: 'score', 'data-testid': 'score', text: String(p.score) }),
        // What the end scoring would add now (players[].projected).
        state.phase === 'playing' && p.projected > 0
          ? h('span', { class: 'projected', 'data-testid': 'projected', title: t('projected', { n: p.projected }), 'aria-label': t('projected', { n: p.projected }), text: `+${p.projected}` })
          : null) : null,
    );
    ul.appendChild(li);
  }
}

/** A time bank in days and hours ("2 d 23 h"): the same words as "your games" and the lobby. */
export function bankText(ms) {
  const [key, params] = bankParts(ms);
  return t(key, params);
}

/** Updates the countdown (or the running bank) in place between renders; false if there is none. */
export function updateClock(ul, clockMs) {
  const bank = ul.querySelector('[data-testid="bank"].running');
  if (bank && clockMs !== null) {
    bank.textContent = bankText(clockMs);
    bank.dataset.ms = String(Math.round(clockMs));
    return true;
  }
  const el = ul.querySelector('[data-testid="clock"]');
  if (!el || clockMs === null) return false;
  el.textContent = formatClock(clockMs);
  el.classList.toggle('urgent', clockMs <= 10000);
  return true;
}

// The bag's items as drawn, by grid: built once for a game's tile list and language, then
// only the counts that changed are written (a phone redraws nothing else after a move).
const bagsDrawn = new WeakMap();

export function renderBag(grid, leftEl, state, catalog) {
  leftEl.textContent = t('bag.left', { n: state.bag?.left ?? 0 });
  const tilesLeft = state.bag?.tiles ?? {};
  const lang = getLanguage();
  let drawn = bagsDrawn.get(grid);
  if (drawn?.tiles !== catalog.tiles || drawn.lang !== lang) {
    drawn = { tiles: catalog.tiles, lang, items: [] };
    grid.replaceChildren(...catalog.tiles.map((def) => {
      const count = h('span', { class: 'count' });
      const item = h('span', { class: 'bag-item', role: 'listitem', 'data-letter': def.letter }, tileIcon(def, 0, 'tile-icon small'), count);
      drawn.items.push({ def, item, count, n: null });
      return item;
    }));
    bagsDrawn.set(grid, drawn);
  }
  for (const it of drawn.items) {
    const n = tilesLeft[it.def.letter] ?? 0;
    if (it.n === n) continue;
    it.n = n;
    const words = t('bag.item', { tile: tileWords(it.def), n });
    it.item.classList.toggle('empty', !n);
    it.item.title = words;
    it.item.setAttribute('aria-label', words);
    it.item.dataset.count = String(n);
    it.count.textContent = `×${n}`;
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
