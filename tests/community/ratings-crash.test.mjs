// A game's end and its rating survive a kill -9 at every step between them
// (docs/community.md#ratings): the server is killed after the last move is durable, when the
// result reaches the ratings' store (before and after the room's "finished" phase is stored),
// inside the ratings' transaction, and right after it; restarted, it rates the game exactly
// as a run without the kill did (the same game: CARC_TEST_SEED and seeded players), once,
// and once more after another restart and a visit that loads the finished room again.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { Player, Server, playerWhen, waitFor } from './server.mjs';

const servers = [];
after(async () => {
  Player.stopAll();
  for (const s of servers) { await s.stop(); s.remove(); }
});

async function fresh(env) {
  const s = new Server();
  servers.push(s);
  await s.start(env);
  return s;
}

/** Each seat's live rating as GET /api/players/<id> has it, once both have `games` games. */
async function ratingsOf(server, ids, games) {
  const out = [];
  for (const id of ids) {
    const body = await playerWhen(server, id, (b) => b.ratings.live?.games === games, `${id} to have ${games} game(s)`);
    const { mu, sigma } = body.ratings.live;
    out.push({ mu, sigma, games: body.ratings.live.games, history: body.ratings.live.history.length });
  }
  return out;
}

function movesStored(server) {
  const db = path.join(server.dir, 'carcassonne.db');
  return Number(execFileSync('sqlite3', [db, "SELECT count(*) FROM actions WHERE payload LIKE 'M %'"], { encoding: 'utf8' }).trim());
}

test('a kill -9 at every step between the last move and the rating loses nothing and counts nothing twice', { timeout: 600000 }, async () => {
  // The run without a kill.
  const ref = await fresh();
  const game = await ref.game(2);
  await waitFor(() => game.players.every((p) => p.finished), 'the reference game to end', 120000);
  const expected = await ratingsOf(ref, game.ids, 1);
  const moves = movesStored(ref);
  Player.stopAll();
  await ref.stop();
  assert.ok(moves > 30, `the game had ${moves} moves`);
  assert.notDeepEqual(expected[0], expected[1], 'the game had a winner');

  const points = [
    { CARC_CRASH_AFTER_PERSIST: String(moves) },
    { CARC_CRASH_RATINGS: 'before_result' },
    { CARC_CRASH_RATINGS: 'before_result_late' },
    { CARC_CRASH_RATINGS: 'in_result' },
    { CARC_CRASH_RATINGS: 'after_result' },
  ];
  for (const env of points) {
    const what = JSON.stringify(env);
    const s = await fresh(env);
    const g = await s.game(2);
    let timer;
    const exit = await Promise.race([s.exit, new Promise((r) => { timer = setTimeout(() => r(null), 120000); })]);
    clearTimeout(timer);
    assert.deepEqual(exit, { code: 86, signal: null }, `${what}: the server exits at its crash point\n${s.log.slice(-2000)}`);
    assert.match(s.log, /CARC_CRASH_(AFTER_PERSIST|RATINGS)/);
    await s.start();  // no crash point this time
    assert.deepEqual(await ratingsOf(s, g.ids, 1), expected, `${what}: the ratings of the run without a kill`);
    // Once more: killed, restarted, the finished room loaded again by a visit.
    await s.kill();
    await s.start();
    const record = await fetch(`${s.base}/api/rooms/${g.room}/record`);
    assert.equal(record.status, 200);
    await waitFor(() => g.players.every((p) => p.finished), `${what}: the players see the end`, 60000);
    await new Promise((r) => setTimeout(r, 500));
    assert.deepEqual(await ratingsOf(s, g.ids, 1), expected, `${what}: still counted once`);
    Player.stopAll();
    await s.stop();
  }
});
