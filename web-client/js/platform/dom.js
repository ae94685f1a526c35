// DOM building blocks shared by the panels, the log and the end screen. User text only
// ever goes in through textContent (h's `text`, or string children as text nodes).

import { tileMarkup, playerColor, glyphPath } from '../tiles/tileart.js';
import { playerName, listParts } from '../i18n/i18n.js';

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
  return h('span', { class: `pname c-${player.color} ${extraClass}`.trim(), text: playerName(player) });
}

/** Players' name spans joined the way the page's language joins a list (Intl.ListFormat). */
export function namesSpan(players) {
  const spans = players.map((p) => nameSpan(p));
  const out = h('span', { class: 'names' });
  for (const part of listParts(spans.length)) out.append(typeof part === 'number' ? spans[part] : part);
  return out;
}
