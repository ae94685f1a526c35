// A turn-based tournament's round deadline on a real server (docs/tournaments.md#rounds): a
// round robin of 3 with rounds of one hour. In round 1 the first seat plays its move and the
// second never comes; nothing happens before the deadline; once the clock (the test build's
// CARC_TEST_CLOCK_FILE) passes it, the table is settled as its game stands: the seat on move
// loses on time, and round 2 is paired with its room.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { Player, call, newPlayer, serverForTests, sleep, until, waitFor } from './server.mjs';

const clockFile = path.join(os.tmpdir(), `carc-tournament-clock-${process.pid}`);
const HOUR = 3600 * 1000;
fs.writeFileSync(clockFile, '0');
const server = serverForTests({ env: { CARC_TEST_CLOCK_FILE: clockFile } });
after(() => fs.rmSync(clockFile, { force: true }));

const tournament = async (id) => (await call(server, 'GET', `/api/tournaments/${id}`)).body;

test('a turn-based round is settled at its deadline: the seat on move loses on time, and the next round is paired', { timeout: 120000 }, async () => {
  const players = [];
  for (let i = 0; i < 3; i++) players.push(await newPlayer(server));
  const made = await call(server, 'POST', '/api/tournaments', {
    key: players[0].key, body: { name: 'Weekly', format: 'round_robin', seats: 3, pace: 'turn_based', round_hours: 1 },
  });
  assert.equal(made.status, 201, JSON.stringify(made.body));
  const id = made.body.id;
  for (const [i, p] of players.entries()) {
    assert.equal((await call(server, 'POST', `/api/tournaments/${id}/register`, { key: p.key, body: { name: `W${i}` } })).status, 200);
  }
  const first = await until(async () => {
    const t = await tournament(id);
    return t.round === 1 && t.rounds[0]?.tables.every((x) => x.bye || x.room) ? t : null;
  }, 'round 1 with its room', 20000);
  const table = first.rounds[0].tables.find((x) => !x.bye);
  const keyOf = (id_) => players.find((p) => p.id === id_).key;

  // The table's first seat plays its first move; the second seat never comes.
  const { body } = await call(server, 'GET', `/api/tournaments/${id}/seats`, { key: keyOf(table.players[0]) });
  const seat = body.seats.find((s) => s.room === table.room);
  assert.equal(seat.seat, 0);
  const p = new Player(server.base, table.room, 'W', 7, { thinkMs: 0, silenceMs: 60000 });
  p.token = seat.token;
  p.start();
  const onMove = async () => (await server.json(`/api/rooms/${table.room}`)).body.turn?.seat;
  await until(async () => (await onMove()) === 1, 'the second seat to be on move', 20000);

  // Half an hour on: nothing changes.
  fs.writeFileSync(clockFile, String(HOUR / 2));
  await sleep(1500);
  const half = await tournament(id);
  assert.equal(half.round, 1);
  assert.equal(half.rounds[0].tables.find((x) => x.table === table.table).result, null);

  // Past the deadline: settled as it stands, and round 2 made.
  fs.writeFileSync(clockFile, String(HOUR + 60000));
  const second = await until(async () => {
    const t = await tournament(id);
    return t.round === 2 && t.rounds[1]?.tables.every((x) => x.bye || x.room) ? t : null;
  }, 'round 2 after the deadline', 20000);
  const settled = second.rounds[0].tables.find((x) => x.table === table.table).result;
  assert.deepEqual(settled.map((s) => [s.player, s.gone, s.place]), [[table.players[0], false, 1], [table.players[1], true, 2]]);
  assert.ok(settled[0].score >= 0 && settled[1].score === 0);
  await waitFor(() => server.log.includes(`room ${table.room}: settled by its tournament at the round's deadline (seat 1 on move loses on time)`),
    'the settlement in the log', 5000);
  // Round 2 pairs the players by the schedule; each of its tables has a room.
  assert.equal(second.rounds[1].tables.filter((x) => !x.bye).length, 1);
  assert.ok(second.round_started > first.round_started);
});
