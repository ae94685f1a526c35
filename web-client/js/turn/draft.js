// The turn being prepared: the cell, the rotation among the server's legal entries, the
// meeple spot, and whether it was sent. A draft is a plain value; every function returns
// a new one (or null), and none touches the DOM, so node can test them.

import { isMyTurn, legalAt, playerBySeat } from '../game/state.js';
import { nextCell, nextSpot } from '../board/view.js';
import { entrySpots, entryChoices, choiceFits, playFields } from '../game/figure-spots.js';
import { visibleSpots } from '../game/figure-picker.js';

/** Identifies a turn: a draft made for one turn never survives into another. */
export function turnKey(state) {
  if (!state || state.phase !== 'playing' || !state.turn) return `${state?.phase}`;
  return `${state.turn.number}:${state.turn.seat}:${state.turn.tile}`;
}

/** A fresh draft on (x, y), or null when the cell has no legal entry this turn. */
export function startDraft(state, x, y) {
  const options = legalAt(state, x, y);
  if (!options.length) return null;
  // `turn`: the turn it was made in (choices an expansion offers for every placement, figure-spots.js).
  return { x, y, options, idx: 0, meeple: null, pending: false, turnKey: turnKey(state), turn: state.turn };
}

export const entryOf = (d) => (d ? d.options[d.idx] : null);
export const canRotate = (d) => !!d && !d.pending && d.options.length > 1;

/** The next legal rotation on the same cell; a meeple the new rotation cannot take is dropped. */
export function rotateDraft(d) {
  if (!canRotate(d)) return d;
  const idx = (d.idx + 1) % d.options.length;
  const meeple = d.meeple && choiceFits(d.options[idx], d.meeple, d.turn) ? d.meeple : null;
  return { ...d, idx, meeple };
}

/** Choosing the chosen spot again takes the meeple back. */
export function toggleMeeple(d, port) {
  if (!d || d.pending) return d;
  return { ...d, meeple: d.meeple === port ? null : port };
}

export function withoutMeeple(d) {
  if (!d || d.pending) return d;
  return { ...d, meeple: null };
}

export const markPending = (d, pending = true) => (d ? { ...d, pending } : d);

/** The draft if it still stands in the store's new state (same turn, still ours, cell still legal). */
export function keepDraft(d, store) {
  if (!d) return null;
  const state = store.state;
  const still = d.turnKey === turnKey(state) && isMyTurn(store) && legalAt(state, d.x, d.y).length > 0;
  return still ? d : null;
}

/**
 * The cell an arrow key moves to: the nearest legal cell in that direction (view.js
 * nextCell) from the draft's cell or, without a draft, from `origin` (the middle of the
 * view), so that the first press goes its way too. A first press with nothing that way
 * still picks a cell: the one nearest the origin.
 */
export function stepTarget(cells, d, key, origin = { x: 0, y: 0 }) {
  if (d) return nextCell(cells, d, key);
  const ahead = nextCell(cells, origin, key);
  if (ahead || !cells.length || !/^Arrow/.test(key ?? '')) return ahead;
  return nearestCell(cells, origin);
}

/** The cell nearest `origin` (the middle of the view), or null. */
export function nearestCell(cells, origin) {
  if (!cells.length) return null;
  const dist = (c) => Math.hypot(c.x - origin.x, c.y - origin.y);
  return cells.reduce((best, c) => (dist(c) < dist(best) ? c : best));
}

/** The M key: the next meeple spot of the draft's rotation, then none. */
export function cycleMeeple(d) {
  if (!d || d.pending) return d;
  return { ...d, meeple: nextSpot(entryChoices(entryOf(d), d.turn), d.meeple) };
}

/** What the board draws for the draft: the ghost tile and its meeple spots. */
export function draftView(d, store) {
  const state = store.state;
  if (!d || !state?.turn) return null;
  const entry = entryOf(d);
  return {
    x: d.x, y: d.y, tile: state.turn.tile, rotation: entry.rotation,
    spots: d.pending ? (d.meeple ? [d.meeple] : []) : visibleSpots(entry, d, entrySpots(entry)), // the picked figure's (game/figure-picker.js)
    meeple: d.meeple,
    color: playerBySeat(state, store.seat)?.color ?? 'black',
  };
}

/** The `play` message for the draft at the store's version. */
export function playMessage(d, version) {
  const entry = entryOf(d);
  return { type: 'play', version, x: d.x, y: d.y, rotation: entry.rotation, ...playFields(entry, d.meeple ?? null, d.turn) };
}

/** What a reload keeps of an unsent draft: {turnKey, x, y, rotation, meeple, figure}, or null. */
export function savedDraft(d) {
  if (!d || d.pending) return null;
  const entry = entryOf(d);
  return { turnKey: d.turnKey, x: d.x, y: d.y, rotation: entry.rotation, meeple: d.meeple ?? null, figure: d.figure ?? null };
}

/**
 * The draft a reload kept, back on the same turn if the board still allows it (its cell,
 * its rotation, its figure's spot); null otherwise.
 */
export function restoreDraft(state, saved) {
  if (!saved || typeof saved !== 'object' || saved.turnKey !== turnKey(state)) return null;
  const d = Number.isInteger(saved.x) && Number.isInteger(saved.y) ? startDraft(state, saved.x, saved.y) : null;
  if (!d) return null;
  const idx = d.options.findIndex((o) => o.rotation === saved.rotation);
  if (idx < 0) return null;
  const meeple = typeof saved.meeple === 'string' && choiceFits(d.options[idx], saved.meeple, state.turn) ? saved.meeple : null;
  return { ...d, idx, meeple, ...(typeof saved.figure === 'string' ? { figure: saved.figure } : {}) };
}
