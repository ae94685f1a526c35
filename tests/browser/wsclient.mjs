// A small WebSocket client for the tests (Node 20 has none built in): RFC 6455 text frames
// over a plain TCP connection, enough to play games against the real server from node.
// It keeps the room's state by applying the server's JSON patches with the client's own
// applier (web-client/js/game/patch.js), exactly as the page does.

import http from 'node:http';
import crypto from 'node:crypto';
import { applyPatch } from '../../web-client/js/game/patch.js';

export class WsClient {
  static connect(base, room) {
    const url = new URL(`/ws/${encodeURIComponent(room)}`, base);
    return new Promise((resolve, reject) => {
      const key = crypto.randomBytes(16).toString('base64');
      const req = http.request({
        host: url.hostname, port: url.port, path: url.pathname,
        headers: { Connection: 'Upgrade', Upgrade: 'websocket', 'Sec-WebSocket-Version': '13', 'Sec-WebSocket-Key': key },
      });
      req.on('upgrade', (res, socket, head) => {
        const want = crypto.createHash('sha1').update(`${key}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest('base64');
        if (res.headers['sec-websocket-accept'] !== want) {
          socket.destroy();
          reject(new Error('bad Sec-WebSocket-Accept'));
          return;
        }
        resolve(new WsClient(socket, head));
      });
      req.on('response', (res) => reject(new Error(`upgrade refused: HTTP ${res.statusCode}`)));
      req.on('error', reject);
      req.end();
    });
  }

  constructor(socket, head) {
    this.socket = socket;
    this.buf = head?.length ? Buffer.from(head) : Buffer.alloc(0);
    this.messages = [];
    this.waiters = [];
    this.closed = false;
    this.state = null;
    this.version = null;
    this.seat = null;
    this.token = null;
    socket.setNoDelay(true);
    socket.on('data', (d) => {
      this.buf = Buffer.concat([this.buf, d]);
      this.parse();
    });
    socket.on('close', () => {
      this.closed = true;
      this.wake();
    });
    socket.on('error', () => {});
    this.parse();
  }

  parse() {
    for (;;) {
      if (this.buf.length < 2) return;
      const op = this.buf[0] & 0x0f;
      let len = this.buf[1] & 0x7f;
      let off = 2;
      if (len === 126) {
        if (this.buf.length < 4) return;
        len = this.buf.readUInt16BE(2);
        off = 4;
      } else if (len === 127) {
        if (this.buf.length < 10) return;
        len = Number(this.buf.readBigUInt64BE(2));
        off = 10;
      }
      if (this.buf.length < off + len) return;
      const payload = this.buf.subarray(off, off + len);
      this.buf = this.buf.subarray(off + len);
      if (op === 0x1) this.receive(JSON.parse(payload.toString('utf8')));
      else if (op === 0x9) this.frame(0xa, payload); // ping -> pong
      else if (op === 0x8) this.socket.end();
    }
  }

  receive(msg) {
    if (msg.type === 'welcome') {
      this.state = msg.state;
      this.version = msg.version;
      this.seat = msg.seat;
      this.token = msg.token;
    } else if (msg.type === 'state') {
      this.state = msg.state;
      this.version = msg.version;
    } else if (msg.type === 'patch' && this.state) {
      if (msg.version !== this.version + 1) throw new Error(`patch gap: ${this.version} -> ${msg.version}`);
      this.state = applyPatch(this.state, msg.ops);
      this.version = msg.version;
    }
    this.messages.push(msg);
    this.wake();
  }

  wake() {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }

  frame(op, payload) {
    const mask = crypto.randomBytes(4);
    const n = payload.length;
    const head = n < 126 ? Buffer.from([0x80 | op, 0x80 | n])
      : Buffer.concat([Buffer.from([0x80 | op, 0x80 | 126]), Buffer.from([n >> 8, n & 0xff])]);
    const body = Buffer.from(payload);
    for (let i = 0; i < n; i++) body[i] ^= mask[i % 4];
    this.socket.write(Buffer.concat([head, mask, body]));
  }

  send(obj) {
    this.frame(0x1, Buffer.from(JSON.stringify(obj), 'utf8'));
  }

  /** Waits until `pred(this)` holds (checked after every message), or fails after `ms`. */
  async until(pred, what = 'a condition', ms = 10000) {
    const end = Date.now() + ms;
    while (!pred(this)) {
      if (this.closed) throw new Error(`connection closed while waiting for ${what}`);
      const left = end - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => {
        const timer = setTimeout(r, left);
        this.waiters.push(() => { clearTimeout(timer); r(); });
      });
    }
  }

  /** The next message of a type received after this call (or already after `since`). */
  async next(type, since = this.messages.length, ms = 10000) {
    await this.until((c) => c.messages.slice(since).some((m) => m.type === type), `a ${type} message`, ms);
    return this.messages.slice(since).find((m) => m.type === type);
  }

  close() {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      this.socket.once('close', resolve);
      try { this.frame(0x8, Buffer.from([0x03, 0xe8])); } catch { /* gone */ }
      this.socket.end();
      setTimeout(() => { this.socket.destroy(); resolve(); }, 1000);
    });
  }
}

/**
 * A room with `names.length` seated players connected from node, started. Returns
 * {room, clients} (clients[i] holds seat i).
 */
export async function startRoom(base, names) {
  const res = await fetch(`${base}/api/rooms`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
  const { room } = await res.json();
  const clients = [];
  for (const name of names) {
    const c = await WsClient.connect(base, room);
    c.send({ type: 'join', name });
    await c.next('welcome', 0);
    clients.push(c);
  }
  clients[0].send({ type: 'start' });
  await clients[0].until((c) => c.state?.phase === 'playing', 'the start');
  return { room, clients };
}

/**
 * Plays turns from node until `stop(state)` holds (checked before each turn) or the game
 * ends. pick(legal, state) chooses among turn.legal (default: a spread of choices that
 * keeps the board sprawling) and returns {x, y, rotation, meeple}.
 */
export async function playUntil(clients, stop, pick = spreadPick) {
  const watcher = clients[0];
  for (let i = 0; i < 200; i++) {
    const s = watcher.state;
    if (s.phase !== 'playing' || stop(s)) return s;
    const c = clients.find((x) => x.seat === s.turn.seat);
    await c.until((x) => x.version >= watcher.version, 'the client to catch up');
    const move = pick(c.state.turn.legal, c.state, i);
    const before = watcher.version;
    c.send({ type: 'play', version: c.version, ...move });
    await watcher.until((w) => w.version > before && (w.state.phase !== 'playing' || w.state.turn.number > s.turn.number), `turn ${s.turn.number} to be played`);
  }
  throw new Error('the game did not end');
}

// A deterministic choice that spreads the board out (far cells first), with meeples often.
export function spreadPick(legal, state, i) {
  const far = [...legal].sort((a, b) => (Math.abs(b.x) + Math.abs(b.y)) - (Math.abs(a.x) + Math.abs(a.y)));
  const l = far[(i * 7) % Math.max(1, Math.min(far.length, 4))];
  const me = state.players.find((p) => p.seat === state.turn.seat);
  const meeple = me.meeples > 1 && l.meeples.length && i % 3 !== 2 ? l.meeples[i % l.meeples.length] : null;
  return { x: l.x, y: l.y, rotation: l.rotation, meeple };
}

// A seeded choice among the legal placements, with a meeple `meepleRate` of the time when
// one is left: boards and scores like a casual game's.
export function randomPick(seed = 7, meepleRate = 2 / 3) {
  let s = seed >>> 0;
  const rnd = (n) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return (s >>> 8) % n;
  };
  return (legal, state) => {
    const l = legal[rnd(legal.length)];
    const me = state.players.find((p) => p.seat === state.turn.seat);
    const meeple = me.meeples && l.meeples.length && rnd(1000) < meepleRate * 1000 ? l.meeples[rnd(l.meeples.length)] : null;
    return { x: l.x, y: l.y, rotation: l.rotation, meeple };
  };
}

/** Opens the room in a new page holding a seat token (as the invite link after a join would). */
export async function openWithToken(browser, base, room, token, contextOptions = {}) {
  const ctx = await browser.newContext({ locale: 'en-US', ...contextOptions });
  const page = await ctx.newPage();
  page.setDefaultTimeout(15000);
  await page.goto(`${base}/`);
  await page.evaluate(([r, tk]) => localStorage.setItem(`carc.token.${r}`, tk), [room, token]);
  await page.goto(`${base}/r/${room}`);
  return { ctx, page };
}
