// Tournaments in a cluster (docs/tournaments.md): turn-based round robins on two nodes
// sharing PostgreSQL. First, the last table of round 1 is held until the node that holds its
// room is killed (SIGKILL) between the rounds; the game finishes on the other node, which
// records it and starts round 2. Every round is stored once (one compare-and-set per round,
// whichever node computes it), starts within seconds of the previous round's end, and no
// table gets two rooms. Second, a round's deadline: the node holding its table is killed
// (and started again) before the deadline; past it the table is settled once and the next
// round made once. Rounds last an hour at least: every node reads its clock offset from one
// file (CARC_TEST_CLOCK_FILE, read by the test build of the server only).
//
//   node --test tests/cluster/tournament.test.mjs   (needs the build and PostgreSQL)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Cluster, Player, waitFor, sleep } from './cluster.mjs';
import { until } from '../community/server.mjs';

const LEASE_MS = 2000;
const HOUR = 3600 * 1000;
const clockFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'carc-clock-')), 'offset');
fs.writeFileSync(clockFile, '0');
process.env.CARC_TEST_CLOCK_FILE = clockFile;
process.env.CARC_TEST_SERVER = '1';
let cluster;

before(async () => { cluster = await Cluster.up(2, { leaseMs: LEASE_MS }); });
after(() => { Player.stopAll(); cluster?.down(); fs.rmSync(path.dirname(clockFile), { recursive: true, force: true }); });

const alive = (pid) => { try { process.kill(pid, 0); return true; } catch { return false; } };
const names = () => [...new Set(cluster.pids().nodes.map((n) => n.name))];
// Every node's log from `from` on (a length per node name, as logLengths() gave).
const logsSince = (from = {}) => names().map((name) => cluster.log(name).slice(from[name] ?? 0)).join('\n');
const logLengths = () => Object.fromEntries(names().map((name) => [name, cluster.log(name).length]));

async function call(method, path, { key, body } = {}) {
  const headers = { 'Content-Type': 'application/json' };
  if (key) headers.Authorization = `Bearer ${key}`;
  for (let attempt = 0; ; attempt++) {
    // A node going away answers 503, and HAProxy reloading for a node that came back may
    // close the connection: the front retries elsewhere.
    const res = await fetch(cluster.front + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
      .catch((e) => { if (attempt > 50) throw e; return null; });
    if (res && (res.status !== 503 || attempt > 50)) return { status: res.status, body: await res.json().catch(() => null) };
    await sleep(200);
  }
}

test('a turn-based round robin of 4; a node killed between rounds; every round starts once, on time', { timeout: 240000 }, async () => {
  const keys = [];
  for (let i = 0; i < 5; i++) keys.push((await call('POST', '/api/keys', { body: {} })).body.key);
  const made = await call('POST', '/api/tournaments', {
    key: keys[4],
    body: { name: 'Cluster cup', format: 'round_robin', seats: 4, pace: 'turn_based', bank_seconds: 3600, increment_seconds: 0 },
  });
  assert.equal(made.status, 201, JSON.stringify(made.body));
  const id = made.body.id;
  for (let i = 0; i < 4; i++) {
    const r = await call('POST', `/api/tournaments/${id}/register`, { key: keys[i], body: { name: `P${i}` } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
  }

  const players = new Map(); // "room/seat" -> Player
  const roundEnds = [];      // when the test saw each round's last game end
  let killed = null;
  for (let round = 1; round <= 3; round++) {
    const t = await until(async () => {
      const now = (await call('GET', `/api/tournaments/${id}`)).body;
      return now?.round === round && now.rounds[round - 1]?.tables.every((x) => x.room) ? now : null;
    }, `round ${round} with its rooms`, 60000);
    if (round > 1) {
      const lag = t.round_started - roundEnds[round - 2];
      assert.ok(lag < LEASE_MS + 5000, `round ${round} started ${lag} ms after round ${round - 1} ended`);
    }
    const held = round === 1 ? t.rounds[0].tables[1].room : null;
    const mine = [];
    for (let i = 0; i < 4; i++) {
      const { body } = await call('GET', `/api/tournaments/${id}/seats`, { key: keys[i] });
      for (const s of body.seats) {
        if (players.has(`${s.room}/${s.seat}`)) continue;
        const p = new Player(cluster.front, s.room, `P${i}`, 100 * round + i, { thinkMs: 0, silenceMs: 60000 });
        p.token = s.token;
        p.hold = s.room === held; // the last table of round 1 waits for the kill
        players.set(`${s.room}/${s.seat}`, p);
        mine.push(p);
        p.start();
      }
    }
    assert.equal(mine.length, 4, `4 seats in round ${round}`);
    if (held) {
      const first = t.rounds[0].tables[0].room;
      await waitFor(() => mine.filter((p) => p.room === first).every((p) => p.finished), 'round 1 table 0 to finish', 60000);
      await waitFor(() => mine.filter((p) => p.room === held).every((p) => p.state?.phase === 'playing'), 'the held table seated', 20000);
      // The node holding the held table's room dies between the rounds.
      const [[owner]] = cluster.sql(`SELECT owner FROM rooms WHERE id = '${held}'`);
      killed = cluster.node(owner.replace(/-\d+$/, ''));
      assert.ok(killed, `owner ${owner}`);
      process.kill(killed.pid, 'SIGKILL');
      for (const p of mine) { p.hold = false; p.act(); }
    }
    await waitFor(() => mine.every((p) => p.finished), `round ${round} to finish`, 90000);
    roundEnds.push(Date.now());
  }
  const final = await until(async () => {
    const now = (await call('GET', `/api/tournaments/${id}`)).body;
    return now?.state === 'finished' ? now : null;
  }, 'the end', 30000);

  // Every pair met once; each round stored once, with one room per table and no other room.
  const pairs = new Set(final.rounds.flatMap((r) => r.tables.map((x) => [...x.players].sort().join('+'))));
  assert.equal(pairs.size, 6);
  const rows = cluster.sql(`SELECT round, tbl, game, room FROM tournament_tables WHERE tournament = '${id}' ORDER BY round, tbl`);
  assert.deepEqual(rows.map((r) => `${r[0]}/${r[1]}/${r[2]}`), ['1/0/0', '1/1/0', '2/0/0', '2/1/0', '3/0/0', '3/1/0']);
  const [[rooms]] = cluster.sql('SELECT count(*) FROM rooms');
  assert.equal(Number(rooms), 6, 'no table got a second room');
  const logs = [...new Set(cluster.pids().nodes.map((n) => n.name))].map((name) => cluster.log(name)).join('\n');
  for (let round = 1; round <= 3; round++) {
    const line = round === 1 ? `tournaments: ${id} started` : `tournaments: ${id}: tables made \\(round ${round}\\)`;
    const made = logs.match(new RegExp(line, 'g')) ?? [];
    assert.equal(made.length, 1, `round ${round} stored once: ${made.join(', ')}`);
  }
  assert.equal((logs.match(new RegExp(`tournaments: ${id}: finished`, 'g')) ?? []).length, 1);
  console.log(`round robin in a cluster: node ${killed.name} killed between rounds 1 and 2; rounds ended at +${roundEnds.map((e) => e - roundEnds[0]).join(', +')} ms`);
});

test('a turn-based round\'s deadline: the node holding its table is killed; the table is settled once, the next round made once', { timeout: 120000 }, async () => {
  // Both nodes up (the test before killed one).
  for (const n of cluster.pids().nodes) if (!alive(n.pid)) cluster.addNode(n.name);
  const [[roomsAtStart]] = cluster.sql('SELECT count(*) FROM rooms');
  const roomsBefore = Number(roomsAtStart);
  const keys = [];
  for (let i = 0; i < 3; i++) keys.push((await call('POST', '/api/keys', { body: {} })).body.key);
  const made = await call('POST', '/api/tournaments', {
    key: keys[0], body: { name: 'Deadline cup', format: 'round_robin', seats: 3, pace: 'turn_based', round_hours: 1 },
  });
  assert.equal(made.status, 201, JSON.stringify(made.body));
  const id = made.body.id;
  for (let i = 0; i < 3; i++) {
    assert.equal((await call('POST', `/api/tournaments/${id}/register`, { key: keys[i], body: { name: `D${i}` } })).status, 200);
  }
  const first = await until(async () => {
    const t = (await call('GET', `/api/tournaments/${id}`)).body;
    return t?.round === 1 && t.rounds[0]?.tables.every((x) => x.bye || x.room) ? t : null;
  }, 'round 1 with its room', 30000);
  const table = first.rounds[0].tables.find((x) => !x.bye);

  // Nobody plays. The node holding the table's room dies before the deadline and comes back
  // as a new process: two nodes then tick past the deadline.
  const [[owner]] = cluster.sql(`SELECT owner FROM rooms WHERE id = '${table.room}'`);
  const holder = cluster.node(owner.replace(/-\d+$/, ''));
  assert.ok(holder, `owner ${owner}`);
  process.kill(holder.pid, 'SIGKILL');
  cluster.addNode(holder.name);
  const before = logLengths();
  // The dead node's lease runs out: the failover alone settles nothing before the deadline.
  await sleep(LEASE_MS + 1000);
  const waiting = (await call('GET', `/api/tournaments/${id}`)).body;
  assert.equal(waiting.round, 1);
  assert.equal(waiting.rounds[0].tables.find((x) => x.table === table.table).result, null);
  fs.writeFileSync(clockFile, String(HOUR + 60000));
  const second = await until(async () => {
    const t = (await call('GET', `/api/tournaments/${id}`)).body;
    return t?.round === 2 && t.rounds[1]?.tables.every((x) => x.bye || x.room) ? t : null;
  }, 'round 2 after the deadline', 60000);
  const settled = second.rounds[0].tables.find((x) => x.table === table.table).result;
  assert.deepEqual(settled.map((s) => [s.player, s.gone]), [[table.players[0], true], [table.players[1], false]], 'seat 0, on move, loses on time');
  await sleep(3000); // every node has ticked past the deadline a few times

  // Settled once, round 2 stored once with one room per table, and nothing more.
  const logs = logsSince(before);
  const count = (re) => (logs.match(new RegExp(re, 'g')) ?? []).length;
  assert.equal(count(`tournaments: ${id}: round 1 table ${table.table} settled at the round's deadline`), 1, 'settled once');
  assert.equal(count(`tournaments: ${id}: tables made \\(round 2\\)`), 1, 'round 2 stored once');
  const rows = cluster.sql(`SELECT round, tbl, room, result <> '' FROM tournament_tables WHERE tournament = '${id}' ORDER BY round, tbl`);
  assert.ok(rows.filter((r) => r[0] === '1').every((r) => r[3] === 't'), JSON.stringify(rows));
  assert.deepEqual(rows.filter((r) => r[0] === '2').map((r) => [r[2] !== '', r[3]]).sort(), [[false, 't'], [true, 'f']], 'round 2: a bye and a table');
  const [[rooms]] = cluster.sql('SELECT count(*) FROM rooms');
  assert.equal(Number(rooms) - roomsBefore, 2, 'one room per table: no table got a second');
  const final = (await call('GET', `/api/tournaments/${id}`)).body;
  assert.equal(final.round, 2, 'no round made twice');
  assert.equal(final.round_started, second.round_started);
});

test('a turn-based round\'s deadline on a live node: the node holding the table settles it there and its player is told; no node asks for it', { timeout: 120000 }, async () => {
  for (const n of cluster.pids().nodes) if (!alive(n.pid)) cluster.addNode(n.name);
  const keys = [];
  for (let i = 0; i < 2; i++) keys.push((await call('POST', '/api/keys', { body: {} })).body.key);
  const made = await call('POST', '/api/tournaments', {
    key: keys[0], body: { name: 'Live node cup', format: 'round_robin', seats: 2, pace: 'turn_based', bank_seconds: 172800, round_hours: 1 },
  });
  assert.equal(made.status, 201, JSON.stringify(made.body));
  const id = made.body.id;
  for (let i = 0; i < 2; i++) {
    assert.equal((await call('POST', `/api/tournaments/${id}/register`, { key: keys[i], body: { name: `L${i}` } })).status, 200);
  }
  const first = await until(async () => {
    const t = (await call('GET', `/api/tournaments/${id}`)).body;
    return t?.round === 1 && t.rounds[0]?.tables[0]?.room ? t : null;
  }, 'round 1 with its room', 30000);
  const table = first.rounds[0].tables[0];
  // A player holds its seat through the front, which routes the room to one node: that node holds it.
  const seats = (await call('GET', `/api/tournaments/${id}/seats`, { key: keys[0] })).body.seats;
  const p = new Player(cluster.front, table.room, 'L', 5, { thinkMs: 0, silenceMs: 60000 });
  p.token = seats[0].token;
  p.hold = true; // it never moves
  p.start();
  await waitFor(() => p.state?.phase === 'playing', 'the player in its room', 20000);
  const [[owner]] = cluster.sql(`SELECT owner FROM rooms WHERE id = '${table.room}'`);
  const before = logLengths();
  const offset = Number(fs.readFileSync(clockFile, 'utf8'));
  fs.writeFileSync(clockFile, String(offset + HOUR + 60000));

  // Settled where it is held: the player sees it, its move comes too late, the room never moved.
  await waitFor(() => p.state?.phase === 'finished', 'the settled game in the player\'s room', 30000);
  assert.deepEqual(p.state.result.settled, { by: 'tournament', reason: 'round_deadline', seat: 0, gone: [0] });
  const stored = await until(async () => (await call('GET', `/api/tournaments/${id}`)).body.rounds[0].tables[0].result, 'the stored result', 10000);
  assert.deepEqual(stored.map((s) => [s.player, s.gone]), [[table.players[0], true], [table.players[1], false]]);
  p.send({ type: 'play', version: p.version, x: 1, y: 0, rotation: 0, meeple: null });
  await waitFor(() => p.errors.includes('game_over'), 'the late move refused', 10000);
  await sleep(2000); // every node has ticked past the deadline a few times
  const logs = logsSince(before);
  assert.equal((logs.match(new RegExp(`room ${table.room}: held by node`, 'g')) ?? []).length, 0, 'no handoff asked');
  assert.equal((logs.match(new RegExp(`room ${table.room}: settled by its tournament`, 'g')) ?? []).length, 1, 'settled once');
  assert.deepEqual(cluster.sql(`SELECT owner FROM rooms WHERE id = '${table.room}'`), [[owner]], 'the room stayed on its node');
  assert.ok(!p.closes.includes(4302), `its player was never sent away: ${p.closes}`);
  p.stop();
});
