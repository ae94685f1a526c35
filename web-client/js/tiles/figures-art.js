// The special figures of Inns & Cathedrals and Traders & Builders as figures of their own
// (Inns & Cathedrals, Traders & Builders), each with an outline that reads at phone size whatever the
// colour: the big meeple (a meeple a third taller, with a light halo), the builder (a
// stocky figure in a brimmed hat, with a hammer) and the pig. Pure SVG strings, in the
// player's colour with their glyph, like meeples (tileart.js) and the abbot (abbot-art.js).

import { playerColor, glyphPath } from './tileart.js';

export const SPECIAL_FIGURES = ['big', 'builder', 'pig'];

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

export function figuresDefs() {
  return `<path id="sym-builder" d="${BUILDER_PATH}"/><path id="sym-pig" d="${PIG_PATH}"/>`;
}

function shadow(sym) {
  return `<use href="#${sym}" transform="translate(1.2 1.6)" fill="rgba(0,0,0,.35)"/>`;
}

/** A special figure's inner markup in a colour, centred on the origin, 1 = a meeple's size. */
function body(figure, c, farmer) {
  const glyph = (dx, dy, r = 2.2) => `<path d="${glyphPath(c.glyph, r)}" transform="translate(${dx} ${dy})" fill="${c.text}" opacity=".9"/>`;
  switch (figure) {
    case 'big': {
      const rot = farmer ? ' transform="rotate(-90)"' : '';
      return `<g${rot}><use href="#sym-meeple" transform="translate(1.2 1.6) scale(1.35)" fill="rgba(0,0,0,.35)"/><use href="#sym-meeple" transform="scale(1.35)" fill="none" stroke="#fffaf0" stroke-width="3.4" stroke-linejoin="round"/>`
        + `<use href="#sym-meeple" transform="scale(1.35)" fill="${c.fill}" stroke="${c.stroke}" stroke-width="1.3" stroke-linejoin="round"/>`
        + `<path d="M-5.4 -1 H5.4" stroke="${c.stroke}" stroke-width="1" opacity=".6"/>${glyph(0, 3, 2.8)}</g>`;
    }
    case 'builder':
      return `${shadow('sym-builder')}<path d="${HAMMER_PATH}" stroke="${c.stroke}" stroke-width="3.2" stroke-linecap="round"/>`
        + `<path d="${HAMMER_PATH}" stroke="#c8a26b" stroke-width="1.6" stroke-linecap="round"/>`
        + `<path d="${HAMMER_HEAD}" stroke="${c.stroke}" stroke-width="4.2" stroke-linecap="round"/><path d="${HAMMER_HEAD}" stroke="#9aa3ab" stroke-width="2.6" stroke-linecap="round"/>`
        + `<use href="#sym-builder" fill="${c.fill}" stroke="${c.stroke}" stroke-width="1.4" stroke-linejoin="round"/>${glyph(0, 5)}`;
    case 'pig':
      return `${shadow('sym-pig')}<path d="${PIG_TAIL}" fill="none" stroke="${c.stroke}" stroke-width="1.6" stroke-linecap="round"/>`
        + `<use href="#sym-pig" fill="${c.fill}" stroke="${c.stroke}" stroke-width="1.3" stroke-linejoin="round"/>`
        + `<ellipse cx="14" cy="0" rx="2.3" ry="2.7" fill="#f4b6c8" stroke="${c.stroke}" stroke-width="1"/>`
        + `<circle cx="13.4" cy="-.6" r=".55" fill="${c.stroke}"/><circle cx="14.6" cy=".6" r=".55" fill="${c.stroke}"/>`
        + `<circle cx="9.6" cy="-2.6" r="1" fill="${c.stroke}"/>${glyph(-1, 2)}`;
    default:
      return '';
  }
}

/** A big meeple, builder or pig in a player's colour centred on (x, y); null for another figure. */
export function specialFigureMarkup(figure, x, y, colorName, { farmer = false, scale = 1, extraClass = '' } = {}) {
  if (!SPECIAL_FIGURES.includes(figure)) return null;
  const c = playerColor(colorName);
  return `<g class="meeple figure-${figure} ${extraClass}" data-figure="${figure}" transform="translate(${x.toFixed(1)} ${y.toFixed(1)}) scale(${scale})">${body(figure, c, farmer)}</g>`;
}

/** A small standalone icon of a figure (the picker, the players' panels): inner markup for a viewBox of -14 -15 32 30. */
export function figureIcon(figure, colorName) {
  const grey = { fill: '#e4dccb', stroke: '#b3a78f', text: '#8a7d64', glyph: 'circle' }; // on the board
  return body(figure, colorName ? playerColor(colorName) : grey, false);
}
