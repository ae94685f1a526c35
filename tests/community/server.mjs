// A real carcassonne-server-test on 127.0.0.1 for the ratings tests (docs/community.md#ratings):
// started on a data folder (kept across restarts), players that bind their seats to player
// keys like the web client does, and the ratings API.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Player, createRoom, freePort, sleep, waitFor } from '../cluster/cluster.mjs';

export { Player, sleep, waitFor };
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const buildDir = path.resolve(repo, process.env.CARC_BUILD_DIR ?? 'build');
export const serverBin = path.join(buildDir, 'carcassonne-server-test');

export class Server {
  /** `args`: more flags for the server (`--rated-play signed-in`, ...). */
  constructor({ args = [] } = {}) {
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'carc-ratings-'));
    this.log = '';
    this.args = args;
    this.binds = []; // every answer of POST /api/keys/seats, in order
    this.keyOf = new Map(); // public id -> the player key bind() made for it
  }

  /** Starts it (env: test hooks such as CARC_CRASH_RATINGS); resolves once /healthz answers. */
  async start(env = {}) {
    this.port ??= await freePort();
    this.base = `http://127.0.0.1:${this.port}`;
    this.proc = spawn(serverBin, ['--port', String(this.port), '--bind', '127.0.0.1', '--data-dir', this.dir,
      '--web-root', path.join(repo, 'web-client'), '--bot-threads', '1', '--analyses', '0', ...this.args],
    { env: { ...process.env, CARC_TEST_SEED: '4242', ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    this.exit = new Promise((resolve) => this.proc.on('exit', (code, signal) => resolve({ code, signal })));
    this.proc.stderr.on('data', (d) => { this.log += d.toString(); });
    const end = Date.now() + 20000;
    for (;;) {
      try {
        if ((await fetch(`${this.base}/healthz`)).ok) return;
      } catch { /* not yet */ }
      if (this.proc.exitCode !== null || Date.now() > end) throw new Error(`the server did not start:\n${this.log}`);
      await sleep(50);
    }
  }

  async kill() {
    if (this.proc.exitCode === null) this.proc.kill('SIGKILL');
    return this.exit;
  }

  async stop() {
    if (this.proc && this.proc.exitCode === null) {
      this.proc.kill('SIGTERM');
      await this.exit;
    }
  }

  remove() { fs.rmSync(this.dir, { recursive: true, force: true }); }

  async json(pathname) {
    const res = await fetch(this.base + pathname);
    return { status: res.status, body: await res.json() };
  }

  /** A new player key, and its seat in `room` shown to it: answers the public id. */
  async bind(room, token) {
    const made = await fetch(`${this.base}/api/keys`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
    const { key } = await made.json();
    const res = await fetch(`${this.base}/api/keys/seats`, {
      method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ room, token }),
    });
    if (res.status !== 200) throw new Error(`attach: ${res.status} ${await res.text()}`);
    const body = await res.json();
    this.binds.push(body);
    this.keyOf.set(body.player, key);
    return body.player;
  }

  /**
   * A room of `n` players, each seat bound to a new key (unless `bind` is false), with
   * `bots` computer players and the host's `settings`, started.
   * Players keep the `rated` message they get. Resolves with the room, players and ids.
   */
  async game(n, { bind = true, bots = 0, settings = null } = {}) {
    const room = await createRoom(this.base);
    const players = [];
    const ids = [];
    for (let i = 0; i < n; i++) {
      const p = new Player(this.base, room, `P${i}`, 100 + i, { thinkMs: 0, silenceMs: 60000 });
      const receive = p.receive.bind(p);
      p.receive = (msg) => { if (msg.type === 'rated') p.rated = msg; receive(msg); };
      p.expected = n + bots;
      p.hold = true; // nobody starts until the seats are bound
      players.push(p);
      p.start();
      await waitFor(() => p.seat !== null && p.token, `seat ${i}`, 20000);
      ids.push(bind ? await this.bind(room, p.token) : null);
    }
    for (let b = 0; b < bots; b++) {
      players[0].send({ type: 'add_bot', level: 'easy' });
      await waitFor(() => players[0].state?.players?.length === n + b + 1, 'a computer player', 10000);
    }
    if (settings) {
      players[0].send({ type: 'settings', ...settings });
      await waitFor(() => Object.entries(settings).every(([k, v]) => players[0].state?.settings?.[k] === v), 'the settings', 10000);
    }
    for (const p of players) p.hold = false;
    players[0].act();
    await waitFor(() => players.every((p) => p.state?.phase !== 'lobby'), `room ${room} to start`, 20000);
    return { room, players, ids };
  }
}

/** Polls GET /api/players/<id> until `ok(body)`; answers the body. */
export async function playerWhen(server, id, ok, what, ms = 20000) {
  let last;
  const end = Date.now() + ms;
  for (;;) {
    last = await server.json(`/api/players/${id}`).catch(() => null);
    if (last?.status === 200 && ok(last.body)) return last.body;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(last)}`);
    await sleep(100);
  }
}

/** One JSON request to `server` with the player key as bearer: answers {status, body}. */
export async function call(server, method, pathname, { key, body } = {}) {
  const headers = { 'Content-Type': 'application/json' };
  if (key) headers.Authorization = `Bearer ${key}`;
  const res = await fetch(server.base + pathname, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

/** Polls `get` (async) until it answers something; answers that. */
export async function until(get, what, ms) {
  const end = Date.now() + ms;
  for (;;) {
    const got = await get();
    if (got) return got;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

/** A new player key and its public id. */
export async function newPlayer(server) {
  const { body } = await call(server, 'POST', '/api/keys', { body: {} });
  if (!body.key) throw new Error(`no key: ${JSON.stringify(body)}`);
  const me = await call(server, 'GET', '/api/me', { key: body.key });
  return { key: body.key, id: me.body.player_id };
}

/**
 * A Server for a test file's tests: made now, started before them (with `env`, test hooks)
 * and stopped and removed after them, its log printed with CARC_TEST_LOG=1.
 */
export function serverForTests({ args = [], env = {} } = {}) {
  const server = new Server({ args });
  before(async () => { await server.start(env); });
  after(async () => {
    if (process.env.CARC_TEST_LOG) console.log(server.log);
    Player.stopAll();
    await server.stop();
    server.remove();
  });
  return server;
}
