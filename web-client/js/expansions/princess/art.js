// The Princess & the Dragon's art (docs/web-client-expansions.md, "The Princess & the
// Dragon"): the tiles' symbols (a volcano, the dragon's sign, a magic portal, a princess in
// her city), drawn upright like coats of arms where tiles/marks.js finds room, and the two
// neutral pieces: the dragon (a dark winged beast with an orange belly and wings) and the
// fairy (a pale figure with glassy wings and a golden star). Neither is in a player's
// colour, so they never read as anybody's figure. Pure SVG strings.

const INK = '#2a1d14';

/** The dragon seen from the side, head to the right, centred on the origin (about 44 x 34). */
export const DRAGON_BODY =
  'M-19 9 C-16 3 -9 0 -2 0 C3 0 7 -2 9 -6 L10 -10 C11 -13 14 -15 17 -14 L22 -12 L19 -10 ' +
  'L20 -7 L15 -8 C13 -4 12 1 10 4 C12 7 12 10 10 12 L6 12 L6 9 C3 10 -1 10 -4 10 L-5 13 ' +
  'L-9 13 L-9 9 C-13 9 -17 11 -21 16 C-24 13 -22 10 -19 9 Z';
export const DRAGON_WING = 'M-1 1 L-14 -17 L-9 -11 L-7 -19 L-3 -10 L0 -18 L3 -7 Z';
export const DRAGON_WING_BACK = 'M2 0 L-5 -14 L-1 -9 L3 -15 L5 -4 Z';

/** The fairy standing, centred on the origin (about 22 tall): dress, head, wings, wand. */
export const FAIRY_DRESS = 'M0 -3 L6 9 C2 10.6 -2 10.6 -6 9 Z';
export const FAIRY_WINGS =
  'M-1 -3 C-6 -12 -12 -9 -10 -4 C-12 -1 -8 3 -1 -1 Z M1 -3 C6 -12 12 -9 10 -4 C12 -1 8 3 1 -1 Z';
export const STAR = 'M0 -3.4 L1 -1 L3.4 -1 L1.5 .6 L2.2 3 L0 1.6 L-2.2 3 L-1.5 .6 L-3.4 -1 L-1 -1 Z';

export function princessDefs() {
  return `<g id="sym-volcano"><g transform="scale(1.3)">
    <path d="M-14 10 L-5 -6 H5 L14 10 Z" fill="#7a5a43" stroke="${INK}" stroke-width="1.3" stroke-linejoin="round"/>
    <path d="M-5 -6 H5 L3 -2 L1 1 L-1 -2 L-3 0 Z" fill="#f2792b" stroke="#8a2a0c" stroke-width=".8" stroke-linejoin="round"/>
    <path d="M-3 -8 C-6 -11 -2 -13 -4 -16 M2 -8 C5 -11 1 -13 4 -17" fill="none" stroke="#8f8a84" stroke-width="2" stroke-linecap="round"/>
    <path d="M-8 10 L-4 3 M6 10 L3 4" stroke="#5b4331" stroke-width="1"/>
  </g></g>
  <g id="sym-dragonmark">
    <circle r="11" fill="#f6e7c8" stroke="#8a2a0c" stroke-width="1.6"/>
    <g transform="scale(.42) translate(0 -1)">
      <path d="${DRAGON_WING}" fill="#d9541e" stroke="${INK}" stroke-width="2.2" stroke-linejoin="round"/>
      <path d="${DRAGON_BODY}" fill="#8a2a0c" stroke="${INK}" stroke-width="2.2" stroke-linejoin="round"/>
    </g>
  </g>
  <g id="sym-portal">
    <ellipse rx="9" ry="12" fill="#3b2466" stroke="#c9b3ff" stroke-width="2"/>
    <ellipse rx="5.4" ry="8" fill="#7a4fd0" stroke="#e6dcff" stroke-width="1"/>
    <path d="${STAR}" fill="#fff3b0" transform="translate(0 -1) scale(.9)"/>
    <circle cx="-10" cy="-9" r="1.2" fill="#e6dcff"/><circle cx="10" cy="6" r="1.2" fill="#e6dcff"/>
  </g>
  <g id="sym-princess">
    <circle cy="2" r="9.5" fill="#fbe3e8" stroke="#9b2d5c" stroke-width="1.4"/>
    <path d="M-8 9 C-8 2 -5 -1 0 -1 C5 -1 8 2 8 9" fill="#c2417a"/>
    <circle cy="-3" r="3.6" fill="#f5d2b4" stroke="${INK}" stroke-width=".8"/>
    <path d="M-4 -6.4 L-4 -10.6 L-2 -8.4 L0 -11.4 L2 -8.4 L4 -10.6 L4 -6.4 Z" fill="#f2c94c" stroke="#7a5a10" stroke-width=".7" stroke-linejoin="round"/>
  </g>
  <g id="sym-dragon">
    <path d="${DRAGON_WING_BACK}" fill="#b8451a" stroke="${INK}" stroke-width="1.2" stroke-linejoin="round"/>
    <path d="${DRAGON_BODY}" fill="#3a2a22" stroke="#fff4e0" stroke-width="3.4" stroke-linejoin="round"/>
    <path d="${DRAGON_BODY}" fill="#3a2a22" stroke="${INK}" stroke-width="1.2" stroke-linejoin="round"/>
    <path d="M-6 9 C-2 6 4 5 8 2" fill="none" stroke="#f2792b" stroke-width="2.2" stroke-linecap="round"/>
    <path d="${DRAGON_WING}" fill="#f2792b" stroke="#fff4e0" stroke-width="3" stroke-linejoin="round"/>
    <path d="${DRAGON_WING}" fill="#f2792b" stroke="${INK}" stroke-width="1.1" stroke-linejoin="round"/>
    <circle cx="16" cy="-11.4" r="1.3" fill="#ffe066"/>
  </g>
  <g id="sym-fairy">
    <circle r="12.5" fill="#fff8c6" opacity=".55"/>
    <path d="${FAIRY_WINGS}" fill="#d6f0ff" fill-opacity=".9" stroke="#3c6e8f" stroke-width="1"/>
    <path d="${FAIRY_DRESS}" fill="#f7f3ff" stroke="#4b3f78" stroke-width="1.1" stroke-linejoin="round"/>
    <circle cy="-6" r="3" fill="#f5d2b4" stroke="#4b3f78" stroke-width=".9"/>
    <path d="M4 2 L9 -6" stroke="#7a5a10" stroke-width="1"/>
    <path d="${STAR}" fill="#f2c94c" stroke="#7a5a10" stroke-width=".5" transform="translate(9.5 -7)"/>
  </g>`;
}

/** The dragon at board point (x, y), `scale` 1 about 44 board units wide; it grows with the meeples when the board is zoomed out (.mz). */
export function dragonMarkup(x, y, { scale = 1, cls = '' } = {}) {
  return `<g class="dragon-piece ${cls}" data-testid="dragon" transform="translate(${x.toFixed(1)} ${y.toFixed(1)})"><g class="mz"><g transform="scale(${scale})">`
    + `<ellipse cx="0" cy="15" rx="19" ry="3.4" fill="rgba(0,0,0,.3)"/><use href="#sym-dragon"/></g></g></g>`;
}

/** The fairy at board point (x, y). */
export function fairyMarkup(x, y, { scale = 1, cls = '' } = {}) {
  return `<g class="fairy-piece ${cls}" data-testid="fairy" transform="translate(${x.toFixed(1)} ${y.toFixed(1)})"><g class="mz"><g transform="scale(${scale})"><use href="#sym-fairy"/></g></g></g>`;
}
