// Open games in a cluster (docs/community.md, "Several nodes"): a lobby opened on the node
// that owns it is listed by every node (the rows of the shared database), is joined and
// quick-played from the other node, and its row expires when its node is killed.
//
//   node --test tests/cluster/open-games.test.mjs   (needs the build and PostgreSQL)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Cluster, Player, createRoom, waitFor, getJson, sleep } from './cluster.mjs';

const LEASE_MS = 2000;
let cluster;

before(async () => { cluster = await Cluster.up(2, { leaseMs: LEASE_MS }); });
after(() => { Player.stopAll(); cluster?.down(); });

const base = (node) => `http://127.0.0.1:${node.port}`;
// waitFor for a condition that has to ask the network.
async function until(pred, what, ms) {
  const end = Date.now() + ms;
  while (!(await pred())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}
const listOn = async (node) => (await getJson(`${base(node)}/api/open-games`)).body.games;

test('a lobby opened on its node is listed, joined and quick-played on the other; its row expires with its node', { timeout: 120000 }, async () => {
  const room = await createRoom(cluster.front);
  const ann = new Player(cluster.front, room, 'Ann', 1);
  ann.hold = true;
  ann.start();
  await waitFor(() => ann.seat === 0, 'Ann seated');
  const [[ownerId]] = cluster.sql(`SELECT owner FROM rooms WHERE id = '${room}'`);
  const owner = cluster.node(ownerId.replace(/-\d+$/, ''));
  const other = cluster.pids().nodes.find((n) => n.name !== owner.name);
  assert.ok(owner && other, `owner ${ownerId}`);
  for (const node of [owner, other]) assert.deepEqual(await listOn(node), [], `nothing open on ${node.name}`);

  ann.send({ type: 'open', open: true });
  // The other node reads it from the database.
  let seen = [];
  await until(async () => { seen = await listOn(other); return seen.length === 1; }, 'the game listed on the other node', 10000);
  assert.equal(seen[0].room, room);
  assert.equal(seen[0].host, 'Ann');
  assert.equal(seen[0].seats_taken, 1);
  assert.deepEqual((await listOn(owner)).map((g) => g.room), [room]);

  // Quick play asked on the other node finds it, and the player joins through the front.
  const res = await fetch(`${base(other)}/api/quick-play`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"pace":"live"}' });
  assert.equal(res.status, 200);
  const quick = await res.json();
  assert.equal(quick.room, room);
  assert.equal(quick.created, false);
  const ben = new Player(cluster.front, quick.room, 'Ben', 2);
  ben.hold = true;
  ben.start();
  await waitFor(() => ben.seat === 1, 'Ben seated');
  await until(async () => (await listOn(other))[0]?.seats_taken === 2, 'the other node sees the seat taken', 10000);

  // Nothing fits a turn-based wish: the other node makes a lobby, served from there.
  const made = await fetch(`${base(other)}/api/quick-play`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"pace":"turn_based"}' });
  assert.equal(made.status, 201);
  const fresh = await made.json();
  assert.equal(fresh.created, true);
  const cleo = new Player(cluster.front, fresh.room, 'Cleo', 3);
  cleo.hold = true;
  cleo.start();
  await waitFor(() => cleo.seat === 0, 'Cleo seated in the new lobby');
  cleo.send({ type: 'open', open: true });
  await until(async () => (await listOn(owner)).some((g) => g.room === fresh.room && g.pace === 'turn_based'), 'both games listed on the first node', 10000);

  // The owner of Ann's room dies: its row stops being fresh and leaves the list within a lease.
  const rows = cluster.sql(`SELECT room, node FROM open_games ORDER BY room`);
  assert.ok(rows.some(([r]) => r === room), 'the row is in the shared table');
  const [[freshOwner]] = cluster.sql(`SELECT owner FROM rooms WHERE id = '${fresh.room}'`);
  const killedAt = Date.now();
  process.kill(owner.pid, 'SIGKILL');
  ann.stop(); // still seated and connected when their node died: the row goes only by expiring
  ben.stop();
  await until(async () => !(await listOn(other)).some((g) => g.room === room), 'the dead node\'s game to expire', 15000);
  const took = Date.now() - killedAt;
  // Cleo's lobby stays listed if it lived on the node still running (the front may have
  // moved it to the killed one when she connected: then it is claimed back private).
  if (freshOwner.startsWith(other.name)) assert.ok((await listOn(other)).some((g) => g.room === fresh.room), 'the living node\'s game stays');
  console.log(`the dead node's open game left the other node's list after ${took} ms (lease ${LEASE_MS} ms)`);
  assert.ok(took < LEASE_MS + 3000, `expired within a lease and a bit: ${took} ms`);
  assert.ok(took >= LEASE_MS / 2, `the row stayed until it was stale, not removed: ${took} ms`);
});
