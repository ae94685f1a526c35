// The Princess & the Dragon's art, drawn headless for the eye (not a test; no server
// needed): the 30 tiles from tests/web/fixtures/tiles-princess.json at tile size and at a
// phone's board size, the dragon and the fairy (the fairy beside a meeple), the dragon's
// move as the stepping seat sees it (its path, the tiles it may go to) and the figure
// step's rings on other tiles. docs/web-client-expansions.md, "The Princess & the Dragon".
//
//   node tests/browser/princess-art.mjs OUT_DIR

import fs from 'node:fs';
import path from 'node:path';
import { launchBrowser } from './helpers.mjs';
import { cleanCatalog } from '../../web-client/js/tiles/tile-catalog.js';
import { defsMarkup, tileMarkup } from '../../web-client/js/tiles/tileart.js';
import { cleanBoard, tilesMarkup, meeplesMarkup, expansionLayerMarkup } from '../../web-client/js/board/boardart.js';

const [outDir = '/tmp/princess-art'] = process.argv.slice(2);
fs.mkdirSync(outDir, { recursive: true });
const raw = JSON.parse(fs.readFileSync(new URL('../web/fixtures/tiles-princess.json', import.meta.url)));
const { catalog, tiles } = cleanCatalog(raw);
const css = fs.readFileSync(new URL('../../web-client/js/expansions/princess/style.css', import.meta.url), 'utf8');
const defs = `<svg width="0" height="0" style="position:absolute"><defs>${defsMarkup(catalog)}</defs></svg>`;

// Every tile of the expansion, twice: large (100 px) and at a phone's zoomed-out board (48 px).
const list = catalog.tiles.filter((x) => x.expansion === 'princess');
const cell = (size) => list.map((x) => `<figure style="margin:4px;display:inline-block;text-align:center;font:11px sans-serif">
  <svg width="${size}" height="${size}" viewBox="0 0 100 100">${tileMarkup(x, 0)}</svg><figcaption>${x.letter}</figcaption></figure>`).join('');

// A board from the contract's worked example, in the middle of move 6 (the dragon's move):
// the dragon left (-1,0) for (0,0) (step 1, seat 0); seat 1 chooses step 2.
const players = [{ seat: 0, color: 'red', name: 'Ann' }, { seat: 1, color: 'blue', name: 'Ben' }];
const state = {
  phase: 'playing', players,
  board: [
    { x: 0, y: 0, tile: 'D', rotation: 0, meeples: [] },
    { x: -1, y: 0, tile: 'P5', rotation: 0, meeples: [] },
    { x: 1, y: 0, tile: 'U', rotation: 0, meeples: [{ seat: 1, at: 'E' }] },
    { x: 2, y: 0, tile: 'P18', rotation: 0, meeples: [] },
    { x: 0, y: -1, tile: 'P26', rotation: 180, meeples: [] },
    { x: 0, y: 1, tile: 'B', rotation: 0, meeples: [{ seat: 0, at: 'C' }] },
    { x: 1, y: -1, tile: 'E', rotation: 270, meeples: [] },
    { x: 3, y: 0, tile: 'P12', rotation: 0, meeples: [] },
  ],
  dragon: { x: 0, y: 0 },
  fairy: { x: 1, y: 0, next_to: { x: 1, y: 0, at: 'E', seat: 1 } },
  dragon_tiles_waiting: 0,
  turn: {
    number: 7, seat: 0, tile: 'P12', stage: 'dragon', legal: [], fairy: [],
    dragon: { seat: 1, step: 2, options: [{ x: 0, y: -1 }, { x: 0, y: 1 }], visited: [{ x: -1, y: 0 }, { x: 0, y: 0 }] },
  },
};
const boardSvg = (st, ctx) => {
  const b = cleanBoard(st);
  return `<svg width="600" height="420" viewBox="-160 -130 600 420" style="background:#4f7a3a">
    ${tilesMarkup(b, tiles)}${meeplesMarkup(b, tiles, st)}${expansionLayerMarkup(st, b, tiles, ctx)}</svg>`;
};
// Move 2 (seat 0, P18 at (2,0)) being prepared: the portal's rings on the older tiles.
const portalState = {
  ...state, dragon: { x: -1, y: 0 }, fairy: null,
  board: state.board.filter((b) => ['D', 'P5', 'U'].includes(b.tile)).map((b) => ({ ...b, meeples: b.tile === 'U' ? [{ seat: 1, at: 'E' }] : [] })),
  turn: { number: 3, seat: 0, tile: 'P18', stage: 'place', fairy: [], legal: [] },
};
const portalEntry = { x: 2, y: 0, rotation: 0, meeples: ['N', 'W'], figures: {}, princess: [], portal: [{ x: 0, y: 0, meeples: ['N', 'WR', 'ER'] }] };

const html = `<!doctype html><meta charset="utf-8"><style>body{margin:8px;background:#f4efe4}${css}</style>${defs}
  <div>${cell(100)}</div><div>${cell(48)}</div>
  <div style="display:flex;gap:8px;flex-wrap:wrap">
    ${boardSvg(state, { seat: 1 })}
    ${boardSvg(portalState, { seat: 0, entry: portalEntry, choice: 'portal:0,0,N', turn: portalState.turn })}
  </div>`;
fs.writeFileSync(path.join(outDir, 'princess-art.html'), html);

const browser = await launchBrowser();
try {
  const page = await browser.newPage({ viewport: { width: 1300, height: 1000 } });
  await page.setContent(html);
  await page.screenshot({ path: path.join(outDir, 'princess-art.png'), fullPage: true });
} finally {
  await browser.close();
}
console.log(path.join(outDir, 'princess-art.png'));
