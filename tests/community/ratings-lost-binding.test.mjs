// A seat's binding to its player lost from the room's log (its append fenced while the room
// moved to another node) does not cost the game its rating (docs/community.md#ratings): the
// ratings find the seat's player again from the keys the seat was shown to. Here the log
// loses the bindings for real: the server is killed as the result reaches the ratings, the
// bindings are taken out of the stored log, and the restarted server derives the result again.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { Player, Server, playerWhen } from './server.mjs';

let server;
after(async () => {
  Player.stopAll();
  await server?.stop();
  server?.remove();
});

test('a finished game whose seats lost their bindings from the log is still rated, from the keys its seats were shown to', { timeout: 240000 }, async () => {
  server = new Server();
  await server.start({ CARC_CRASH_RATINGS: 'before_result' });
  const { room, players, ids } = await server.game(2);
  let timer;
  const exit = await Promise.race([server.exit, new Promise((r) => { timer = setTimeout(() => r(null), 150000); })]);
  clearTimeout(timer);
  assert.deepEqual(exit, { code: 86, signal: null }, `the server stops as the result reaches the ratings\n${server.log.slice(-2000)}`);
  Player.stopAll();
  assert.equal(players.length, 2);

  // The log without its bindings, as a room's log is when their appends were fenced; the
  // keys still have the seats.
  const db = path.join(server.dir, 'carcassonne.db');
  const sql = (q) => execFileSync('sqlite3', [db, q], { encoding: 'utf8' }).trim();
  assert.equal(sql(`SELECT count(*) FROM actions WHERE room = '${room}' AND payload LIKE 'B %'`), '2');
  sql(`DELETE FROM actions WHERE room = '${room}' AND payload LIKE 'B %'`);
  assert.equal(sql(`SELECT count(*) FROM key_seats WHERE room = '${room}'`), '2');
  assert.equal(sql('SELECT count(*) FROM results'), '0');

  server.log = '';
  await server.start();
  for (const id of ids) await playerWhen(server, id, (b) => b.ratings.live?.games === 1, `${id} rated`, 30000);
  const rated = await server.json(`/api/rooms/${room}/rated`);
  assert.equal(rated.status, 200);
  assert.deepEqual(rated.body.seats.map((s) => [s.seat, s.player]), [[0, ids[0]], [1, ids[1]]]);
  assert.ok(!server.log.includes(`room ${room}: not rated`), server.log.slice(-2000));
});
