// The benchmark's own tools (docs/hot-path.md): the load generator drives the rules-free C++ server
// (tools/ws_floor) and reports moves, latency and its own CPU; the floor server answers the
// WebSocket handshake per RFC 6455 and refuses what it does not know.
//   node --test tests/bench/     (needs the build: CARC_BUILD_DIR, default build)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFile } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const build = path.resolve(repo, process.env.CARC_BUILD_DIR ?? 'build');

async function startFloor() {
  const proc = spawn(path.join(build, 'carc-ws-floor'), ['--port', '0', '--seconds', '60'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise((resolve, reject) => {
    let out = '';
    proc.stdout.on('data', (d) => {
      out += d;
      const m = /listening on port (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    proc.on('exit', (code) => reject(new Error(`carc-ws-floor exited ${code}`)));
  });
  return { proc, port };
}

// Sends `bytes` and resolves with what came back: up to the end of the head when `headOnly`
// (an upgrade stays open), else until the server closes (it closes after an HTTP answer).
function exchange(port, bytes, { headOnly = false } = {}) {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1', () => s.write(bytes));
    let got = '';
    s.on('data', (d) => { got += d.toString('latin1'); if (headOnly && got.includes('\r\n\r\n')) { s.destroy(); resolve(got); } });
    s.on('close', () => resolve(got));
    s.on('error', () => resolve(got));
  });
}

test('the load generator drives the rules-free C++ server: moves, no errors, its own CPU per move', { timeout: 60000 }, async () => {
  const { proc, port } = await startFloor();
  try {
    const { out, err } = await new Promise((resolve, reject) => {
      execFile(path.join(build, 'carcassonne-load'),
        ['--port', String(port), '--server-pid', String(proc.pid), '--rooms', '8', '--players', '4', '--interval-ms', '0', '--duration', '3',
          '--timeline', '1'],
        { timeout: 50000 }, (e, stdout, stderr) => (e ? reject(new Error(`${e.message}\n${stderr}`)) : resolve({ out: stdout, err: stderr })));
    });
    const r = JSON.parse(out.trim().split('\n').filter((l) => l.startsWith('{')).at(-1));
    assert.equal(r.errors, 0);
    assert.ok(r.moves_per_s > 100, `moves/s ${r.moves_per_s}`);
    assert.ok(r.load_us_per_move > 0 && r.server_us_per_move > 0);
    assert.ok(r.p99_ms >= r.p50_ms && r.p50_ms > 0);
    assert.match(out, /games finished while playing: [1-9]/); // 71 tiles a game: rooms ended and were replaced
    // The host's stolen CPU time, read from /proc/stat: for the run, each CPU and each window.
    assert.ok(r.steal_pct >= 0 && r.steal_pct <= 100, `steal_pct ${r.steal_pct}`);
    assert.match(out, /host CPU stolen by the hypervisor while playing: \d+\.\d% of all CPUs' time \(cpu0 \d+\.\d%/);
    const rows = err.slice(err.indexOf('host_steal_pct')).split('\n').slice(1).filter((l) => /^\s+\d/.test(l));
    assert.ok(rows.length >= 2, err);
    for (const row of rows) {
      const steal = Number(row.trim().split(/\s+/)[6]);
      assert.ok(steal >= 0 && steal <= 100, row);
    }
  } finally {
    proc.kill();
  }
});

test('carc-ws-floor: the RFC 6455 accept key, 404 for an unknown room, 201 and a room id for POST /api/rooms', { timeout: 30000 }, async () => {
  const { proc, port } = await startFloor();
  try {
    const created = await exchange(port, 'POST /api/rooms HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}');
    assert.match(created, /^HTTP\/1\.1 201 /);
    const { room } = JSON.parse(created.slice(created.indexOf('\r\n\r\n') + 4));
    // The example key of RFC 6455 section 1.3 and its answer.
    const up = await exchange(port, `GET /ws/${room} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
      'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n', { headOnly: true });
    assert.match(up, /^HTTP\/1\.1 101 /);
    assert.match(up, /Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK\+xOo=\r\n/);
    const unknown = await exchange(port, 'GET /ws/nope HTTP/1.1\r\nHost: x\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n');
    assert.match(unknown, /^HTTP\/1\.1 404 /);
  } finally {
    proc.kill();
  }
});
