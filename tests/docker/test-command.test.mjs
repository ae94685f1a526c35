// scripts/test.sh ends the run when a step the others need fails (installing the
// dependencies, the build, the dependency check) and says which one, instead of running the
// tests against a build that does not exist (a fresh clone whose build failed once printed "tests: 191
// passed, 2 failed"). The real test.sh runs here in a folder of its own, beside stand-ins
// for the scripts it calls, one of which fails.
//
//   node --test tests/docker/test-command.test.mjs
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

// Runs a copy of scripts/test.sh whose install-deps.sh, check-layers.sh, expansion-spread.sh,
// build.sh and check-deps.sh are stand-ins that print their name and exit 0, except `failing`.
function run(failing) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'carc-testcmd-'));
  try {
    fs.mkdirSync(path.join(dir, 'scripts'));
    fs.copyFileSync(path.join(root, 'scripts', 'test.sh'), path.join(dir, 'scripts', 'test.sh'));
    for (const s of ['install-deps.sh', 'check-layers.sh', 'expansion-spread.sh', 'build.sh', 'check-deps.sh']) {
      fs.writeFileSync(path.join(dir, 'scripts', s), `echo "stand-in ${s} $*"\nexit ${s === failing ? 1 : 0}\n`);
    }
    const r = spawnSync('bash', [path.join(dir, 'scripts', 'test.sh')], {
      encoding: 'utf8', timeout: 120000, env: { ...process.env, CARC_BUILD_DIR: path.join(dir, 'build') },
    });
    return { status: r.status, out: `${r.stdout}${r.stderr}` };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('scripts/test.sh stops at a failed step the others need', () => {
  for (const [script, said, ran] of [
    ['install-deps.sh', 'install-deps', ['install-deps']],
    ['build.sh', 'build', ['install-deps', 'layers', 'spread', 'build']],
    ['check-deps.sh', 'the dependency check', ['install-deps', 'layers', 'spread', 'build', 'deps']],
  ]) {
    test(`${script} fails: the run ends there and says so`, () => {
      const r = run(script);
      assert.equal(r.status, 1, r.out);
      assert.match(r.out, new RegExp(`==== FAILED: ${said} failed, so no test ran`));
      assert.match(r.out, /^tests: 0 passed, 1 failed$/m, 'no test count as if the suites had run');
      // What ran: the steps up to the failed one, nothing after it.
      const started = [...r.out.matchAll(/^==== ([^:\n]+): /gm)].map((m) => m[1]).filter((n) => n !== 'FAILED');
      assert.deepEqual(started, ran);
      assert.match(r.out, new RegExp(`^  FAIL  ${ran.at(-1)} `, 'm'));
    });
  }
});
