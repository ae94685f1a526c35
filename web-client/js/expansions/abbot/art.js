// The abbot (docs/expansions/abbot.md) as a figure of its own: a robed monk with a pointed mitre and a
// crozier, no arms spread like a meeple, so its outline reads at phone size without the
// colour; and the garden a tile may hold, where tiles/geometry.js puts it. Pure SVG strings,
// in the player's colour with their glyph (tiles/meeple-art.js).

import { playerColor, glyphPath } from '../../tiles/meeple-art.js';

/** Robe and mitre, centred on the origin, about as tall as a meeple (MEEPLE_PATH). */
export const ABBOT_PATH =
  'M0 -13 L3.8 -9.2 C4.8 -8 5 -6.4 4.3 -5.2 L3.3 -3.8 C6.3 -2.8 7.6 -0.4 8 2.6 ' +
  'L10.2 11.6 L-10.2 11.6 L-8 2.6 C-7.6 -0.4 -6.3 -2.8 -3.3 -3.8 L-4.3 -5.2 ' +
  'C-5 -6.4 -4.8 -8 -3.8 -9.2 Z';
/** The crozier beside the robe: a staff with a curl at the top. */
export const CROZIER_PATH = 'M12.4 11.6 V-7 C12.4 -11.6 18 -11.6 18 -7.6 C18 -5 14.8 -5 14.8 -7.4';

export const GARDEN_RADIUS = 13;

export function abbotDefs() {
  return `<path id="sym-abbot" d="${ABBOT_PATH}"/><path id="sym-crozier" d="${CROZIER_PATH}"/>
  <g id="sym-garden">
    <circle r="${GARDEN_RADIUS}" fill="#5f9a3c" stroke="#2f5a1e" stroke-width="1.6"/>
    <circle r="${GARDEN_RADIUS - 3.4}" fill="#b99a68" stroke="#8a6d42" stroke-width=".8"/>
    <path d="M-9.6 0 H9.6 M0 -9.6 V9.6" stroke="#e8dcb8" stroke-width="2.2"/>
    <circle cx="-4.6" cy="-4.6" r="2.6" fill="#d9534f"/><circle cx="4.6" cy="-4.6" r="2.6" fill="#f2c94c"/>
    <circle cx="-4.6" cy="4.6" r="2.6" fill="#f2c94c"/><circle cx="4.6" cy="4.6" r="2.6" fill="#c55ca6"/>
    <circle r="2.4" fill="#3f88c5" stroke="#e8dcb8" stroke-width=".8"/>
  </g>`;
}

/** An abbot in a player's colour centred on (x, y); `scale` 1 is about 25 tile units tall. */
export function abbotMarkup(x, y, colorName, { scale = 1, extraClass = '' } = {}) {
  const c = playerColor(colorName);
  return `<g class="meeple abbot ${extraClass}" data-figure="abbot" transform="translate(${x.toFixed(1)} ${y.toFixed(1)}) scale(${scale})">
    <use href="#sym-abbot" transform="translate(1.2 1.6)" fill="rgba(0,0,0,.35)"/>
    <use href="#sym-crozier" fill="none" stroke="${c.stroke}" stroke-width="3.4" stroke-linecap="round"/>
    <use href="#sym-crozier" fill="none" stroke="#f3d77a" stroke-width="1.6" stroke-linecap="round"/>
    <use href="#sym-abbot" fill="${c.fill}" stroke="${c.stroke}" stroke-width="1.4" stroke-linejoin="round"/>
    <path d="M-6.2 3.4 H6.2" stroke="${c.stroke}" stroke-width="1.1" opacity=".7"/>
    <path d="${glyphPath(c.glyph, 2.2)}" transform="translate(0 7)" fill="${c.text}" opacity=".9"/>
  </g>`;
}

/** A garden (catalog orientation) where tiles/geometry.js put it. */
export function gardenMarkup(shapes) {
  if (shapes.centre?.kind !== 'garden') return '';
  const [x, y] = shapes.centre.center;
  return `<use class="garden" data-garden="1" href="#sym-garden" x="${x}" y="${y}"/>`;
}
