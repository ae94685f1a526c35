// Players' figures as SVG strings: the player colours with their glyphs, and the meeple.
// Split from tileart.js so that an expansion's figure art (expansions/<id>/) draws in the
// same colours without importing the tile art that lists it. Pure strings.

/** Shape of a meeple standing (or lying, for farmers) centred on the origin. */
export const MEEPLE_PATH =
  'M0 -11 C3.4 -11 5 -8.6 5 -6.2 C5 -4.6 4.3 -3.5 3.4 -2.8 L10 0 C11.6 0.7 11.8 3.6 9.8 4 ' +
  'L5.2 3.6 L7.6 10 C8 11 7.2 11.6 6.2 11.6 L1.8 11.6 L0 7.6 L-1.8 11.6 L-6.2 11.6 ' +
  'C-7.2 11.6 -8 11 -7.6 10 L-5.2 3.6 L-9.8 4 C-11.8 3.6 -11.6 0.7 -10 0 L-3.4 -2.8 ' +
  'C-4.3 -3.5 -5 -4.6 -5 -6.2 C-5 -8.6 -3.4 -11 0 -11 Z';

/** Player colours: Okabe-Ito shades, each with a glyph so colour is never the only cue. */
export const PLAYER_COLORS = {
  red: { fill: '#D55E00', stroke: '#4a1f00', text: '#ffffff', glyph: 'circle' },
  blue: { fill: '#0072B2', stroke: '#00263d', text: '#ffffff', glyph: 'square' },
  green: { fill: '#009E73', stroke: '#00382a', text: '#ffffff', glyph: 'triangle' },
  yellow: { fill: '#F0E442', stroke: '#6b6200', text: '#222222', glyph: 'diamond' },
  black: { fill: '#2b2b2b', stroke: '#f4f4f4', text: '#ffffff', glyph: 'star' },
  pink: { fill: '#CC79A7', stroke: '#4d1538', text: '#ffffff', glyph: 'cross' }, // the sixth seat
};
export const SEAT_COLORS = ['red', 'blue', 'green', 'yellow', 'black', 'pink'];

export function playerColor(name) {
  return PLAYER_COLORS[name] ?? PLAYER_COLORS.black;
}

/** A small glyph (centered on 0,0, radius ~3) drawn on meeples and next to names. */
export function glyphPath(glyph, r = 3) {
  switch (glyph) {
    case 'square':
      return `M${-r} ${-r} H${r} V${r} H${-r} Z`;
    case 'triangle':
      return `M0 ${-r * 1.2} L${r * 1.1} ${r * 0.8} L${-r * 1.1} ${r * 0.8} Z`;
    case 'diamond':
      return `M0 ${-r * 1.3} L${r * 1.1} 0 L0 ${r * 1.3} L${-r * 1.1} 0 Z`;
    case 'cross': {
      const a = r * 0.45;
      const b = r * 1.25;
      return `M${-a} ${-b} H${a} V${-a} H${b} V${a} H${a} V${b} H${-a} V${a} H${-b} V${-a} H${-a} Z`;
    }
    case 'star': {
      const pts = [];
      for (let i = 0; i < 10; i++) {
        const rad = i % 2 ? r * 0.5 : r * 1.3;
        const a = (Math.PI / 5) * i - Math.PI / 2;
        pts.push(`${(Math.cos(a) * rad).toFixed(2)} ${(Math.sin(a) * rad).toFixed(2)}`);
      }
      return `M${pts.join(' L')} Z`;
    }
    default:
      return `M${-r} 0 A${r} ${r} 0 1 0 ${r} 0 A${r} ${r} 0 1 0 ${-r} 0 Z`;
  }
}

/**
 * Markup of a meeple in a player's colour centred on (x, y); farmers lie down.
 * `scale` 1 is about 24 tile units tall.
 */
export function meepleMarkup(x, y, colorName, { farmer = false, scale = 1, extraClass = '' } = {}) {
  const c = playerColor(colorName);
  const rot = farmer ? ' rotate(-90)' : '';
  return `<g class="meeple ${extraClass}" transform="translate(${x.toFixed(1)} ${y.toFixed(1)}) scale(${scale})${rot}">
    <use href="#sym-meeple" transform="translate(1.2 1.6)" fill="rgba(0,0,0,.35)"/>
    <use href="#sym-meeple" fill="${c.fill}" stroke="${c.stroke}" stroke-width="1.4" stroke-linejoin="round"/>
    <path d="${glyphPath(c.glyph, 2.2)}" transform="translate(0 1.5)${farmer ? ' rotate(90)' : ''}" fill="${c.text}" opacity=".9"/>
  </g>`;
}
