// `carcassonne analyse FILE`: the JSON of GET /api/rooms/<id>/analysis for a record file, and
// a record that breaks a rule refused as `replay` refuses it. CARC_CLI: the built binary.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const cli = process.env.CARC_CLI;
assert.ok(cli, 'CARC_CLI must name the carcassonne binary');
const dir = mkdtempSync(join(tmpdir(), 'carc-analyse-'));

function run(args, record) {
  const file = join(dir, `r${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(record));
  const r = spawnSync(cli, [args[0], file, ...args.slice(1)], { encoding: 'utf8', timeout: 120000 });
  return { code: r.status, out: r.stdout.trim() ? JSON.parse(r.stdout) : null, err: r.stderr };
}

// Seat 0 owns the city D-F-G running north and holds E, which would close it at (0,-3);
// it plays E elsewhere instead.
const leavesCityOpen = {
  format: 'carcassonne-record/1',
  players: 2,
  final: true,
  moves: [
    { tile: 'F', x: 0, y: -1, rotation: 90, meeple: 'N' },
    { tile: 'U', x: 1, y: 0, rotation: 0 },
    { tile: 'G', x: 0, y: -2, rotation: 90 },
    { tile: 'U', x: 2, y: 0, rotation: 0 },
    { tile: 'E', x: 1, y: -1, rotation: 0 },
  ],
};

test('analyse prints one entry per move; leaving one\'s own city open is labelled and the closing move suggested', () => {
  const r = run(['analyse', '--iterations', '6000', '--seed', '1'], leavesCityOpen);
  assert.equal(r.code, 0, r.err);
  assert.equal(r.out.status, 'done');
  assert.equal(r.out.moves.length, 5);
  r.out.moves.forEach((m, k) => {
    assert.equal(m.move, k);
    assert.equal(m.seat, k % 2);
    assert.ok(m.loss >= 0);
    assert.ok(['best', 'good', 'inaccuracy', 'mistake', 'blunder'].includes(m.label));
    assert.equal(typeof m.spread, 'number');
  });
  const last = r.out.moves[4];
  assert.ok(['inaccuracy', 'mistake', 'blunder'].includes(last.label), JSON.stringify(last));
  assert.deepEqual([last.best.x, last.best.y, last.best.rotation], [0, -3, 180]);
  assert.ok(last.best_value - last.played_value > last.spread);
});

test('the same seed and iteration budget give the same analysis', () => {
  const a = run(['analyse', '--iterations', '800', '--seed', '5'], leavesCityOpen);
  const b = run(['analyse', '--iterations', '800', '--seed', '5'], leavesCityOpen);
  assert.deepEqual(a.out.moves, b.out.moves);
});

test('a record that breaks a rule is refused as replay refuses it, and nothing is printed but the error', () => {
  const bad = structuredClone(leavesCityOpen);
  bad.moves[2] = { tile: 'G', x: 5, y: 5, rotation: 0 };
  const analysed = run(['analyse', '--iterations', '100'], bad);
  const replayed = run(['replay'], bad);
  assert.equal(analysed.code, 2);
  assert.equal(replayed.code, 2);
  assert.deepEqual(analysed.out, replayed.out);
  assert.equal(analysed.out.move, 2);
});

test('a discard has no label and no best move', () => {
  // C (a city on every side) fits nowhere next to the start tile's road sides once the
  // start is surrounded: simplest, a record whose second move discards (docs/record-format.md).
  const record = {
    format: 'carcassonne-record/1', players: 3, final: true,
    moves: [
      { tile: 'E', x: 0, y: -1, rotation: 180, meeple: 'S' },
      { tile: 'C', discard: true },
      { tile: 'V', x: 1, y: 0, rotation: 90 },
      { tile: 'U', x: -1, y: 0, rotation: 0, meeple: 'W' },
    ],
  };
  const r = run(['analyse', '--iterations', '300'], record);
  assert.equal(r.code, 0, r.err);
  assert.equal(r.out.moves[1].label, null);
  assert.equal(r.out.moves[1].best, null);
  assert.equal(r.out.moves[1].seat, 1);
  assert.equal(r.out.moves[2].seat, 1);
});

test('bad flags are a usage error', () => {
  const r = spawnSync(cli, ['analyse', '--seed'], { encoding: 'utf8' });
  assert.equal(r.status, 64);
});
