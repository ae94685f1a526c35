// Turn-based rooms in a cluster (docs/turn-based.md): the node holding a turn-based room is
// killed while nobody is connected; when the bank runs out, the deadline fires once, on
// another node (the one that claims the room from the database after the dead node's lease).
// Banks last an hour at least: every node reads its clock offset from one file
// (CARC_TEST_CLOCK_FILE), and the test moves that clock past the deadline.
//
//   node --test tests/cluster/turnbased.test.mjs   (needs the build and PostgreSQL)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Cluster, Player, createRoom, waitFor, sleep, storedLogs } from './cluster.mjs';

const LEASE_MS = 2000;
const clockFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'carc-clock-')), 'offset');
fs.writeFileSync(clockFile, '0');
process.env.CARC_TEST_CLOCK_FILE = clockFile;
process.env.CARC_TEST_SERVER = '1'; // the clock file is read by the test build of the server only
let cluster;

before(async () => { cluster = await Cluster.up(2, { leaseMs: LEASE_MS }); });
after(() => { Player.stopAll(); cluster?.down(); fs.rmSync(path.dirname(clockFile), { recursive: true, force: true }); });

test('a node holding a turn-based room is killed; the bank runs out and the move is made once, on another node', { timeout: 120000 }, async () => {
  const room = await createRoom(cluster.front);
  const alice = new Player(cluster.front, room, 'Alice', 1);
  const bob = new Player(cluster.front, room, 'Bob', 2);
  alice.hold = bob.hold = true; // they never move by themselves
  alice.start();
  await waitFor(() => alice.seat === 0, 'Alice seated');
  bob.start();
  await waitFor(() => bob.seat === 1, 'Bob seated');
  alice.send({ type: 'settings', pace: 'turn_based', bank_seconds: 3600, increment_seconds: 3600 });
  await waitFor(() => alice.state.settings.pace === 'turn_based', 'the turn-based setting');
  alice.send({ type: 'start' });
  await waitFor(() => alice.state.phase === 'playing' && alice.state.turn?.deadline, 'the game to start');
  assert.equal(alice.state.turn.seat, 0);
  const deadline = alice.state.turn.deadline;
  assert.ok(deadline - Date.now() > 3590000, `a bank of an hour: deadline ${deadline}`);
  alice.stop();
  bob.stop();

  const [[owner]] = cluster.sql(`SELECT owner FROM rooms WHERE id = '${room}'`);
  const victim = cluster.node(owner.replace(/-\d+$/, ''));
  const survivor = cluster.pids().nodes.find((n) => n.name !== victim.name);
  assert.ok(victim && survivor, `owner ${owner}`);
  const [[due]] = cluster.sql(`SELECT due_ms FROM wakes WHERE room = '${room}'`);
  assert.equal(Number(due), deadline, 'the deadline is stored beside the room');
  process.kill(victim.pid, 'SIGKILL');

  // An hour and a bit later, on every node's clock.
  fs.writeFileSync(clockFile, String(deadline - Date.now() + 3000));
  const moved = () => storedLogs(cluster, [room]).get(room).filter((a) => a.payload.startsWith('M ')).length;
  await waitFor(() => moved() >= 1, 'the computer move for the dead node\'s room', 30000);
  await sleep(3000);
  const moves = storedLogs(cluster, [room]).get(room).filter((a) => a.payload.startsWith('M '));
  assert.equal(moves.length, 1, 'exactly one move');
  assert.match(moves[0].payload, / auto$/, 'made for the absent player');
  const [[nowOwner]] = cluster.sql(`SELECT owner FROM rooms WHERE id = '${room}'`);
  assert.ok(nowOwner.startsWith(survivor.name), `now held by ${nowOwner}`);
  assert.match(cluster.log(survivor.name), new RegExp(`room ${room}: due at`));
  assert.equal((cluster.log(survivor.name).match(/a computer player makes seat 0's turn/g) ?? []).length, 1);
  assert.doesNotMatch(cluster.log(victim.name), /a computer player makes seat 0's turn/);
});
