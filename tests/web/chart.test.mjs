import test from 'node:test';
import assert from 'node:assert/strict';
import { scoreSeries, chartLayout } from '../../web-client/js/end/chart.js';

const events = [
  { id: 0, type: 'started' },
  { id: 1, type: 'placed', turn: 1, seat: 0 },
  { id: 2, type: 'scored', turn: 1, kind: 'city', end: false, points: 4, seats: [0] },
  { id: 3, type: 'placed', turn: 2, seat: 1 },
  { id: 4, type: 'discarded', turn: 3, seat: 0 },
  { id: 5, type: 'placed', turn: 4, seat: 0 },
  { id: 6, type: 'scored', turn: 4, kind: 'road', end: false, points: 3, seats: [0, 1] },
  { id: 7, type: 'scored', turn: 4, kind: 'monastery', end: false, points: 9, seats: [1] },
  { id: 8, type: 'scored', turn: 4, kind: 'road', end: true, points: 2, seats: [1] },
  { id: 9, type: 'scored', turn: 4, kind: 'field', end: true, points: 0, seats: [0] },
  { id: 10, type: 'game_over', final_scores: [7, 14], winners: [1] },
];

test('scores after each move, with the completion steps and the final scoring', () => {
  const s = scoreSeries(events, [0, 1]);
  assert.equal(s.moves, 4);
  assert.deepEqual(s.seats[0].after, [0, 4, 4, 4, 7]);
  assert.deepEqual(s.seats[1].after, [0, 0, 0, 0, 12]);
  assert.deepEqual([s.seats[0].final, s.seats[1].final], [7, 14], 'the final column is the final score');
  assert.deepEqual(s.seats[1].steps.map((st) => [st.move, st.from, st.to, st.kind, st.end]),
    [[4, 0, 3, 'road', false], [4, 3, 12, 'monastery', false], [5, 12, 14, 'road', true]]);
  assert.equal(s.seats[0].steps.length, 2, 'a scoring worth nothing is no step');
});

test('the chart layout: one line per player, a dot per step, inside the box', () => {
  const s = scoreSeries(events, [0, 1]);
  const L = chartLayout(s, { w: 300, h: 150 });
  assert.equal(L.lines.length, 2);
  assert.equal(L.lines[1].dots.length, 3);
  for (const line of L.lines) {
    const nums = line.d.match(/-?\d+(\.\d+)?/g).map(Number);
    assert.ok(nums.every((n) => n >= 0 && n <= 300), line.d);
    for (const d of line.dots) assert.ok(d.x >= L.plot.x && d.x <= L.plot.x + L.plot.w && d.y >= 0 && d.y <= 150);
  }
  // The higher score is drawn higher (smaller y).
  assert.ok(L.lines[1].end.y < L.lines[0].end.y);
  assert.equal(L.lines[1].end.score, 14);
  assert.ok(L.yTicks.at(-1).v >= 14);
  assert.ok(L.finalBand.w > 0);
  // Equal scores are nudged apart so both lines show.
  const tie = chartLayout(scoreSeries([{ id: 0, type: 'placed', turn: 1, seat: 0 }], [0, 1]));
  assert.notEqual(tie.lines[0].d, tie.lines[1].d);
});

test('final-score labels do not overlap', () => {
  const ev = [{ id: 0, type: 'placed', turn: 1, seat: 0 }];
  for (const [i, pts] of [[0, 28], [1, 27], [2, 14], [3, 13], [4, 12]].entries()) ev.push({ id: i + 1, type: 'scored', turn: 1, kind: 'city', end: true, points: pts[1], seats: [pts[0]] });
  const L = chartLayout(scoreSeries(ev, [0, 1, 2, 3, 4]), { w: 300, h: 150, labelGap: 12 });
  const ys = L.labels.map((l) => l.y).sort((a, b) => a - b);
  for (let i = 1; i < ys.length; i++) assert.ok(ys[i] - ys[i - 1] >= 12 - 1e-9, `labels ${i - 1} and ${i}`);
  assert.ok(ys.at(-1) <= 150);
  assert.deepEqual(L.labels.map((l) => l.score).sort((a, b) => a - b), [12, 13, 14, 27, 28]);
});
