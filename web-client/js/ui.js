// DOM rendering of the panels: players, bag, log, chat, lobby and the end screen.
// Names and chat are user text: they only ever go into the page through textContent.

import { t, getLanguage } from './i18n.js';
import { tileMarkup, playerColor, glyphPath } from './tileart.js';
import { narrate } from './narrate.js';
import { presence, awayFor, formatClock } from './clock.js';

export { renderEnd } from './endscreen.js';

const SVG_NS = 'http://www.w3.org/2000/svg';

export function h(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') e.className = v;
    else if (k === 'text') e.textContent = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    e.appendChild(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c);
  }
  return e;
}

/** Element.append without the null/false children (append would print "null"). */
export function add(el, ...children) {
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c);
  }
  return el;
}

/** A small SVG of a tile. Markup comes from tileart.js (no user text). */
export function tileIcon(tileDef, rotation = 0, cls = 'tile-icon') {
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('viewBox', '0 0 100 100');
  svg.setAttribute('class', cls);
  if (tileDef) {
    svg.innerHTML = tileMarkup(tileDef, rotation);
    svg.dataset.tile = tileDef.letter;
  }
  return svg;
}

/** The colour chip of a player: the colour plus its glyph, so colour is not the only cue. */
export function colorChip(colorName, cls = 'chip') {
  const c = colorName === 'none' ? { fill: '#e4dccb', stroke: '#b3a78f', text: 'none', glyph: 'circle' } : playerColor(colorName);
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('viewBox', '-12 -12 24 24');
  svg.setAttribute('class', cls);
  svg.setAttribute('aria-hidden', 'true');
  svg.innerHTML = `<use href="#sym-meeple" fill="${c.fill}" stroke="${c.stroke}" stroke-width="1.4"/><path d="${glyphPath(c.glyph, 2.2)}" transform="translate(0 1.5)" fill="${c.text}"/>`;
  return svg;
}

export function nameSpan(player, extraClass = '') {
  if (!player) return h('span', { class: 'pname unknown', text: '?' });
  return h('span', { class: `pname c-${player.color} ${extraClass}`.trim(), text: player.name });
}

function playerBySeat(state, seat) {
  return state?.players?.find((p) => p.seat === seat) ?? null;
}

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

function featureLabel(kind) {
  return t(`feature.${kind}`);
}

const count = (key, n) => t(n === 1 ? `${key}1` : key, { n });

/** Fills a translated text into `li`, with {name}-like params given as elements. */
function fill(li, key, params, nameParams = {}) {
  const marks = Object.fromEntries(Object.keys(nameParams).map((k) => [k, `\u0000${k}\u0000`]));
  for (const part of t(key, { ...params, ...marks }).split('\u0000')) {
    if (nameParams[part]) li.appendChild(nameParams[part]);
    else if (part) li.appendChild(document.createTextNode(part));
  }
}

function namesOf(state, seats) {
  const names = h('span', { class: 'names' });
  seats.forEach((s, i) => {
    if (i) names.appendChild(document.createTextNode(i === seats.length - 1 ? ' & ' : ', '));
    names.appendChild(nameSpan(playerBySeat(state, s)));
  });
  return names;
}

function featureDetail(line) {
  const details = [];
  if (line.kind === 'field') details.push(count('ev.detailCities', line.cities ?? 0));
  else if (line.kind !== 'monastery') details.push(count('ev.detailTiles', line.tiles ?? 0));
  if (line.pennants) details.push(count('ev.detailPennants', line.pennants));
  return featureLabel(line.kind) + (details.length ? ` (${details.join(', ')})` : '');
}

const EVENT_OF = { closed: 'scored', final: 'scored' };

/** One log line (see narrate.js), built from text nodes and name spans. */
export function logLine(line, state, tiles) {
  const li = h('li', { class: `ev ev-${line.type}`, 'data-event': EVENT_OF[line.type] ?? line.type, 'data-line': line.type, 'data-id': line.id });
  if (line.cells?.length) {
    li.dataset.cells = JSON.stringify(line.cells);
    li.classList.add('linked');
    li.tabIndex = 0;
  }
  const who = (seat) => nameSpan(playerBySeat(state, seat));
  switch (line.type) {
    case 'started':
      fill(li, 'ev.started', {});
      break;
    case 'placed': {
      li.appendChild(tileIcon(tiles[line.tile], line.rotation, 'tile-icon inline'));
      const f = line.feature;
      const size = f ? count('ev.detailTiles', f.tiles) : '';
      if (line.what === 'claimed') fill(li, `log.claim.${f.kind}`, { tiles: size }, { name: who(line.seat) });
      else if (line.what === 'extended') fill(li, `log.extend.${f.kind}`, { tiles: size }, { name: who(line.seat) });
      else if (line.what === 'extendedOther') fill(li, `log.extendOther.${f.kind}`, { tiles: size }, { name: who(line.seat), owner: namesOf(state, line.owners) });
      else if (line.what === 'extendedFree') fill(li, `log.extendFree.${f.kind}`, { tiles: size }, { name: who(line.seat) });
      else fill(li, 'log.placed', {}, { name: who(line.seat) });
      break;
    }
    case 'discarded':
      li.appendChild(tileIcon(tiles[line.tile], 0, 'tile-icon inline'));
      fill(li, 'ev.discarded', { tile: line.tile }, { name: who(line.seat) });
      break;
    case 'closed': {
      const size = count('ev.detailTiles', line.tiles);
      const params = { tiles: size, points: line.points };
      const seats = line.seats ?? [];
      if (line.placer === null || line.placer === undefined) fill(li, 'log.completed', { ...params, feature: featureDetail(line) }, { names: namesOf(state, seats) });
      else if (!seats.length) fill(li, `log.closedNobody.${line.kind}`, params, { name: who(line.placer) });
      else if (seats.length === 1 && seats[0] === line.placer) fill(li, `log.closed.${line.kind}`, params, { name: who(line.placer) });
      else fill(li, `log.closedFor.${line.kind}`, params, { name: who(line.placer), names: namesOf(state, seats) });
      li.classList.add('scored');
      break;
    }
    case 'final':
      fill(li, 'ev.scoredEnd', { points: line.points, feature: featureDetail(line) }, { names: namesOf(state, line.seats) });
      li.classList.add('scored');
      break;
    case 'game_over':
      fill(li, 'ev.gameOver', {});
      break;
    default:
      li.appendChild(document.createTextNode(line.type));
  }
  return li;
}

/** The log's lines for a state, narrated once per new event. */
function narrated(ol, state, tiles) {
  const events = state.events ?? [];
  const key = `${events.length}:${events.at(-1)?.id ?? ''}:${state.board?.[0]?.tile ?? ''}`;
  if (ol.narrated?.key !== key) {
    let lines;
    try {
      lines = narrate(events, tiles, state.board?.[0]).lines;
    } catch {
      // A board this client cannot follow (an unknown tile): one plain line per event.
      lines = events.map((ev) => ({ type: ev.type === 'placed' ? 'placed' : ev.type, id: ev.id, seat: ev.seat, tile: ev.tile, rotation: ev.rotation ?? 0, what: 'plain', cells: [] }));
    }
    ol.narrated = { key, lines };
  }
  return ol.narrated.lines;
}

export function renderLog(ol, state, tiles) {
  const atBottom = ol.scrollHeight - ol.scrollTop - ol.clientHeight < 40;
  ol.replaceChildren(...narrated(ol, state, tiles).map((line) => {
    try {
      return logLine(line, state, tiles);
    } catch {
      return h('li', { class: 'ev', text: String(line?.type ?? '?') }); // a line this client cannot word
    }
  }));
  if (atBottom || ol.dataset.init !== '1') ol.scrollTop = ol.scrollHeight;
  ol.dataset.init = '1';
}

/**
 * Hovering a linked log line outlines its cells; a click, a tap or Enter shows them
 * (panning the board there). onHover(cells | null), onPick(cells).
 */
export function bindLog(ol, { onHover, onPick }) {
  const cellsOf = (ev) => {
    const li = ev.target.closest?.('li[data-cells]');
    if (!li) return null;
    try { return JSON.parse(li.dataset.cells); } catch { return null; }
  };
  let hovered = null;
  ol.addEventListener('pointerover', (ev) => {
    if (ev.pointerType === 'touch') return;
    const li = ev.target.closest?.('li[data-cells]') ?? null;
    if (li === hovered) return;
    hovered = li;
    onHover(li ? cellsOf(ev) : null);
  });
  ol.addEventListener('pointerleave', () => {
    hovered = null;
    onHover(null);
  });
  ol.addEventListener('click', (ev) => {
    const cells = cellsOf(ev);
    if (cells) onPick(cells);
  });
  ol.addEventListener('keydown', (ev) => {
    if (ev.key !== 'Enter' && ev.key !== ' ') return;
    const cells = cellsOf(ev);
    if (!cells) return;
    ev.preventDefault();
    ev.stopPropagation();
    onPick(cells);
  });
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
