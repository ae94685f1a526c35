// A room played over WebSocket against a running server (scripts/image-test.sh runs it
// against the image): create a room, two players join, the host starts, the player to
// move places a tile, and both see it on the board. Usage: node image-room.mjs PORT
import WebSocket from 'ws';
import { applyPatch } from '../../web-client/js/game/patch.js';

const port = Number(process.argv[2] ?? 8080);
const base = `127.0.0.1:${port}`;
const fail = (m) => { console.error(`image-room: ${m}`); process.exit(1); };
setTimeout(() => fail('timed out'), 20000).unref();

const res = await fetch(`http://${base}/api/rooms`, { method: 'POST', body: '{}' });
if (res.status !== 201) fail(`POST /api/rooms -> ${res.status}`);
const { room } = await res.json();

function player(name) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://${base}/ws/${room}`);
    const p = { ws, doc: null, version: 0, seat: null, waiters: [] };
    ws.on('error', reject);
    ws.on('open', () => ws.send(JSON.stringify({ type: 'join', name })));
    ws.on('message', (data) => {
      const m = JSON.parse(String(data));
      if (m.type === 'welcome') { p.seat = m.seat; p.doc = m.state; p.version = m.version; resolve(p); }
      if (m.type === 'patch' && m.version === p.version + 1) { p.doc = applyPatch(p.doc, m.ops); p.version = m.version; }
      if (m.type === 'error') fail(`${name} got error ${m.code}: ${m.message}`);
      p.waiters = p.waiters.filter((w) => !w());
    });
  });
}
const until = (p, pred) => new Promise((resolve) => { if (pred(p.doc)) resolve(); else p.waiters.push(() => pred(p.doc) && (resolve(), true)); });

const a = await player('Ada');
const b = await player('Bob');
await until(a, (d) => d.players.length === 2);
a.ws.send(JSON.stringify({ type: 'start' }));
await until(a, (d) => d.phase === 'playing');
await until(b, (d) => d.phase === 'playing');
const mover = a.doc.turn.seat === a.seat ? a : b;
const legal = mover.doc.turn.legal[0];
mover.ws.send(JSON.stringify({ type: 'play', version: mover.version, x: legal.x, y: legal.y, rotation: legal.rotation, meeple: null }));
for (const p of [a, b]) await until(p, (d) => d.board.length === 2);
console.log(`image-room: room ${room}: two players, started, tile ${a.doc.board[1].tile} placed at ${legal.x},${legal.y}, both see it (version ${a.version})`);
a.ws.close();
b.ws.close();
process.exit(0);
