// Keeps docker/Dockerfile, docker/compose.yaml, docker/Caddyfile, .dockerignore, the
// README and .ci/run consistent with the project: it reads the real files and, once
// built, runs the real server binary the way the image does. Building and running the
// image itself is scripts/image-test.sh (buildah, no Docker engine).
//
//   node --test tests/docker/
//   CARC_SERVER_BIN=/tmp/b/carcassonne-server node --test tests/docker/
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  readProject, dockerFacts, checkDockerfile, checkServerSource, checkCompose, checkDocs,
  parseYaml, parseDockerfile, parseCopy, dockerignore, parseCaddyfile, composePort, interpolate,
} from './consistency.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const project = readProject(root);

describe('the self-hosting files agree with the project', () => {
  test('Dockerfile: COPY sources exist, stages, scripts, runtime settings', () => {
    assert.deepEqual(checkDockerfile(project), []);
  });
  test('the image runs the scripts that CI runs', () => {
    const runs = parseDockerfile(project.dockerfile).filter((i) => i.op === 'RUN' && i.stage === 0).map((i) => i.args).join('\n');
    assert.match(runs, /bash scripts\/install-deps\.sh/);
    assert.match(runs, /bash scripts\/build\.sh/);
    assert.match(project.testScript, /scripts\/install-deps\.sh/);
    assert.match(project.testScript, /scripts\/build\.sh/);
  });
  test('EXPOSE, HEALTHCHECK and the environment match the server defaults (8080, /healthz)', () => {
    const f = dockerFacts(project);
    assert.equal(f.exposePort, 8080);
    assert.equal(f.healthUrl?.pathname, '/healthz');
    assert.equal(Number(f.healthUrl?.port), 8080);
    assert.deepEqual(f.env, { DATA_DIR: '/data', PORT: '8080', HOST: '0.0.0.0', WEB_ROOT: '/app/web-client' });
  });
  test('the server source states the same defaults', (t) => {
    if (!project.serverSource) return t.skip('no server sources yet');
    assert.deepEqual(checkServerSource(project), []);
  });
  test('compose.yaml parses and agrees with the Dockerfile and the Caddyfile', () => {
    assert.deepEqual(checkCompose(project), []);
  });
  test('README and .ci/run give the same commands', () => {
    assert.deepEqual(checkDocs(project), []);
  });
});

// The checks must be able to fail: each mutation below breaks one rule.
describe('the checks catch drift', () => {
  const mutate = (key, from, to) => {
    assert.ok(project[key].includes(from), `fixture: ${key} contains ${from}`);
    return { ...project, [key]: project[key].replace(from, to) };
  };
  const cases = [
    ['EXPOSE port', checkDockerfile, 'dockerfile', 'EXPOSE 8080', 'EXPOSE 9090', /EXPOSE 9090/],
    ['health path', checkDockerfile, 'dockerfile', '8080/healthz', '8080/health', /\/healthz/],
    ['missing COPY source', checkDockerfile, 'dockerfile', 'COPY web-client/', 'COPY web-clients/', /does not exist/],
    ['COPY of an ignored path', checkDockerfile, 'dockerignore', '.git\n', '.git\nweb-client\n', /excluded by \.dockerignore/],
    ['build stage skips build.sh', checkDockerfile, 'dockerfile', 'bash scripts/build.sh build', 'cmake --build build', /does not run scripts\/build\.sh/],
    ['root user', checkDockerfile, 'dockerfile', 'USER carcassonne', 'USER root', /non-root/],
    ['WEB_ROOT', checkDockerfile, 'dockerfile', 'WEB_ROOT=/app/web-client', 'WEB_ROOT=/srv/web', /WEB_ROOT/],
    ['compose port', checkCompose, 'compose', ':-8080}:8080', ':-8080}:9000', /publishes/],
    ['compose volume', checkCompose, 'compose', 'carcassonne-data:/data', 'carcassonne-data:/var/data', /mounts nothing on \/data/],
    ['compose dockerfile', checkCompose, 'compose', 'dockerfile: docker/Dockerfile', 'dockerfile: Dockerfile', /does not exist/],
    ['undeclared volume', checkCompose, 'compose', '  carcassonne-data:\n', '', /not declared/],
    ['compose YAML', checkCompose, 'compose', '    restart: unless-stopped', '   restart: unless-stopped', /does not parse/],
    ['caddy profile', checkCompose, 'compose', 'profiles: ["https"]', 'profiles: ["tls"]', /profile "https"/],
    ['Caddy upstream name', checkCompose, 'caddyfile', 'reverse_proxy carcassonne:8080', 'reverse_proxy server:8080', /no compose service/],
    ['Caddy upstream port', checkCompose, 'caddyfile', 'reverse_proxy carcassonne:8080', 'reverse_proxy carcassonne:80', /port 80/],
    ['Caddy domain', checkCompose, 'caddyfile', '{$DOMAIN:localhost} {', 'example.org {', /DOMAIN/],
    ['README link', checkDocs, 'readme', '(docs/protocol-details.md)', '(docs/no-such-page.md)', /links to docs\/no-such-page\.md/],
    ['.ci/run', checkDocs, 'ciRun', 'bash scripts/test.sh', 'bash scripts/build.sh', /\.ci\/run/],
  ];
  for (const [name, check, key, from, to, expected] of cases) {
    test(name, () => {
      const problems = check(mutate(key, from, to));
      assert.ok(problems.some((p) => expected.test(p)), `expected a problem matching ${expected}, got ${JSON.stringify(problems)}`);
    });
  }
  test('server source with another default port', () => {
    const problems = checkServerSource({ ...project, serverSource: 'constexpr int default_port = 9000; // "/healthz"' });
    assert.match(problems.join('\n'), /never mentions port 8080/);
  });
});

describe('the small parsers', () => {
  test('YAML subset', () => {
    const doc = parseYaml([
      'a: 1  # comment',
      'b:',
      '  - "x: y"',
      '  - plain # c',
      '  - k: v',
      '    l: [1, "two", three]',
      'c:',
      '- z',
      "d: 'it''s'",
      'e:',
      'f: "#not a comment"',
    ].join('\n'));
    assert.deepEqual(doc, { a: 1, b: ['x: y', 'plain', { k: 'v', l: [1, 'two', 'three'] }], c: ['z'], d: "it's", e: null, f: '#not a comment' });
    for (const bad of ['a:\n\tb: 1', 'a: 1\na: 2', 'a: &x 1', 'a: |\n  text', 'a:\n  b: 1\n   c: 2', 'a: "open', 'a: b: c', 'a:\n  - x\n  y: 1']) {
      assert.throws(() => parseYaml(bad), /YAML/, JSON.stringify(bad));
    }
  });
  test('compose interpolation and ports', () => {
    assert.equal(interpolate('${A:-8080}:8080'), '8080:8080');
    assert.equal(interpolate('${A:-8080}:8080', { A: '127.0.0.1:9000' }), '127.0.0.1:9000:8080');
    assert.throws(() => interpolate('${D:?set it}'), /required/);
    assert.deepEqual(composePort('${CARC_PUBLISH:-8080}:8080'), { container: 8080, proto: 'tcp' });
    assert.deepEqual(composePort('443:443/udp'), { container: 443, proto: 'udp' });
  });
  test('Dockerfile continuation lines and COPY forms', () => {
    const ins = parseDockerfile('FROM debian:12 AS b\nRUN a \\\n  # note\n  && b\nCOPY --from=b ["/x y", "/z"]\n');
    assert.deepEqual(ins.map((i) => [i.op, i.line]), [['FROM', 1], ['RUN', 2], ['COPY', 5]]);
    assert.equal(ins[1].args, 'a && b');
    assert.deepEqual(parseCopy(ins[2].args), { flags: { from: 'b' }, sources: ['/x y'], dest: '/z' });
  });
  test('.dockerignore patterns', () => {
    const ignored = dockerignore('build\n**/*.log\nnode_modules\n!node_modules/keep\n');
    assert.ok(ignored('build/x/y'));
    assert.ok(ignored('a/b/c.log') && ignored('c.log'));
    assert.ok(!ignored('web-client/index.html'));
    assert.ok(!ignored('node_modules/keep'));
    assert.ok(!ignored('server/build.cpp'));
  });
  test('Caddyfile sites', () => {
    assert.deepEqual(parseCaddyfile('{$DOMAIN:localhost} {\n\treverse_proxy a:1 # c\n\theader {\n\t\tX y\n\t}\n}\n'),
      [{ address: '{$DOMAIN:localhost}', directives: [['reverse_proxy', 'a:1'], ['header']] }]);
    assert.throws(() => parseCaddyfile('a {\n'), /unbalanced/);
  });
});

// ---------------------------------------------------------------- the real binary

const serverBin = process.env.CARC_SERVER_BIN
  ? path.resolve(root, process.env.CARC_SERVER_BIN)
  : path.join(root, 'build', 'carcassonne-server');
const haveServer = fs.existsSync(serverBin);

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
  });
}

async function waitHealthy(base, child, ms = 15000) {
  const end = Date.now() + ms;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try { const r = await fetch(`${base}/healthz`); if (r.status === 200) return; } catch { /* not yet */ }
    if (Date.now() > end) throw new Error('server did not answer /healthz');
    await new Promise((r) => setTimeout(r, 100));
  }
}

function startServer(env) {
  const out = [];
  const child = spawn(serverBin, [], { cwd: os.tmpdir(), env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.on('data', (d) => out.push(d));
  child.stderr.on('data', (d) => out.push(d));
  child.output = () => Buffer.concat(out).toString();
  return child;
}

function stop(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode);
    const timer = setTimeout(() => child.kill('SIGKILL'), 10000);
    child.once('exit', (code, signal) => { clearTimeout(timer); resolve(code ?? signal); });
    child.kill('SIGTERM');
  });
}

describe('the server binary behaves as the image expects', { skip: !haveServer && `no server binary at ${serverBin}` }, () => {
  const f = dockerFacts(project);
  let port, base, child, dataDir;

  before(async () => {
    port = await freePort();
    base = `http://127.0.0.1:${port}`;
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'carc-docker-test-'));
    // Configured only through the image's environment variables, started outside the repository.
    child = startServer({ ...f.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, WEB_ROOT: path.join(root, 'web-client'), BASE_URL: '' });
    await waitHealthy(base, child).catch((e) => { throw new Error(`${e.message}\n${child.output()}`); });
  });
  after(async () => {
    if (child) await stop(child);
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test('--help documents --probe, and docs/configuration.md documents every flag of --help', () => {
    const r = spawnSync(serverBin, ['--help'], { encoding: 'utf8', timeout: 10000 });
    assert.equal(r.status, 0, r.stderr);
    const help = r.stdout + r.stderr;
    const flags = [...new Set(help.match(/--[a-z][a-z0-9-]+/g) ?? [])];
    assert.ok(flags.includes('--probe'), help);
    assert.ok(flags.includes('--port') && flags.includes('--data-dir') && flags.includes('--base-url'), help);
    const missing = flags.filter((fl) => fl !== '--help' && !project.configDoc.includes(`\`${fl}`));
    assert.deepEqual(missing, [], 'flags missing from the table of docs/configuration.md');
    const envs = [...new Set([...help.matchAll(/\[([A-Z][A-Z0-9_]*)\]/g)].map((m) => m[1]))];
    assert.ok(envs.includes('PORT') && envs.includes('DATA_DIR'), help);
    const missingEnv = envs.filter((e) => !project.configDoc.includes(`\`${e}\``));
    assert.deepEqual(missingEnv, [], 'environment variables missing from the table of docs/configuration.md');
    const portLine = help.split('\n').find((l) => l.includes('--port')) ?? '';
    assert.match(portLine, /8080/, 'the --port help names its default, 8080');
  });
  test('the HEALTHCHECK command succeeds against a healthy server', () => {
    const args = f.healthArgs.slice(1).map((a) => a.replace(`:${f.exposePort}/`, `:${port}/`));
    const r = spawnSync(serverBin, args, { encoding: 'utf8', timeout: 10000 });
    assert.equal(r.status, 0, `${args.join(' ')}: ${r.stdout}${r.stderr}`);
  });
  test('the probe fails when nothing listens, or the path is not 200', async () => {
    const closed = await freePort();
    const r1 = spawnSync(serverBin, ['--probe', `http://127.0.0.1:${closed}/healthz`], { timeout: 15000 });
    assert.notEqual(r1.status, 0);
    const r2 = spawnSync(serverBin, ['--probe', `${base}/no-such-path-for-the-probe`], { timeout: 15000 });
    assert.notEqual(r2.status, 0);
  });
  test('DATA_DIR receives the database', () => {
    assert.ok(fs.readdirSync(dataDir).length > 0, `nothing in ${dataDir}`);
  });
  test('WEB_ROOT serves the web client', async () => {
    const r = await fetch(`${base}/`);
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type') ?? '', /text\/html/);
  });
  test('with an empty BASE_URL, invite links follow Host; forwarded headers only from a TRUSTED_PROXY', async () => {
    const direct = await (await fetch(`${base}/api/rooms`, { method: 'POST', body: '{}' })).json();
    assert.ok(direct.invite_url.startsWith(`http://127.0.0.1:${port}/r/`), direct.invite_url);
    // The image sets no TRUSTED_PROXY: a client's own X-Forwarded-* headers cannot pick the
    // address in the links others receive (the C++ suite checks them from a trusted proxy).
    const forged = await (await fetch(`${base}/api/rooms`, {
      method: 'POST', body: '{}',
      headers: { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'carc.example.org' },
    })).json();
    assert.equal(forged.invite_url, `http://127.0.0.1:${port}/r/${forged.room}`);
  });
  test('SIGTERM stops the server cleanly (docker stop)', async () => {
    const code = await stop(child);
    child = null;
    assert.equal(code, 0);
  });
});

describe('BASE_URL sets the invite links', { skip: !haveServer && `no server binary at ${serverBin}` }, () => {
  test('invite_url starts with BASE_URL', async () => {
    const port = await freePort();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'carc-docker-test-'));
    const child = startServer({ PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, WEB_ROOT: path.join(root, 'web-client'), BASE_URL: 'https://games.example.net' });
    try {
      await waitHealthy(`http://127.0.0.1:${port}`, child).catch((e) => { throw new Error(`${e.message}\n${child.output()}`); });
      const body = await (await fetch(`http://127.0.0.1:${port}/api/rooms`, { method: 'POST', body: '{}' })).json();
      assert.equal(body.invite_url, `https://games.example.net/r/${body.room}`);
    } finally {
      await stop(child);
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
