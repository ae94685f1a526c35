// scripts/check-deps.sh against the real build: it passes with install-deps.sh's lists as
// they are, and fails, naming the package, when a package the build or the server uses is
// missing from them: one listed on purpose (libqrencode-dev, missing from the lists until
// a bare Debian 12 machine stopped at configure without it), one that only ever came as
// another package's dependency (libssl-dev with libpq-dev, libfmt-dev with libspdlog-dev),
// and a runtime library of the server (libqrencode4).
//
//   CARC_BUILD_DIR=build node --test tests/docker/deps.test.mjs
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const buildDir = path.resolve(root, process.env.CARC_BUILD_DIR || 'build');
const script = path.join(root, 'scripts', 'check-deps.sh');
const installer = path.join(root, 'scripts', 'install-deps.sh');
const built = fs.existsSync(path.join(buildDir, 'build.ninja')) && fs.existsSync(path.join(buildDir, 'carcassonne-server'));

// One run of the check (the runs below go side by side: each reads dpkg's lists and the build).
function check(env = {}) {
  return new Promise((resolve) => {
    const child = spawn('bash', [script, buildDir], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { out += d; });
    const timer = setTimeout(() => child.kill('SIGKILL'), 120000);
    child.on('close', (status) => { clearTimeout(timer); resolve({ status, out }); });
  });
}

describe('install-deps.sh prints its lists', () => {
  test('--list build, runtime and test: one package a line, without root', () => {
    for (const [list, member] of [['build', 'libqrencode-dev'], ['runtime', 'libqrencode4'], ['test', 'chromium']]) {
      const r = spawnSync('bash', [installer, '--list', list], { encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
      const names = r.stdout.trim().split('\n');
      assert.ok(names.includes(member), `${list}: ${names}`);
      assert.ok(names.every((n) => /^[a-z0-9][a-z0-9.+-]+$/.test(n)), `${list}: package names only: ${names}`);
    }
    const bad = spawnSync('bash', [installer, '--list', 'everything'], { encoding: 'utf8' });
    assert.notEqual(bad.status, 0);
    assert.match(bad.stderr, /no such list: everything/);
  });
});

describe('scripts/check-deps.sh on this build', { skip: !built && `no Ninja build with a server in ${buildDir}` }, () => {
  // The installer as it was before libqrencode-dev was listed: a copy without it.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'carc-deps-'));
  const old = path.join(dir, 'install-deps.sh');
  let runs;
  before(async () => {
    const text = fs.readFileSync(installer, 'utf8');
    assert.match(text, / libqrencode-dev\b/);
    fs.writeFileSync(old, text.replace(/ libqrencode-dev\b/, ''));
    const [asIs, noQrencode, noSsl, noFmt, noRuntime] = await Promise.all([
      check(), check({ CARC_DEPS_SCRIPT: old }), check({ CARC_DEPS_DROP: 'libssl-dev' }), check({ CARC_DEPS_DROP: 'libfmt-dev' }),
      check({ CARC_DEPS_DROP: 'libqrencode4' }),
    ]);
    runs = { asIs, noQrencode, noSsl, noFmt, noRuntime };
  }, { timeout: 240000 });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('passes with the lists as they are', () => {
    assert.equal(runs.asIs.status, 0, runs.asIs.out);
    assert.match(runs.asIs.out, /files of \d+ packages used by the build/);
    assert.match(runs.asIs.out, /^ {2}libqrencode-dev \(\d+ files\)$/m);
  });

  test('a package the build uses, left out of the build list, fails it by name', () => {
    const r = runs.noQrencode;
    assert.equal(r.status, 1, r.out);
    assert.match(r.out, /the build uses libqrencode-dev \(e\.g\. [^)]*qrencode/);
    assert.match(r.out, /add it to build_pkgs/);
    assert.doesNotMatch(r.out, /the build uses lib(ssl|fmt)-dev/, 'only the package left out');
  });

  test('a package that only came as another one\'s dependency fails it too', () => {
    for (const [pkg, r, file] of [['libssl-dev', runs.noSsl, /openssl\//], ['libfmt-dev', runs.noFmt, /fmt/]]) {
      assert.equal(r.status, 1, r.out);
      const line = r.out.split('\n').find((l) => l.includes(`the build uses ${pkg} `));
      assert.ok(line, `${pkg} named: ${r.out}`);
      assert.match(line, file);
    }
  });

  test('a runtime library of the server left out of the runtime list fails it by name', () => {
    const r = runs.noRuntime;
    assert.equal(r.status, 1, r.out);
    assert.match(r.out, /the server links a library of libqrencode4, which install-deps\.sh's runtime list does not name/);
  });
});
