// The figure picker of the meeple step (docs/protocol-details.md, turn.legal[].figures): in a game whose
// `turn.legal[].figures` names a figure that asks for the picker (expansions/registry.js:
// figures[].picker), the player first picks WHICH figure (only those the chosen placement
// offers: the meeple from `meeples`, the others from `figures`), then a spot for it on the
// tile; the board shows that figure's spots only. Other figures keep their spots side by
// side (figure-spots.js). The picked figure lives in the draft (`figure`); a chosen spot
// ("<figure>:E") always names its own.

import { parseSpot } from './figure-spots.js';
import { figures, figureIds } from '../expansions/registry.js';

/** Whether this legal entry asks for the picker (a figure of the picker in the game). */
export function pickerMode(entry) {
  const f = entry?.figures;
  return !!f && figures().some((k) => k.picker && Array.isArray(f[k.id]));
}

/** The figures this entry offers, in the picker's order: [{figure, ports}], none empty. */
export function pickerFigures(entry) {
  if (!pickerMode(entry)) return [];
  const out = [];
  if (entry.meeples?.length) out.push({ figure: 'meeple', ports: [...entry.meeples] });
  for (const figure of figureIds()) {
    const ports = entry.figures?.[figure];
    if (Array.isArray(ports) && ports.length) out.push({ figure, ports: [...ports] });
  }
  return out;
}

/** The figure whose spots the board shows: the chosen spot's, else the picked one, else the first offered. */
export function pickedFigure(entry, draft) {
  const offered = pickerFigures(entry);
  if (!offered.length) return null;
  const chosen = parseSpot(draft?.meeple)?.figure;
  for (const f of [chosen, draft?.figure]) if (f && offered.some((o) => o.figure === f)) return f;
  return offered[0].figure;
}

/** The draft's spot strings for the board: with the picker, the picked figure's only. */
export function visibleSpots(entry, draft, all) {
  if (!pickerMode(entry)) return all;
  const figure = pickedFigure(entry, draft);
  return all.filter((s) => (parseSpot(s)?.figure ?? null) === figure);
}

/** Picks a figure: a spot chosen for another figure is dropped. */
export function pickFigure(draft, figure) {
  if (!draft || draft.pending) return draft;
  const chosen = parseSpot(draft.meeple)?.figure;
  return { ...draft, figure, meeple: chosen && chosen !== figure ? null : draft.meeple };
}
