// A turn-based tournament tells its players that their table of a new round is ready
// (docs/tournaments.md#notifications), through the webhook and the Web Push subscription each
// entrant gave it, with a real HTTP receiver and a real HTTPS push service (the test's own,
// trusted through --extra-ca): bad targets refused with nothing stored; one notice per seated
// player and round, with the room's link; a webhook that failed when the server was killed
// gets its notice after the restart, once; a push delivered before the kill is not sent again.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { b64url, checkVapid, decrypt, makeCert } from '../browser/push-helpers.mjs';
import { call, newPlayer, serverForTests, sleep, until, waitFor } from './server.mjs';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'carc-tournament-notify-'));
const clockFile = path.join(dir, 'clock');
fs.writeFileSync(clockFile, '0');
const cert = makeCert(dir);
const HOUR = 3600 * 1000;
const env = { CARC_TEST_CLOCK_FILE: clockFile };
const server = serverForTests({ args: ['--allow-private-hooks', '--extra-ca', cert.certFile], env });

// A receiver that records every POST and answers `status` (changed by the test).
async function receiver(tls) {
  const r = { got: [], status: 201 };
  const handler = (req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      r.got.push({ url: req.url, headers: req.headers, body: Buffer.concat(chunks), status: r.status });
      res.writeHead(r.status).end();
    });
  };
  r.srv = tls ? https.createServer(tls, handler) : http.createServer(handler);
  await new Promise((ok) => r.srv.listen(0, '127.0.0.1', ok));
  r.base = `${tls ? 'https' : 'http'}://127.0.0.1:${r.srv.address().port}`;
  return r;
}

const hooks = await receiver(null);
const pushes = await receiver(cert);
after(() => { hooks.srv.close(); pushes.srv.close(); fs.rmSync(dir, { recursive: true, force: true }); });

test('a new round\'s table is told once to each seated player, by webhook and push, also across a restart', { timeout: 180000 }, async () => {
  const [ann, bob, cat] = [await newPlayer(server), await newPlayer(server), await newPlayer(server)];
  const made = await call(server, 'POST', '/api/tournaments', {
    key: ann.key, body: { name: 'Postal cup', format: 'round_robin', seats: 4, pace: 'turn_based', round_hours: 1 },
  });
  assert.equal(made.status, 201, JSON.stringify(made.body));
  const id = made.body.id;
  const notify = (p, body) => call(server, 'POST', `/api/tournaments/${id}/notify`, { key: p.key, body });
  const targets = async (p) => (await call(server, 'GET', `/api/tournaments/${id}/notify`, { key: p.key })).body;

  // Not an entrant yet, then bad targets: each refused with its reason, nothing stored.
  assert.equal((await notify(ann, { webhook: { url: `${hooks.base}/ann` } })).body.error, 'not_entrant');
  const register = (p, name) => call(server, 'POST', `/api/tournaments/${id}/register`, { key: p.key, body: { name } });
  assert.equal((await register(ann, 'Ann')).status, 200);
  assert.equal((await register(bob, 'Bob')).status, 200);
  for (const [body, code] of [
    [{ webhook: { url: 'ftp://example.org/x' } }, 'bad_target'],
    [{ webhook: { url: `${hooks.base}/ann`, format: 'telegram' } }, 'bad_target'],
    [{ push: { endpoint: `${pushes.base}/x`, keys: { p256dh: 'short', auth: 'x' } } }, 'bad_target'],
    [{ email: 'ann@example.org' }, 'bad_request'],
    [{}, 'bad_request'],
  ]) {
    const r = await notify(ann, body);
    assert.deepEqual([r.status, r.body.error], [400, code], JSON.stringify(r.body));
    assert.ok(r.body.message.length > 10, r.body.message);
  }
  assert.deepEqual(await targets(ann), { webhook: false, push: false });
  assert.equal((await call(server, 'POST', `/api/tournaments/${id}/notify`, { body: { push: null } })).status, 401);

  // Ann: a webhook; Bob: a push subscription; Cat (once registered): both. Whatever the
  // pairing, a table then has a webhook and a push to tell.
  const subscription = () => {
    const ecdh = crypto.createECDH('prime256v1');
    ecdh.generateKeys();
    const auth = crypto.randomBytes(16);
    return { ecdh, auth, json: { endpoint: `${pushes.base}/sub/${crypto.randomUUID()}`, keys: { p256dh: b64url(ecdh.getPublicKey()), auth: b64url(auth) } } };
  };
  const subs = new Map([[bob.id, subscription()], [cat.id, subscription()]]);
  assert.deepEqual((await notify(ann, { webhook: { url: `${hooks.base}/hook/ann`, format: 'json' } })).body, { webhook: true, push: false });
  assert.deepEqual((await notify(bob, { push: subs.get(bob.id).json })).body, { webhook: false, push: true });
  assert.equal((await register(cat, 'Cat')).body.state, 'registering'); // 3 of 4 seats: the organiser starts it
  assert.deepEqual((await notify(cat, { webhook: { url: `${hooks.base}/hook/cat` }, push: subs.get(cat.id).json })).body, { webhook: true, push: true });
  assert.deepEqual(await targets(cat), { webhook: true, push: true });

  // The webhooks fail (503) for now; the organiser starts it.
  hooks.status = 503;
  assert.equal((await call(server, 'POST', `/api/tournaments/${id}/start`, { key: ann.key })).status, 200);
  const t1 = await until(async () => {
    const t = (await call(server, 'GET', `/api/tournaments/${id}`)).body;
    return t.round === 1 && t.rounds[0]?.tables.every((x) => x.bye || x.room) ? t : null;
  }, 'round 1 with its room', 20000);
  const table1 = t1.rounds[0].tables.find((x) => !x.bye);
  const seated1 = table1.players;
  const hookOf = { [ann.id]: '/hook/ann', [cat.id]: '/hook/cat' };
  const hooked1 = seated1.filter((p) => hookOf[p]);
  const pushed1 = seated1.filter((p) => subs.has(p));

  // Pushes arrive (decrypted with the subscription's keys, signed by the server's VAPID key).
  const serverKey = (await server.json('/api/push/key')).body.public_key;
  const newTables = () => pushes.got.filter((g) => g.status === 201).map((g) => {
    checkVapid(g.headers.authorization, serverKey, pushes.base);
    const sub = [...subs.values()].find((s) => g.url === new URL(s.json.endpoint).pathname);
    return { ...decrypt(sub.ecdh, sub.auth, g.body), endpoint: g.url };
  }).filter((m) => m.event === 'new_table');
  await waitFor(() => newTables().length === pushed1.length, 'round 1\'s pushes', 20000);
  for (const m of newTables()) {
    assert.equal(m.room, table1.room);
    assert.equal(m.url, `${server.base}/r/${table1.room}`);
    assert.deepEqual([m.tournament.id, m.tournament.name, m.tournament.round], [id, 'Postal cup', 1]);
    assert.match(m.body, /^Round 1 of Postal cup: your table is ready, (Bob|Cat): /);
    assert.equal(seated1[m.seat], [...subs.entries()].find(([, s]) => new URL(s.json.endpoint).pathname === m.endpoint)[0]);
  }
  // The webhooks were tried and refused; the server is killed meanwhile, the receiver
  // recovers, and the server comes back: each webhook notice arrives then, once.
  await waitFor(() => hooked1.every((p) => hooks.got.some((g) => g.url === hookOf[p])), 'the failing webhook tries', 20000);
  await sleep(1500); // the pushes' delivery marks are stored
  await server.kill();
  hooks.status = 200;
  const pushesBefore = pushes.got.length;
  await server.start(env);
  const delivered = () => hooks.got.filter((g) => g.status === 200).map((g) => ({ ...JSON.parse(g.body), path: g.url, header: g.headers['x-carcassonne-id'] }));
  await waitFor(() => delivered().length === hooked1.length, 'the webhooks after the restart', 20000);
  for (const d of delivered()) {
    assert.equal(d.event, 'new_table');
    assert.equal(d.header, d.id);
    assert.equal(d.id, hooks.got.find((g) => g.url === d.path).headers['x-carcassonne-id'], 'the same notice as before the kill');
    assert.equal(d.room, table1.room);
    assert.equal(d.url, `${server.base}/r/${table1.room}`);
    assert.equal(seated1[d.seat], d.path === '/hook/ann' ? ann.id : cat.id);
  }
  await sleep(2000);
  assert.equal(delivered().length, hooked1.length, 'each webhook once');
  assert.equal(pushes.got.slice(pushesBefore).filter((g) => g.status === 201).length, 0, 'no push sent again after the restart');

  // Past the deadline: round 1 is settled, round 2 made, and its players told once each.
  fs.writeFileSync(clockFile, String(HOUR + 60000));
  const t2 = await until(async () => {
    const t = (await call(server, 'GET', `/api/tournaments/${id}`)).body;
    return t.round === 2 && t.rounds[1]?.tables.every((x) => x.bye || x.room) ? t : null;
  }, 'round 2 after the deadline', 30000);
  const table2 = t2.rounds[1].tables.find((x) => !x.bye);
  const hooked2 = table2.players.filter((p) => hookOf[p]);
  const pushed2 = table2.players.filter((p) => subs.has(p));
  await waitFor(() => delivered().filter((d) => d.room === table2.room).length === hooked2.length &&
    newTables().filter((m) => m.room === table2.room).length === pushed2.length, 'round 2\'s notices', 20000);
  // Once more after a restart: nothing is sent again.
  await server.stop();
  await server.start(env);
  await sleep(3000);
  const byRoom = (room) => [...delivered().filter((d) => d.room === room), ...newTables().filter((m) => m.room === room)];
  assert.equal(byRoom(table1.room).length, hooked1.length + pushed1.length);
  assert.equal(byRoom(table2.room).length, hooked2.length + pushed2.length);
  // Every delivery once (a player with both targets gets the same id by each).
  const ids = [...delivered().map((d) => `hook ${d.id}`), ...newTables().map((m) => `push ${m.id}`)];
  assert.equal(new Set(ids).size, ids.length, 'every notice once');
  // A push subscription is also its seat's in the table's room: the first turn (seat 0's) of
  // every table where seat 0 has one is pushed as in any turn-based room.
  const yourTurns = () => pushes.got.filter((g) => g.status === 201).map((g) => {
    const sub = [...subs.values()].find((x) => g.url === new URL(x.json.endpoint).pathname);
    return decrypt(sub.ecdh, sub.auth, g.body);
  }).filter((m) => m.event === 'your_turn');
  const firstTurns = [table1, table2].filter((x) => subs.has(x.players[0]));
  assert.ok(firstTurns.length > 0, 'the schedule seats a subscriber first at some table');
  for (const x of firstTurns) assert.ok(yourTurns().some((m) => m.room === x.room && m.seat === 0), `your_turn in ${x.room}`);
  // The bye is told nothing.
  const bye = t2.rounds[1].tables.find((x) => x.bye)?.players[0];
  if (bye) assert.ok(!byRoom(table2.room).some((d) => table2.players[d.seat] === bye));
});
