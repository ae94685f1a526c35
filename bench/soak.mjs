// Soak test: many rooms over real WebSockets against the real server binary, while clients
// disconnect and reconnect at random, send garbage frames, stop reading for a while, and
// the server is SIGKILLed and restarted. At the end, with the chaos stopped:
//   - no accepted move is lost: every tile any client ever saw on a board is in the
//     room's record, at the same cell with the same rotation;
//   - every client's state (built from its patches) equals the server's (a resync);
//   - the server's RSS stayed under --max-rss-mb; its curve is printed;
//   - a flooding client (another address, 127.0.0.2, over 8 keep-alive connections) that
//     asks for unknown rooms as fast as it can all along got only 404 or 429, never 5xx.
// Only 127.0.0.1; stops by itself. Usage: node bench/soak.mjs [--rooms N] [--duration S]
// [--kills N] [--server BIN] [--seed N] [--max-rss-mb N]   (bench/soak.sh wraps it)
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { applyPatch, deepEqual } from '../web-client/js/game/patch.js';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const opt = { rooms: 200, duration: 600, kills: 5, server: 'build/carcassonne-server', seed: 1, 'max-rss-mb': 1024,
  'stall-seconds': 7 };
for (let i = 2; i < process.argv.length; i += 2) {
  const k = process.argv[i].replace(/^--/, '');
  if (!(k in opt)) throw new Error(`unknown option ${process.argv[i]}`);
  opt[k] = k === 'server' ? process.argv[i + 1] : Number(process.argv[i + 1]);
}

// A seeded PRNG (mulberry32), so a run's chaos can be repeated.
let rngState = opt.seed >>> 0;
function rand() {
  rngState = (rngState + 0x6d2b79f5) >>> 0;
  let t = rngState;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = (a) => a[Math.floor(rand() * a.length)];
const between = (lo, hi) => lo + rand() * (hi - lo);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const stats = { plays: 0, errors: {}, reconnects: 0, garbage: 0, paused: 0, dropped: 0, kills: 0, roomsCreated: 0, finished: 0 };
const failures = [];
const fail = (msg) => { if (failures.length < 50) failures.push(msg); };

// ---- the server ----
const server = { proc: null, port: 0, dir: fs.mkdtempSync(path.join(os.tmpdir(), 'carc-soak-')), expectedExit: false, up: false };

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
  });
}

async function startServer() {
  const bin = path.resolve(repo, opt.server);
  const p = spawn(bin, ['--port', String(server.port), '--bind', '127.0.0.1', '--data-dir', path.join(server.dir, 'data'),
    '--web-root', path.join(repo, 'web-client'), '--log-level', 'warn', '--room-rate', '0', '--ws-rate', '0',
    '--max-rooms', '100000'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  p.stderr.on('data', (d) => { err = (err + d).slice(-4000); });
  p.on('exit', (code, sig) => {
    server.up = false;
    if (!server.expectedExit) fail(`the server exited by itself (code ${code}, signal ${sig}):\n${err}`);
  });
  server.proc = p;
  server.expectedExit = false;
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${server.port}/healthz`)).status === 200) { server.up = true; return; }
    } catch { /* not yet */ }
    await sleep(50);
  }
  throw new Error(`the server did not start:\n${err}`);
}

async function killServer(signal = 'SIGKILL') {
  if (!server.proc || server.proc.exitCode !== null || server.proc.signalCode !== null) return;
  server.expectedExit = true;
  server.up = false;
  const exited = new Promise((r) => server.proc.once('exit', r));
  server.proc.kill(signal);
  await exited;
}

// A storage stall: another process holds SQLite's write lock (as a backup tool might) for
// `seconds`. The writer waits its busy timeout (5 s), then refuses that time's moves as
// unavailable; none may be lost, and play resumes by itself.
async function stallStorage(seconds) {
  const p = spawn('sqlite3', [path.join(server.dir, 'data', 'carcassonne.db')], { stdio: ['pipe', 'ignore', 'pipe'] });
  let err = '';
  p.stderr.on('data', (d) => { err += d; });
  p.stdin.write('.timeout 10000\nBEGIN IMMEDIATE;\n');
  await sleep(seconds * 1000);
  p.stdin.end('ROLLBACK;\n.quit\n');
  await new Promise((r) => p.once('exit', r));
  if (err) fail(`the storage stall could not hold the lock: ${err}`);
}

function rssMb() {
  try {
    const m = fs.readFileSync(`/proc/${server.proc.pid}/status`, 'utf8').match(/VmRSS:\s+(\d+) kB/);
    return m ? Number(m[1]) / 1024 : NaN;
  } catch { return NaN; }
}

async function metric(name) {
  try {
    const body = await (await fetch(`http://127.0.0.1:${server.port}/metrics`)).text();
    const line = body.split('\n').find((l) => l.startsWith(`${name} `));
    return line ? Number(line.split(' ')[1]) : NaN;
  } catch { return NaN; }
}

// ---- rooms and clients ----
const rooms = [];
let calm = false;    // chaos and play stopped: the final check
let stopping = false;

class Client {
  constructor(room, index) {
    this.room = room;
    this.index = index;
    this.name = `P${room.n}-${index}`;
    this.token = null;
    this.seat = null;
    this.doc = null;
    this.version = 0;
    this.ws = null;
    this.open = false;
    this.playing = false;   // a play is on its way
    this.lastFrame = Date.now();
  }

  connect() {
    if (stopping) return;
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws/${this.room.id}`, { perMessageDeflate: false, handshakeTimeout: 5000 });
    this.ws = ws;
    this.fakeJoins = 0;     // garbage joins with a made-up token on this connection, not yet refused
    ws.on('open', () => {
      this.open = true;
      ws.send(JSON.stringify(this.token ? { type: 'join', token: this.token } : { type: 'join', name: this.name }));
    });
    ws.on('message', (data, binary) => { if (!binary) this.onFrame(String(data)); });
    ws.on('unexpected-response', (_req, res) => {
      if (res.statusCode === 404 && this.token) fail(`room ${this.room.id}: upgrade answered 404 after ${this.name} had a seat`);
      ws.terminate();
    });
    ws.on('error', () => {});
    ws.on('close', () => {
      this.open = false;
      this.playing = false;
      if (this.ws === ws && !stopping) setTimeout(() => this.connect(), between(100, calm ? 500 : 2000));
    });
  }

  send(obj) { if (this.open) this.ws.send(typeof obj === 'string' ? obj : JSON.stringify(obj)); }

  onFrame(text) {
    this.lastFrame = Date.now();
    const msg = JSON.parse(text);
    if (msg.type === 'welcome') {
      if (msg.token) this.token = msg.token;
      this.seat = msg.seat;
      this.startSent = false;
      this.setState(msg.state, msg.version);
    } else if (msg.type === 'state') {
      if (this.resyncWanted) this.resyncWanted(msg);
      this.setState(msg.state, msg.version);
    } else if (msg.type === 'patch') {
      if (this.doc === null || msg.version <= this.version) return;
      if (msg.version !== this.version + 1) return this.send({ type: 'resync' });
      try {
        this.setState(applyPatch(this.doc, msg.ops), msg.version);
      } catch (e) {
        fail(`room ${this.room.id}: ${this.name} could not apply patch ${msg.version}: ${e.message}`);
        this.send({ type: 'resync' });
      }
    } else if (msg.type === 'error') {
      stats.errors[msg.code] = (stats.errors[msg.code] ?? 0) + 1;
      // A made-up token is refused (answers come in order); a real one never is.
      if (msg.code === 'bad_token' && this.fakeJoins > 0) this.fakeJoins--;
      else if (msg.code === 'bad_token') fail(`room ${this.room.id}: ${this.name}'s seat token was refused`);
      this.playing = false;
      // Storage stalled (refused, nothing applied): try again a little later.
      if (msg.code === 'unavailable') setTimeout(() => { if (!stopping && !calm) this.act(); }, 500);
    }
  }

  setState(doc, version) {
    if (version !== this.version) this.playing = false;  // our play was answered (or overtaken)
    this.doc = doc;
    this.version = version;
    this.room.observe(doc, this);
    this.act();
  }

  act() {
    const d = this.doc;
    if (calm || !d || !this.open) return;
    if (d.phase === 'lobby' && this.seat === 0 && d.players.length >= this.room.size) {
      if (!this.startSent) { this.startSent = true; setTimeout(() => this.send({ type: 'start' }), between(50, 300)); }
      return;
    }
    if (d.phase !== 'playing' || !d.turn || d.turn.seat !== this.seat || this.playing) return;
    const version = this.version;
    this.playing = true;
    setTimeout(() => {
      if (calm || !this.open || this.version !== version) { this.playing = false; return this.act(); }
      const legal = d.turn.legal ?? [];
      const choice = legal.length ? pick(legal) : null;
      if (!choice) { this.playing = false; return; }
      const meeple = choice.meeples?.length && rand() < 0.4 ? pick(choice.meeples) : null;
      stats.plays++;
      this.send({ type: 'play', version, x: choice.x, y: choice.y, rotation: choice.rotation, meeple });
    }, between(100, 900));
  }

  // One random misbehaviour.
  chaos() {
    if (calm || !this.open) return;
    const r = rand();
    if (r < 0.35) {
      stats.reconnects++;
      if (rand() < 0.5) this.ws.terminate(); else this.ws.close();
    } else if (r < 0.7) {
      stats.garbage++;
      const junk = [
        () => this.ws.send(Buffer.from(Array.from({ length: 1 + Math.floor(rand() * 200) }, () => Math.floor(rand() * 256)))),
        () => this.send('{"type":"play","version":'),
        () => this.send('x'.repeat(5000)),
        () => this.send({ type: 'nope', x: [1, 2, 3] }),
        () => this.send({ type: 'play', version: this.version, x: 1e9, y: -1e9, rotation: 45, meeple: 'Q' }),
        () => { if (this.open) this.fakeJoins++; this.send({ type: 'join', token: 'A'.repeat(43) }); },
        () => this.send('\u0000\u0001\u0002'),
      ];
      pick(junk)();
    } else {
      // Stops reading for a while: frames pile up on the server until it drops us or we resume.
      stats.paused++;
      const sock = this.ws._socket;
      if (!sock) return;
      sock.pause();
      // Mostly short; sometimes past the server's idle timeout (it stops getting pongs).
      setTimeout(() => sock.resume(), rand() < 0.1 ? 70000 : between(2000, 15000));
    }
  }
}

class Room {
  constructor(n, id, size) {
    this.n = n;
    this.id = id;
    this.size = size;
    this.clients = [];
    this.seen = new Map();  // "x,y" -> "tile/rotation": every tile any client ever saw on the board
    this.finished = false;
  }

  observe(doc, client) {
    for (const t of doc.board ?? []) {
      const key = `${t.x},${t.y}`;
      const what = `${t.tile}/${t.rotation}`;
      const before = this.seen.get(key);
      if (before === undefined) this.seen.set(key, what);
      else if (before !== what) fail(`room ${this.id}: cell ${key} was ${before}, ${client.name} now sees ${what} (a move was lost and replayed differently)`);
    }
    if (doc.phase === 'finished' && !this.finished) {
      this.finished = true;
      stats.finished++;
      if (!calm) replaceRoom(this);
    }
  }
}

async function createRoom() {
  for (let attempt = 0; attempt < 100 && !stopping; attempt++) {
    try {
      const res = await fetch(`http://127.0.0.1:${server.port}/api/rooms`, { method: 'POST', body: '{}' });
      if (res.status === 201) return (await res.json()).room;
    } catch { /* the server is restarting */ }
    await sleep(200);
  }
  throw new Error('could not create a room');
}

async function openRoom() {
  const id = await createRoom();
  const room = new Room(rooms.length, id, 2 + Math.floor(rand() * 3));
  rooms.push(room);
  stats.roomsCreated++;
  for (let i = 0; i < room.size; i++) {
    const c = new Client(room, i);
    room.clients.push(c);
    // The host first, so it gets seat 0; the others shortly after.
    setTimeout(() => c.connect(), i === 0 ? 0 : 300 + i * 100);
  }
  return room;
}

function replaceRoom() {
  if (stopping || calm) return;
  openRoom().catch((e) => fail(`opening a room: ${e.message}`));
}

// ---- the flood: one address asking for rooms that do not exist ----
const flood = { answers: {}, broken: 0, running: true };
function floodLoop() {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8, localAddress: '127.0.0.2' });
  const one = () => new Promise((resolve) => {
    const id = Array.from({ length: 16 }, () => pick('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789')).join('');
    const req = http.get({ host: '127.0.0.1', port: server.port, path: `/api/rooms/${id}${rand() < 0.5 ? '/record' : ''}`, agent }, (res) => {
      flood.answers[res.statusCode] = (flood.answers[res.statusCode] ?? 0) + 1;
      if (res.statusCode !== 404 && res.statusCode !== 429 && (flood.answers[res.statusCode] ?? 0) <= 3) {
        fail(`the flood got ${res.statusCode} for ${id}`);
      }
      res.resume();
      res.on('end', resolve);
      res.on('error', resolve);
    });
    req.on('error', () => { flood.broken++; setTimeout(resolve, server.up ? 0 : 100); });  // a SIGKILL under way
  });
  const worker = async () => { while (flood.running && !calm) await one(); };
  return Promise.all(Array.from({ length: 8 }, worker)).finally(() => agent.destroy());
}

// ---- the run ----
async function main() {
  server.port = await freePort();
  await startServer();
  console.log(`soak: ${opt.rooms} rooms for ${opt.duration}s, ${opt.kills} SIGKILLs, server ${opt.server} on port ${server.port}`);
  const t0 = Date.now();
  const curve = [];
  for (let i = 0; i < opt.rooms; i++) { await openRoom(); if (i % 20 === 19) await sleep(50); }

  const flooding = floodLoop();
  const chaosTimer = setInterval(() => {
    for (const room of rooms) {
      if (room.finished) continue;
      for (const c of room.clients) if (rand() < 0.01) c.chaos();
    }
  }, 500);

  const sampleTimer = setInterval(async () => {
    if (!server.up) return;
    curve.push({ t: Math.round((Date.now() - t0) / 1000), rss: rssMb(), ws: await metric('carc_connections{kind="websocket"}'),
      moves: await metric('carc_moves_total') });
  }, Math.max(2000, opt.duration * 1000 / 60));

  // One storage stall at 40 % of the run, between two SIGKILLs (a restart waits for the lock too).
  let stalled = Promise.resolve();
  if (opt['stall-seconds'] > 0) {
    stalled = sleep(opt.duration * 400).then(async () => {
      const at = Math.round((Date.now() - t0) / 1000);
      await stallStorage(opt['stall-seconds']);
      console.log(`  ${at}s: storage stalled for ${opt['stall-seconds']} s (SQLite's write lock held by another process)`);
    });
  }
  const killTimes = Array.from({ length: opt.kills }, (_, i) => (opt.duration * 1000 * (i + 0.7)) / (opt.kills + 0.5));
  for (const at of killTimes) {
    await sleep(Math.max(0, t0 + at - Date.now()));
    await killServer('SIGKILL');
    stats.kills++;
    const down = Date.now();
    await sleep(between(200, 1500));
    await startServer();
    console.log(`  ${Math.round((Date.now() - t0) / 1000)}s: SIGKILL #${stats.kills}, back after ${Date.now() - down} ms`);
  }
  await sleep(Math.max(0, t0 + opt.duration * 1000 - Date.now()));
  await stalled;

  // ---- the check: no more chaos or play; everybody reconnects and settles ----
  calm = true;
  flood.running = false;
  clearInterval(chaosTimer);
  await flooding;
  for (const room of rooms) for (const c of room.clients) c.ws?._socket?.resume();
  const settleUntil = Date.now() + 60000;
  while (Date.now() < settleUntil) {
    const waiting = rooms.flatMap((r) => r.clients).filter((c) => !c.open || c.doc === null || Date.now() - c.lastFrame < 1500);
    if (waiting.length === 0) break;
    await sleep(250);
  }
  clearInterval(sampleTimer);
  const finalRss = rssMb();

  let moves = 0;
  let compared = 0;
  for (const room of rooms) {
    // No accepted move lost: the record holds every tile anyone saw.
    let record;
    try {
      const res = await fetch(`http://127.0.0.1:${server.port}/api/rooms/${room.id}/record`);
      if (res.status === 404 && room.seen.size === 0) continue;  // nobody ever played there
      record = await res.json();
    } catch (e) { fail(`room ${room.id}: no record (${e.message})`); continue; }
    const onBoard = new Map();
    for (const m of record.moves ?? []) if (m.x !== undefined) onBoard.set(`${m.x},${m.y}`, `${m.tile}/${m.rotation}`);
    moves += (record.moves ?? []).length;
    for (const [cell, what] of room.seen) {
      if (cell === '0,0') continue;  // the start tile is not a move
      if (onBoard.get(cell) !== what) fail(`room ${room.id}: a client saw ${what} at ${cell}; the record has ${onBoard.get(cell) ?? 'nothing'}`);
    }
    // Every client's state equals the server's.
    for (const c of room.clients) {
      if (!c.open || c.doc === null) { fail(`room ${room.id}: ${c.name} is not connected at the end`); continue; }
      const answer = await new Promise((resolve) => {
        const timer = setTimeout(() => resolve(null), 5000);
        c.resyncWanted = (msg) => { clearTimeout(timer); c.resyncWanted = null; resolve(msg); };
        const mine = { version: c.version, doc: c.doc };
        c.mine = mine;
        c.send({ type: 'resync' });
      });
      if (!answer) { fail(`room ${room.id}: ${c.name} got no answer to resync`); continue; }
      compared++;
      if (answer.version !== c.mine.version || !deepEqual(answer.state, c.mine.doc)) {
        fail(`room ${room.id}: ${c.name}'s state (version ${c.mine.version}) differs from the server's (version ${answer.version})`);
      }
    }
  }

  stopping = true;
  for (const room of rooms) for (const c of room.clients) c.ws?.terminate();
  const maxRss = Math.max(...curve.map((p) => p.rss).filter(Number.isFinite), finalRss);
  if (!(maxRss <= opt['max-rss-mb'])) fail(`RSS reached ${maxRss.toFixed(1)} MB (limit ${opt['max-rss-mb']} MB)`);
  await killServer('SIGTERM');
  fs.rmSync(server.dir, { recursive: true, force: true });

  console.log('\nRSS curve (MB; the server restarts at each SIGKILL):');
  const top = Math.max(maxRss, 1);
  for (const p of curve) {
    console.log(`  ${String(p.t).padStart(5)}s ${p.rss.toFixed(1).padStart(7)} MB ${'#'.repeat(Math.round((p.rss / top) * 50)).padEnd(50)} ws ${p.ws} moves ${p.moves}`);
  }
  console.log(`\nrooms ${stats.roomsCreated} (finished ${stats.finished}), clients ${rooms.reduce((n, r) => n + r.clients.length, 0)}, `
    + `plays sent ${stats.plays}, moves stored ${moves}, SIGKILLs ${stats.kills}`);
  const floodAnswers = Object.values(flood.answers).reduce((a, b) => a + b, 0);
  console.log(`flood: ${floodAnswers} answers ${JSON.stringify(flood.answers)}, ${flood.broken} requests cut by the SIGKILLs`);
  if (floodAnswers === 0) fail('the flood got no answer at all');
  console.log(`chaos: ${stats.reconnects} disconnects, ${stats.garbage} garbage frames, ${stats.paused} read pauses; `
    + `errors received ${JSON.stringify(stats.errors)}`);
  console.log(`states compared ${compared}, max RSS ${maxRss.toFixed(1)} MB, final RSS ${finalRss.toFixed(1)} MB`);
  if (failures.length) {
    console.log(`\nFAILED (${failures.length}):\n  ${failures.join('\n  ')}`);
    console.log('soak: 0 passed, 1 failed');
    process.exit(1);
  }
  console.log('soak: 1 passed, 0 failed');
  process.exit(0);
}

const watchdog = setTimeout(() => { console.log('soak: watchdog fired'); process.exit(2); }, (opt.duration + 300) * 1000);
watchdog.unref();
main().catch((e) => { console.error(e); killServer().finally(() => process.exit(1)); });
