// A live single-elimination tournament of 4 players on a real server (docs/tournaments.md):
// two semi-finals, then the final between their winners, and the places. It is unrated: every
// player shows its seat to its player key as the browser does, and still no game is rated
// (its rooms are never rated, docs/community.md#ratings).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Player, call, newPlayer, serverForTests, until, waitFor } from './server.mjs';

const server = serverForTests();

// A 2-player table's winner: not gone, then the higher score; a tie goes to the better seed.
function winnerOf(table, seeds) {
  const [a, b] = table.result;
  if (a.gone !== b.gone) return a.gone ? b.player : a.player;
  if (a.score !== b.score) return a.score > b.score ? a.player : b.player;
  return seeds.indexOf(a.player) < seeds.indexOf(b.player) ? a.player : b.player;
}

test('an unrated knockout of 4: semi-finals, the final between their winners, places, and no game rated', { timeout: 300000 }, async () => {
  const organiser = await newPlayer(server);
  const players = [];
  for (let i = 0; i < 4; i++) players.push(await newPlayer(server));
  const made = await call(server, 'POST', '/api/tournaments', {
    key: organiser.key, body: { name: 'Cup', format: 'single_elimination', seats: 4, turn_seconds: 10 },
  });
  assert.equal(made.status, 201, JSON.stringify(made.body));
  const id = made.body.id;
  assert.equal(made.body.settings.rated, false);
  for (const [i, p] of players.entries()) {
    const r = await call(server, 'POST', `/api/tournaments/${id}/register`, { key: p.key, body: { name: `K${i}` } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
  }

  // Each round: every player fetches its seats, shows each to its key (as the room page
  // does) and plays it.
  const seated = new Set();
  const rooms = [];
  let t;
  for (let round = 1; round <= 2; round++) {
    t = await until(async () => {
      const now = (await call(server, 'GET', `/api/tournaments/${id}`)).body;
      return now.round === round && now.rounds[round - 1]?.tables.every((x) => x.room) ? now : null;
    }, `round ${round}`, 120000);
    assert.equal(t.rounds[round - 1].tables.length, round === 1 ? 2 : 1);
    for (const [i, p] of players.entries()) {
      const { body } = await call(server, 'GET', `/api/tournaments/${id}/seats`, { key: p.key });
      for (const s of body.seats) {
        if (seated.has(`${s.room}/${s.seat}`)) continue;
        seated.add(`${s.room}/${s.seat}`);
        if (!rooms.includes(s.room)) rooms.push(s.room);
        const shown = await call(server, 'POST', '/api/keys/seats', { key: p.key, body: { room: s.room, token: s.token } });
        assert.equal(shown.status, 200, JSON.stringify(shown.body));
        assert.equal(shown.body.rated, false, 'the seat of a never rated room does not count');
        // The table's seat is among the key's games, its token sealed and unsealed whole (a
        // tournament's tokens are 43 characters).
        const games = await call(server, 'GET', '/api/keys/games', { key: p.key });
        assert.ok(games.body.games.some((g) => g.room === s.room && g.seat === s.seat && g.token === s.token), JSON.stringify(games.body));
        const player = new Player(server.base, s.room, `K${i}`, 100 * round + i, { thinkMs: 0, silenceMs: 60000 });
        player.token = s.token;
        player.start();
      }
    }
  }
  const final = await until(async () => {
    const now = (await call(server, 'GET', `/api/tournaments/${id}`)).body;
    return now.state === 'finished' ? now : null;
  }, 'the end', 150000);

  // The bracket: seeds 1 v 4 and 2 v 3 (equal ratings keep registration order), then the
  // final between the two winners; the champion first, the finalist second, the others third.
  const seeds = final.seeds.map((s) => s.player);
  assert.deepEqual(seeds, players.map((p) => p.id));
  const [semis, finals] = final.rounds;
  const pairs = (tables) => tables.map((x) => [...x.players].sort().join('+')).sort();
  assert.deepEqual(pairs(semis.tables), pairs([{ players: [seeds[0], seeds[3]] }, { players: [seeds[1], seeds[2]] }]));
  const winners = semis.tables.map((x) => winnerOf(x, seeds));
  assert.equal(finals.tables.length, 1);
  assert.deepEqual([...finals.tables[0].players].sort(), [...winners].sort());
  const champion = winnerOf(finals.tables[0], seeds);
  const places = Object.fromEntries(final.standings.map((s) => [s.player, s.rank]));
  assert.equal(places[champion], 1);
  assert.equal(places[winners.find((w) => w !== champion)], 2);
  for (const p of seeds.filter((s) => !winners.includes(s))) assert.equal(places[p], 3);

  // Never rated: each room's result says so, nobody has a rating, and no room has rating changes.
  assert.equal(rooms.length, 3);
  for (const room of rooms) {
    await waitFor(() => server.log.includes(`room ${room}: not rated (its room is never rated`), `room ${room} judged`, 20000);
    assert.equal((await server.json(`/api/rooms/${room}/rated`)).status, 404);
  }
  for (const p of players) assert.equal((await server.json(`/api/players/${p.id}`)).status, 404, `${p.id} has no rating`);
});
