// The review of a finished game (docs/analysis.md): its analysis (GET /api/rooms/<id>/analysis,
// docs/protocol-details.md) turned into what the replay viewer shows: one line of values
// per player for the evaluation graph, the moves marked as mistakes or blunders, and the
// steps to jump between them. Pure: no DOM, so node tests it.

export const LABELS = ['best', 'good', 'inaccuracy', 'mistake', 'blunder'];
const MARKED = new Set(['mistake', 'blunder']);

/** The analysis's entries by move index (only well-formed ones), or an empty array. */
export function entries(analysis) {
  const moves = Array.isArray(analysis?.moves) ? analysis.moves : [];
  return moves.filter((m) => m && Number.isInteger(m.move) && m.move >= 0 && Number.isInteger(m.seat));
}

/** The entry of the move that led to replay step k (move k - 1), or null. */
export function entryForStep(analysis, step) {
  return entries(analysis).find((m) => m.move === step - 1) ?? null;
}

/** Moves labelled mistake or blunder, in order (their indices in the record); of `seat` only when given. */
export function markedMoves(analysis, seat = null) {
  return entries(analysis).filter((m) => MARKED.has(m.label) && (seat === null || m.seat === seat)).map((m) => m.move);
}

/**
 * The replay step of the next (dir 1) or previous (dir -1) marked move from `step`: the
 * step right after that move, so that the board shows it played. Null when there is none.
 * `seat`: the viewer's own moves only (the review steps through the viewer's mistakes).
 */
export function stepOfMarked(analysis, step, dir, seat = null) {
  const steps = markedMoves(analysis, seat).map((k) => k + 1);
  if (dir > 0) return steps.find((s) => s > step) ?? null;
  return [...steps].reverse().find((s) => s < step) ?? null;
}

/**
 * The evaluation graph's points: for each seat, [{move, value}] at the moves it made (the
 * value of the move played, in points of expected margin). Discards have no value and are
 * left out. Also the range of values, for the scale.
 */
export function series(analysis, players) {
  const lines = Array.from({ length: players }, () => []);
  let lo = 0;
  let hi = 0;
  for (const m of entries(analysis)) {
    if (typeof m.played_value !== 'number' || m.seat >= players) continue;
    lines[m.seat].push({ move: m.move, value: m.played_value });
    lo = Math.min(lo, m.played_value);
    hi = Math.max(hi, m.played_value);
  }
  return { lines, lo, hi };
}

/**
 * SVG coordinates for the graph of `total` moves in a box of width w and height h: x by
 * move, y by value (0 on the middle line's place in the range). Returns a mapper.
 */
export function scale({ lo, hi }, total, w, h, pad = 4, left = pad) {
  const span = Math.max(1, hi - lo);
  const x = (move) => left + (Math.max(0, total - 1) === 0 ? 0 : (move / (total - 1)) * (w - left - pad));
  const y = (value) => pad + ((hi - value) / span) * (h - 2 * pad);
  // The move under an x coordinate (for a click), within 0..total-1. `left`: the axis's room.
  const moveAt = (px) => Math.max(0, Math.min(total - 1, Math.round(((px - left) / Math.max(1, w - left - pad)) * (total - 1))));
  return { x, y, moveAt };
}

/**
 * The values the graph's axis names: its top and bottom (whole points, 0 among them when
 * the range holds it) as [{value, label}], "+12", "0", "−8".
 */
export function axisTicks({ lo, hi }) {
  const sign = (v) => (v > 0 ? `+${v}` : v < 0 ? `\u2212${-v}` : '0');
  const top = Math.round(hi);
  const bottom = Math.round(lo);
  const out = [{ value: hi, label: sign(top) }];
  if (lo < 0 && hi > 0) out.push({ value: 0, label: '0' });
  if (bottom !== top) out.push({ value: lo, label: sign(bottom) });
  return out;
}

/** The cells the review frames at step k: the move played (record move k - 1) and its better move. */
export function framedCells(entry, played) {
  const cells = [];
  if (played && Number.isInteger(played.x) && Number.isInteger(played.y)) cells.push({ x: played.x, y: played.y });
  const b = entry?.best;
  if (b && Number.isInteger(b.x) && Number.isInteger(b.y)) cells.push({ x: b.x, y: b.y });
  return cells;
}
