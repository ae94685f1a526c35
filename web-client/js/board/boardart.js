// SVG markup of the board's layers, as strings: placed tiles, each player's last placement,
// meeples, legal cells, the tile being placed with its meeple spots. Pure: only validated
// numbers, tile letters and ports go into the markup (never user text).

import { meepleAnchor, featureAt, TILE } from '../tiles/geometry.js';
import { tileMarkup, playerColor } from '../tiles/tileart.js';
import { playerBySeat } from '../game/state.js';
import { TILE_ID_RE } from '../tiles/tile-catalog.js';
import { figureMarkup, spotChoice } from '../game/figure-spots.js';
import { figureIds, hooks } from '../expansions/registry.js';

export const PORT_RE = /^(?:[NESW][LR]?|C|G|I)$/;

export function validPlacement(b) {
  return b && Number.isInteger(b.x) && Number.isInteger(b.y) && [0, 90, 180, 270].includes(b.rotation) && TILE_ID_RE.test(b.tile);
}

export function colorOfSeat(state, seat) {
  return playerBySeat(state, seat)?.color ?? 'black';
}

const figureOk = (m) => !!m && PORT_RE.test(m.at) && Number.isInteger(m.seat);

/**
 * The board's placements with only well-formed figures: `figures`, every figure on the tile
 * (`meeples`, a list, where a tile may hold several: docs/web-client-expansions.md; else the
 * one `meeple`), and `meeple`, the first of them.
 */
export function cleanBoard(state) {
  return (state?.board ?? []).filter(validPlacement).map((b) => {
    const figures = (Array.isArray(b.meeples) ? b.meeples : [b.meeple]).filter(figureOk);
    return { ...b, figures, meeple: figures[0] ?? null };
  });
}

/** Puts a cleaned placement and every figure on it into a FeatureMap (game/features.js). */
export function placeOnMap(map, b) {
  const [first, ...rest] = b.figures ?? (b.meeple ? [b.meeple] : []);
  map.place({ x: b.x, y: b.y, tile: b.tile, rotation: b.rotation, meeple: first?.at ?? null, seat: first?.seat ?? null, figure: first?.figure ?? null });
  for (const m of rest) map.addFigure(b.x, b.y, m);
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
    const def = tiles[b.tile];
    if (!def) continue;
    for (const m of b.figures ?? (b.meeple ? [b.meeple] : [])) {
      const a = meepleAnchor(def, b.rotation, m.at);
      if (!a) continue;
      const farmer = featureAt(def, b.rotation, m.at)?.kind === 'field';
      const figure = figureIds().includes(m.figure) ? m.figure : 'meeple';
      out += `<g data-testid="board-meeple" data-seat="${m.seat}" data-x="${b.x}" data-y="${b.y}" data-at="${m.at}" data-figure="${figure}" transform="translate(${b.x * TILE + a[0]} ${b.y * TILE + a[1]})"><g class="mz">${figureMarkup(figure, colorOfSeat(state, m.seat), { farmer, scale: 0.95 })}</g></g>`;
    }
  }
  return out;
}

/**
 * What the expansions draw over the figures (expansions/registry.js: boardLayer): neutral
 * pieces, a path, buttons with `data-action`. ctx: {seat, entry, choice, turn, figure (the
 * figure picker's, or null)} of the room;
 * the layer gets where a figure on a placed tile stands and what feature it is.
 */
export function expansionLayerMarkup(state, board, tiles, ctx = {}) {
  const layers = hooks('boardLayer');
  if (!layers.length) return '';
  const at = new Map(board.map((b) => [`${b.x},${b.y}`, b]));
  const placed = (x, y) => at.get(`${x},${y}`);
  const anchor = (x, y, port) => {
    const b = placed(x, y);
    return b && tiles[b.tile] && PORT_RE.test(port) ? meepleAnchor(tiles[b.tile], b.rotation, port) : null;
  };
  const kindAt = (x, y, port) => {
    const b = placed(x, y);
    return b && tiles[b.tile] ? featureAt(tiles[b.tile], b.rotation, port)?.kind ?? null : null;
  };
  return layers.map((f) => f(state, { ...ctx, anchor, kindAt, TILE }) ?? '').join('');
}

/**
 * The legal cells, each a button for assistive technology (`labelOf(c)` names it). One of
 * them is the board's tab stop (roving tab index): the cell `focusKey` ("x,y") names, else
 * the first.
 */
export function legalMarkup(legalCells, draft, { labelOf = () => '', focusKey = null } = {}) {
  let out = '';
  const cells = legalCells.filter((c) => Number.isInteger(c.x) && Number.isInteger(c.y) && !(draft && draft.x === c.x && draft.y === c.y));
  const stop = cells.some((c) => `${c.x},${c.y}` === focusKey) ? focusKey : (cells[0] ? `${cells[0].x},${cells[0].y}` : null);
  for (const c of cells) {
    out += `<g class="legal-cell" role="button" tabindex="${`${c.x},${c.y}` === stop ? 0 : -1}" aria-label="${escapeAttr(labelOf(c))}" data-testid="cell" data-cell="1" data-x="${c.x}" data-y="${c.y}" data-rotation="${c.rotation}">
      <rect x="${c.x * TILE + 3}" y="${c.y * TILE + 3}" width="${TILE - 6}" height="${TILE - 6}" rx="8"/>
      <path d="M${c.x * TILE + 50} ${c.y * TILE + 36} v28 M${c.x * TILE + 36} ${c.y * TILE + 50} h28"/></g>`;
  }
  return out;
}

/**
 * The tile held, drawn faintly on a legal cell under the mouse (`def` at the cell's first
 * legal rotation), or '' when there is none to draw. Made when the mouse first comes over
 * the cell, not for every cell of every turn.
 */
export function previewMarkup(def, x, y, rotation) {
  if (!def || ![0, 90, 180, 270].includes(rotation)) return '';
  return `<g class="preview" transform="translate(${x * TILE} ${y * TILE})">${tileMarkup(def, rotation)}</g>`;
}

/** Text for an attribute of markup built as a string (labels come from the dictionaries and names). */
export function escapeAttr(text) {
  return String(text).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * draft: {x, y, tile, rotation, spots: [{port, figure, kind, x, y, name, points}] (spots.js),
 * meeple, color, label, turnFrom}; ringUnits: a spot's diameter. `turnFrom`: the rotation
 * shown before this one on the same cell, so the tile visibly turns (even when the new
 * rotation looks the same). The spots are a roving group: the chosen one, else the first,
 * is the tab stop.
 */
export function draftMarkup(draft, tiles, ringUnits = 24) {
  if (!draft) return '';
  const def = tiles[draft.tile];
  if (!def || !Number.isInteger(draft.x) || !Number.isInteger(draft.y)) return '';
  const ox = draft.x * TILE;
  const oy = draft.y * TILE;
  const from = Number.isInteger(draft.turnFrom) && draft.turnFrom !== draft.rotation ? draft.turnFrom : null;
  // Clockwise from the old rotation to the new one (a full turn when they look alike).
  const turn = from === null ? 0 : (((draft.rotation - from) % 360) + 360) % 360 || 360;
  // A class per angle: the page's Content-Security-Policy allows no inline style.
  const body = turn ? `<g class="turning turn-${turn}">${tileMarkup(def, draft.rotation)}</g>` : tileMarkup(def, draft.rotation);
  let out = `<g class="ghost" data-ghost="1" data-testid="ghost" role="button" tabindex="0" aria-label="${escapeAttr(draft.label ?? '')}" data-turn="${turn}" data-x="${draft.x}" data-y="${draft.y}" data-rotation="${draft.rotation}" transform="translate(${ox} ${oy})">${body}<rect class="ghost-frame" x="1" y="1" width="98" height="98" rx="3"/></g>`;
  const spots = (draft.spots ?? []).filter((sp) => PORT_RE.test(sp.port) && Number.isFinite(sp.x) && Number.isFinite(sp.y));
  const choiceOf = (sp) => spotChoice(sp.port, sp.figure);
  const stop = spots.some((sp) => choiceOf(sp) === draft.meeple) ? draft.meeple : (spots[0] ? choiceOf(spots[0]) : null);
  for (const sp of spots) {
    const farmer = sp.kind === 'field';
    const chosen = draft.meeple === choiceOf(sp);
    const figure = figureIds().includes(sp.figure) ? sp.figure : 'meeple';
    const name = [sp.name, sp.points].filter(Boolean).join(' · ');
    out += `<g class="spot${chosen ? ' chosen' : ''}${figure === 'meeple' ? '' : ` spot-${figure}`}" role="button" aria-pressed="${chosen}" tabindex="${choiceOf(sp) === stop ? 0 : -1}" aria-label="${escapeAttr(name)}" data-keys="own" data-spot="${sp.port}" data-figure="${figure}" data-kind="${sp.kind}" data-testid="meeple-spot" data-port="${sp.port}" data-points="${sp.value ?? ''}" transform="translate(${ox + sp.x} ${oy + sp.y})">
      <title>${escapeAttr(name)}</title>
      <circle r="${ringUnits / 2}" class="spot-ring"/>
      ${chosen ? figureMarkup(figure, draft.color, { farmer, scale: 0.9 }) : `<g opacity=".6">${figureMarkup(figure, draft.color, { farmer, scale: 0.7 })}</g>`}
    </g>`;
  }
  return out;
}
