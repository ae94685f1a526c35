// Traders & Builders' art (docs/expansions/traders-builders.md): the builder (a stocky
// figure in a brimmed hat, with a hammer) and the pig, each with an outline that reads at
// phone size whatever the colour, and the goods as round badges of their own colour and
// shape (wine: a bunch of grapes on purple, grain: an ear of wheat on gold, cloth: a folded
// bolt on blue), so each reads without relying on the colour alone. Pure SVG strings.

import { glyphPath } from '../../tiles/meeple-art.js';

export const BUILDER_PATH =
  'M-4.5 -13 H4.5 V-9.2 H8.4 C9.4 -9.2 9.4 -7.6 8.4 -7.6 H3.4 C3.9 -6.9 4 -6.3 4 -5.6 ' +
  'C4 -4.2 3.4 -3 2.4 -2.4 L6.6 -1.4 C8.2 -1 8.8 0.2 9 1.6 L10 11.6 L-10 11.6 L-9 1.6 ' +
  'C-8.8 0.2 -8.2 -1 -6.6 -1.4 L-2.4 -2.4 C-3.4 -3 -4 -4.2 -4 -5.6 C-4 -6.3 -3.9 -6.9 -3.4 -7.6 ' +
  'H-8.4 C-9.4 -7.6 -9.4 -9.2 -8.4 -9.2 H-4.5 Z';
export const HAMMER_PATH = 'M9.6 4 L15 -6.5';
export const HAMMER_HEAD = 'M11.6 -8.8 L18.4 -5.2';
export const PIG_PATH =
  'M-11 2 A10 6.8 0 1 1 9 2 A10 6.8 0 1 1 -11 2 Z M3.5 -1 A5.2 5.2 0 1 1 13.9 -1 A5.2 5.2 0 1 1 3.5 -1 Z ' +
  'M6 -4.5 L7 -10 L10.8 -5.4 Z M-8 6 h3.4 v5.6 h-3.4 Z M-2 7 h3.4 v4.6 h-3.4 Z M3 6 h3.4 v5.6 h-3.4 Z';
export const PIG_TAIL = 'M-10.6 0 q-3.2 -1 -2.4 -3.6 q.8 -2 2.2 -.6';

function shadow(sym) {
  return `<use href="#${sym}" transform="translate(1.2 1.6)" fill="rgba(0,0,0,.35)"/>`;
}

export function tradersDefs() {
  return `<path id="sym-builder" d="${BUILDER_PATH}"/><path id="sym-pig" d="${PIG_PATH}"/>
  <g id="sym-wine">
    <circle r="9.5" fill="#7b1f4b" stroke="#fff7ea" stroke-width="1.6"/>
    <g fill="#e3b6dc" stroke="#4a0f2b" stroke-width=".5">
      <circle cx="-3" cy="-2" r="2.1"/><circle cx="1" cy="-2" r="2.1"/><circle cx="5" cy="-2" r="2.1"/>
      <circle cx="-1" cy="1.6" r="2.1"/><circle cx="3" cy="1.6" r="2.1"/><circle cx="1" cy="5.2" r="2.1"/>
    </g>
    <path d="M1 -4 V-6.5 M1 -5.5 q-3 -2.6 -5.5 -1.2 q2.4 1.6 5.5 1.2" fill="#7fbf5a" stroke="#7fbf5a" stroke-width="1"/>
  </g>
  <g id="sym-grain">
    <circle r="9.5" fill="#b87a0a" stroke="#fff7ea" stroke-width="1.6"/>
    <path d="M0 7.5 V-7" stroke="#ffe9a8" stroke-width="1.2"/>
    <g fill="#ffe9a8">
      <ellipse cx="-2.2" cy="-4" rx="1.6" ry="2.6" transform="rotate(-30 -2.2 -4)"/><ellipse cx="2.2" cy="-4" rx="1.6" ry="2.6" transform="rotate(30 2.2 -4)"/>
      <ellipse cx="-2.2" cy="0" rx="1.6" ry="2.6" transform="rotate(-30 -2.2 0)"/><ellipse cx="2.2" cy="0" rx="1.6" ry="2.6" transform="rotate(30 2.2 0)"/>
      <ellipse cx="-2.2" cy="4" rx="1.6" ry="2.6" transform="rotate(-30 -2.2 4)"/><ellipse cx="2.2" cy="4" rx="1.6" ry="2.6" transform="rotate(30 2.2 4)"/>
      <ellipse cx="0" cy="-7.6" rx="1.4" ry="2.2"/>
    </g>
  </g>
  <g id="sym-cloth">
    <circle r="9.5" fill="#1f5fa3" stroke="#fff7ea" stroke-width="1.6"/>
    <path d="M-6 -4.5 H3.5 A2.6 4.5 0 0 1 3.5 4.5 H-6 Z" fill="#f3ead2" stroke="#0d2f55" stroke-width=".8"/>
    <ellipse cx="-6" cy="0" rx="2.6" ry="4.5" fill="#e0d2ae" stroke="#0d2f55" stroke-width=".8"/>
    <path d="M-1.5 -4.5 V4.5 M1.5 -4.5 V4.5" stroke="#c0392b" stroke-width="1"/>
    <path d="M3.5 4.5 L7 7 L6.2 3" fill="#f3ead2" stroke="#0d2f55" stroke-width=".7"/>
  </g>`;
}

/** The builder's inner markup in colour `c` (tiles/figures-art.js wraps it). */
export function builderBody(c) {
  const glyph = (dx, dy, r = 2.2) => `<path d="${glyphPath(c.glyph, r)}" transform="translate(${dx} ${dy})" fill="${c.text}" opacity=".9"/>`;
  return `${shadow('sym-builder')}<path d="${HAMMER_PATH}" stroke="${c.stroke}" stroke-width="3.2" stroke-linecap="round"/>`
    + `<path d="${HAMMER_PATH}" stroke="#c8a26b" stroke-width="1.6" stroke-linecap="round"/>`
    + `<path d="${HAMMER_HEAD}" stroke="${c.stroke}" stroke-width="4.2" stroke-linecap="round"/><path d="${HAMMER_HEAD}" stroke="#9aa3ab" stroke-width="2.6" stroke-linecap="round"/>`
    + `<use href="#sym-builder" fill="${c.fill}" stroke="${c.stroke}" stroke-width="1.4" stroke-linejoin="round"/>${glyph(0, 5)}`;
}

/** The pig's inner markup in colour `c`. */
export function pigBody(c) {
  const glyph = (dx, dy, r = 2.2) => `<path d="${glyphPath(c.glyph, r)}" transform="translate(${dx} ${dy})" fill="${c.text}" opacity=".9"/>`;
  return `${shadow('sym-pig')}<path d="${PIG_TAIL}" fill="none" stroke="${c.stroke}" stroke-width="1.6" stroke-linecap="round"/>`
    + `<use href="#sym-pig" fill="${c.fill}" stroke="${c.stroke}" stroke-width="1.3" stroke-linejoin="round"/>`
    + `<ellipse cx="14" cy="0" rx="2.3" ry="2.7" fill="#f4b6c8" stroke="${c.stroke}" stroke-width="1"/>`
    + `<circle cx="13.4" cy="-.6" r=".55" fill="${c.stroke}"/><circle cx="14.6" cy=".6" r=".55" fill="${c.stroke}"/>`
    + `<circle cx="9.6" cy="-2.6" r="1" fill="${c.stroke}"/>${glyph(-1, 2)}`;
}
