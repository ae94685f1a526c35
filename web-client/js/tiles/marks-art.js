// SVG of the tiles' marks (inns, cathedrals, goods), drawn upright where marks.js puts them:
// an inn (a small house with a red roof beside a blue lake), a cathedral (a white front
// with two towers), and the goods as round badges of their own colour and shape (wine:
// a bunch of grapes on purple, grain: an ear of wheat on gold, cloth: a folded bolt on
// blue), so each reads at phone size without relying on the colour alone. Pure strings.

import { markPoints } from './marks.js';

const INK = '#3b2f22';

export function marksDefs() {
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
  </g>
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

/** The marks of a tile placed with `rotation`, upright, in board orientation. */
export function marksMarkup(tileDef, rotation) {
  return markPoints(tileDef, rotation)
    .map((m) => `<use class="mark mark-${m.mark}" data-mark="${m.mark}" href="#sym-${m.mark}" x="${m.x.toFixed(1)}" y="${m.y.toFixed(1)}"/>`)
    .join('');
}
