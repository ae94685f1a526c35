// SVG markup of the board's layers, as strings: placed tiles, each player's last placement,
// meeples, legal cells, the tile being placed with its meeple spots. Pure: only validated
// numbers, tile letters and ports go into the markup (never user text).

import { meepleAnchor, featureAt, TILE } from './geometry.js';
import { tileMarkup, playerColor } from './tileart.js';
import { playerBySeat } from './state.js';
import { TILE_ID_RE } from './catalog.js';
import { figureMarkup, parseSpot, spotOffset } from './expansions/abbot.js';

export const PORT_RE = /^(?:[NESW][LR]?|C|G|I)$/;

export function validPlacement(b) {
  return b && Number.isInteger(b.x) && Number.isInteger(b.y) && [0, 90, 180, 270].includes(b.rotation) && TILE_ID_RE.test(b.tile);
}

export function colorOfSeat(state, seat) {
  return playerBySeat(state, seat)?.color ?? 'black';
}

/** The board's placements with only well-formed meeples. */
export function cleanBoard(state) {
  return (state?.board ?? []).filter(validPlacement).map((b) => ({
    ...b, meeple: b.meeple && PORT_RE.test(b.meeple.at) && Number.isInteger(b.meeple.seat) ? b.meeple : null,
  }));
}

/** `freshIndex`: the index in `board` of a tile to slide in (the newest), or -1. */
export function tilesMarkup(board, tiles, freshIndex = -1) {
  let out = '';
  board.forEach((b, i) => {
    const def = tiles[b.tile];
    if (!def) return;
    const body = tileMarkup(def, b.rotation);
    out += `<g class="tile" data-testid="tile" data-x="${b.x}" data-y="${b.y}" data-tile="${b.tile}" data-rotation="${b.rotation}" transform="translate(${b.x * TILE} ${b.y * TILE})">${i === freshIndex ? `<g class="fresh">${body}</g>` : body}</g>`;
  });
  return out;
}

/**
 * Each player's last placement: [{seat, x, y, newest}], the newest placement of the game
 * last. Read from the placed events, kept only while that tile is on the board.
 */
export function lastPlacements(state) {
  const bySeat = new Map();
  let newest = null;
  for (const ev of state?.events ?? []) {
    if (ev.type !== 'placed' || !Number.isInteger(ev.x) || !Number.isInteger(ev.y) || !Number.isInteger(ev.seat)) continue;
    bySeat.set(ev.seat, ev);
    newest = ev;
  }
  const out = [...bySeat.values()].filter((ev) => ev !== newest).map((ev) => ({ seat: ev.seat, x: ev.x, y: ev.y, newest: false }));
  if (newest) out.push({ seat: newest.seat, x: newest.x, y: newest.y, newest: true });
  return out;
}

/**
 * Frames in each player's colour around their last placement, over a light halo so that
 * dark colours show on the green table. The newest keeps the `last-placed` hook.
 */
export function lastMarkup(state) {
  let out = '';
  for (const p of lastPlacements(state)) {
    const c = playerColor(colorOfSeat(state, p.seat));
    const x = p.x * TILE;
    const y = p.y * TILE;
    const testid = p.newest ? 'last-placed' : 'recent-placed';
    const dark = c.fill === '#2b2b2b' || c.fill === '#0072B2';
    out += `<g class="last${p.newest ? ' newest' : ''}" data-testid="${testid}" data-seat="${p.seat}" data-x="${p.x}" data-y="${p.y}">`
      + `<rect class="last-halo${dark ? ' strong' : ''}" x="${x + 3}" y="${y + 3}" width="${TILE - 6}" height="${TILE - 6}" rx="4"/>`
      + `<rect class="last-frame" x="${x + 3}" y="${y + 3}" width="${TILE - 6}" height="${TILE - 6}" rx="4" stroke="${c.fill}"/></g>`;
  }
  return out;
}

/** Meeples on the board; each one scales with --meeple-zoom about its own centre. */
export function meeplesMarkup(board, tiles, state) {
  let out = '';
  for (const b of board) {
    if (!b.meeple) continue;
    const def = tiles[b.tile];
    if (!def) continue;
    const a = meepleAnchor(def, b.rotation, b.meeple.at);
    if (!a) continue;
    const farmer = featureAt(def, b.rotation, b.meeple.at)?.kind === 'field';
    const figure = b.meeple.figure === 'abbot' ? 'abbot' : 'meeple';
    out += `<g data-testid="board-meeple" data-seat="${b.meeple.seat}" data-x="${b.x}" data-y="${b.y}" data-at="${b.meeple.at}" data-figure="${figure}" transform="translate(${b.x * TILE + a[0]} ${b.y * TILE + a[1]})"><g class="mz">${figureMarkup(figure, colorOfSeat(state, b.meeple.seat), { farmer, scale: 0.95 })}</g></g>`;
  }
  return out;
}

export function legalMarkup(legalCells, draft, previewDef) {
  let out = '';
  for (const c of legalCells) {
    if (!Number.isInteger(c.x) || !Number.isInteger(c.y)) continue;
    if (draft && draft.x === c.x && draft.y === c.y) continue;
    const preview = previewDef && [0, 90, 180, 270].includes(c.rotation)
      ? `<g class="preview" transform="translate(${c.x * TILE} ${c.y * TILE})">${tileMarkup(previewDef, c.rotation)}</g>` : '';
    out += `<g class="legal-cell" data-testid="cell" data-cell="1" data-x="${c.x}" data-y="${c.y}">${preview}
      <rect x="${c.x * TILE + 3}" y="${c.y * TILE + 3}" width="${TILE - 6}" height="${TILE - 6}" rx="8"/>
      <path d="M${c.x * TILE + 50} ${c.y * TILE + 36} v28 M${c.x * TILE + 36} ${c.y * TILE + 50} h28"/></g>`;
  }
  return out;
}

/** draft: {x, y, tile, rotation, spots, meeple, color}; ringUnits: a spot's diameter. */
export function draftMarkup(draft, tiles, ringUnits = 24) {
  if (!draft) return '';
  const def = tiles[draft.tile];
  if (!def || !Number.isInteger(draft.x) || !Number.isInteger(draft.y)) return '';
  const ox = draft.x * TILE;
  const oy = draft.y * TILE;
  let out = `<g class="ghost" data-ghost="1" data-testid="ghost" data-x="${draft.x}" data-y="${draft.y}" data-rotation="${draft.rotation}" transform="translate(${ox} ${oy})">${tileMarkup(def, draft.rotation)}<rect class="ghost-frame" x="1" y="1" width="98" height="98" rx="3"/></g>`;
  const spots = draft.spots ?? [];
  for (const spot of spots) {
    const parsed = parseSpot(spot);
    if (!parsed) continue;
    const { port, figure } = parsed;
    const a = meepleAnchor(def, draft.rotation, port);
    if (!a) continue;
    const [dx, dy] = spotOffset(spot, spots);
    const farmer = featureAt(def, draft.rotation, port)?.kind === 'field';
    const chosen = draft.meeple === spot;
    out += `<g class="spot${chosen ? ' chosen' : ''}${figure === 'meeple' ? '' : ` spot-${figure}`}" data-spot="${spot}" data-testid="meeple-spot" data-port="${port}" data-figure="${figure}" transform="translate(${ox + a[0] + dx} ${oy + a[1] + dy})">
      <circle r="${ringUnits / 2}" class="spot-ring"/>
      ${chosen ? figureMarkup(figure, draft.color, { farmer, scale: 0.9 }) : `<g opacity=".6">${figureMarkup(figure, draft.color, { farmer, scale: 0.7 })}</g>`}
    </g>`;
  }
  return out;
}
