// The expansions' special figures drawn like meeples (expansions/registry.js: a figure with a
// `body`): in the player's colour with their glyph, one outline each that reads at phone
// size whatever the colour. Pure SVG strings.

import { playerColor } from './meeple-art.js';
import { figures, figureById } from '../expansions/registry.js';

/** The figures drawn by their `body` (the others draw themselves: `markup`). */
export const SPECIAL_FIGURES = figures().filter((f) => f.body).map((f) => f.id);

/** A special figure in a player's colour centred on (x, y); null for another figure. */
export function specialFigureMarkup(figure, x, y, colorName, { farmer = false, scale = 1, extraClass = '' } = {}) {
  const f = figureById(figure);
  if (!f?.body) return null;
  const c = playerColor(colorName);
  return `<g class="meeple figure-${figure} ${extraClass}" data-figure="${figure}" transform="translate(${x.toFixed(1)} ${y.toFixed(1)}) scale(${scale})">${f.body(c, farmer)}</g>`;
}

/** A small standalone icon of a figure (the picker, the players' panels): inner markup for a viewBox of -14 -15 32 30. */
export function figureIcon(figure, colorName) {
  const grey = { fill: '#e4dccb', stroke: '#b3a78f', text: '#8a7d64', glyph: 'circle' }; // on the board
  return figureById(figure)?.body?.(colorName ? playerColor(colorName) : grey, false) ?? '';
}
