// Cross-checks the C++ engine (through the `carcassonne` CLI) against the independent
// reference implementation in web-client/js/game/rules.js and record.js:
//  - thousands of seeded random games: the reference replay of each record must give the
//    CLI's embedded result (scores after every move, final scores, supply, winners, the
//    scoring breakdown, and the events a client shows: each placement, discard and scored
//    feature with its points, seats, meeples, tiles, pennants, cities and cells);
//  - random games played by the reference (its own legal moves and discards): the CLI must
//    replay them to the reference's result;
//  - meeple probes: every port on placements of reference games, accepted or refused alike;
//  - the records of tests/core/data, illegal and mutated records: both must accept them
//    with the same result, or refuse them at the same move index;
//  - garbage input never crashes the CLI.
//
//   CARC_CLI=build/carcassonne node --test tests/reference/
//   CARC_CROSSCHECK_GAMES=2000 (default) sets how many random games are compared.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { Game } from '../../web-client/js/game/rules.js';
import { legalPlacementCount, replay } from '../../web-client/js/game/record.js';
import { PORTS, legalMeeplePorts, randomGame as referenceGame, rng as lcg } from './random-game.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '..', '..');
const CLI = resolve(repo, process.env.CARC_CLI || 'build/carcassonne');
const GAMES = Number(process.env.CARC_CROSSCHECK_GAMES || 2000);
const PARALLEL = Math.max(2, Math.min(8, availableParallelism()));
const KEYS = ['scores_after_move', 'final_scores', 'meeples_in_supply', 'winners'];

function run(args, input) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(CLI, args, { stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    const out = [];
    const err = [];
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => err.push(d));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code, stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString() }));
    if (input !== undefined) {
      child.stdin.on('error', () => {});  // a CLI that exits early must not crash the runner
      child.stdin.end(input);
    }
  });
}

// Runs `job` over `items` with a few processes in flight at once; results in order.
async function pool(items, job) {
  const results = new Array(items.length);
  let next = 0;
  async function worker() {
    while (next < items.length) {
      const i = next++;
      results[i] = await job(items[i], i);
    }
  }
  await Promise.all(Array.from({ length: PARALLEL }, worker));
  return results;
}

const randomGame = async (players, seed) => {
  const r = await run(['random', '--players', String(players), '--seed', String(seed)]);
  assert.equal(r.code, 0, `random --players ${players} --seed ${seed} failed: ${r.stdout}${r.stderr}`);
  return JSON.parse(r.stdout);
};

const cliReplay = async (record) => {
  const r = await run(['replay', '-'], JSON.stringify(record));
  const out = JSON.parse(r.stdout);
  if (r.code !== 0) assert.ok('error' in out, `exit ${r.code} without an error object: ${r.stdout}`);
  return out;
};

const compact = (v) => {
  const s = JSON.stringify(v);
  return s.length > 300 ? `${s.slice(0, 300)}...` : s;
};

// JSON with sorted keys: the engine's JSON sorts them, the reference keeps its own order.
const canon = (v) => JSON.stringify(v, (_k, x) => (x && typeof x === 'object' && !Array.isArray(x)
  ? Object.fromEntries(Object.keys(x).sort().map((k) => [k, x[k]])) : x));

// The events a client shows, comparable across the two implementations: grouped by move
// (end-of-game scoring last), each group in a canonical order (two features closed by one
// tile, or the end-of-game features of one kind, may come in either order), cells as sets,
// meeple counts for the seats in play.
function comparableEvents(events, players) {
  const groups = new Map();
  for (const e of events ?? []) {
    if (!['placed', 'discarded', 'scored', 'game_over'].includes(e.type)) continue;
    const { turn: _t, id: _i, move, ...rest } = e;
    if (rest.cells) rest.cells = rest.cells.map((c) => `${c.x},${c.y}`).sort();
    if (rest.meeples) rest.meeples = rest.meeples.slice(0, players);
    const k = move ?? 'end';
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k).push(canon(rest));
  }
  return [...groups.entries()].map(([k, g]) => `${k}: ${g.sort().join(' ')}`);
}

// Where two results part: the first differing key (and move, for scores_after_move).
function difference(ref, cli) {
  for (const k of KEYS) {
    if (JSON.stringify(ref[k]) === JSON.stringify(cli[k])) continue;
    if (k === 'scores_after_move' && Array.isArray(ref[k]) && Array.isArray(cli[k])) {
      const i = ref[k].findIndex((row, j) => JSON.stringify(row) !== JSON.stringify(cli[k][j]));
      return `${k}[${i}]: reference ${compact(ref[k][i])}, engine ${compact(cli[k][i])}`;
    }
    return `${k}: reference ${compact(ref[k])}, engine ${compact(cli[k])}`;
  }
  if (cli.breakdown && canon(ref.breakdown) !== canon(cli.breakdown)) {
    return `breakdown: reference ${compact(ref.breakdown)}, engine ${compact(cli.breakdown)}`;
  }
  if (cli.events) {
    const players = ref.final_scores.length;
    const [a, b] = [comparableEvents(ref.events, players), comparableEvents(cli.events, players)];
    const i = a.findIndex((g, j) => g !== b[j]);
    if (i >= 0 || a.length !== b.length) {
      const at = i >= 0 ? i : Math.min(a.length, b.length);
      return `events of move ${at}: reference ${compact(a[at])}, engine ${compact(b[at])}`;
    }
  }
  return null;
}

test('the CLI exists', () => {
  assert.ok(existsSync(CLI), `no CLI at ${CLI}: build it or set CARC_CLI`);
});

// Seeds: small ones, and some spread over the 64-bit range.
function seedsFor(players, n) {
  const out = [];
  for (let i = 0; i < n; i++) {
    if (i % 5 === 4) out.push((BigInt(i) * 0x9E3779B97F4A7C15n + BigInt(players)) % (1n << 64n));
    else out.push(BigInt(i * 7 + players * 100000));
  }
  return out;
}

for (let players = 2; players <= 5; players++) {
  test(`random ${players}-player games: the reference replay of each record gives the CLI's result`, { timeout: 600000 }, async (t) => {
    assert.ok(existsSync(CLI), `no CLI at ${CLI}`);
    const n = Math.ceil(GAMES / 4);
    const started = Date.now();
    const stats = { games: 0, moves: 0, discards: 0, mismatches: [] };
    await pool(seedsFor(players, n), async (seed) => {
      const record = await randomGame(players, seed);
      const ref = replay(record);
      stats.games++;
      stats.moves += record.moves.length;
      stats.discards += record.moves.filter((m) => m.discard).length;
      if (ref.error) {
        stats.mismatches.push(`seed ${seed}: the reference refuses move ${ref.move} (${ref.error}); the engine played it`);
        return;
      }
      const d = difference(ref, record.result);
      if (d) stats.mismatches.push(`seed ${seed}: ${d}`);
    });
    t.diagnostic(`${stats.games} games, ${stats.moves} moves, ${stats.discards} discards, ${((Date.now() - started) / 1000).toFixed(1)} s`);
    assert.deepEqual(stats.mismatches.slice(0, 10), [], `${stats.mismatches.length} of ${stats.games} games disagree`);
  });
}

test('the CLI replays its own random records to the embedded result', async () => {
  assert.ok(existsSync(CLI), `no CLI at ${CLI}`);
  await pool(seedsFor(3, 30), async (seed) => {
    const record = await randomGame(2 + Number(seed % 4n), seed);
    const { result, seed: _s, ...bare } = record;
    const out = await cliReplay(bare);
    for (const k of KEYS) assert.deepEqual(out[k], result[k], `seed ${seed}: ${k}`);
  });
});

// ---- records that break a rule: both sides refuse them at the same move ----

// Deterministic small generator for the mutations.
function rng(seed) {
  let s = seed >>> 0;
  return (n) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s % n;
  };
}

const PORT_NAMES = ['N', 'E', 'S', 'W', 'NL', 'NR', 'EL', 'ER', 'SL', 'SR', 'WL', 'WR', 'C'];
const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWX';

// One small change to a legal record: most break a rule, some stay legal.
function mutate(record, pick) {
  const r = structuredClone(record);
  delete r.result;
  delete r.seed;
  const i = pick(r.moves.length);
  const m = r.moves[i];
  switch (pick(8)) {
    case 0: m.rotation = ((m.rotation ?? 0) + 90 * (1 + pick(3))) % 360; break;
    case 1: m.x = (m.x ?? 0) + (pick(2) ? 1 : -1); break;
    case 2: m.meeple = PORT_NAMES[pick(PORT_NAMES.length)]; break;
    case 3: m.tile = LETTERS[pick(LETTERS.length)]; break;
    case 4: r.moves.splice(i, 1); break;
    case 5: r.moves.splice(i, 0, structuredClone(r.moves[pick(r.moves.length)])); break;
    case 6: r.moves[i] = { tile: m.tile, discard: true }; break;
    default: {
      const j = pick(r.moves.length);
      [r.moves[i], r.moves[j]] = [r.moves[j], r.moves[i]];
    }
  }
  // Sometimes stop early (a scenario), sometimes not scored at the end.
  if (pick(3) === 0) r.moves.length = Math.min(r.moves.length, i + 1 + pick(5));
  if (pick(4) === 0) r.final = false;
  return r;
}

function agree(name, record, ref, cli) {
  if (ref.error || cli.error) {
    assert.ok(ref.error && cli.error,
      `${name}: ${ref.error ? `the reference refuses move ${ref.move} (${ref.error})` : 'the reference accepts it'}, ` +
      `${cli.error ? `the engine refuses move ${cli.move} (${cli.error})` : 'the engine accepts it'}\n${compact(record)}`);
    assert.equal(cli.move, ref.move, `${name}: refused at move ${cli.move} by the engine, ${ref.move} by the reference (${cli.error} / ${ref.error})`);
    return 'refused';
  }
  const d = difference(ref, cli);
  assert.equal(d, null, `${name}: ${d}`);
  return 'accepted';
}

// What an expansion record says it must give ("expect"), checked on the engine.
function expectOnEngine(name, record, cli) {
  const expect = record.expect ?? {};
  if ('error' in expect) {
    assert.ok(cli.error, `${name}: the engine accepts it, expected a refusal at move ${expect.move}`);
    assert.equal(cli.move, expect.move, `${name}: the engine refuses move ${cli.move} (${cli.error})`);
    return 'refused';
  }
  assert.ok(!cli.error, `${name}: the engine refuses move ${cli.move} (${cli.error})`);
  for (const k of [...KEYS, 'figures_in_supply']) if (k in expect) assert.deepEqual(cli[k], expect[k], `${name}: ${k}`);
  return 'accepted';
}

// What a data record says it must give ("expect"), checked on the reference alone.
function checkExpect(name, record, ref) {
  const expect = record.expect;
  if (!expect) return;
  if ('error' in expect) {
    assert.ok(ref.error, `${name}: the reference accepts it, expected a refusal at move ${expect.move}`);
    assert.equal(ref.move, expect.move, `${name}: the reference refuses move ${ref.move} (${ref.error})`);
    return;
  }
  assert.ok(!ref.error, `${name}: the reference refuses move ${ref.move} (${ref.error})`);
  for (const k of KEYS) if (k in expect) assert.deepEqual(ref[k], expect[k], `${name}: ${k}`);
  for (const [letter, n] of Object.entries(expect.legal_placements || {})) {
    assert.equal(legalPlacementCount(record, letter), n, `${name}: legal placements of ${letter}`);
  }
}

test('the records in tests/core/data: the reference gives what they expect, the engine agrees', async (t) => {
  assert.ok(existsSync(CLI), `no CLI at ${CLI}`);
  const dir = join(repo, 'tests', 'core', 'data');
  const files = readdirSync(dir).filter((f) => f.endsWith('.json')).sort();
  assert.ok(files.length > 20);
  const counts = { refused: 0, accepted: 0 };
  await pool(files, async (f) => {
    const record = JSON.parse(readFileSync(join(dir, f), 'utf8'));
    const ref = replay(record);
    if (Array.isArray(record.expansions) && record.expansions.length) {
      // The reference is the base game (web-client/js/game/rules.js, docs/expansions.md): it
      // refuses a record with expansions; the engine is held to the record's own expectation.
      // A record refused as a whole for its player count (7 players, even with the inns) may be refused
      // for that first.
      const whole = record.expect?.error === 'record' && record.expect?.move === null;
      const codes = whole ? ['expansions', 'players'] : ['expansions'];
      assert.ok(ref.move === null && codes.includes(ref.reason?.code), `${f}: the reference leaves expansions out (${ref.reason?.code})`);
      counts[expectOnEngine(f, record, await cliReplay(record))]++;
      return;
    }
    checkExpect(f, record, ref);
    counts[agree(f, record, ref, await cliReplay(record))]++;
  });
  t.diagnostic(`${files.length} records: ${counts.refused} refused, ${counts.accepted} accepted`);
});

test('mutated random records: both accept with the same result or refuse at the same move', { timeout: 600000 }, async (t) => {
  assert.ok(existsSync(CLI), `no CLI at ${CLI}`);
  const pick = rng(77);
  const bases = await pool(seedsFor(4, 25), (seed) => randomGame(2 + Number(seed % 4n), seed));
  const cases = [];
  for (let k = 0; k < 400; k++) cases.push(mutate(bases[k % bases.length], pick));
  const counts = { refused: 0, accepted: 0 };
  await pool(cases, async (record, k) => {
    counts[agree(`mutation ${k}`, record, replay(record), await cliReplay(record))]++;
  });
  t.diagnostic(`${counts.refused} refused, ${counts.accepted} accepted`);
  assert.ok(counts.refused > 100);
});

test('random games played by the reference replay in the engine to the same result', { timeout: 600000 }, async (t) => {
  assert.ok(existsSync(CLI), `no CLI at ${CLI}`);
  const n = Number(process.env.CARC_CROSSCHECK_REFERENCE_GAMES || 200);
  const started = Date.now();
  let discards = 0;
  const mismatches = [];
  const seeds = Array.from({ length: n }, (_, i) => i);
  await pool(seeds, async (i) => {
    const record = referenceGame(2 + (i % 4), 5000 + i);
    discards += record.moves.filter((m) => m.discard).length;
    const ref = replay(record);
    const cli = await cliReplay(record);
    if (cli.error) {
      mismatches.push(`reference game ${i}: the engine refuses move ${cli.move} (${cli.error}): ${JSON.stringify(record.moves[cli.move])}`);
      return;
    }
    const d = difference(ref, cli);
    if (d) mismatches.push(`reference game ${i}: ${d}`);
  });
  t.diagnostic(`${n} reference games, ${discards} discards, ${((Date.now() - started) / 1000).toFixed(1)} s`);
  assert.deepEqual(mismatches.slice(0, 10), [], `${mismatches.length} of ${n} games disagree`);
});

test('meeple probes: every port of placements in reference games is accepted or refused alike', { timeout: 600000 }, async (t) => {
  assert.ok(existsSync(CLI), `no CLI at ${CLI}`);
  const pick = lcg(99);
  const probes = [];
  for (let g = 0; g < 12; g++) {
    const record = referenceGame(2 + (g % 4), 9000 + g);
    // Replay a prefix in the reference, then try all 13 ports on the next placement.
    for (let k = 0; k < 6; k++) {
      const at = 3 + pick(record.moves.length - 4);
      if (record.moves[at].discard) continue;
      const game = new Game(record.players);
      for (const m of record.moves.slice(0, at)) game.play(m);
      const { meeple: _m, ...bare } = record.moves[at];
      const legal = new Set(legalMeeplePorts(game, bare));
      for (const port of PORTS) {
        probes.push({ legal: legal.has(port), port, record: { ...record, final: false, moves: [...record.moves.slice(0, at), { ...bare, meeple: port }] } });
      }
    }
  }
  let legal = 0;
  await pool(probes, async (p) => {
    const cli = await cliReplay(p.record);
    const m = p.record.moves.at(-1);
    const where = `${m.tile} at (${m.x},${m.y}) ${m.rotation}, meeple ${p.port}, move ${p.record.moves.length - 1}`;
    if (p.legal) {
      legal++;
      assert.ok(!cli.error, `${where}: the reference accepts it, the engine refuses (${cli.error})\n${JSON.stringify(p.record)}`);
    } else {
      assert.ok(cli.error && cli.move === p.record.moves.length - 1, `${where}: the reference refuses it, the engine ${cli.error ? `refuses move ${cli.move}` : 'accepts it'}\n${JSON.stringify(p.record)}`);
    }
  });
  t.diagnostic(`${probes.length} probes, ${legal} legal`);
});

test('garbage on the CLI\'s stdin: an error object and exit 2, never a crash', async () => {
  assert.ok(existsSync(CLI), `no CLI at ${CLI}`);
  const pick = lcg(5);
  const inputs = ['', '{', 'null', '[]', '{"players":3,"moves":[{"tile":"E","x":0,"y":-1,"rotation":180,"meeple":"S"}', '\u0000\u0001\u0002',
    '{"players":1e400,"moves":[]}', '{"players":3,"moves":[{"tile":"E","x":1e400,"y":0,"rotation":0}]}',
    '{"players":3,"moves":[{"tile":"E","x":-9223372036854775809,"y":0,"rotation":0}]}', '"\\ud800"', 'x'.repeat(100000)];
  for (let i = 0; i < 30; i++) inputs.push(Array.from({ length: 1 + pick(200) }, () => String.fromCharCode(pick(128))).join(''));
  await pool(inputs, async (input) => {
    const r = await run(['replay', '-'], input);
    assert.ok(r.code === 0 || r.code === 2, `exit ${r.code} for ${JSON.stringify(input.slice(0, 80))}: ${r.stderr.slice(0, 200)}`);
    const out = JSON.parse(r.stdout);
    if (r.code === 2) assert.ok(typeof out.error === 'string');
  });
});
