// A live Swiss of 8 players (5 humans driven by the test, 3 computer players) over 3 rounds on
// a real server (docs/tournaments.md), driven through the HTTP API and the WebSocket protocol:
// bad settings and bad registrations refused
// with nothing changed, a removed player refused, a player dropped after round 1, one table
// decided by the clock (a player who never comes), and final standings that this test
// computes again, on its own, from the stored results the API shows.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Player, call as callServer, serverForTests, until } from './server.mjs';

const server = serverForTests();

const call = (method, pathname, opts) => callServer(server, method, pathname, opts);

async function newKey() {
  const { body } = await call('POST', '/api/keys', { body: {} });
  assert.ok(body.key, JSON.stringify(body));
  return body.key;
}

async function whoIs(key) {
  return (await call('GET', '/api/me', { key })).body.player_id;
}

// The standings again, from the tables' results alone (docs/tournaments.md#points).
function recompute(t) {
  const rows = new Map(t.seeds.map((s, i) => [s.player, { player: s.player, seed: i, points: 0, buchholz: 0, scored: 0 }]));
  const tables = t.rounds.flatMap((r) => r.tables).filter((x) => x.result);
  const placeOf = (seats, i) => 1 + seats.filter((o) => (o.gone !== seats[i].gone ? seats[i].gone : o.score > seats[i].score)).length;
  for (const table of tables) {
    const seats = table.result;
    if (seats.length === 1) { rows.get(seats[0].player).points += 1; continue; }
    seats.forEach((s, i) => {
      let beaten = 0;
      seats.forEach((o, j) => {
        if (i === j) return;
        const a = placeOf(seats, i);
        const b = placeOf(seats, j);
        beaten += a < b ? 1 : a === b ? 0.5 : 0;
      });
      rows.get(s.player).points += beaten / (seats.length - 1);
      rows.get(s.player).scored += s.score;
    });
  }
  for (const table of tables) {
    const seats = table.result;
    if (seats.length === 1) continue;
    for (const s of seats) {
      const others = seats.filter((o) => o.player !== s.player);
      rows.get(s.player).buchholz += others.reduce((sum, o) => sum + rows.get(o.player).points, 0) / others.length;
    }
  }
  const close = (a, b) => Math.abs(a - b) < 1e-9;
  return [...rows.values()].sort((a, b) => (!close(a.points, b.points) ? b.points - a.points
    : !close(a.buchholz, b.buchholz) ? b.buchholz - a.buchholz : b.scored !== a.scored ? b.scored - a.scored : a.seed - b.seed));
}

test('a live Swiss of 8 over 3 rounds: a drop, a table decided by the clock, standings recomputed', { timeout: 300000 }, async () => {
  const organiser = await newKey();
  const keys = [];
  for (let i = 0; i < 9; i++) keys.push(await newKey());
  const ids = [];
  for (const k of keys) ids.push(await whoIs(k));

  // Bad settings: each refused with its own code, nothing made.
  const good = { name: 'Sunday Swiss', format: 'swiss', rounds: 3, seats: 8, turn_seconds: 10 };
  const refusals = [
    [{ ...good, seats: 1 }, 'bad_seats'],
    [{ ...good, rounds: 0 }, 'bad_rounds'],
    [{ ...good, per_table: 7 }, 'bad_per_table'],
    [{ ...good, start: Date.now() - 60000 }, 'bad_start'],
  ];
  for (const [body, code] of refusals) {
    const r = await call('POST', '/api/tournaments', { key: organiser, body });
    assert.equal(r.status, 400, JSON.stringify(r.body));
    assert.equal(r.body.error, code);
    assert.ok(r.body.message.length > 0);
  }
  assert.deepEqual((await call('GET', '/api/tournaments')).body.tournaments, []); // nothing made
  assert.equal((await call('POST', '/api/tournaments', { body: good })).status, 401); // no key

  // A tournament of one player does not start, and stays as it was.
  const lonely = (await call('POST', '/api/tournaments', { key: organiser, body: { name: 'Alone', format: 'round_robin', seats: 4 } })).body;
  assert.equal((await call('POST', `/api/tournaments/${lonely.id}/register`, { key: keys[0], body: { name: 'P0' } })).status, 200);
  const alone = (await call('GET', `/api/tournaments/${lonely.id}`)).body;
  const one = await call('POST', `/api/tournaments/${lonely.id}/start`, { key: organiser });
  assert.equal(one.status, 409);
  assert.equal(one.body.error, 'too_few_players');
  assert.equal((await call('POST', `/api/tournaments/${lonely.id}/start`, { key: keys[0] })).body.error, 'not_organiser');
  assert.deepEqual((await call('GET', `/api/tournaments/${lonely.id}`)).body, alone);

  const made = await call('POST', '/api/tournaments', { key: organiser, body: good });
  assert.equal(made.status, 201, JSON.stringify(made.body));
  const id = made.body.id;
  assert.ok(made.body.url.endsWith(`/t/${id}`));

  // Three computer players and three humans, then one whom the organiser removes: that player
  // cannot come back, nor act in the tournament; then the fourth and fifth humans.
  for (const level of ['easy', 'easy', 'easy']) { // the quickest: the test's time is the bots' thinking
    const r = await call('POST', `/api/tournaments/${id}/bots`, { key: organiser, body: { level } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
  }
  assert.equal((await call('POST', `/api/tournaments/${id}/bots`, { key: keys[0], body: { level: 'easy' } })).body.error, 'not_organiser');
  const bots = (await call('GET', `/api/tournaments/${id}`)).body.entrants.map((e) => e.player);
  assert.equal(bots.length, 3);
  for (let i = 0; i < 3; i++) {
    const r = await call('POST', `/api/tournaments/${id}/register`, { key: keys[i], body: { name: `P${i}` } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
  }
  assert.equal((await call('POST', `/api/tournaments/${id}/register`, { key: keys[8], body: { name: 'Xavier' } })).status, 200);
  assert.equal((await call('POST', `/api/tournaments/${id}/remove`, { key: keys[0], body: { player: ids[8] } })).body.error, 'not_organiser');
  assert.equal((await call('POST', `/api/tournaments/${id}/remove`, { key: organiser, body: { player: ids[8] } })).status, 200);
  const removedAgain = await call('POST', `/api/tournaments/${id}/register`, { key: keys[8], body: { name: 'Xavier' } });
  assert.equal(removedAgain.status, 403);
  assert.equal(removedAgain.body.error, 'removed');
  assert.equal((await call('POST', `/api/tournaments/${id}/register`, { key: keys[3], body: { name: 'P3' } })).status, 200);
  const before = (await call('GET', `/api/tournaments/${id}`)).body;
  assert.equal((await call('POST', `/api/tournaments/${id}/drop`, { key: keys[8], body: { player: ids[8] } })).body.error, 'not_running');
  assert.deepEqual((await call('GET', `/api/tournaments/${id}`)).body, before);
  assert.equal(before.entrants.length, 7);

  // The eighth fills it: it starts ("when full").
  const last = await call('POST', `/api/tournaments/${id}/register`, { key: keys[4], body: { name: 'P4' } });
  assert.equal(last.status, 200, JSON.stringify(last.body));
  assert.equal(last.body.state, 'running');
  assert.equal(last.body.round, 1);
  const late = await call('POST', `/api/tournaments/${id}/register`, { key: keys[8], body: { name: 'Late' } });
  assert.equal(late.status, 403); // still the removed player
  const stranger = await newKey();
  const closed = await call('POST', `/api/tournaments/${id}/register`, { key: stranger, body: { name: 'Late' } });
  assert.equal(closed.status, 409);
  assert.equal(closed.body.error, 'started');
  const xDrop = await call('POST', `/api/tournaments/${id}/drop`, { key: keys[8], body: { player: ids[8] } });
  assert.equal(xDrop.body.error, 'not_entrant');

  // Rounds: every entrant fetches its seat and plays it, except the no-show of round 2.
  const dropped = ids[2];
  const noShow = { round: 2, player: null };
  const seated = new Set();
  for (let round = 1; round <= 3; round++) {
    const t = await until(async () => {
      const now = (await call('GET', `/api/tournaments/${id}`)).body;
      return now.round === round ? now : null;
    }, `round ${round}`, 120000);
    if (round === noShow.round) {
      // A human at a table (not a bye) never comes: the clock decides that table.
      const humans = new Set(ids.slice(0, 5));
      noShow.player = t.rounds[round - 1].tables.filter((x) => !x.bye).flatMap((x) => x.players).find((p) => humans.has(p));
    }
    for (let i = 0; i < 5; i++) {
      if (round > 1 && ids[i] === dropped) continue;
      if (round === noShow.round && ids[i] === noShow.player) continue;
      const { body } = await call('GET', `/api/tournaments/${id}/seats`, { key: keys[i] });
      for (const s of body.seats) {
        const k = `${s.room}/${s.seat}`;
        if (seated.has(k)) continue;
        seated.add(k);
        const p = new Player(server.base, s.room, `P${i}`, 1000 * round + i, { thinkMs: 0, silenceMs: 60000 });
        p.token = s.token;
        p.start();
      }
    }
    if (round === 1) {
      const d = await call('POST', `/api/tournaments/${id}/drop`, { key: organiser, body: { player: dropped } });
      assert.equal(d.status, 200, JSON.stringify(d.body));
    }
  }
  const final = await until(async () => {
    const now = (await call('GET', `/api/tournaments/${id}`)).body;
    return now.state === 'finished' ? now : null;
  }, 'the end', 150000);

  // Three rounds; the dropped player sat only in round 1; 7 players in rounds 2 and 3 means
  // one bye each, never twice for the same player; nobody met anyone twice.
  assert.equal(final.rounds.length, 3);
  const met = new Set();
  const byes = new Map();
  for (const r of final.rounds) {
    for (const table of r.tables) {
      assert.ok(table.result, `round ${r.round} table ${table.table} has its result`);
      if (r.round > 1) assert.ok(!table.players.includes(dropped));
      if (table.bye) { byes.set(table.players[0], (byes.get(table.players[0]) ?? 0) + 1); continue; }
      const pair = [...table.players].sort().join('+');
      assert.ok(!met.has(pair), `a rematch: ${pair}`);
      met.add(pair);
    }
  }
  assert.equal([...byes.values()].reduce((a, b) => a + b, 0), 2);
  for (const n of byes.values()) assert.equal(n, 1);
  // The no-show's table was decided by the clock: gone, and last at its table.
  const missed = final.rounds[1].tables.find((x) => x.players.includes(noShow.player));
  const seat = missed.result.find((s) => s.player === noShow.player);
  assert.equal(seat.gone, true);
  assert.equal(seat.place, 2);
  // The computer players played their tables: each has a score in every round it sat.
  for (const b of bots) {
    const sat = final.rounds.flatMap((r) => r.tables).filter((x) => !x.bye && x.players.includes(b));
    assert.ok(sat.length >= 2, `${b} played`);
    for (const x of sat) assert.equal(x.result.find((s) => s.player === b).gone, false);
  }
  // The standings, recomputed here from the results alone.
  const mine = recompute(final);
  assert.deepEqual(final.standings.map((s) => s.player), mine.map((s) => s.player));
  for (const [i, s] of final.standings.entries()) {
    assert.ok(Math.abs(s.points - mine[i].points) < 1e-9);
    assert.ok(Math.abs(s.buchholz - mine[i].buchholz) < 1e-9);
    assert.equal(s.scored, mine[i].scored);
  }
  assert.equal(final.standings.find((s) => s.player === dropped).dropped, true);
  console.log(`final standings: ${final.standings.map((s) => `${s.rank}. ${s.points} (${s.buchholz})`).join(', ')}`);
});
