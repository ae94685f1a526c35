// The cluster tests' tools (docs/cluster.md): a real cluster from scripts/cluster.sh (throwaway
// PostgreSQL, N real nodes, real HAProxy, all on 127.0.0.1), psql for the stored logs, and
// players that behave like the web client: they reconnect after any close (4302 at once),
// retry a refused upgrade, take their seat back by token, and play random legal moves.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { applyPatch } from '../../web-client/js/game/patch.js';

export const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const buildDir = path.resolve(repo, process.env.CARC_BUILD_DIR ?? 'build');
export const cli = path.join(buildDir, 'carcassonne');
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

export class Cluster {
  static async up(nodes, { leaseMs = 2000 } = {}) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'carc-cluster-'));
    const env = { ...process.env, CARC_BUILD_DIR: buildDir, CARC_LEASE_MS: String(leaseMs), CARC_CLUSTER_WATCH_PID: String(process.pid) };
    // Port 0: the script picks the front's port when HAProxy starts, below the ephemeral range
    // (a port picked here was free 10 s earlier, before PostgreSQL and the nodes started, and
    // the connections of the tests beside may take it by then).
    const r = spawnSync('bash', [path.join(repo, 'scripts/cluster.sh'), 'up', '--nodes', String(nodes), '--port', '0', '--dir', dir],
      { env, encoding: 'utf8', timeout: 120000 });
    const frontPort = () => { try { return Number(fs.readFileSync(path.join(dir, 'front_port'), 'utf8')); } catch { return 0; } };
    const c = new Cluster(dir, frontPort(), env);
    if (r.status !== 0) {
      const why = r.error ? `${r.error.message} ` : r.signal ? `killed by ${r.signal} ` : '';
      const logs = ['haproxy.log', 'pg.log'].map((f) => { try { return `--- ${f}:\n${fs.readFileSync(path.join(dir, f), 'utf8').slice(-1500)}`; } catch { return ''; } }).join('\n');
      c.down();
      throw new Error(`cluster.sh up failed: ${why}${r.stderr}${r.stdout}\n${logs}`);
    }
    return c;
  }

  constructor(dir, port, env) {
    this.dir = dir;
    this.port = port;
    this.front = `http://127.0.0.1:${port}`;
    this.env = env;
  }

  get dbUrl() { return fs.readFileSync(path.join(this.dir, 'db_url'), 'utf8').trim(); }

  /** The D/pids lines: {postgres, haproxy, nodes: [{name, pid, port}]}. */
  pids() {
    const out = { nodes: [] };
    for (const line of fs.readFileSync(path.join(this.dir, 'pids'), 'utf8').split('\n')) {
      const f = line.trim().split(/\s+/);
      if (f[0] === 'postgres') out.postgres = Number(f[1]);
      else if (f[0] === 'haproxy') out.haproxy = Number(f[1]);
      else if (f[0] === 'node') out.nodes.push({ name: f[1], pid: Number(f[2]), port: Number(f[3]) });
    }
    return out;
  }

  node(name) { return this.pids().nodes.find((n) => n.name === name); }

  /** Starts node `name` again (a new process, a new node id) and adds it to HAProxy; `dbUrl`: its own way to the database. */
  addNode(name, dbUrl = '') {
    const env = dbUrl ? { ...this.env, CARC_NODE_DB: dbUrl } : this.env;
    execFileSync('bash', [path.join(repo, 'scripts/cluster.sh'), 'node', '--dir', this.dir, name], { env, stdio: 'pipe', timeout: 60000 });
  }

  pg(cmd) {
    execFileSync('bash', [path.join(repo, 'scripts/pg-throwaway.sh'), cmd, this.dir], { env: this.env, stdio: 'pipe', timeout: 60000 });
  }

  /** Rows of a query, each an array of strings. */
  sql(query) {
    const out = execFileSync('psql', ['-X', '-q', '-tA', '-F', '\t', this.dbUrl, '-c', query], { encoding: 'utf8', maxBuffer: 1 << 28 });
    return out.split('\n').filter((l) => l.length).map((l) => l.split('\t'));
  }

  log(name) {
    try { return fs.readFileSync(path.join(this.dir, `${name}.log`), 'utf8'); } catch { return ''; }
  }

  down() {
    spawnSync('bash', [path.join(repo, 'scripts/cluster.sh'), 'down', '--dir', this.dir], { env: this.env, stdio: 'pipe', timeout: 60000 });
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

export async function createRoom(front, expansions = []) {
  const body = JSON.stringify(expansions.length ? { expansions } : {});
  for (let i = 0; i < 50; i++) {
    try {
      const res = await fetch(`${front}/api/rooms`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
      if (res.status === 201) return (await res.json()).room;
    } catch { /* a node going down: try again */ }
    await sleep(200);
  }
  throw new Error('no room could be created');
}

/** A seeded random source (the same game plan per seed). */
export function rng(seed) {
  let s = seed >>> 0;
  return (n) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return (s >>> 8) % n;
  };
}

/**
 * One player of a room, over a real WebSocket through the front. Keeps the public state by
 * applying patches; plays its turns with random legal moves; reconnects whenever its
 * connection closes, goes silent, or the upgrade is refused.
 */
export class Player {
  constructor(base, room, name, seed, { silenceMs = 2500, thinkMs = 120 } = {}) {
    Object.assign(this, { base, room, name, silenceMs, thinkMs });
    this.rnd = rng(seed);
    this.state = null;
    this.version = 0;
    this.seat = null;
    this.token = null;
    this.sock = null;
    this.stopped = false;
    this.placed = new Map(); // "x,y" -> "tile,rotation": every placement this client saw broadcast
    this.conflicts = [];     // a cell seen with two different tiles: two histories (must stay empty)
    this.closes = [];        // close codes seen
    this.errors = [];        // error codes received
    this.acceptedAt = [];    // [unix ms, move count] each time the board grew
    this.trace = null;       // when an array: [unix ms, 'welcome'|'state'|'patch'|'error'|'close', version or code]
    this.connects = 0;
    this.sentFor = -1;       // the version a play was sent for
    this.lastMessage = Date.now();
    this.onChange = () => {};
    Player.all.add(this);
  }

  static all = new Set();
  static stopAll() { for (const p of Player.all) p.stop(); Player.all.clear(); }

  get finished() { return this.state?.phase === 'finished'; }

  start() {
    this.connect();
    this.watchdog = setInterval(() => {
      // A node paused (SIGSTOP) keeps its sockets open: silence while the game runs means reconnect.
      if (this.sock && this.state?.phase === 'playing' && Date.now() - this.lastMessage > this.silenceMs) this.drop();
    }, 250);
    this.watchdog.unref();
  }

  stop() {
    this.stopped = true;
    clearInterval(this.watchdog);
    this.sock?.destroy();
  }

  drop() {
    const s = this.sock;
    this.sock = null;
    s?.destroy();
    if (!this.stopped) setTimeout(() => this.connect(), 50);
  }

  connect() {
    if (this.stopped || this.sock) return;
    const url = new URL(`/ws/${this.room}`, this.base);
    const key = crypto.randomBytes(16).toString('base64');
    const req = http.request({
      host: url.hostname, port: url.port, path: url.pathname,
      headers: { Connection: 'Upgrade', Upgrade: 'websocket', 'Sec-WebSocket-Version': '13', 'Sec-WebSocket-Key': key },
    });
    const retry = (ms) => { if (!this.stopped) setTimeout(() => this.connect(), ms); };
    req.setTimeout(3000, () => req.destroy());
    req.on('upgrade', (res, socket, head) => {
      this.sock = socket;
      this.buf = head?.length ? Buffer.from(head) : Buffer.alloc(0);
      this.connects++;
      this.lastMessage = Date.now();
      this.sentFor = -1;
      this.thinking = -1;
      socket.setNoDelay(true);
      socket.on('data', (d) => { this.buf = Buffer.concat([this.buf, d]); this.parse(socket); });
      socket.on('close', () => {
        if (this.sock === socket) { this.trace?.push([Date.now(), 'close', 'tcp']); this.sock = null; retry(100); }
      });
      socket.on('error', () => {});
      this.send(this.token ? { type: 'join', token: this.token } : { type: 'join', name: this.name });
      this.parse(socket);
    });
    req.on('response', (res) => { res.resume(); retry(res.statusCode === 503 ? 200 : 500); });
    req.on('error', () => retry(200));
    req.end();
  }

  parse(socket) {
    while (this.sock === socket && this.buf.length >= 2) {
      const op = this.buf[0] & 0x0f;
      let len = this.buf[1] & 0x7f;
      let off = 2;
      if (len === 126) { if (this.buf.length < 4) return; len = this.buf.readUInt16BE(2); off = 4; }
      else if (len === 127) { if (this.buf.length < 10) return; len = Number(this.buf.readBigUInt64BE(2)); off = 10; }
      if (this.buf.length < off + len) return;
      const payload = this.buf.subarray(off, off + len);
      this.buf = this.buf.subarray(off + len);
      this.lastMessage = Date.now();
      if (op === 0x1) this.receive(JSON.parse(payload.toString('utf8')));
      else if (op === 0x9) this.frame(0xa, payload);
      else if (op === 0x8) {
        this.closes.push(payload.length >= 2 ? payload.readUInt16BE(0) : 1005);
        this.trace?.push([Date.now(), 'close', this.closes.at(-1)]);
        this.drop();
      }
    }
  }

  receive(msg) {
    this.trace?.push([Date.now(), msg.type, msg.type === 'error' ? msg.code : msg.version]);
    if (msg.type === 'welcome' || msg.type === 'state') {
      if (msg.type === 'welcome' && msg.token) { this.token = msg.token; this.seat = msg.seat; }
      this.state = msg.state;
      this.version = msg.version;
    } else if (msg.type === 'patch' && this.state) {
      if (msg.version !== this.version + 1) { this.send({ type: 'resync' }); return; }
      this.state = applyPatch(this.state, msg.ops);
      this.version = msg.version;
    } else if (msg.type === 'error') {
      this.errors.push(msg.code);
      this.sentFor = -1; // try again on the next state (unavailable, stale_version...)
      this.thinking = -1;
      if (msg.code === 'unavailable' || msg.code === 'stale_version') setTimeout(() => this.act(), 200);
      return;
    } else {
      return;
    }
    this.see();
    this.act();
    this.onChange(this);
  }

  see() {
    const before = this.placed.size;
    for (const t of this.state.board ?? []) {
      const k = `${t.x},${t.y}`;
      const v = `${t.tile},${t.rotation}`;
      const had = this.placed.get(k);
      if (had === undefined) this.placed.set(k, v);
      else if (had !== v) this.conflicts.push(`${k}: ${had} then ${v}`);
    }
    if (this.placed.size > before) this.acceptedAt.push([Date.now(), this.placed.size]);
  }

  act() {
    const s = this.state;
    if (!this.sock || !s || this.hold) return;
    if (s.phase === 'lobby' && s.players?.[0]?.seat === this.seat && this.seat === 0 && this.expected && s.players.length >= this.expected && this.sentFor !== this.version) {
      this.sentFor = this.version;
      this.send({ type: 'start' });
      return;
    }
    if (s.phase !== 'playing' || s.turn?.seat !== this.seat || this.sentFor === this.version) return;
    if (this.thinkMs > 0 && this.thinking !== this.version) {
      // Think a moment (games last long enough for a node to die in the middle of them).
      this.thinking = this.version;
      setTimeout(() => this.play(this.version), this.thinkMs * (0.5 + this.rnd(100) / 100));
      return;
    }
    this.play(this.version);
  }

  play(version) {
    const s = this.state;
    if (!this.sock || !s || this.version !== version || s.phase !== 'playing' || s.turn?.seat !== this.seat || this.sentFor === this.version) return;
    const legal = s.turn.legal;
    if (!legal?.length) return;
    const l = legal[this.rnd(legal.length)];
    const me = s.players.find((p) => p.seat === this.seat);
    const meeple = me?.meeples && l.meeples.length && this.rnd(3) < 2 ? l.meeples[this.rnd(l.meeples.length)] : null;
    const play = { type: 'play', version: this.version, x: l.x, y: l.y, rotation: l.rotation, meeple };
    // Expansions: a special figure where the state offers one, now and then (a builder
    // whenever it may go, so that builders' extra parts happen).
    for (const [figure, ports] of Object.entries(l.figures ?? {})) {
      if (ports.length && (figure === 'builder' || this.rnd(3) === 0)) Object.assign(play, { meeple: ports[0], figure });
    }
    this.sentFor = this.version;
    this.send(play);
  }

  frame(op, payload) {
    if (!this.sock) return;
    const mask = crypto.randomBytes(4);
    const n = payload.length;
    const head = n < 126 ? Buffer.from([0x80 | op, 0x80 | n]) : Buffer.concat([Buffer.from([0x80 | op, 0x80 | 126]), Buffer.from([n >> 8, n & 0xff])]);
    const body = Buffer.from(payload);
    for (let i = 0; i < n; i++) body[i] ^= mask[i % 4];
    this.sock.write(Buffer.concat([head, mask, body]));
  }

  send(obj) { this.frame(0x1, Buffer.from(JSON.stringify(obj), 'utf8')); }
}

/**
 * A TCP relay on 127.0.0.1 to `upstreamPort` (a node's way to PostgreSQL), in a process of
 * its own (relay.mjs). freeze() stops it (SIGSTOP: nothing forwarded, nothing closed, a
 * half-open network); thaw() lets it flow again (SIGCONT).
 */
export async function relay(upstreamPort) {
  const p = spawn(process.execPath, [path.join(repo, 'tests/cluster/relay.mjs'), String(upstreamPort)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise((resolve, reject) => {
    p.stdout.once('data', (d) => resolve(Number(String(d).trim())));
    p.once('exit', (code) => reject(new Error(`relay exited (${code})`)));
  });
  return {
    port,
    freeze() { p.kill('SIGSTOP'); },
    thaw() { p.kill('SIGCONT'); },
    close() { p.kill('SIGCONT'); p.kill('SIGKILL'); },
  };
}

/** A room of `n` players through the front, started; resolves once the game runs. */
export async function playingRoom(front, n, seed, expansions = []) {
  const room = await createRoom(front, expansions);
  const players = [];
  for (let i = 0; i < n; i++) {
    const p = new Player(front, room, `P${i}`, seed * 10 + i);
    p.expected = n;
    players.push(p);
    p.start();
    // Seats in order: the next joins once this one holds its seat.
    await waitFor(() => p.seat !== null, `seat ${i} of ${room}`, 20000);
  }
  players[0].act();
  await waitFor(() => players.every((p) => p.state?.phase === 'playing'), `room ${room} to start`, 20000);
  return { room, players };
}

/**
 * SIGSTOP, then waits until every thread of the process is stopped. kill() returns once the
 * signal is queued; each thread stops only when it next runs, which on a busy machine can be
 * tens of milliseconds later, time in which the process still reads, stores and sends.
 */
export async function pause(pid) {
  const t0 = Date.now();
  process.kill(pid, 'SIGSTOP');
  const stopped = () => {
    try {
      return fs.readdirSync(`/proc/${pid}/task`).every((t) => {
        const stat = fs.readFileSync(`/proc/${pid}/task/${t}/stat`, 'utf8');
        return stat.slice(stat.lastIndexOf(')') + 2)[0] === 'T';
      });
    } catch { return false; } // a thread that ended while we looked: look again
  };
  await waitFor(stopped, `process ${pid} to stop`, 10000);
  return Date.now() - t0; // milliseconds until every thread was seen stopped (polled every 50)
}

/** Resolves once value() has stayed the same for `ms` (checked every 50 ms). */
export async function settled(value, ms) {
  let last = value();
  let since = Date.now();
  while (Date.now() - since < ms) {
    await sleep(50);
    const now = value();
    if (now !== last) { last = now; since = Date.now(); }
  }
}

export async function waitFor(pred, what, ms = 30000) {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

/** The stored log: room -> [{seq, payload}], in seq order. */
export function storedLogs(cluster, rooms) {
  const list = rooms.map((r) => `'${r}'`).join(',');
  const logs = new Map(rooms.map((r) => [r, []]));
  for (const [room, seq, payload] of cluster.sql(`SELECT room, seq, payload FROM actions WHERE room IN (${list}) ORDER BY room, seq`)) {
    logs.get(room).push({ seq: Number(seq), payload });
  }
  return logs;
}

/** Placements of a log's moves: "x,y" -> "tile,rotation" (compact payloads "M v gv index seat time tile,x,y,rot[,meeple]"). */
export function loggedPlacements(log) {
  const out = new Map();
  for (const { payload } of log) {
    if (!payload.startsWith('M ')) continue;
    const move = payload.split(' ')[6].split(',');
    if (move[1] === 'discard') continue;
    out.set(`${move[1]},${move[2]}`, `${move[0]},${move[3]}`);
  }
  return out;
}

/** GET through the front, again while it answers 503 (the room moving between nodes). */
export async function getJson(url, ms = 15000) {
  const end = Date.now() + ms;
  for (;;) {
    const res = await fetch(url);
    if (res.status !== 503 || Date.now() > end) return { status: res.status, body: res.status === 200 ? await res.json() : await res.text() };
    await sleep(Number(res.headers.get('retry-after') ?? 1) * 250);
  }
}

/** Final scores from replaying a record with the engine's CLI. */
export function replayScores(record) {
  const out = execFileSync(cli, ['replay', '-'], { input: JSON.stringify(record), encoding: 'utf8' });
  return JSON.parse(out).final_scores;
}

export function percentile(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(p * s.length))] : NaN;
}
