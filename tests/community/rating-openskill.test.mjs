// The server's rating step (server/src/community/rating.cpp, run through build/carc-rate)
// against the `openskill` npm package itself on 1,000 random tables: 2 to 6 players, random
// ranks with ties, random prior ratings; every mu and sigma must agree to 1e-6
// (docs/community.md#ratings).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { rate, rating } from 'openskill';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const buildDir = process.env.CARC_BUILD_DIR ?? path.join(root, 'build');
const bin = path.join(buildDir, 'carc-rate');

// mulberry32: a seeded generator, so a failure names a table that can be run again.
function generator(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomTables(count, seed) {
  const random = generator(seed);
  const tables = [];
  for (let k = 0; k < count; k += 1) {
    const n = 2 + Math.floor(random() * 5);
    const ratings = [];
    const rank = [];
    for (let i = 0; i < n; i += 1) {
      // A quarter of the players are new (openskill's defaults), the rest anywhere.
      ratings.push(random() < 0.25 ? rating() : { mu: -10 + random() * 70, sigma: 0.3 + random() * 9 });
      // Ranks 1..n drawn with replacement: ties happen often, gaps too.
      rank.push(1 + Math.floor(random() * n));
    }
    tables.push({ ratings, rank });
  }
  return tables;
}

function runCpp(input) {
  assert.ok(existsSync(bin), `${bin} is not built (cmake --build build --target carc-rate)`);
  const r = spawnSync(bin, [], { input: JSON.stringify(input), encoding: 'utf8', maxBuffer: 64 << 20 });
  assert.equal(r.status, 0, `carc-rate exited ${r.status}: ${r.stdout} ${r.stderr}`);
  return JSON.parse(r.stdout);
}

test('the C++ rating step matches openskill on 1,000 random tables to 1e-6', () => {
  const tables = randomTables(1000, 20261206);
  const out = runCpp({ tables });
  assert.equal(out.tables.length, tables.length);
  let worst = 0;
  let ties = 0;
  tables.forEach((t, k) => {
    const expected = rate(t.ratings.map((r) => [r]), { rank: t.rank });
    if (new Set(t.rank).size < t.rank.length) ties += 1;
    assert.equal(out.tables[k].length, expected.length, `table ${k}`);
    expected.forEach(([e], i) => {
      const got = out.tables[k][i];
      const d = Math.max(Math.abs(got.mu - e.mu), Math.abs(got.sigma - e.sigma));
      worst = Math.max(worst, d);
      assert.ok(d <= 1e-6, `table ${k} player ${i}: C++ ${JSON.stringify(got)} openskill ${JSON.stringify(e)} (${JSON.stringify(t)})`);
    });
  });
  assert.ok(ties > 300, `the tables have ties (${ties})`);
  console.log(`# 1000 tables, ${ties} with ties, largest difference ${worst.toExponential(2)}`);
});

test('carc-rate refuses a table of one player or mismatched ranks', () => {
  assert.ok(existsSync(bin), `${bin} is not built`);
  for (const table of [{ ratings: [{ mu: 25, sigma: 8 }], rank: [1] }, { ratings: [{ mu: 25, sigma: 8 }, { mu: 20, sigma: 3 }], rank: [1] }]) {
    const r = spawnSync(bin, [], { input: JSON.stringify({ tables: [table] }), encoding: 'utf8' });
    assert.equal(r.status, 65);
    assert.match(JSON.parse(r.stdout).error, /rank/);
  }
});
