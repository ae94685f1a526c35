// The expansions' registry (web-client/js/expansions/registry.js, docs/architecture.md "The
// web client"): base code and the expansions import each other through it, so every module
// must load on its own, whichever is imported first, and find every expansion registered.
// The modules where the import cycle runs: the registry and its list, every expansion's
// modules (an expansion's index.js is loaded only through expansions/index.js) and the base
// modules they import or that draw the figures.
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const js = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'web-client', 'js');

function modules(dir, out = []) {
  for (const f of readdirSync(dir)) {
    const p = path.join(dir, f);
    if (statSync(p).isDirectory()) modules(p, out);
    else if (f.endsWith('.js')) out.push(path.relative(js, p).split(path.sep).join('/'));
  }
  return out;
}

// A module loaded first, in a fresh node: what the registry holds then, or the error.
function loadAlone(mod) {
  const code = `const m = await import(${JSON.stringify(`./${mod}`)});
    const r = await import('./expansions/registry.js');
    process.stdout.write(JSON.stringify({ ids: r.expansionIds(), figures: r.figureIds() }));`;
  return new Promise((resolve) => {
    execFile(process.execPath, ['--input-type=module', '-e', code], { cwd: js }, (err, stdout, stderr) => {
      resolve(err ? { error: String(stderr).split('\n').find((l) => /Error/.test(l)) ?? String(err) } : JSON.parse(stdout));
    });
  });
}

test('every module loads first on its own and finds every expansion registered', async () => {
  const list = modules(js).filter((m) => !/^expansions\/[^/]+\/index\.js$/.test(m))
    .filter((m) => /^(expansions|platform)\//.test(m) || ['i18n/i18n.js', 'tiles/meeple-art.js', 'tiles/figures-art.js', 'tiles/tileart.js'].includes(m));
  assert.ok(list.length > 20);
  const expected = await loadAlone('expansions/index.js');
  assert.equal(expected.error, undefined, `expansions/index.js loaded first: ${expected.error}`);
  assert.deepEqual(expected.ids, ['river', 'abbot', 'inns', 'traders', 'princess']);
  assert.deepEqual(expected.figures, ['big', 'builder', 'pig', 'abbot']);
  for (let i = 0; i < list.length; i += 8) {
    const got = await Promise.all(list.slice(i, i + 8).map(loadAlone));
    got.forEach((g, k) => assert.deepEqual(g, expected, `${list[i + k]} loaded first: ${g.error ?? 'another registry'}`));
  }
});
