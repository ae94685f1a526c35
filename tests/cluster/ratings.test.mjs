// Ratings in a cluster (docs/community.md#ratings, "Several nodes"): a rated game finished on
// the node that owns its room shows on the other node, read from the shared PostgreSQL: the
// player's page (its rating, recent game and statistics) and the leaderboard; and a lobby the
// winner then opens on one node is listed with the winner's rating on the other.
//
//   node --test tests/cluster/ratings.test.mjs   (needs the build and PostgreSQL)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Cluster, Player, createRoom, waitFor, getJson, sleep } from './cluster.mjs';

let cluster;
before(async () => { cluster = await Cluster.up(2, { leaseMs: 2000 }); });
after(() => { Player.stopAll(); cluster?.down(); });

const base = (node) => `http://127.0.0.1:${node.port}`;
async function until(pred, what, ms) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await pred();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

/**
 * The seat of `token` shown to `key` through the front: the node that answers may not see a
 * room made a moment ago on another node yet (404 "no such room"), or the room may leave that
 * node while it binds (503: nothing bound), so it asks again a while.
 */
async function showSeat(room, token, key) {
  const end = Date.now() + 10000;
  for (;;) {
    const res = await fetch(`${cluster.front}/api/keys/seats`, { method: 'POST', headers: { Authorization: `Bearer ${key}` }, body: JSON.stringify({ room, token }) });
    if ((res.status !== 404 && res.status !== 503) || Date.now() > end) {
      assert.equal(res.status, 200);
      return (await res.json()).player;
    }
    await sleep(200);
  }
}

/** A new player key whose player is bound to the seat of `token`: [key, public id]. */
async function bind(room, token) {
  const { key } = await (await fetch(`${cluster.front}/api/keys`, { method: 'POST', body: '{}' })).json();
  return [key, await showSeat(room, token, key)];
}

test('a rated game finished on one node shows in the players\' pages, the leaderboard and the open games of the other', { timeout: 180000 }, async () => {
  const room = await createRoom(cluster.front);
  const players = ['Ann', 'Ben'].map((name, i) => new Player(cluster.front, room, name, 11 + i, { thinkMs: 0, silenceMs: 60000 }));
  const keys = [];
  const ids = [];
  for (const [i, p] of players.entries()) {
    p.hold = true;
    p.expected = 2;
    p.start();
    await waitFor(() => p.seat === i && p.token, `${p.name} seated`);
    const [key, id] = await bind(room, p.token);
    keys.push(key);
    ids.push(id);
  }
  for (const p of players) p.hold = false;
  players[0].act();
  await waitFor(() => players.every((p) => p.finished), 'the end of the game', 120000);
  Player.stopAll();
  const [[ownerId]] = cluster.sql(`SELECT owner FROM rooms WHERE id = '${room}'`);
  const owner = cluster.node(ownerId.replace(/-\d+$/, ''));
  const other = cluster.pids().nodes.find((n) => n.name !== owner.name);

  const pages = [];
  for (const id of ids) {
    let last = null;
    pages.push(await until(async () => {
      last = await getJson(`${base(other)}/api/players/${id}`);
      return last.status === 200 && last.body.ratings.live?.games === 1 ? last.body : null;
    }, `player ${id} on the other node`, 20000).catch((e) => {
      const results = cluster.sql(`SELECT rated, seats FROM results WHERE room = '${room}'`);
      throw new Error(`${e.message}: ${JSON.stringify(last)}; results ${JSON.stringify(results)}; ${cluster.log(owner.name).split('\n').filter((l) => l.includes(room)).join('\n')}`);
    }));
  }
  const scores = players[0].state.players.map((p) => p.score);
  for (const [i, page] of pages.entries()) {
    assert.equal(page.recent[0].room, room);
    assert.equal(page.recent[0].score, scores[i]);
    assert.equal(page.stats.games, 1);
    assert.equal(page.stats.sets[0].average_score, scores[i]);
    assert.equal(page.stats.points.reduce((s, p) => s + p.total, 0), scores[i], 'points by kind add up to the score');
    const same = (await getJson(`${base(owner)}/api/players/${ids[i]}`)).body;
    assert.deepEqual(page.ratings, same.ratings, 'both nodes read the same rows');
  }
  const board = (await getJson(`${base(other)}/api/leaderboard?pace=live&expansions=`)).body;
  assert.deepEqual(new Set(board.players.map((p) => p.player)), new Set(ids));
  for (const row of board.players) assert.equal(row.rating, pages[ids.indexOf(row.player)].ratings.live.rating);

  // The winner opens a lobby: the other node lists it with the winner's rating.
  const best = pages[0].ratings.live.rating >= pages[1].ratings.live.rating ? 0 : 1;
  const lobby = await createRoom(cluster.front);
  const host = new Player(cluster.front, lobby, 'Host', 21, { thinkMs: 0, silenceMs: 60000 });
  host.hold = true;
  host.start();
  await waitFor(() => host.seat === 0 && host.token, 'the host seated');
  assert.equal(await showSeat(lobby, host.token, keys[best]), ids[best]);
  host.send({ type: 'open', open: true });
  for (const node of cluster.pids().nodes) {
    let games = [];
    const listed = await until(async () => {
      games = (await getJson(`${base(node)}/api/open-games`)).body.games;
      // Showing the seat through another node may have moved the room there, and a moved
      // room is private until its host opens it again (docs/community.md): the host does.
      if (!games.some((g) => g.room === lobby)) host.send({ type: 'open', open: true });
      return games.find((g) => g.room === lobby && g.rating !== null);
    }, `the host's rating on ${node.name}`, 20000).catch((e) => { throw new Error(`${e.message}: ${JSON.stringify(games)}`); });
    assert.equal(listed.rating, pages[best].ratings.live.rating);
  }
});
