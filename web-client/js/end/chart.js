// The score-over-time chart of the end screen, as numbers: each player's score after each
// move (from the server's scored events), the steps where a feature was completed, and the
// coordinates of a step chart. Pure; endscreen.js turns the layout into SVG.

import { listed } from '../expansions/registry.js';

/**
 * Scores after each move. Returns {moves, seats: [{seat, after: [score after move 0..moves],
 * final, steps: [{move, from, to, kind, end}]}]}. Move 0 is the start (all zero); `final`
 * adds the end-of-game scoring.
 */
export function scoreSeries(events, seats) {
  const list = events ?? [];
  const moves = list.reduce((m, ev) => ((ev.type === 'placed' || ev.type === 'discarded') && ev.turn > m ? ev.turn : m), 0);
  const out = seats.map((seat) => ({ seat, after: new Array(moves + 1).fill(0), final: 0, steps: [] }));
  const bySeat = new Map(out.map((s) => [s.seat, s]));
  const gains = out.map(() => new Array(moves + 2).fill(0));
  for (const ev of list) {
    // An expansion's own scoring at the end (expansions/registry.js: endEvents); a figure's
    // `bonus` adds to its owner's points.
    const atEnd = listed('endEvents').find((e) => e.type === ev.type);
    if (ev.type !== 'scored' && !atEnd) continue;
    for (const seat of ev.seats ?? []) {
      const s = bySeat.get(seat);
      const points = (ev.points ?? 0) + (Number.isInteger(ev.bonus?.[seat]) ? ev.bonus[seat] : 0);
      if (!s || !(points > 0)) continue;
      const move = ev.end || atEnd ? moves + 1 : Math.min(Math.max(1, ev.turn ?? 1), moves);
      gains[out.indexOf(s)][move] += points;
      s.steps.push({ move, points, kind: atEnd ? atEnd.kind : ev.kind, end: !!ev.end || !!atEnd });
    }
  }
  out.forEach((s, i) => {
    let total = 0;
    for (let m = 0; m <= moves; m++) {
      total += gains[i][m];
      s.after[m] = total;
    }
    s.final = total + gains[i][moves + 1];
    // Steps carry the score before and after, in order (several on one move stack up).
    let run = 0;
    s.steps.sort((a, b) => a.move - b.move);
    for (const st of s.steps) {
      st.from = run;
      run += st.points;
      st.to = run;
    }
  });
  return { moves, seats: out };
}

function niceStep(max, ticks) {
  const raw = Math.max(1, max / ticks);
  const pow = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 5, 10]) if (raw <= m * pow) return m * pow;
  return 10 * pow;
}

/**
 * Coordinates of the chart in a w x h box: lines (SVG path data, one per seat, nudged
 * apart by `nudge` px so that equal scores stay visible), dots at each completion step,
 * axis ticks. The last column (after the last move) is the end-of-game scoring.
 */
export function chartLayout(series, { w = 640, h = 220, pad = { top: 10, right: 34, bottom: 22, left: 34 }, nudge = 1.6, labelGap = 12 } = {}) {
  const { moves, seats } = series;
  const maxScore = Math.max(10, ...seats.map((s) => s.final));
  const step = niceStep(maxScore, 4);
  const top = Math.ceil(maxScore / step) * step;
  // Moves 0..moves, then a band for the end-of-game scoring, wide enough to be seen.
  const band = Math.max(1, Math.round(moves * 0.08));
  const cols = moves + band;
  const plotW = w - pad.left - pad.right;
  const plotH = h - pad.top - pad.bottom;
  const X = (m) => pad.left + (m / cols) * plotW;
  const Y = (v) => pad.top + plotH - (v / top) * plotH;
  const n = seats.length;
  const lines = seats.map((s, i) => {
    const off = (i - (n - 1) / 2) * nudge;
    let d = `M${X(0).toFixed(1)} ${(Y(0) + off).toFixed(1)}`;
    let prev = 0;
    for (let m = 1; m <= moves; m++) {
      if (s.after[m] !== prev) {
        d += ` H${X(m).toFixed(1)} V${(Y(s.after[m]) + off).toFixed(1)}`;
        prev = s.after[m];
      }
    }
    d += ` H${X(moves).toFixed(1)}`;
    if (s.final !== prev) d += ` V${(Y(s.final) + off).toFixed(1)}`;
    d += ` H${X(cols).toFixed(1)}`;
    const dots = s.steps.map((st) => ({ x: X(Math.min(st.move, moves)), y: Y(st.to) + off, kind: st.kind, points: st.points, end: st.end, move: st.move }));
    return { seat: s.seat, d, dots, end: { x: X(cols), y: Y(s.final) + off, score: s.final } };
  });
  // Final-score labels at the right, pushed apart so that close scores stay readable.
  const labels = lines.map((l) => ({ seat: l.seat, score: l.end.score, x: l.end.x + 4, y: l.end.y + 4 })).sort((a, b) => a.y - b.y);
  for (let i = 1; i < labels.length; i++) labels[i].y = Math.max(labels[i].y, labels[i - 1].y + labelGap);
  const over = labels.length ? labels[labels.length - 1].y - (h - 2) : 0;
  if (over > 0) for (const l of labels) l.y -= over;
  for (let i = labels.length - 2; i >= 0; i--) labels[i].y = Math.min(labels[i].y, labels[i + 1].y - labelGap);
  const yTicks = [];
  for (let v = 0; v <= top; v += step) yTicks.push({ v, y: Y(v) });
  const xStep = niceStep(moves, 6);
  const xTicks = [];
  for (let m = 0; m <= moves; m += xStep) xTicks.push({ m, x: X(m) });
  return {
    w, h, lines, labels, yTicks, xTicks,
    plot: { x: pad.left, y: pad.top, w: plotW, h: plotH },
    finalBand: { x: X(moves), w: X(cols) - X(moves) },
  };
}
