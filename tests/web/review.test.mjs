// The review's pure parts (web-client/js/replay/review.js): marked moves, jumps between them, the
// graph's lines per seat and its scale.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { entryForStep, markedMoves, stepOfMarked, series, scale } from '../../web-client/js/replay/review.js';

const analysis = {
  status: 'done',
  moves: [
    { move: 0, seat: 0, label: 'best', loss: 0, played_value: 1, best_value: 1, spread: 0.5, best: { x: 0, y: -1, rotation: 0, meeple: null } },
    { move: 1, seat: 1, label: 'mistake', loss: 7, played_value: -4, best_value: 3, spread: 1, best: { x: 1, y: 0, rotation: 90, meeple: 'N' } },
    { move: 2, seat: 0, label: null, loss: 0, played_value: null, best_value: null, spread: null, best: null },
    { move: 3, seat: 0, label: 'blunder', loss: 14, played_value: -9, best_value: 5, spread: 1, best: { x: 2, y: 0, rotation: 0, meeple: null } },
    { move: 4, seat: 1, label: 'good', loss: 1, played_value: 6, best_value: 7, spread: 0.5, best: { x: 3, y: 0, rotation: 0, meeple: null } },
    { nonsense: true },
  ],
};

test('mistakes and blunders are marked; the step after each shows it played', () => {
  assert.deepEqual(markedMoves(analysis), [1, 3]);
  assert.equal(stepOfMarked(analysis, 0, 1), 2);
  assert.equal(stepOfMarked(analysis, 2, 1), 4);
  assert.equal(stepOfMarked(analysis, 4, 1), null);
  assert.equal(stepOfMarked(analysis, 5, -1), 4);
  assert.equal(stepOfMarked(analysis, 4, -1), 2);
  assert.equal(stepOfMarked(analysis, 2, -1), null);
  assert.equal(entryForStep(analysis, 2).label, 'mistake');
  assert.equal(entryForStep(analysis, 0), null);
  assert.deepEqual(markedMoves(null), []);
  assert.deepEqual(markedMoves({ moves: 'no' }), []);
});

test('the graph has one line per seat at its own moves; discards are left out', () => {
  const s = series(analysis, 2);
  assert.deepEqual(s.lines[0], [{ move: 0, value: 1 }, { move: 3, value: -9 }]);
  assert.deepEqual(s.lines[1], [{ move: 1, value: -4 }, { move: 4, value: 6 }]);
  assert.equal(s.lo, -9);
  assert.equal(s.hi, 6);
  const m = scale(s, 5, 104, 54, 2);
  assert.equal(m.x(0), 2);
  assert.equal(m.x(4), 102);
  assert.equal(m.y(6), 2);
  assert.equal(m.y(-9), 52);
  assert.equal(m.moveAt(2), 0);
  assert.equal(m.moveAt(102), 4);
  assert.equal(m.moveAt(53), 2);
  assert.equal(m.moveAt(-50), 0);
  assert.equal(m.moveAt(500), 4);
});

test('the viewer\'s own mistakes, the axis of the graph, the cells a review frames', async () => {
  const { stepOfMarked, markedMoves, axisTicks, framedCells } = await import('../../web-client/js/replay/review.js');
  const analysis = {
    status: 'done',
    moves: [
      { move: 0, seat: 0, label: 'good' }, { move: 1, seat: 1, label: 'mistake' }, { move: 2, seat: 0, label: 'blunder' },
      { move: 3, seat: 1, label: 'blunder' }, { move: 4, seat: 0, label: 'mistake' },
    ],
  };
  assert.deepEqual(markedMoves(analysis, 0), [2, 4]);
  assert.equal(stepOfMarked(analysis, 0, 1, 0), 3, 'seat 1\'s mistake at move 1 is passed by');
  assert.equal(stepOfMarked(analysis, 3, 1, 0), 5);
  assert.equal(stepOfMarked(analysis, 5, -1, 0), 3);
  assert.equal(stepOfMarked(analysis, 0, 1), 2, 'everybody\'s');
  assert.deepEqual(axisTicks({ lo: -8.4, hi: 12.2 }).map((x) => x.label), ['+12', '0', '\u22128']);
  assert.deepEqual(axisTicks({ lo: 0, hi: 5 }).map((x) => x.label), ['+5', '0']);
  assert.deepEqual(framedCells({ best: { x: 2, y: -1 } }, { x: 0, y: 1 }), [{ x: 0, y: 1 }, { x: 2, y: -1 }]);
  assert.deepEqual(framedCells({ best: { discard: true } }, null), []);
});
