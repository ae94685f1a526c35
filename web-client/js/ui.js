// DOM rendering of the panels: players, bag, log, chat and the end screen (the lobby card is lobby.js).
// Names and chat are user text: they only ever go into the page through textContent.

import { t } from './i18n.js';
import { tileMarkup, playerColor, glyphPath } from './tileart.js';
import { featureAt } from './geometry.js';
import { playerBySeat } from './state.js';

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

export function renderPlayers(ul, state, mySeat, tiles) {
  ul.replaceChildren();
  const turnSeat = state.phase === 'playing' ? state.turn?.seat : null;
  for (const p of state.players ?? []) {
    const active = turnSeat === p.seat;
    const li = h('li', {
      class: `player c-${p.color}${active ? ' active' : ''}${p.connected ? '' : ' disconnected'}${p.seat === mySeat ? ' me' : ''}`,
      'data-testid': 'player', 'data-seat': p.seat, 'data-score': p.score, 'data-meeples': p.meeples,
      'data-active': active ? '1' : '0', 'data-connected': p.connected ? '1' : '0',
    });
    const meeples = h('span', { class: 'meeple-row', title: t('meeplesLeft', { n: p.meeples }) });
    for (let i = 0; i < 7; i++) meeples.appendChild(colorChip(i < p.meeples ? p.color : 'none', `mini-meeple${i < p.meeples ? '' : ' used'}`));
    const held = p.tile ? tileIcon(tiles[p.tile], 0, 'tile-icon held') : h('span', { class: 'held-empty' });
    if (p.tile) held.setAttribute('data-testid', 'held-tile');
    add(li,
      h('span', { class: 'turn-mark', 'aria-hidden': 'true', text: active ? '▶' : '' }),
      colorChip(p.color),
      h('span', { class: 'pinfo' },
        h('span', { class: 'pname-line' },
          nameSpan(p),
          h('span', { class: `dot ${p.connected ? 'on' : 'off'}`, title: t(p.connected ? 'online' : 'offline'), 'aria-label': t(p.connected ? 'online' : 'offline') })),
        h('span', { class: 'pmeta' },
          p.seat === mySeat ? h('span', { class: 'badge you', text: t('you') }) : null,
          p.host ? h('span', { class: 'badge', text: t('host') }) : null,
          state.phase !== 'lobby' ? meeples : null)),
      state.phase !== 'lobby' ? h('span', { class: 'held-wrap', title: t('holds') }, held) : null,
      state.phase !== 'lobby' ? h('span', { class: 'score', 'data-testid': 'score', text: String(p.score) }) : null,
    );
    ul.appendChild(li);
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

function featureLabel(kind) {
  return t(`feature.${kind}`);
}

/** One log line for an event, built from text nodes and name spans. */
export function eventLine(ev, state, tiles) {
  const li = h('li', { class: `ev ev-${ev.type}`, 'data-event': ev.type, 'data-id': ev.id });
  // Cells this line is about, so that clicking it can show them on the board.
  const cells = ev.type === 'placed' ? [{ x: ev.x, y: ev.y }] : ev.type === 'scored' ? (ev.cells ?? []) : [];
  if (cells.length) {
    li.dataset.cells = JSON.stringify(cells.map((c) => [Number(c.x), Number(c.y)]));
    li.classList.add('linked');
    li.tabIndex = 0;
  }
  const fill = (key, params, nameParams = {}) => {
    // Splits the translated text around {name}-like params so names stay text nodes.
    const text = t(key, { ...params, ...Object.fromEntries(Object.keys(nameParams).map((k) => [k, `\u0000${k}\u0000`])) });
    for (const part of text.split('\u0000')) {
      if (nameParams[part]) li.appendChild(nameParams[part]);
      else if (part) li.appendChild(document.createTextNode(part));
    }
  };
  switch (ev.type) {
    case 'started':
      fill('ev.started', {});
      break;
    case 'placed': {
      const p = playerBySeat(state, ev.seat);
      const def = tiles[ev.tile];
      li.appendChild(tileIcon(def, ev.rotation, 'tile-icon inline'));
      if (ev.meeple && def) {
        const kind = featureAt(def, ev.rotation, ev.meeple)?.kind ?? 'road';
        fill('ev.placedMeeple', { x: ev.x, y: ev.y, feature: featureLabel(kind) }, { name: nameSpan(p) });
      } else {
        fill('ev.placed', { x: ev.x, y: ev.y }, { name: nameSpan(p) });
      }
      break;
    }
    case 'discarded': {
      const p = playerBySeat(state, ev.seat);
      li.appendChild(tileIcon(tiles[ev.tile], 0, 'tile-icon inline'));
      fill('ev.discarded', { tile: ev.tile }, { name: nameSpan(p) });
      break;
    }
    case 'scored': {
      const details = [];
      const count = (key, n) => t(n === 1 ? `${key}1` : key, { n });
      if (ev.kind === 'field') details.push(count('ev.detailCities', ev.cities ?? 0));
      else if (ev.kind !== 'monastery') details.push(count('ev.detailTiles', ev.tiles ?? ev.cells?.length ?? 0));
      if (ev.pennants) details.push(count('ev.detailPennants', ev.pennants));
      const feature = featureLabel(ev.kind) + (details.length ? ` (${details.join(', ')})` : '');
      const seats = ev.seats ?? [];
      if (!seats.length) {
        fill('ev.scoredNobody', { feature });
      } else {
        const names = h('span', { class: 'names' });
        seats.forEach((s, i) => {
          if (i) names.appendChild(document.createTextNode(i === seats.length - 1 ? ` & ` : ', '));
          names.appendChild(nameSpan(playerBySeat(state, s)));
        });
        fill(ev.end ? 'ev.scoredEnd' : 'ev.scored', { points: ev.points, feature }, { names });
      }
      li.classList.add('scored');
      break;
    }
    case 'game_over':
      fill('ev.gameOver', {});
      break;
    default:
      li.appendChild(document.createTextNode(ev.type));
  }
  return li;
}

export function renderLog(ol, state, tiles) {
  const atBottom = ol.scrollHeight - ol.scrollTop - ol.clientHeight < 40;
  ol.replaceChildren(...(state.events ?? []).map((ev) => {
    try {
      return eventLine(ev, state, tiles);
    } catch {
      return h('li', { class: 'ev', text: String(ev?.type ?? '?') }); // an event this client does not know
    }
  }));
  if (atBottom || ol.dataset.init !== '1') ol.scrollTop = ol.scrollHeight;
  ol.dataset.init = '1';
}

export function renderChat(ol, state) {
  const atBottom = ol.scrollHeight - ol.scrollTop - ol.clientHeight < 40;
  ol.replaceChildren(...(state.chat ?? []).map((m) => {
    const p = m.seat === null || m.seat === undefined ? null : playerBySeat(state, m.seat);
    const who = p ? nameSpan({ ...p, name: m.name ?? p.name }) : h('span', { class: 'pname spectator', text: m.name ?? t('chat.spectator') });
    const time = m.time ? new Date(m.time) : null;
    return h('li', { class: 'msg', 'data-testid': 'chat-message' },
      time ? h('time', { class: 'muted', datetime: time.toISOString(), text: time.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }) }) : null,
      who, h('span', { class: 'sep', text: ': ' }), h('span', { class: 'text', text: m.text }));
  }));
  if (atBottom || ol.dataset.init !== '1') ol.scrollTop = ol.scrollHeight;
  ol.dataset.init = '1';
}

const KINDS = ['road', 'city', 'monastery'];

export function renderEnd(modal, state, mySeat) {
  const result = state.result;
  if (!result) return;
  const winnersEl = modal.querySelector('#end-winners');
  const table = modal.querySelector('#end-table');
  const winners = (result.winners ?? []).map((s) => playerBySeat(state, s)).filter(Boolean);
  winnersEl.replaceChildren();
  const key = winners.length > 1 ? 'end.winners' : 'end.winner';
  const parts = t(key, { names: '\u0000' }).split('\u0000');
  const names = h('span', { class: 'names' });
  winners.forEach((p, i) => {
    if (i) names.appendChild(document.createTextNode(i === winners.length - 1 ? ' & ' : ', '));
    names.appendChild(nameSpan(p));
  });
  winnersEl.append(h('span', { class: 'trophy', 'aria-hidden': 'true', text: '★' }), ' ', parts[0], names, parts[1] ?? '');

  table.replaceChildren();
  const head1 = h('tr', {}, h('th', { rowspan: 2, text: t('end.player') }),
    h('th', { colspan: 3, class: 'grp', text: t('end.during') }),
    h('th', { colspan: 4, class: 'grp', text: t('end.final') }),
    h('th', { rowspan: 2, text: t('end.total') }));
  const labels = { road: t('end.roads'), city: t('end.cities'), monastery: t('end.monasteries'), field: t('end.fields') };
  const head2 = h('tr', {}, ...KINDS.map((k) => h('th', { text: labels[k] })), ...[...KINDS, 'field'].map((k) => h('th', { text: labels[k] })));
  table.append(h('thead', {}, head1, head2));
  const body = h('tbody');
  const rows = [...(result.breakdown ?? [])].sort((a, b) => b.total - a.total);
  for (const row of rows) {
    const p = playerBySeat(state, row.seat);
    const win = (result.winners ?? []).includes(row.seat);
    body.appendChild(h('tr', { class: `${win ? 'winner' : ''}${row.seat === mySeat ? ' me' : ''}`, 'data-seat': row.seat, 'data-total': row.total },
      h('td', { class: 'who' }, p ? colorChip(p.color) : null, ' ', nameSpan(p), win ? h('span', { class: 'trophy', text: ' ★' }) : null),
      ...KINDS.map((k) => h('td', { text: String(row.game?.[k] ?? 0) })),
      ...[...KINDS, 'field'].map((k) => h('td', { text: String(row.end?.[k] ?? 0) })),
      h('td', { class: 'total', text: String(row.total) })));
  }
  table.append(body);
}
