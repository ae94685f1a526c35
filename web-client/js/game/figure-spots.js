// The figure and spot chooser of the turn being prepared: every figure's spots (the meeple's
// and the special figures' of expansions/registry.js) and the take-back a placement may
// offer (docs/protocol-details.md: turn.legal[].figures, .return). A draft's `meeple` stays
// one string so that draft.js keeps its shape: a port ("C") is a meeple, "<figure>:C" a
// special figure on that port, "return" the take-back, and an expansion's own choices
// (expansions/registry.js: entryActions, e.g. a figure onto another tile) whatever strings
// it makes. `turn` (the state's) is for choices the same for every placement. Pure, except
// the markup strings; node tests it.

import { meepleMarkup } from '../tiles/meeple-art.js';
import { specialFigureMarkup } from '../tiles/figures-art.js';
import { figureIds, figureById, hooks, ask } from '../expansions/registry.js';

export const RETURN = 'return';
const PORT_RE = /^(?:[NESW][LR]?|C|G|I)$/;

/** {port, figure} of a spot string; null for the take-back or anything malformed. */
export function parseSpot(spot) {
  if (typeof spot !== 'string') return null;
  const m = /^(?:([a-z]+):)?(.+)$/.exec(spot);
  if (!m || !PORT_RE.test(m[2])) return null;
  const figure = m[1] ?? 'meeple';
  if (figure !== 'meeple' && !figureIds().includes(figure)) return null;
  return { port: m[2], figure };
}

/** Every figure spot a legal entry offers: its meeple ports, then "<figure>:<port>" for each special figure. */
export function entrySpots(entry) {
  if (!entry) return [];
  const out = [...(entry.meeples ?? [])];
  for (const figure of figureIds()) for (const port of entry.figures?.[figure] ?? []) out.push(`${figure}:${port}`);
  return out;
}

/** The expansions' own choices of a placement (expansions/registry.js: entryActions). */
export function entryActions(entry, turn = null) {
  if (!entry) return [];
  return hooks('entryActions').flatMap((f) => f(entry, turn) ?? []);
}

/** What the M key goes through: the figure spots, the expansions' choices, then the take-back when offered. */
export function entryChoices(entry, turn = null) {
  return [...entrySpots(entry), ...entryActions(entry, turn), ...(entryReturn(entry) ? [RETURN] : [])];
}

/** The take-back this entry offers: {x, y, points} or null (turn.legal[].return, docs/protocol-details.md). */
export function entryReturn(entry) {
  const r = entry?.return;
  if (!r || !Number.isInteger(r.x) || !Number.isInteger(r.y)) return null;
  return { x: r.x, y: r.y, points: Number.isInteger(entry.return_points) ? entry.return_points : null };
}

/** Whether a draft choice still stands in another legal entry (a rotation). */
export function choiceFits(entry, choice, turn = null) {
  if (!choice) return true;
  if (choice === RETURN) return !!entryReturn(entry);
  return entrySpots(entry).includes(choice) || entryActions(entry, turn).includes(choice);
}

/** The figure keys of a `play` message for a draft choice (protocol: meeple, figure, return). */
export function playFields(entry, choice, turn = null) {
  const own = typeof choice === 'string' ? ask('actionFields', entry, choice, turn) : null; // an expansion's choice
  if (own) return own;
  if (choice === RETURN) {
    const r = entryReturn(entry);
    return r ? { meeple: null, return: { x: r.x, y: r.y } } : { meeple: null };
  }
  const s = parseSpot(choice);
  if (!s) return { meeple: null };
  return s.figure === 'meeple' ? { meeple: s.port } : { meeple: s.port, figure: s.figure };
}

/**
 * draftView's spot strings as spots.js's describeSpots figures: [{figure, ports}], the
 * meeple first. Spots of every figure are laid out together, so one figure's ring on a
 * monastery never covers the monk's on the same port.
 */
export function spotFigures(spots) {
  const by = new Map([['meeple', []]]);
  for (const spot of spots ?? []) {
    const s = parseSpot(spot);
    if (!s) continue;
    if (!by.has(s.figure)) by.set(s.figure, []);
    by.get(s.figure).push(s.port);
  }
  return [...by].map(([figure, ports]) => ({ figure, ports }));
}

/** The draft choice a spot stands for: its port for a meeple, "<figure>:<port>" else. */
export function spotChoice(port, figure = 'meeple') {
  return !figure || figure === 'meeple' ? port : `${figure}:${port}`;
}

/** A figure on the board or a spot: a special figure's own shape, else a meeple (farmers lie). */
export function figureMarkup(figure, colorName, { farmer = false, scale = 1, extraClass = '' } = {}) {
  const own = figureById(figure)?.markup;
  if (own) return own(0, 0, colorName, { scale, extraClass });
  const special = specialFigureMarkup(figure, 0, 0, colorName, { farmer, scale, extraClass });
  if (special) return special;
  return meepleMarkup(0, 0, colorName, { farmer, scale, extraClass });
}
