// SVG markup for the tiles, built from the catalog and geometry.js (no copied artwork).
// Pure string building: no DOM, and no user-provided text ever goes through here.

import { tileShapes, pennantPoints, ROAD_HALF_WIDTH } from './geometry.js';
import { MEEPLE_PATH } from './meeple-art.js';
import { markPoints } from './marks.js';
import { hooks, listed } from '../expansions/registry.js';

export { PLAYER_COLORS, SEAT_COLORS, playerColor, glyphPath, meepleMarkup } from './meeple-art.js';

export const COLORS = {
  field: '#9fc46a',
  fieldDark: '#8bb15a',
  city: '#e6c98f',
  cityDark: '#c9a466',
  wall: '#6e5033',
  wallTop: '#b8946a',
  road: '#f3ead2',
  roadEdge: '#6b5842',
  ink: '#3b2f22',
};

/** Markup of one tile in catalog orientation (monastery and coats of arms excluded). */
export function tileBodyMarkup(tileDef) {
  const s = tileShapes(tileDef);
  const parts = [];
  parts.push(`<rect width="100" height="100" fill="url(#pat-field)"/>`);
  for (const f of listed('tileLayers').filter((l) => l.layer === 'under')) parts.push(f.markup(s)); // an expansion's water
  for (const r of s.roads) {
    parts.push(`<path d="${r.d}" fill="none" stroke="${COLORS.roadEdge}" stroke-width="${ROAD_HALF_WIDTH * 2 + 3}" stroke-linecap="butt"/>`);
  }
  for (const r of s.roads) {
    parts.push(`<path d="${r.d}" fill="none" stroke="${COLORS.road}" stroke-width="${ROAD_HALF_WIDTH * 2}" stroke-linecap="butt"/>`);
    parts.push(`<path d="${r.d}" fill="none" stroke="#d9caa3" stroke-width="1" stroke-dasharray="4 5"/>`);
  }
  if (s.junction) {
    parts.push(`<circle cx="50" cy="50" r="10" fill="#c8b48f" stroke="${COLORS.roadEdge}" stroke-width="1.5"/>`);
    parts.push(`<circle cx="50" cy="50" r="5" fill="#7f9fb5" stroke="${COLORS.roadEdge}" stroke-width="1.2"/>`);
  }
  for (const c of s.cities) {
    parts.push(`<path d="${c.area}" fill="url(#pat-city)"/>`);
    for (const w of c.walls) {
      parts.push(`<path d="${w}" fill="none" stroke="${COLORS.wall}" stroke-width="5" stroke-linecap="butt"/>`);
      parts.push(`<path d="${w}" fill="none" stroke="${COLORS.wallTop}" stroke-width="2.4" stroke-dasharray="3 2.2"/>`);
    }
  }
  for (const f of listed('tileLayers').filter((l) => l.layer === 'over')) parts.push(f.markup(s)); // an expansion's feature in the middle
  parts.push(`<rect x="0.4" y="0.4" width="99.2" height="99.2" fill="none" stroke="rgba(40,30,15,.45)" stroke-width=".8"/>`);
  return parts.join('');
}

/** Upright decorations (drawn unrotated on top): monastery, coats of arms and marks. */
export function tileOverlayMarkup(tileDef, rotation) {
  const s = tileShapes(tileDef);
  const parts = [];
  if (s.monastery) parts.push(`<use href="#sym-monastery" x="50" y="50"/>`);
  for (const [x, y] of pennantPoints(tileDef, rotation)) {
    parts.push(`<use href="#sym-pennant" x="${x.toFixed(1)}" y="${y.toFixed(1)}"/>`);
  }
  for (const m of markPoints(tileDef, rotation)) { // an expansion's marks (tiles/marks.js)
    parts.push(`<use class="mark mark-${m.mark}" data-mark="${m.mark}" href="#sym-${m.mark}" x="${m.x.toFixed(1)}" y="${m.y.toFixed(1)}"/>`);
  }
  return parts.join('');
}

/** A whole tile (rotated) in a 100 x 100 box. */
export function tileMarkup(tileDef, rotation = 0) {
  return `<g transform="rotate(${rotation} 50 50)"><use href="#tile-${tileDef.letter}"/></g>${tileOverlayMarkup(tileDef, rotation)}`;
}

/** Shared <defs>: patterns, symbols and one group per tile letter. */
export function defsMarkup(catalog) {
  const out = [];
  out.push(`<pattern id="pat-field" width="20" height="20" patternUnits="userSpaceOnUse">
    <rect width="20" height="20" fill="${COLORS.field}"/>
    <path d="M3 6 l1.5 -3 M12 15 l1.5 -3 M15 5 l1 -2.5 M6 16 l1 -2.5" stroke="${COLORS.fieldDark}" stroke-width="1.1" stroke-linecap="round"/>
  </pattern>`);
  out.push(`<pattern id="pat-city" width="16" height="14" patternUnits="userSpaceOnUse">
    <rect width="16" height="14" fill="${COLORS.city}"/>
    <path d="M2 9 L5 6 L8 9 Z M10 4 L12.5 1.5 L15 4 Z" fill="${COLORS.cityDark}"/>
    <path d="M2.6 9 H7.4 V12 H2.6 Z M10.5 4 H14.5 V6.5 H10.5 Z" fill="#f1dfb8"/>
  </pattern>`);
  out.push(`<g id="sym-monastery">
    <rect x="-15" y="-13" width="30" height="28" rx="2" fill="#efe4cf" stroke="${COLORS.ink}" stroke-width="1.4"/>
    <path d="M-17 -12 L0 -24 L17 -12 Z" fill="#a4563f" stroke="${COLORS.ink}" stroke-width="1.4" stroke-linejoin="round"/>
    <rect x="-5" y="3" width="10" height="12" rx="5" ry="5" fill="#6d5434"/>
    <path d="M0 -21 V-13 M-3 -18 H3" stroke="#fff6d8" stroke-width="1.6"/>
    <circle cx="-9" cy="-4" r="2.2" fill="#6d5434"/><circle cx="9" cy="-4" r="2.2" fill="#6d5434"/>
  </g>`);
  out.push(`<g id="sym-pennant">
    <path d="M-7 -8 H7 V0 C7 5 3 8 0 10 C-3 8 -7 5 -7 0 Z" fill="#2f5fa8" stroke="#f7f1df" stroke-width="1.6"/>
    <path d="M-3.5 -3 L0 -6 L3.5 -3 L0 4 Z" fill="#f7d35a"/>
  </g>`);
  out.push(`<path id="sym-meeple" d="${MEEPLE_PATH}"/>`);
  out.push(...hooks('tileDefs').map((f) => f())); // the expansions' patterns, figures and marks
  for (const t of catalog.tiles) out.push(`<g id="tile-${t.letter}">${tileBodyMarkup(t)}</g>`);
  return out.join('\n');
}
