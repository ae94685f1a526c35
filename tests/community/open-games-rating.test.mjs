// Open games and ratings on a real server (docs/community.md, "Open games and quick play"):
// once two players are rated, a lobby each of them opens lists the host's rating, and quick
// play with a player key picks the open game whose host is rated closest to the asker; a
// request without a key, or with an unknown one, plays as a newcomer (the oldest game).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Player, Server, sleep, waitFor } from './server.mjs';
import { createRoom } from '../cluster/cluster.mjs';

let srv;
before(async () => {
  srv = new Server();
  await srv.start();
});
after(async () => {
  Player.stopAll();
  await srv?.stop();
  srv?.remove();
});

/** A lobby hosted by the player of `key` (its seat shown to the key), listed among the open games. */
async function hostedBy(key, name) {
  const room = await createRoom(srv.base);
  const p = new Player(srv.base, room, name, 7, { thinkMs: 0, silenceMs: 60000 });
  p.hold = true;
  p.start();
  await waitFor(() => p.seat === 0 && p.token, `${name}'s seat`, 20000);
  const res = await fetch(`${srv.base}/api/keys/seats`, {
    method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ room, token: p.token }),
  });
  assert.equal(res.status, 200);
  p.send({ type: 'open', open: true });
  return room;
}

async function quickPlay(key) {
  const res = await fetch(`${srv.base}/api/quick-play`, {
    method: 'POST', headers: { 'Content-Type': 'application/json', ...(key ? { Authorization: `Bearer ${key}` } : {}) }, body: '{}',
  });
  assert.equal(res.status, 200, 'an open game fits');
  return (await res.json()).room;
}

test('open games list their hosts\' ratings; quick play with a key picks the host rated closest', { timeout: 180000 }, async () => {
  const { players, ids } = await srv.game(2);
  await waitFor(() => players.every((p) => p.finished && p.rated), 'the end and the rated message', 120000);
  Player.stopAll();
  const seats = players[0].rated.seats;
  const [high, low] = [...seats].sort((a, b) => b.after - a.after);
  assert.ok(high.after > low.after, 'a winner and a loser');
  assert.deepEqual(new Set([high.player, low.player]), new Set(ids));

  // The lower rated opens first: without ratings quick play would always pick its (older) game.
  const lowRoom = await hostedBy(srv.keyOf.get(low.player), 'Low');
  await sleep(20);
  const highRoom = await hostedBy(srv.keyOf.get(high.player), 'High');
  let games = [];
  const end = Date.now() + 20000;
  for (;;) {
    games = (await (await fetch(`${srv.base}/api/open-games`)).json()).games;
    if (games.length === 2 && games.every((g) => g.rating !== null)) break;
    if (Date.now() > end) throw new Error(`the hosts' ratings never showed: ${JSON.stringify(games)}`);
    await sleep(100);
  }
  assert.deepEqual(games.map((g) => [g.room, g.host]), [[lowRoom, 'Low'], [highRoom, 'High']], 'the oldest opened first');
  assert.ok(Math.abs(games[0].rating - low.after) < 1e-9);
  assert.ok(Math.abs(games[1].rating - high.after) < 1e-9);
  assert.equal(JSON.stringify(games).includes(low.player), false, 'the host\'s public id stays inside the server');

  assert.equal(await quickPlay(srv.keyOf.get(high.player)), highRoom, 'the winner gets the winner\'s game');
  assert.equal(await quickPlay(srv.keyOf.get(low.player)), lowRoom);
  assert.equal(await quickPlay(null), lowRoom, 'no key: the oldest');
  assert.equal(await quickPlay('A'.repeat(43)), lowRoom, 'an unknown key: a newcomer, not a refusal');
});
