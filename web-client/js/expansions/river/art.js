// SVG markup of the River's water, in the style of tiles/tileart.js: drawn from the shapes
// tiles/geometry.js computes from the catalog (no copied artwork). Pure strings.

import { RIVER_HALF_WIDTH } from './geometry.js';

export const WATER = {
  bank: '#cdbb86', // the sandy bank on each side of the water
  bankEdge: '#7d6b45',
  water: '#3d87c9',
  deep: '#2f6ea8',
  wave: '#bfe3fb',
};

/** Shared <defs> of the water: a pattern of wavelets. */
export function waterDefs() {
  return `<pattern id="pat-water" width="14" height="10" patternUnits="userSpaceOnUse">
    <rect width="14" height="10" fill="${WATER.water}"/>
    <path d="M1 4 q2 -2.2 4 0 t4 0" fill="none" stroke="${WATER.wave}" stroke-width="1" stroke-linecap="round" opacity=".85"/>
    <path d="M8 9 q2 -2 4 0" fill="none" stroke="${WATER.wave}" stroke-width=".9" stroke-linecap="round" opacity=".6"/>
  </pattern>`;
}

/** The water of a tile (catalog orientation): bank, water with wavelets, its spring or lake. */
export function riverMarkup(shapes) {
  const rivers = (shapes.bands ?? []).filter((b) => b.kind === 'river');
  if (!rivers.length) return '';
  const parts = [];
  const w = RIVER_HALF_WIDTH * 2;
  for (const r of rivers) {
    parts.push(`<path class="river-bank" d="${r.d}" fill="none" stroke="${WATER.bankEdge}" stroke-width="${w + 6}" stroke-linecap="butt"/>`);
    parts.push(`<path d="${r.d}" fill="none" stroke="${WATER.bank}" stroke-width="${w + 4}" stroke-linecap="butt"/>`);
    if (r.end) {
      const [x, y] = r.end;
      parts.push(`<circle cx="${x}" cy="${y}" r="${r.pond + 3}" fill="${WATER.bank}" stroke="${WATER.bankEdge}" stroke-width="1.2"/>`);
    }
  }
  for (const r of rivers) {
    parts.push(`<path class="river" data-river="1" d="${r.d}" fill="none" stroke="url(#pat-water)" stroke-width="${w}" stroke-linecap="butt"/>`);
    parts.push(`<path d="${r.d}" fill="none" stroke="${WATER.deep}" stroke-width="${w * 0.28}" stroke-linecap="round" opacity=".35"/>`);
    if (r.end) {
      const [x, y] = r.end;
      parts.push(`<circle class="river-end" cx="${x}" cy="${y}" r="${r.pond}" fill="url(#pat-water)"/>`);
      // Reeds on the bank.
      parts.push(`<path d="M${x - r.pond * 0.7} ${y - r.pond * 0.8} l-1.2 -4 M${x - r.pond * 0.55} ${y - r.pond * 0.85} l.6 -4.4 M${x + r.pond * 0.75} ${y + r.pond * 0.7} l1.2 4" stroke="#4d6b2a" stroke-width="1.2" stroke-linecap="round"/>`);
    }
  }
  return parts.join('');
}
