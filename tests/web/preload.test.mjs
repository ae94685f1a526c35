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

// The server writes a <link rel="modulepreload"> for every .js file under js/ in place of
// the page's "module links" marker (server/src/http/static_files.cpp; tests/server/http_test.cpp
// checks the writing). So: every module the client imports must live under js/, and every
// module under js/ must be imported, or the page would ask for it in vain.
function filesUnder(dir, ext) {
  const out = [];
  for (const e of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    if (e.name.startsWith('.')) continue;
    const rel = path.posix.join(dir, e.name);
    if (e.isDirectory()) out.push(...filesUnder(rel, ext));
    else if (e.name.endsWith(ext)) out.push(rel);
  }
  return out;
}

test('every module of the client is preloaded: the page has the marker the server fills, and js/ holds exactly the modules app.js reaches', () => {
  const html = readFileSync(path.join(root, 'index.html'), 'utf8');
  const head = html.slice(0, html.indexOf('</head>'));
  assert.equal(head.split('<!-- module links -->').length, 2, 'the marker, once, in the head');
  assert.doesNotMatch(html, /rel="modulepreload"/, 'no list of modules kept by hand');
  const graph = moduleGraph();
  assert.ok(graph.size > 30);
  const files = new Set(filesUnder('js', '.js'));
  for (const m of graph) assert.ok(files.has(m), `${m} is under js/`);
  for (const m of files) assert.ok(graph.has(m), `${m} is imported`);
  assert.match(html, /<link rel="preload" href="\/api\/tiles" as="fetch" crossorigin>/);
});

test('an expansion\'s style sheet is in its own folder, where the server links it', () => {
  const sheets = filesUnder('js', '.css');
  assert.ok(sheets.length >= 3);
  for (const f of sheets) assert.match(f, /^js\/expansions\/[a-z]+\/style\.css$/);
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
