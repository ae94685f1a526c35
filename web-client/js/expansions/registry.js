// What the expansions bring, for base code to iterate (docs/web-client-expansions.md). Each
// expansion's folder describes itself in its index.js (a plain object, below); index.js of
// this folder lists them. Base code asks here and never names an expansion, a figure or a
// token: a new expansion is a folder and one line in index.js.
//
// An expansion's description (every part optional but `id`):
//   id            the settings id (docs/expansions.md: settings.expansions)
//   seats         seats of a lobby with it (more than the base game's five)
//   tileCopy(id)  the plain tile a copy of it stands for (the catalog: the copy needs both)
//   figures       [{id, order, picker, strength, markup(x, y, color, opts), icon(color),
//                   iconBox, chip(player, n)?, chosenKey?, logClaim(li, line, helpers)?}]
//   featureKinds  {kind: {like?: 'monastery', rank, words, shape?}} the tiles' new features
//   featureMarks  [{flag, on, perTile}] a mark on a road or city that changes its points
//   tileMarks(f)  the symbol (#sym-<mark>) a feature shows; tileWords(f) the marks in words
//   tileSymbol(tile) the symbol a whole tile shows (a catalog tile's own `symbol`), or null
//   tileDefs()    shared SVG <defs>; tileLayers {under, over}(shapes) a tile's drawing
//   eventLine(ev), scoredLine(ev, common), logLine(li, line, helpers), lineEvents
//                 (a line with `afterPlacement` is said after the placement the server sends next)
//   figureCell(placed) the cell a placement's figure stands on when not the placed tile
//   figuresGone(ev) [{x, y, at}] the figures an event takes off the board
//   placedNote(line) words the log adds to a placement's line, or null
//   endEvents     [{type, kind}] events scored at the end besides `scored`
//   breakdown     [{kind, label, part?, folds?}] the end screen's columns
//   tokens        [{name, start(), event}] what a player holds; playerChips(p)
//   replayFigures the figures a replayed game gives each player when its state has none
//   replayState(events) the state keys of its own a replayed step has after these events
//   actionControls(bar, ctx) the action bar's own controls
//   entryActions(entry, turn) the draft choices a placement offers besides its own spots
//                 (strings, e.g. a figure onto another tile); actionFields(entry, choice,
//                 turn) the `play` keys of one of them; actionWords(choice, entry) its words
//   figureNote(entry, tile) why a placement offers no figure (a string key), or null
//   turnStage(state) {seat, cells, mineKey, hintKey?, otherKey, params} while the turn waits for a
//                 stage of its own (no placing then; the banner says whose it is, the board
//                 shows that seat its cells), else null
//   boardLayer(state, ctx) markup drawn over the figures; boardAction(action, ctx) what a
//                 click on its `data-action` element does: {send: message} | {choose: choice}
//   strings       {language: {key: text}}

import { EXPANSIONS } from './index.js';

/** The expansions' ids, in the lobby's order. */
export function expansionIds() {
  return EXPANSIONS.map((e) => e.id);
}

/**
 * The expansions the server offers, in the lobby's order: those this client knows that
 * have a tile in the server's catalog (GET /api/tiles: each tile's `expansion`), so that a
 * folder registered before the server plays it is never offered. Every known one until the
 * catalog is known (offerFrom).
 */
let offered = null;
export function offeredIds() {
  return offered ? expansionIds().filter((id) => offered.has(id)) : expansionIds();
}

/** Keeps the catalog's expansions (app.js calls it once the catalog is here). */
export function offerFrom(catalog) {
  const tiles = Array.isArray(catalog?.tiles) ? catalog.tiles : [];
  offered = tiles.length ? new Set(tiles.map((t) => t?.expansion).filter((e) => typeof e === 'string')) : null;
}

/** One expansion's description, or null. */
export function expansionById(id) {
  return EXPANSIONS.find((e) => e.id === id) ?? null;
}

/** Every expansion's list of `part`, one after another. */
export function listed(part) {
  return EXPANSIONS.flatMap((e) => e[part] ?? []);
}

/** Every expansion's function `part` (those that have one). */
export function hooks(part) {
  return EXPANSIONS.map((e) => e[part]).filter((f) => typeof f === 'function');
}

/** The first non-null answer of the expansions' `part`(...args), else null. */
export function ask(part, ...args) {
  for (const f of hooks(part)) {
    const v = f(...args);
    if (v !== null && v !== undefined && v !== false) return v;
  }
  return null;
}

/** The special figures (not the meeple), in the picker's order. */
export function figures() {
  return listed('figures').sort((a, b) => a.order - b.order);
}

export function figureIds() {
  return figures().map((f) => f.id);
}

/** A special figure's description, or null (the meeple, or unknown). */
export function figureById(id) {
  return listed('figures').find((f) => f.id === id) ?? null;
}

/** A feature kind an expansion brings ({like, rank, words, shape}), or null. */
export function featureKind(kind) {
  for (const e of EXPANSIONS) if (e.featureKinds?.[kind]) return e.featureKinds[kind];
  return null;
}

/** Every feature kind the expansions bring: [[kind, description]]. */
export function featureKinds() {
  return EXPANSIONS.flatMap((e) => Object.entries(e.featureKinds ?? {}));
}

/** Whether a feature scores like a monastery (it and the tiles around it). */
export function likeMonastery(kind) {
  return kind === 'monastery' || featureKind(kind)?.like === 'monastery';
}
