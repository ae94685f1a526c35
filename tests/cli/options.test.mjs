// The command line with rule options (docs/options.md): `random --options` writes them in
// its record and the game replays (`random` checks its own replay and exits 3 otherwise);
// `replay` reads them from the record; bad ids are usage errors. CARC_CLI: the built binary.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const cli = process.env.CARC_CLI;
assert.ok(cli, 'CARC_CLI must name the carcassonne binary');
const dir = mkdtempSync(join(tmpdir(), 'carc-options-'));

function run(args) {
  const r = spawnSync(cli, args, { encoding: 'utf8', timeout: 120000 });
  return { code: r.status, out: r.stdout.trim() ? JSON.parse(r.stdout) : null, err: r.stderr };
}

function replay(record) {
  const file = join(dir, `r${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(record));
  return run(['replay', file]);
}

test('random games with options are valid: they replay, with no fields row under no_fields', () => {
  const sets = ['', 'traders', 'inns,traders', 'princess', 'river,abbot,inns,traders,princess'];
  for (let seed = 1; seed <= 10; seed++) {
    const options = ['no_fields', 'small_city', 'no_fields,small_city'][seed % 3];
    const expansions = sets[seed % sets.length];
    const args = ['random', '--players', String(2 + (seed % 3)), '--seed', String(seed), '--options', options];
    if (expansions) args.push('--expansions', expansions);
    const r = run(args);
    assert.equal(r.code, 0, `${args.join(' ')}: ${r.err}`);
    assert.deepEqual(r.out.options, options.split(','));
    const again = replay(r.out);
    assert.equal(again.code, 0, again.err);
    assert.deepEqual(again.out.final_scores, r.out.result.final_scores);
    for (const line of again.out.breakdown) assert.equal('field' in line.end, !options.includes('no_fields'));
  }
});

test('replay reads the options: the worked example scores 4 without small_city, 2 with it', () => {
  const moves = [{ tile: 'E', x: 0, y: -1, rotation: 180, meeple: 'S' }];
  assert.deepEqual(replay({ format: 'carcassonne-record/1', players: 2, moves }).out.final_scores, [4, 0]);
  assert.deepEqual(replay({ format: 'carcassonne-record/1', players: 2, options: ['small_city'], moves }).out.final_scores, [2, 0]);
  const bad = replay({ format: 'carcassonne-record/1', players: 2, options: ['small_city', 'small_city'], moves });
  assert.equal(bad.out.move, null);
  assert.match(bad.out.error, /small_city/);
});

test('unknown or repeated --options are usage errors', () => {
  for (const opts of ['tiny_city', 'no_fields,no_fields', 'no_fields,tiny_city']) {
    const r = run(['random', '--players', '2', '--seed', '1', '--options', opts]);
    assert.equal(r.code, 64, opts);
  }
});
