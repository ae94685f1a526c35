// The start page asks for every module and the tile catalogue at once: each
// module reachable from app.js has its <link rel="modulepreload"> in index.html.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'web-client');

function moduleGraph() {
  const seen = new Set();
  const todo = ['app.js'];
  while (todo.length) {
    const f = todo.shift();
    if (seen.has(f)) continue;
    seen.add(f);
    const src = readFileSync(path.join(root, f), 'utf8');
    for (const m of src.matchAll(/^(?:import|export)\b[^'"]*?from\s+'(\.[^']+)'|^import\s+'(\.[^']+)'/gm)) {
      todo.push(path.posix.normalize(path.posix.join(path.posix.dirname(f), m[1] ?? m[2])));
    }
  }
  seen.delete('app.js');
  return seen;
}

test('every module of the client is preloaded, and the tile catalogue too', () => {
  const html = readFileSync(path.join(root, 'index.html'), 'utf8');
  const preloaded = new Set([...html.matchAll(/<link rel="modulepreload" href="\/([^"]+)">/g)].map((m) => m[1]));
  const graph = moduleGraph();
  assert.ok(graph.size > 30);
  for (const m of graph) assert.ok(preloaded.has(m), `${m} is preloaded`);
  for (const m of preloaded) assert.ok(graph.has(m), `${m} is still used`);
  assert.match(html, /<link rel="preload" href="\/api\/tiles" as="fetch" crossorigin>/);
});

test('every style sheet of the client is linked from the page head', () => {
  const html = readFileSync(path.join(root, 'index.html'), 'utf8');
  const head = html.slice(0, html.indexOf('</head>'));
  const linked = new Set([...head.matchAll(/<link rel="stylesheet" href="\/([^"]+)">/g)].map((m) => m[1]));
  const sheets = readdirSync(root).filter((f) => f.endsWith('.css'));
  assert.ok(sheets.includes('expansions.css'));
  for (const f of sheets) assert.ok(linked.has(f), `${f} is linked`);
  for (const f of linked) assert.ok(sheets.includes(f), `${f} exists`);
});
