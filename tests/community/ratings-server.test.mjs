// Ratings end to end on a real server (docs/community.md#ratings): seats bound to player keys
// (the first binding wins), a finished game rated as the openskill package rates it, the
// `rated` message, the player's page and the leaderboard; games that are not rated; bad ids.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { rate, rating, ordinal } from 'openskill';
import { Player, Server, playerWhen, waitFor } from './server.mjs';

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

test('a finished game between two bound players is rated as openskill rates it, and told to each seat', { timeout: 180000 }, async () => {
  const { room, players, ids } = await srv.game(2);
  assert.deepEqual(srv.binds.map((b) => b.rated), [true, true], 'open rated play: every key binds');
  // Seat 0 shown to a second key: the first binding stays.
  const second = await srv.bind(room, players[0].token);
  assert.notEqual(second, ids[0]);
  await waitFor(() => players.every((p) => p.finished && p.rated), 'the end and the rated message', 120000);
  const scores = players[0].state.players.map((p) => p.score);
  const places = scores.map((s) => 1 + scores.filter((o) => o > s).length);
  const want = rate([[rating()], [rating()]], { rank: places }).map(([r]) => r);

  for (const p of players) {
    assert.equal(p.rated.type, 'rated');
    assert.equal(p.rated.pace, 'live');
    assert.deepEqual(p.rated.seats.map((s) => s.player), ids, 'the first binding of each seat');
  }
  for (const [i, s] of players[0].rated.seats.entries()) {
    assert.equal(s.seat, i);
    assert.equal(s.place, places[i]);
    assert.ok(Math.abs(s.after - ordinal(want[i])) < 1e-9);
    assert.ok(Math.abs(s.before - ordinal(rating())) < 1e-9);
    assert.ok(Math.abs(s.change - (s.after - s.before)) < 1e-9);
    assert.equal(s.games, 1);
    assert.equal(s.provisional, true);
  }
  // The end screen after a reload reads the same message again from the stored result.
  const again = await srv.json(`/api/rooms/${room}/rated`);
  assert.equal(again.status, 200);
  assert.deepEqual(again.body, players[0].rated);

  for (const [i, id] of ids.entries()) {
    const body = await playerWhen(srv, id, (b) => b.ratings.live?.games === 1, `player ${i}`);
    assert.equal(body.player, id);
    assert.equal(body.name, `P${i}`);
    const live = body.ratings.live;
    assert.ok(Math.abs(live.mu - want[i].mu) < 1e-9 && Math.abs(live.sigma - want[i].sigma) < 1e-9, JSON.stringify(live));
    assert.equal(live.provisional, true);
    assert.equal(live.history.length, 1);
    assert.equal(live.history[0].room, room);
    assert.equal(body.ratings['turn-based'], undefined);
    assert.deepEqual(body.recent.map((r) => [r.room, r.pace, r.place]), [[room, 'live', places[i]]]);
  }
  assert.equal((await srv.json(`/api/players/${second}`)).status, 404, 'the second key rated nothing');

  const board = await srv.json('/api/leaderboard?pace=live');
  assert.equal(board.status, 200);
  const order = [0, 1].sort((a, b) => ordinal(want[b]) - ordinal(want[a]));
  assert.deepEqual(board.body.players.map((p) => p.player), order.map((i) => ids[i]));
  assert.deepEqual(board.body.players.map((p) => [p.name, p.games]), order.map((i) => [`P${i}`, 1]));
  assert.deepEqual((await srv.json('/api/leaderboard?pace=turn-based')).body.players, []);
  assert.deepEqual((await srv.json('/api/leaderboard?pace=live&expansions=river')).body.players, []);
});

test('a turn-based game is rated in the turn-based rating only', { timeout: 180000 }, async () => {
  const { players, ids } = await srv.game(2, { settings: { pace: 'turn_based' } });
  await waitFor(() => players.every((p) => p.finished && p.rated), 'the end', 120000);
  assert.equal(players[0].rated.pace, 'turn-based');
  for (const id of ids) {
    const body = await playerWhen(srv, id, (b) => b.ratings['turn-based']?.games === 1, 'the turn-based rating');
    assert.equal(body.ratings.live, undefined);
  }
  const board = await srv.json('/api/leaderboard?pace=turn_based');
  assert.deepEqual(new Set(board.body.players.map((p) => p.player)), new Set(ids));
});

test('a player gone before the end loses to everyone still seated, and the game is rated', { timeout: 180000 }, async () => {
  const { players, ids } = await srv.game(2, { settings: { away_seconds: 5 } });
  const [stay, leave] = players;
  await waitFor(() => (stay.state?.board?.length ?? 0) >= 8, 'a few moves', 60000);
  leave.stop(); // closes the tab: after 5 s a computer player makes every turn left
  await waitFor(() => stay.finished && stay.rated, 'the end without them', 150000);
  const seats = stay.rated.seats;
  assert.deepEqual(seats.map((s) => [s.player, s.place]), [[ids[0], 1], [ids[1], 2]]);
  const want = rate([[rating()], [rating()]], { rank: [1, 2] }).map(([r]) => ordinal(r));
  assert.ok(Math.abs(seats[0].after - want[0]) < 1e-9 && Math.abs(seats[1].after - want[1]) < 1e-9);
});

test('a game with a computer player, or a seat not bound to a key, is not rated', { timeout: 180000 }, async () => {
  const withBot = await srv.game(1, { bots: 1 });
  const unbound = await srv.game(2, { bind: false });
  await waitFor(() => [...withBot.players, ...unbound.players].every((p) => p.finished), 'both games to end', 150000);
  await waitFor(() => srv.log.includes(`room ${withBot.room}: not rated (seat 1 is a computer player)`), 'the bot game judged', 10000);
  await waitFor(() => srv.log.includes(`room ${unbound.room}: not rated (seat 0 has no player key)`), 'the unbound game judged', 10000);
  assert.equal((await srv.json(`/api/players/${withBot.ids[0]}`)).status, 404);
  assert.equal(withBot.players[0].rated, undefined);
  for (const room of [withBot.room, unbound.room, 'no-such-room-0123', 'bad%20id']) {
    assert.equal((await srv.json(`/api/rooms/${room}/rated`)).status, 404, `${room}: no rated result`);
  }
});

test('with --rated-play invite, players with neither sign-in nor an invite bind nothing and their game is not rated', { timeout: 180000 }, async () => {
  const tokenFile = path.join(os.tmpdir(), `carc-admin-${process.pid}`);
  fs.writeFileSync(tokenFile, 'an-admin-token-for-tests-0123456789\n');
  const gated = new Server({ args: ['--rated-play', 'invite', '--admin-token-file', tokenFile] });
  try {
    await gated.start();
    const { room, players, ids } = await gated.game(2);
    assert.deepEqual(gated.binds.map((b) => b.rated), [false, false], 'the seats are shown to the keys, not rated');
    assert.ok(ids.every((id) => typeof id === 'string' && id.length === 16), 'each key still has its public id');
    await waitFor(() => players.every((p) => p.finished), 'the end', 150000);
    await waitFor(() => gated.log.includes(`room ${room}: not rated (seat 0 has no player key)`), 'the game judged', 10000);
    assert.equal(players[0].rated, undefined, 'no rated message');
    for (const id of ids) assert.equal((await gated.json(`/api/players/${id}`)).status, 404);
    assert.deepEqual((await gated.json('/api/leaderboard?pace=live')).body.players, []);
  } finally {
    await gated.stop();
    gated.remove();
    fs.rmSync(tokenFile, { force: true });
  }
});

test('bad ids and queries get a clear 400/404/405 and change nothing', async () => {
  for (const [url, status, error] of [
    ['/api/players/short', 400, 'bad_request'],
    ['/api/players/' + 'A'.repeat(17), 400, 'bad_request'],
    ['/api/players/AAAAAAAA%2FAAAAAA', 400, 'bad_request'],
    ['/api/players/AAAAAAAAAAAAAAAA', 404, 'not_found'],
    ['/api/leaderboard', 400, 'bad_request'],
    ['/api/leaderboard?pace=fast', 400, 'bad_request'],
    ['/api/leaderboard?pace=live&expansions=nope', 400, 'bad_request'],
    ['/api/leaderboard?pace=live&expansions=river,river', 400, 'bad_request'],
    ['/api/leaderboard?pace=live&sort=x', 400, 'bad_request'],
  ]) {
    const res = await srv.json(url);
    assert.equal(res.status, status, url);
    assert.equal(res.body.error, error, url);
    assert.ok(res.body.message, url);
  }
  const post = await fetch(`${srv.base}/api/leaderboard?pace=live`, { method: 'POST' });
  assert.equal(post.status, 405);
  assert.equal((await fetch(`${srv.base}/healthz`)).status, 200, 'still serving');
});

test('the stored ratings are the stored results replayed through openskill, in their order', async () => {
  const db = path.join(srv.dir, 'carcassonne.db');
  const sql = (q) => JSON.parse(execFileSync('sqlite3', ['-json', db, q], { encoding: 'utf8' }) || '[]');
  const results = sql('SELECT seq, pace, rated, seats FROM results ORDER BY seq');
  assert.ok(results.filter((r) => r.rated).length >= 3, 'the games above were rated');
  assert.ok(results.some((r) => !r.rated), 'and some were not');
  const book = new Map(); // "pace player" -> {mu, sigma, games}
  for (const r of results.filter((x) => x.rated)) {
    const seats = JSON.parse(r.seats);
    // Places: those still seated by score, those gone before the end below them all.
    const places = seats.map((a) => 1 + seats.filter((b) => (!b.gone && a.gone) || (b.gone === a.gone && b.score > a.score)).length);
    const prior = seats.map((s) => book.get(`${r.pace} ${s.player}`) ?? { ...rating(), games: 0 });
    const after = rate(prior.map(({ mu, sigma }) => [{ mu, sigma }]), { rank: places });
    seats.forEach((s, i) => book.set(`${r.pace} ${s.player}`, { ...after[i][0], games: prior[i].games + 1 }));
  }
  const stored = sql('SELECT pace, player, mu, sigma, games FROM ratings');
  assert.equal(stored.length, book.size);
  for (const row of stored) {
    const want = book.get(`${row.pace} ${row.player}`);
    assert.ok(want, `${row.pace} ${row.player}`);
    assert.equal(row.games, want.games);
    assert.ok(Math.abs(Number(row.mu) - want.mu) < 1e-9 && Math.abs(Number(row.sigma) - want.sigma) < 1e-9, JSON.stringify([row, want]));
  }
});
