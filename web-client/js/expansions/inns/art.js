// Inns & Cathedrals' art (docs/expansions/inns-cathedrals.md): the big meeple (a meeple a
// third taller, with a light halo, so its outline reads at phone size whatever the colour),
// and the tiles' marks: an inn (a small house with a red roof beside blue water) and a
// cathedral (a white front with two towers). Pure SVG strings, in the player's colour with
// their glyph (tiles/meeple-art.js).

import { glyphPath } from '../../tiles/meeple-art.js';

const INK = '#3b2f22';

export function innsDefs() {
  return `<g id="sym-inn">
    <ellipse cx="4" cy="4" rx="10" ry="5.6" fill="#3f88c5" stroke="#1f4f78" stroke-width="1.1"/>
    <path d="M-1 3.6 q2.5 -1.6 5 0 t5 0" fill="none" stroke="#cfe8fb" stroke-width=".9" stroke-linecap="round"/>
    <rect x="-11" y="-6" width="11" height="9" fill="#f4e7cc" stroke="${INK}" stroke-width="1.1"/>
    <path d="M-13 -5.4 L-5.5 -12.5 L2 -5.4 Z" fill="#b8412e" stroke="${INK}" stroke-width="1.1" stroke-linejoin="round"/>
    <rect x="-7.2" y="-2.4" width="3.4" height="5.4" fill="#6d5434"/>
    <path d="M0 -2.5 h4.4 v3" fill="none" stroke="${INK}" stroke-width=".9"/><rect x="2.4" y=".4" width="3.6" height="2.6" fill="#f2c94c" stroke="${INK}" stroke-width=".6"/>
  </g>
  <g id="sym-cathedral">
    <path d="M-12 12 V-4 L-9 -9 L-6 -4 V12 Z M6 12 V-4 L9 -9 L12 -4 V12 Z" fill="#f4efe6" stroke="${INK}" stroke-width="1.2" stroke-linejoin="round"/>
    <path d="M-6 12 V-2 L0 -8 L6 -2 V12 Z" fill="#ece4d3" stroke="${INK}" stroke-width="1.2" stroke-linejoin="round"/>
    <path d="M-12.6 -4 L-9 -11 L-5.4 -4 Z M5.4 -4 L9 -11 L12.6 -4 Z" fill="#3d5a9e" stroke="${INK}" stroke-width="1" stroke-linejoin="round"/>
    <path d="M0 -15 V-8.5 M-2.2 -12.6 H2.2" stroke="#c79a2b" stroke-width="1.6"/>
    <circle cx="0" cy="1" r="2.6" fill="#c55ca6" stroke="${INK}" stroke-width=".8"/>
    <path d="M-2.4 12 V8 A2.4 2.4 0 0 1 2.4 8 V12 Z" fill="#6d5434"/>
  </g>`;
}

/** The big meeple's inner markup in colour `c` (tiles/figures-art.js wraps it). */
export function bigBody(c, farmer) {
  const glyph = (dx, dy, r = 2.2) => `<path d="${glyphPath(c.glyph, r)}" transform="translate(${dx} ${dy})" fill="${c.text}" opacity=".9"/>`;
  const rot = farmer ? ' transform="rotate(-90)"' : '';
  return `<g${rot}><use href="#sym-meeple" transform="translate(1.2 1.6) scale(1.35)" fill="rgba(0,0,0,.35)"/><use href="#sym-meeple" transform="scale(1.35)" fill="none" stroke="#fffaf0" stroke-width="3.4" stroke-linejoin="round"/>`
    + `<use href="#sym-meeple" transform="scale(1.35)" fill="${c.fill}" stroke="${c.stroke}" stroke-width="1.3" stroke-linejoin="round"/>`
    + `<path d="M-5.4 -1 H5.4" stroke="${c.stroke}" stroke-width="1" opacity=".6"/>${glyph(0, 3, 2.8)}</g>`;
}
