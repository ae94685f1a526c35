// Several nodes on PostgreSQL behind HAProxy (docs/cluster.md), for real: a node killed with
// SIGKILL mid-game, a node paused past its lease, and PostgreSQL restarted mid-game. In
// every case every game finishes, each room's stored log has no gap and no duplicate,
// every placement a client saw is in the log (and no cell ever showed two histories), and
// replaying each room's record gives the scores its clients saw.
//
//   node --test tests/cluster/          (needs the build: CARC_BUILD_DIR, default build)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import path from 'node:path';
import { Cluster, playingRoom, waitFor, settled, pause, sleep, storedLogs, loggedPlacements, replayScores, percentile, Player, createRoom, getJson, cli, relay } from './cluster.mjs';

const LEASE_MS = 2000;
let cluster;

before(async () => { cluster = await Cluster.up(3, { leaseMs: LEASE_MS }); });
after(() => { Player.stopAll(); cluster?.down(); });

function moves(p) { return p.placed.size; }
let extraParts = 0; // builders' extra parts in the finished games' records (Traders & Builders)

/** Plays `rooms` to the end and checks them against the stored logs and the records. */
async function finishAndCheck(rooms, ms = 120000) {
  await waitFor(() => rooms.every(({ players }) => players.every((p) => p.finished)), 'every game to finish', ms);
  const logs = storedLogs(cluster, rooms.map((r) => r.room));
  for (const { room, players } of rooms) {
    const log = logs.get(room);
    log.forEach((a, i) => assert.equal(a.seq, i, `room ${room}: seq ${a.seq} at ${i} (a gap or a duplicate)`));
    const logged = loggedPlacements(log);
    for (const p of players) {
      assert.deepEqual(p.conflicts, [], `room ${room}: a client saw two histories`);
      for (const [cell, tile] of p.placed) {
        if (cell === '0,0') continue; // the start tile is no move
        assert.equal(logged.get(cell), tile, `room ${room}: ${cell} (${tile}) was shown to ${p.name} but is not in the log`);
      }
    }
    const res = await getJson(`${cluster.front}/api/rooms/${room}/record`);
    assert.equal(res.status, 200, `record of ${room}: ${res.body}\n${trail(room)}`);
    const record = res.body;
    const seen = players[0].state.result.final_scores;
    for (const p of players) assert.deepEqual(p.state.result.final_scores, seen);
    assert.deepEqual(replayScores(record), seen, `room ${room}: the record replays to other scores`);
    assert.equal(record.moves.filter((m) => !m.discard).length, logged.size, `room ${room}: record and log disagree`);
    extraParts += record.moves.filter((m) => m.extra && !m.discard).length;
  }
  for (const { players } of rooms) players.forEach((p) => p.stop());
}

/** What the database and every node's log say about `room` (for a failure's message). */
function trail(room) {
  const row = cluster.sql(`SELECT COALESCE(owner, '-'), epoch, COALESCE(wanted_by, '-'), phase FROM rooms WHERE id = '${room}'`);
  const nodes = cluster.sql('SELECT id, lease_until > clock_timestamp() FROM nodes');
  const lines = cluster.pids().nodes.flatMap(({ name }) =>
    cluster.log(name).split('\n').filter((l) => l.includes(room) || /lease|database answers/.test(l)).map((l) => `${name}: ${l}`));
  return `row (owner, epoch, wanted_by, phase): ${JSON.stringify(row)}; nodes (id, live): ${JSON.stringify(nodes)}\n${lines.slice(-60).join('\n')}`;
}

function ownersOf(rooms) {
  const list = rooms.map((r) => `'${r.room}'`).join(',');
  return new Map(cluster.sql(`SELECT id, COALESCE(owner, '') FROM rooms WHERE id IN (${list})`));
}

test('failover: kill -9 one node of 3 mid-game; its games move and finish, nothing lost', { timeout: 200000 }, async () => {
  const rooms = [];
  // Every fourth room plays the River and the Abbot, every other fourth all four expansions
  // (builders' extra parts included): expansion games move between nodes too.
  const sets = [['river', 'abbot'], [], ['river', 'abbot', 'inns', 'traders'], []];
  for (let i = 0; i < 20; i++) {
    rooms.push(await playingRoom(cluster.front, 2 + (i % 3), 100 + i, sets[i % 4]));
  }
  // A room that has its moves waits for the others (on a loaded machine the first rooms
  // could otherwise finish while the last ones are still being set up).
  await waitFor(() => rooms.every(({ players }) => {
    const ready = moves(players[0]) >= 8;
    if (ready) players.forEach((p) => { p.hold = true; p.silenceMs = 1e9; }); // silent, not gone
    return ready;
  }), 'a few moves in every room', 60000);

  // The node holding the most rooms dies.
  const owners = ownersOf(rooms);
  const count = new Map();
  for (const o of owners.values()) count.set(o, (count.get(o) ?? 0) + 1);
  const [victimId] = [...count.entries()].sort((a, b) => b[1] - a[1])[0];
  const victim = cluster.node(victimId.replace(/-\d+$/, ''));
  const moved = rooms.filter((r) => owners.get(r.room) === victimId);
  assert.ok(moved.length > 0);
  const killedAt = Date.now();
  process.kill(victim.pid, 'SIGKILL');
  const before = new Map(moved.map((r) => [r.room, Math.max(...r.players.map(moves))]));
  for (const { players } of rooms) players.forEach((p) => { p.hold = false; p.silenceMs = 2500; p.act(); });

  await finishAndCheck(rooms);
  // Every moved room now has another owner, and the time to its first move after the kill.
  const after = ownersOf(moved);
  const delays = [];
  for (const r of moved) {
    assert.notEqual(after.get(r.room), victimId, `room ${r.room} still owned by the dead node`);
    const first = r.players.flatMap((p) => p.acceptedAt).filter(([t, n]) => t > killedAt && n > before.get(r.room)).map(([t]) => t);
    assert.ok(first.length > 0, `room ${r.room} had finished before the kill`);
    delays.push(Math.min(...first) - killedAt);
  }
  console.log(`failover: builders' extra parts played: ${extraParts}`);
  console.log(`failover: ${moved.length} of ${rooms.length} rooms moved off ${victim.name}; kill -> first accepted move: ` +
    `p50 ${percentile(delays, 0.5)} ms, max ${Math.max(...delays)} ms (lease ${LEASE_MS} ms)`);
  cluster.addNode(victim.name); // three nodes again for the next tests
});

test('fence: a node paused past its lease is refused by the fence, its clients go elsewhere, nothing of it after the lease appears', { timeout: 200000 }, async () => {
  const rooms = [];
  for (let i = 0; i < 6; i++) rooms.push(await playingRoom(cluster.front, 2, 300 + i));
  await waitFor(() => rooms.every(({ players }) => moves(players[0]) >= 5), 'a few moves in every room', 60000);
  const owners = ownersOf(rooms);
  const victimId = owners.get(rooms[0].room);
  const victim = cluster.node(victimId.replace(/-\d+$/, ''));
  const held = rooms.filter((r) => owners.get(r.room) === victimId);

  // The player whose turn it is in one of its rooms moves over a connection to the node
  // itself (not through the front), and that move reaches the node while it is stopped: it
  // is handled only after SIGCONT, past the lease.
  const r0 = held[0];
  r0.players.forEach((p) => p.stop());
  // The room at rest before the pause: a move sent just before its players stopped may still
  // be on its way to the database. Stored under the lease, it is part of the game and may
  // reach clients after the wake; this test is about what the node does past its lease.
  let direct;
  for (let seat = r0.players[0].state.turn.seat, tries = 0; ; tries++) {
    direct = new Player(`http://127.0.0.1:${victim.port}`, r0.room, 'direct', 999, { silenceMs: 1e9, thinkMs: 0 });
    direct.hold = true; // it plays only when told, below
    direct.token = r0.players.find((p) => p.seat === seat).token;
    direct.seat = seat;
    direct.start();
    await waitFor(() => direct.state?.phase === 'playing', 'the direct player to rejoin');
    await settled(() => direct.version, 1000);
    if (direct.state.turn.seat === seat) break;
    assert.ok(tries < 2, 'the room came to rest with the turn on a seat nobody plays');
    seat = direct.state.turn.seat;
    direct.stop();
  }
  const versionBefore = direct.version;
  direct.trace = [];
  const stopMs = await pause(victim.pid);
  const stopAt = Date.now();
  direct.sentFor = -1;
  direct.hold = false;
  direct.act(); // waits in the stopped node's socket
  // Its clients reconnect through the front; another node takes its rooms once the lease ran out.
  r0.players.forEach((p) => { p.stopped = false; p.start(); });
  await waitFor(() => { const o = ownersOf(held); return held.every((r) => o.get(r.room) !== victimId); },
    "the paused node's rooms to be taken over", 30000);
  await waitFor(() => Math.max(...r0.players.map(moves)) > direct.placed.size, 'a move in the taken room', 30000);
  process.kill(victim.pid, 'SIGCONT');
  const wokeAt = Date.now();
  // Awake: the move it held is refused by the fence (unavailable) or its connection closed
  // when it found its lease lost; nothing before that changes the game. (After the close the
  // player may come back to this node, which can then take the room over again, fairly.)
  await waitFor(() => direct.errors.includes('unavailable') || direct.closes.length > 0, 'the woken node to refuse or close', 15000);
  const end = direct.trace.findIndex(([, kind, code]) => kind === 'close' || (kind === 'error' && code === 'unavailable'));
  const changes = direct.trace.slice(0, end).filter(([, kind, version]) => kind !== 'error' && version !== versionBefore);
  assert.deepEqual(changes, [], `the paused node sent a change after its lease ran out (stopped at ${stopAt}, woke at ${wokeAt}): ${JSON.stringify(direct.trace)}`);
  direct.stop();
  await waitFor(() => /lease ran out|refused by the fence/.test(cluster.log(victim.name)), 'the node to log its lost lease', 10000);
  await finishAndCheck(rooms);
  const log = loggedPlacements(storedLogs(cluster, [r0.room]).get(r0.room));
  for (const [cell, tile] of direct.placed) if (cell !== '0,0') assert.equal(log.get(cell), tile);
  console.log(`fence: ${held.length} room(s) taken from ${victim.name} while it was paused ${wokeAt - stopAt} ms (all its threads stopped within ${stopMs} ms of SIGSTOP); ` +
    `its held move refused (${direct.errors.join(',') || 'closed ' + direct.closes.join(',')}); all games finished`);
});

test('postgresql restart mid-game: nodes answer unavailable, change nothing, and carry on', { timeout: 200000 }, async () => {
  const rooms = [];
  for (let i = 0; i < 6; i++) rooms.push(await playingRoom(cluster.front, 2, 500 + i));
  // Each room waits once it has its moves, so that none finishes before the database stops.
  await waitFor(() => rooms.every(({ players }) => {
    const ready = moves(players[0]) >= 5;
    if (ready) players.forEach((p) => { p.hold = true; p.silenceMs = 1e9; }); // silent, not gone
    return ready;
  }), 'a few moves in every room', 60000);
  // Down: every move is refused as unavailable and no version moves on.
  const closesBefore = new Map(rooms.flatMap(({ players }) => players).map((p) => [p, p.closes.length]));
  cluster.pg('stop');
  try {
    await sleep(300); // what was stored before the stop reaches the clients (execFileSync held this loop)
    const versions = rooms.map(({ players }) => players.map((p) => p.version));
    // The players move again (a refused move is sent again 200 ms later).
    for (const { players } of rooms) players.forEach((p) => { p.hold = false; p.act(); });
    // A move is refused as unavailable; or, when stopping the database held this loop past a
    // lease (pg_ctl under load), the nodes have already sent their rooms' clients away with
    // 4302, as they must once they cannot renew (docs/cluster.md).
    const refused = () => rooms.flatMap(({ players }) => players)
      .filter((p) => p.errors.includes('unavailable') || p.closes.slice(closesBefore.get(p)).includes(4302)).length;
    await waitFor(() => refused() > 0, 'some move to be refused as unavailable, or the clients sent away (4302)', 15000);
    await sleep(1000);
    assert.deepEqual(rooms.map(({ players }) => players.map((p) => p.version)), versions, 'nothing changed while PostgreSQL was down');
  } finally {
    cluster.pg('start'); // also when an assertion failed: the next tests need the database
  }
  for (const { players } of rooms) players.forEach((p) => { p.silenceMs = 2500; p.act(); });
  await sleep(1000);
  cluster.pg('restart'); // pg_ctl restart -m fast, mid-game
  await finishAndCheck(rooms);
  // A room can still be created after all that.
  assert.ok(await createRoom(cluster.front));
});

test('handoff: a room whose players stay on one node goes to the node that asks for it, not back and forth', { timeout: 120000 }, async () => {
  // Its players reach node A directly (as after a change of the front's routing, or a client
  // given a node's address); node B is asked for the room over and over. A must not claim it
  // back between its release and B's claim: B gets it, then A gets it back for its players.
  const live = [];
  for (const n of cluster.pids().nodes) {
    if ((await fetch(`http://127.0.0.1:${n.port}/healthz`).catch(() => ({ status: 0 }))).status === 200) live.push(n);
  }
  assert.ok(live.length >= 2, 'two healthy nodes');
  const [a, b] = live;
  const game = await playingRoom(`http://127.0.0.1:${a.port}`, 2, 880);
  await waitFor(() => moves(game.players[0]) >= 3, 'a few moves', 30000);
  assert.ok(ownersOf([game]).get(game.room).startsWith(`${a.name}-`), `${a.name} holds the room`);
  const claims = () => live.map((n) => cluster.log(n.name).split('\n')
    .filter((l) => l.includes(game.room) && l.includes('claimed from the database')).length).reduce((x, y) => x + y, 0);
  const claimsBefore = claims();

  const asked = Date.now();
  const res = await getJson(`http://127.0.0.1:${b.port}/api/rooms/${game.room}`, 15000);
  assert.equal(res.status, 200, `${b.name} answered ${res.status} ${res.body}\n${trail(game.room)}`);
  const servedAfter = Date.now() - asked;
  // Its players, still on A, take it back (A asks in turn); then it stays there.
  await waitFor(() => ownersOf([game]).get(game.room).startsWith(`${a.name}-`), `the room back on ${a.name}`, 15000);
  const movesBack = moves(game.players[0]);
  await waitFor(() => moves(game.players[0]) > movesBack + 2, 'moves on it again', 30000);
  const extra = claims() - claimsBefore;
  assert.ok(extra <= 2, `the room was claimed ${extra} times (once by ${b.name}, once back by ${a.name}, at most)\n${trail(game.room)}`);
  await finishAndCheck([game]);
  console.log(`handoff: ${b.name} served the room of ${a.name}'s players ${servedAfter} ms after it was asked; ${extra} claims in all`);
});

test('stall: a node whose database stops answering refuses moves, its rooms move on, and it comes back by itself', { timeout: 200000 }, async () => {
  // node4 reaches PostgreSQL through a relay that the test freezes: nothing forwarded, nothing
  // closed (a half-open network; the kernels keep acknowledging, nobody answers).
  const db = new URL(cluster.dbUrl);
  const link = await relay(Number(db.port));
  db.port = String(link.port);
  let node4;
  try {
    cluster.addNode('node4', db.toString());
    node4 = cluster.node('node4');
    const rooms = [];
    let stalled = [];
    for (let i = 0; i < 32 && stalled.length < 2; i++) {
      rooms.push(await playingRoom(cluster.front, 2, 700 + i));
      if (i % 4 === 3) { const o = ownersOf(rooms); stalled = rooms.filter((r) => (o.get(r.room) ?? '').startsWith('node4-')); }
    }
    assert.ok(stalled.length > 0, 'node4 holds a room');
    await waitFor(() => rooms.every(({ players }) => moves(players[0]) >= 3), 'a few moves in every room', 60000);
    const refusedBefore = stalled.flatMap((r) => r.players).reduce((n, p) => n + p.errors.filter((e) => e === 'unavailable').length, 0);
    const before = new Map(stalled.map((r) => [r.room, Math.max(...r.players.map(moves))]));

    link.freeze();
    const frozenAt = Date.now();
    // Its moves are answered (refused as unavailable), not held.
    await waitFor(() => stalled.flatMap((r) => r.players).reduce((n, p) => n + p.errors.filter((e) => e === 'unavailable').length, 0) > refusedBefore,
      "a move in node4's rooms refused as unavailable", 4 * LEASE_MS);
    const refusedAfter = Date.now() - frozenAt;
    // Past its lease it leaves the front's rotation and its rooms go on elsewhere.
    await waitFor(() => { const o = ownersOf(stalled); return stalled.every((r) => o.get(r.room) && !o.get(r.room).startsWith('node4-')); },
      "node4's rooms to be taken over", 30000);
    await waitFor(() => stalled.every((r) => Math.max(...r.players.map(moves)) > before.get(r.room)), 'a move in every taken room', 30000);
    const movedAfter = Date.now() - frozenAt;
    assert.equal((await fetch(`http://127.0.0.1:${node4.port}/healthz`)).status, 503, 'node4 out of rotation while its database is away');

    // The relay flows again: node4 renews (a new lease), is healthy again and serves rooms,
    // with no restart.
    link.thaw();
    const thawedAt = Date.now();
    let healthy = false;
    for (const end = Date.now() + 30000; !healthy && Date.now() < end; await sleep(100)) {
      healthy = (await fetch(`http://127.0.0.1:${node4.port}/healthz`).catch(() => ({ status: 0 }))).status === 200;
    }
    assert.ok(healthy, 'node4 healthy again after the relay flows');
    const healthyAfter = Date.now() - thawedAt;
    const back = await playingRoom(`http://127.0.0.1:${node4.port}`, 2, 990);
    await waitFor(() => moves(back.players[0]) >= 2, 'moves on node4 again', 30000);
    assert.ok(ownersOf([back]).get(back.room).startsWith('node4-'));
    rooms.push(back);
    // Nothing acknowledged was lost: every placement a client saw is in the log; every game ends.
    await finishAndCheck(rooms);
    console.log(`stall: ${stalled.length} room(s) on node4; first move refused ${refusedAfter} ms after the freeze, ` +
      `rooms moved and played on within ${movedAfter} ms (lease ${LEASE_MS} ms); node4 healthy again ${healthyAfter} ms after the thaw`);
  } finally {
    link.close();
    try { if (node4) process.kill(node4.pid, 'SIGKILL'); } catch { /* gone */ }
  }
});

test('a node whose database cannot be used stops at once with a clear error', { timeout: 60000 }, () => {
  const server = path.join(path.dirname(cli), 'carcassonne-server');
  const down = spawnSync(server, ['--port', '0', '--bind', '127.0.0.1', '--db', 'postgresql://carc:secret@127.0.0.1:1/carc'], { encoding: 'utf8', timeout: 30000 });
  assert.equal(down.status, 1);
  assert.match(down.stderr, /cannot connect to PostgreSQL at postgresql:\/\/carc:\*\*\*@127\.0\.0\.1:1\/carc/);
  assert.doesNotMatch(down.stderr, /secret/);
  // A database that is not ours (a table "rooms" of somebody else's): refused, untouched.
  cluster.sql('CREATE DATABASE foreign_db');
  const foreign = cluster.dbUrl.replace(/\/carc$/, '/foreign_db');
  execFileSync('psql', ['-X', '-q', foreign, '-c', "CREATE TABLE rooms(name TEXT); INSERT INTO rooms VALUES('kept')"]);
  const refused = spawnSync(server, ['--port', '0', '--bind', '127.0.0.1', '--db', foreign], { encoding: 'utf8', timeout: 30000 });
  assert.equal(refused.status, 1);
  assert.match(refused.stderr, /not ours/);
  assert.equal(execFileSync('psql', ['-X', '-tA', foreign, '-c', 'SELECT name FROM rooms'], { encoding: 'utf8' }).trim(), 'kept');
});
