// Readers for the self-hosting files (Dockerfile, compose.yaml, Caddyfile, .dockerignore)
// and checks that keep them consistent with the project. No npm dependencies: each
// parser handles the subset these files use and throws on anything else, so a file that
// drifts outside that subset fails loudly instead of being half-read.
//
// Every check returns a list of problems (strings); an empty list means consistent.

import fs from 'node:fs';
import path from 'node:path';

// ---------------------------------------------------------------- Dockerfile

/** Parses a Dockerfile into instructions: {op, args, line, stage}. */
export function parseDockerfile(text) {
  const out = [];
  const lines = text.split('\n');
  let stage = -1;
  for (let i = 0; i < lines.length; i++) {
    const start = i + 1;
    let line = lines[i];
    if (/^\s*(#|$)/.test(line)) continue;
    // Continuation lines; comment lines inside a continuation are dropped, as Docker does.
    while (/\\\s*$/.test(line) && i + 1 < lines.length) {
      line = line.replace(/\\\s*$/, ' ');
      i++;
      while (i < lines.length && /^\s*#/.test(lines[i])) i++;
      if (i < lines.length) line += lines[i];
    }
    const m = line.trim().match(/^([A-Za-z]+)\s*(.*)$/s);
    if (!m) throw new Error(`Dockerfile line ${start}: cannot read "${line.trim()}"`);
    const op = m[1].toUpperCase();
    const args = m[2].replace(/\s+/g, ' ').trim();
    if (op === 'FROM') stage++;
    out.push({ op, args, line: start, stage });
  }
  return out;
}

/** Splits the arguments of COPY/ADD into flags, sources and destination. */
export function parseCopy(args) {
  let rest = args;
  const flags = {};
  for (;;) {
    const m = rest.match(/^--([a-z-]+)(?:=(\S+))?\s+/);
    if (!m) break;
    flags[m[1]] = m[2] ?? true;
    rest = rest.slice(m[0].length);
  }
  const parts = rest.startsWith('[') ? JSON.parse(rest) : rest.split(' ');
  if (parts.length < 2) throw new Error(`COPY needs a source and a destination: ${args}`);
  return { flags, sources: parts.slice(0, -1), dest: parts[parts.length - 1] };
}

/** The stages of a parsed Dockerfile: [{name, image, instructions, workdir}] */
export function stages(instructions) {
  const result = [];
  for (const ins of instructions) {
    if (ins.op === 'FROM') {
      const m = ins.args.match(/^(?:--\S+\s+)*(\S+)(?:\s+AS\s+(\S+))?$/i);
      if (!m) throw new Error(`Dockerfile line ${ins.line}: cannot read FROM ${ins.args}`);
      result.push({ image: m[1], name: m[2] ?? String(result.length), instructions: [] });
    } else if (result.length === 0) {
      if (ins.op !== 'ARG') throw new Error(`Dockerfile line ${ins.line}: ${ins.op} before FROM`);
    } else {
      result[result.length - 1].instructions.push(ins);
    }
  }
  return result;
}

/** ENV instructions of a stage as an object (KEY=VALUE form, several per line). */
export function envOf(stage) {
  const env = {};
  for (const ins of stage.instructions.filter((i) => i.op === 'ENV')) {
    const re = /([A-Za-z_][A-Za-z0-9_]*)=("([^"]*)"|(\S*))/g;
    let m, any = false;
    while ((m = re.exec(ins.args))) { env[m[1]] = m[3] ?? m[4]; any = true; }
    if (!any) throw new Error(`Dockerfile line ${ins.line}: use ENV KEY=VALUE`);
  }
  return env;
}

/** Exec-form (JSON array) arguments, or the shell form split on spaces. */
export function execArgs(args) {
  return args.trim().startsWith('[') ? JSON.parse(args) : args.trim().split(' ');
}

// ---------------------------------------------------------------- .dockerignore

/** Returns a function telling whether a context-relative path is excluded. */
export function dockerignore(text) {
  const rules = text.split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'))
    .map((l) => {
      const negate = l.startsWith('!');
      let p = (negate ? l.slice(1) : l).replace(/^\/+|\/+$/g, '').replace(/^\.\//, '');
      const re = p.split('/').map((seg) => seg === '**' ? '.*'
        : seg.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*').replace(/\?/g, '[^/]'))
        .join('/').replace(/\.\*\//g, '(?:.*/)?');
      // A pattern excludes the path itself and everything under it.
      return { negate, re: new RegExp(`^${re}(?:/.*)?$`) };
    });
  return (p) => {
    const rel = p.replace(/^\.\//, '').replace(/\/+$/, '');
    let excluded = false;
    for (const r of rules) if (r.re.test(rel)) excluded = !r.negate;
    return excluded;
  };
}

// ---------------------------------------------------------------- YAML (subset)

function stripComment(line) {
  let quote = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) { if (c === quote) quote = null; else if (c === '\\' && quote === '"') i++; }
    else if (c === '"' || c === "'") quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]))) return line.slice(0, i);
  }
  if (quote) throw new Error('unterminated quote');
  return line;
}

function splitFlow(inner, no) {
  const items = [];
  let cur = '', quote = null;
  for (const c of inner) {
    if (quote) { cur += c; if (c === quote) quote = null; }
    else if (c === '"' || c === "'") { cur += c; quote = c; }
    else if (c === ',') { items.push(cur.trim()); cur = ''; }
    else if ('[]{}'.includes(c)) throw new Error(`YAML line ${no}: nested flow collections are not supported`);
    else cur += c;
  }
  if (cur.trim()) items.push(cur.trim());
  return items;
}

function scalar(text, no) {
  const t = text.trim();
  if (t === '' || t === '~' || t === 'null') return null;
  if (t === 'true') return true;
  if (t === 'false') return false;
  if (/^-?\d+(\.\d+)?$/.test(t)) return Number(t);
  if (t.startsWith('"')) {
    if (!/^"(?:[^"\\]|\\.)*"$/.test(t)) throw new Error(`YAML line ${no}: bad double-quoted string ${t}`);
    return JSON.parse(t);
  }
  if (t.startsWith("'")) {
    if (!/^'(?:[^']|'')*'$/.test(t)) throw new Error(`YAML line ${no}: bad single-quoted string ${t}`);
    return t.slice(1, -1).replace(/''/g, "'");
  }
  if (t.startsWith('[')) {
    if (!t.endsWith(']')) throw new Error(`YAML line ${no}: unterminated flow sequence`);
    return splitFlow(t.slice(1, -1), no).map((s) => scalar(s, no));
  }
  if (t === '{}') return {};
  if (/^[{&*!|>%@`]/.test(t)) throw new Error(`YAML line ${no}: "${t[0]}" is outside the supported YAML subset`);
  if (/:\s/.test(t) || t.endsWith(':')) throw new Error(`YAML line ${no}: unquoted ": " in a scalar`);
  return t;
}

const KEY = /^("(?:[^"\\]|\\.)*"|'[^']*'|[A-Za-z0-9_.\/${}-][^:#]*?)\s*:(?:\s+(.*))?$/;

/**
 * Parses the YAML subset of compose files: block mappings and sequences (also a mapping
 * started on a "- " line), plain and quoted scalars, flow sequences, comments. Throws on
 * tabs, bad indentation, duplicate keys, anchors, tags and block scalars.
 */
export function parseYaml(text) {
  const lines = [];
  text.split('\n').forEach((raw, i) => {
    const no = i + 1;
    if (/^ *\t/.test(raw)) throw new Error(`YAML line ${no}: tab in indentation`);
    let s;
    try { s = stripComment(raw).replace(/\s+$/, ''); } catch (e) { throw new Error(`YAML line ${no}: ${e.message}`); }
    if (s.trim() === '') return;
    if (s === '---' && lines.length === 0) return;
    if (s === '---' || s === '...') throw new Error(`YAML line ${no}: only one document is supported`);
    const indent = s.length - s.trimStart().length;
    lines.push({ indent, text: s.slice(indent), no });
  });
  let pos = 0;
  const isItem = (l) => l.text === '-' || l.text.startsWith('- ');

  function node(parentIndent) {
    const l = lines[pos];
    if (l.indent <= parentIndent) return null;
    return isItem(l) ? seq(l.indent) : map(l.indent);
  }
  function map(indent) {
    const obj = {};
    while (pos < lines.length && lines[pos].indent === indent && !isItem(lines[pos])) {
      const l = lines[pos];
      const m = l.text.match(KEY);
      if (!m) throw new Error(`YAML line ${l.no}: expected "key: value", got "${l.text}"`);
      const key = /^["']/.test(m[1]) ? scalar(m[1], l.no) : m[1];
      if (Object.hasOwn(obj, key)) throw new Error(`YAML line ${l.no}: duplicate key "${key}"`);
      pos++;
      if (m[2] !== undefined && m[2] !== '') obj[key] = scalar(m[2], l.no);
      else if (pos < lines.length && lines[pos].indent === indent && isItem(lines[pos])) obj[key] = seq(indent);
      else obj[key] = pos < lines.length ? node(indent) : null;
    }
    checkDedent(indent);
    return obj;
  }
  function seq(indent) {
    const arr = [];
    while (pos < lines.length && lines[pos].indent === indent && isItem(lines[pos])) {
      const l = lines[pos];
      const rest = l.text.slice(1).trimStart();
      if (rest === '') { pos++; arr.push(pos < lines.length ? node(indent) : null); continue; }
      if (KEY.test(rest) && !/^["']/.test(rest)) {
        // "- key: value" starts a mapping whose keys line up with "key".
        const col = indent + l.text.length - rest.length;
        lines[pos] = { indent: col, text: rest, no: l.no };
        arr.push(map(col));
        continue;
      }
      arr.push(scalar(rest, l.no));
      pos++;
    }
    checkDedent(indent);
    return arr;
  }
  function checkDedent(indent) {
    if (pos < lines.length && lines[pos].indent > indent) {
      throw new Error(`YAML line ${lines[pos].no}: unexpected indentation`);
    }
  }
  if (lines.length === 0) return null;
  const root = node(-1);
  if (pos < lines.length) throw new Error(`YAML line ${lines[pos].no}: unexpected indentation`);
  return root;
}

/** Compose variable interpolation with an environment (default: none set). */
export function interpolate(value, env = {}) {
  if (typeof value !== 'string') return value;
  return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?\}|\$\$/g, (all, name, op, arg) => {
    if (all === '$$') return '$';
    const v = env[name];
    if (op === ':-') return v ? v : arg;
    if (op === '-') return v ?? arg;
    if (op === ':?' || op === '?') {
      if (op === ':?' ? !v : v === undefined) throw new Error(`compose: ${name} is required (${arg})`);
      return v;
    }
    return v ?? '';
  });
}

/** "HOST:CONTAINER[/proto]" or "IP:HOST:CONTAINER" -> {container, proto} */
export function composePort(entry) {
  const s = interpolate(String(entry));
  const m = s.match(/(?:^|:)(\d+)(?:\/(tcp|udp))?$/);
  if (!m) throw new Error(`compose: cannot read port "${entry}"`);
  return { container: Number(m[1]), proto: m[2] ?? 'tcp' };
}

/** "SOURCE:TARGET[:MODE]" -> {source, target, mode} */
export function composeVolume(entry) {
  const parts = interpolate(String(entry)).split(':');
  if (parts.length < 2 || parts.length > 3) throw new Error(`compose: cannot read volume "${entry}"`);
  return { source: parts[0], target: parts[1], mode: parts[2] ?? 'rw' };
}

export function composeEnv(env) {
  if (env == null) return {};
  if (Array.isArray(env)) {
    return Object.fromEntries(env.map((e) => { const i = String(e).indexOf('='); return i < 0 ? [e, null] : [e.slice(0, i), e.slice(i + 1)]; }));
  }
  return env;
}

// ---------------------------------------------------------------- Caddyfile

/** Site blocks of a Caddyfile: [{address, directives: [[name, ...args]]}] (one level). */
export function parseCaddyfile(text) {
  const sites = [];
  let depth = 0, cur = null;
  text.split('\n').forEach((raw, i) => {
    const line = raw.replace(/(^|\s)#.*$/, '').trim();
    if (!line) return;
    const no = i + 1;
    if (depth === 0) {
      const m = line.match(/^(\S+(?:\s*,\s*\S+)*)\s*\{$/);
      if (!m) throw new Error(`Caddyfile line ${no}: expected "<site address> {"`);
      cur = { address: m[1], directives: [] };
      sites.push(cur);
      depth = 1;
      return;
    }
    if (line === '}') { depth--; return; }
    const words = line.replace(/\{$/, '').trim().split(/\s+/);
    if (depth === 1) cur.directives.push(words);
    if (line.endsWith('{')) depth++;
  });
  if (depth !== 0) throw new Error('Caddyfile: unbalanced braces');
  return sites;
}

// ---------------------------------------------------------------- the project

export function listFiles(dir, exts) {
  if (!fs.existsSync(dir)) return [];
  const out = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...listFiles(p, exts));
    else if (exts.some((x) => e.name.endsWith(x))) out.push(p);
  }
  return out;
}

/** Reads every self-hosting file of the repository at `root`. */
export function readProject(root) {
  const read = (p) => fs.readFileSync(path.join(root, p), 'utf8');
  const maybe = (p) => (fs.existsSync(path.join(root, p)) ? read(p) : null);
  return {
    root,
    dockerfile: read('docker/Dockerfile'),
    compose: read('docker/compose.yaml'),
    caddyfile: read('docker/Caddyfile'),
    dockerignore: maybe('.dockerignore') ?? '',
    testScript: read('scripts/test.sh'),
    installScript: read('scripts/install-deps.sh'),
    readme: maybe('README.md') ?? '',
    configDoc: maybe('docs/configuration.md') ?? '',
    ciRun: maybe('.ci/run') ?? '',
    cmake: listFiles(root, ['CMakeLists.txt'])
      .filter((p) => !p.includes(`${path.sep}node_modules${path.sep}`) && !path.relative(root, p).startsWith('build'))
      .map((p) => fs.readFileSync(p, 'utf8')).join('\n'),
    serverSource: listFiles(path.join(root, 'server'), ['.cpp', '.hpp', '.h', '.cc'])
      .map((p) => fs.readFileSync(p, 'utf8')).join('\n'),
  };
}

/** The facts the Dockerfile states, with problems found while reading them. */
export function dockerFacts(project) {
  const problems = [];
  const all = parseDockerfile(project.dockerfile);
  const st = stages(all);
  const runtime = st[st.length - 1];
  const one = (stage, op) => {
    const found = stage.instructions.filter((i) => i.op === op);
    if (found.length !== 1) problems.push(`final stage: expected one ${op}, found ${found.length}`);
    return found[found.length - 1];
  };
  const expose = one(runtime, 'EXPOSE');
  const volume = one(runtime, 'VOLUME');
  const health = one(runtime, 'HEALTHCHECK');
  const user = one(runtime, 'USER');
  const entry = one(runtime, 'ENTRYPOINT') ?? one(runtime, 'CMD');
  const healthArgs = health ? execArgs(health.args.replace(/^(--\S+\s+)*CMD\s+/, '')) : [];
  const url = healthArgs.find((a) => /^https?:\/\//.test(a)) ?? '';
  let healthUrl = null;
  try { healthUrl = new URL(url); } catch { problems.push(`HEALTHCHECK has no URL: ${health?.args}`); }
  let vol = volume ? volume.args.trim() : '';
  if (vol.startsWith('[')) vol = JSON.parse(vol)[0];
  return {
    problems,
    stages: st,
    runtime,
    env: envOf(runtime),
    exposePort: expose ? Number(expose.args.split(/[ /]/)[0]) : NaN,
    volume: vol,
    healthArgs,
    healthUrl,
    user: user?.args.trim(),
    entrypoint: entry ? execArgs(entry.args) : [],
  };
}

/** Dockerfile: sources, stages, scripts, runtime settings. */
export function checkDockerfile(project) {
  const f = dockerFacts(project);
  const problems = [...f.problems];
  const ignored = dockerignore(project.dockerignore);
  const stageNames = new Set(f.stages.map((s) => s.name));

  if (f.stages.length < 2) problems.push('expected a multi-stage build (build + runtime)');
  for (const s of f.stages) {
    if (!/^debian:(12|bookworm)(-slim)?$/.test(s.image) && !stageNames.has(s.image)) {
      problems.push(`stage ${s.name}: base image ${s.image} is not Debian 12`);
    }
  }
  if (!/^debian:(12|bookworm)-slim$/.test(f.runtime.image)) problems.push(`runtime stage should be debian:12-slim, is ${f.runtime.image}`);

  // Every COPY from the build context exists and is not excluded by .dockerignore.
  const copiedTo = {};
  for (const s of f.stages) {
    for (const ins of s.instructions.filter((i) => i.op === 'COPY' || i.op === 'ADD')) {
      if (ins.op === 'ADD') problems.push(`line ${ins.line}: use COPY, not ADD`);
      const c = parseCopy(ins.args);
      for (const src of c.sources) copiedTo[path.posix.basename(src.replace(/\/+$/, ''))] = c.dest;
      if (c.flags.from) {
        if (!stageNames.has(c.flags.from)) problems.push(`line ${ins.line}: COPY --from=${c.flags.from} names no stage`);
        continue;
      }
      for (const src of c.sources) {
        if (src === '.') continue;
        if (src.includes('*')) { problems.push(`line ${ins.line}: wildcard COPY source ${src} cannot be checked`); continue; }
        if (!fs.existsSync(path.join(project.root, src))) problems.push(`line ${ins.line}: COPY source ${src} does not exist in the repository`);
        else if (ignored(src)) problems.push(`line ${ins.line}: COPY source ${src} is excluded by .dockerignore`);
      }
    }
  }
  for (const needed of ['scripts', 'CMakeLists.txt', 'core', 'protocol', 'server', 'web-client', 'cmake']) {
    if (fs.existsSync(path.join(project.root, needed)) && ignored(needed)) problems.push(`.dockerignore excludes ${needed}, which the build needs`);
  }

  // The build stage runs the same scripts as the test command.
  const build = f.stages[0];
  const runText = build.instructions.filter((i) => i.op === 'RUN').map((i) => i.args).join('\n');
  const scriptsIn = (t) => new Set([...t.matchAll(/scripts\/([\w.-]+\.sh)/g)].map((m) => m[1]));
  const inBuild = scriptsIn(runText);
  const inTest = scriptsIn(project.testScript);
  for (const s of ['install-deps.sh', 'build.sh']) {
    if (!inBuild.has(s)) problems.push(`the build stage does not run scripts/${s}`);
    if (!inTest.has(s)) problems.push(`scripts/test.sh does not run scripts/${s}`);
  }
  for (const s of inBuild) if (!inTest.has(s)) problems.push(`the build stage runs scripts/${s}, which scripts/test.sh does not`);
  for (const opt of runText.match(/install-deps\.sh\s+(--[\w-]+)/g) ?? []) {
    const o = opt.split(/\s+/)[1];
    if (!project.installScript.includes(`${o})`)) problems.push(`install-deps.sh has no option ${o}`);
  }
  const runtimeRun = f.runtime.instructions.filter((i) => i.op === 'RUN').map((i) => i.args).join('\n');
  for (const o of runtimeRun.match(/install-deps\.sh\s+(--[\w-]+)/g) ?? []) {
    const opt = o.split(/\s+/)[1];
    if (!project.installScript.includes(`${opt})`)) problems.push(`install-deps.sh has no option ${opt}`);
  }
  if (!/install-deps\.sh\s+--runtime-only/.test(runtimeRun)) problems.push('the runtime stage does not run install-deps.sh --runtime-only');

  // The server binary comes from the build stage's build folder and is a CMake target.
  const buildDir = (runText.match(/scripts\/build\.sh\s+([^\s&;|]+)/) ?? [])[1] ?? 'build';
  const workdir = (build.instructions.filter((i) => i.op === 'WORKDIR').pop()?.args ?? '/').trim();
  const serverCopy = f.runtime.instructions.filter((i) => i.op === 'COPY')
    .map((i) => parseCopy(i.args)).find((c) => c.flags.from && c.sources.some((s) => s.endsWith('/carcassonne-server')));
  if (!serverCopy) problems.push('the runtime stage copies no carcassonne-server from the build stage');
  else if (serverCopy.sources[0] !== path.posix.join(workdir, buildDir, 'carcassonne-server')) {
    problems.push(`the server is copied from ${serverCopy.sources[0]}, but build.sh builds into ${path.posix.join(workdir, buildDir)}`);
  }
  if (project.cmake && !/add_executable\(\s*carcassonne-server\b/.test(project.cmake)) {
    problems.push('no CMakeLists.txt defines the executable carcassonne-server (yet?)');
  }

  // Runtime: what the image copies is what its settings point at.
  const serverPath = serverCopy ? (serverCopy.dest.endsWith('/') ? serverCopy.dest + 'carcassonne-server' : serverCopy.dest) : '';
  if (f.entrypoint[0] !== serverPath) problems.push(`ENTRYPOINT runs ${f.entrypoint[0]}, the server is at ${serverPath}`);
  if (f.healthArgs[0] !== serverPath) problems.push(`HEALTHCHECK runs ${f.healthArgs[0]}, the server is at ${serverPath}`);
  if (!f.healthArgs.includes('--probe')) problems.push('HEALTHCHECK does not use the server\'s --probe mode');
  const webDest = (copiedTo['web-client'] ?? '').replace(/\/+$/, '');
  if (!webDest) problems.push('the runtime stage does not copy web-client/');
  if (f.env.WEB_ROOT !== webDest) problems.push(`WEB_ROOT=${f.env.WEB_ROOT}, but web-client is copied to ${webDest}`);
  if (f.env.DATA_DIR !== f.volume) problems.push(`DATA_DIR=${f.env.DATA_DIR}, but the VOLUME is ${f.volume}`);
  if (Number(f.env.PORT) !== f.exposePort) problems.push(`PORT=${f.env.PORT}, but EXPOSE ${f.exposePort}`);
  if (f.env.HOST !== '0.0.0.0') problems.push(`HOST=${f.env.HOST}: a container must listen on 0.0.0.0`);
  if (f.healthUrl && Number(f.healthUrl.port || 80) !== f.exposePort) problems.push(`HEALTHCHECK probes port ${f.healthUrl.port}, EXPOSE is ${f.exposePort}`);
  if (f.healthUrl && f.healthUrl.pathname !== '/healthz') problems.push(`HEALTHCHECK probes ${f.healthUrl.pathname}, the server's health path is /healthz`);
  if (!f.user || f.user === 'root' || f.user === '0') problems.push('the runtime stage must run as a non-root USER');
  else if (!new RegExp(`useradd[^\\n]*\\b${f.user}\\b`).test(runtimeRun)) problems.push(`USER ${f.user} is never created`);
  return problems;
}

/** The server's defaults as the source states them (only when server sources exist). */
export function checkServerSource(project, facts = dockerFacts(project)) {
  const problems = [];
  if (!project.serverSource) return problems;
  if (!new RegExp(`\\b${facts.exposePort}\\b`).test(project.serverSource)) {
    problems.push(`the server source never mentions port ${facts.exposePort} (EXPOSE): is its default port different?`);
  }
  if (facts.healthUrl && !project.serverSource.includes(`"${facts.healthUrl.pathname}"`)) {
    problems.push(`the server source has no "${facts.healthUrl.pathname}" route`);
  }
  return problems;
}

/** compose.yaml: parses, and agrees with the Dockerfile and the Caddyfile. */
export function checkCompose(project, facts = dockerFacts(project)) {
  const problems = [];
  let doc;
  try { doc = parseYaml(project.compose); } catch (e) { return [`compose.yaml does not parse: ${e.message}`]; }
  const services = doc?.services;
  if (!services || typeof services !== 'object') return ['compose.yaml has no services'];
  const app = services.carcassonne;
  if (!app) return ['compose.yaml has no service "carcassonne"'];
  const composeDir = path.join(project.root, 'docker');

  const build = app.build ?? {};
  const context = path.resolve(composeDir, build.context ?? '.');
  if (context !== path.resolve(project.root)) problems.push(`build context ${build.context} is not the repository root`);
  const dockerfile = path.resolve(context, build.dockerfile ?? 'Dockerfile');
  if (!fs.existsSync(dockerfile)) problems.push(`build.dockerfile ${build.dockerfile} does not exist`);
  else if (dockerfile !== path.join(project.root, 'docker', 'Dockerfile')) problems.push(`build.dockerfile is ${build.dockerfile}, not docker/Dockerfile`);

  const ports = (app.ports ?? []).map(composePort);
  if (!ports.some((p) => p.container === facts.exposePort)) problems.push(`service carcassonne publishes no container port ${facts.exposePort} (EXPOSE)`);
  for (const p of ports) if (p.container !== facts.exposePort) problems.push(`service carcassonne publishes ${p.container}, the server listens on ${facts.exposePort}`);

  const vols = (app.volumes ?? []).map(composeVolume);
  const data = vols.find((v) => v.target === facts.volume);
  if (!data) problems.push(`service carcassonne mounts nothing on ${facts.volume} (the image's VOLUME)`);
  const declared = doc.volumes ?? {};
  for (const [name, svc] of Object.entries(services)) {
    for (const v of (svc.volumes ?? []).map(composeVolume)) {
      const isPath = /^[./~]/.test(v.source);
      if (!isPath && !Object.hasOwn(declared, v.source)) problems.push(`service ${name}: volume ${v.source} is not declared under volumes:`);
      if (isPath && !fs.existsSync(path.resolve(composeDir, v.source))) problems.push(`service ${name}: ${v.source} does not exist`);
    }
  }
  if (app.restart !== 'unless-stopped' && app.restart !== 'always') problems.push(`service carcassonne: restart is ${app.restart}`);
  const env = composeEnv(app.environment);
  if (!Object.hasOwn(env, 'BASE_URL')) problems.push('service carcassonne does not pass BASE_URL');
  for (const k of Object.keys(env)) {
    if (['PORT', 'DATA_DIR', 'WEB_ROOT', 'HOST'].includes(k) && interpolate(String(env[k])) !== String(facts.env[k])) {
      problems.push(`compose sets ${k}=${env[k]}, which disagrees with the image (${facts.env[k]})`);
    }
  }
  if (app.healthcheck?.test) {
    const t = [].concat(app.healthcheck.test).join(' ');
    if (!t.includes(`:${facts.exposePort}/healthz`)) problems.push('compose healthcheck does not probe /healthz on the server port');
  }

  // The optional HTTPS proxy.
  const caddy = services.caddy;
  if (!caddy) { problems.push('compose.yaml has no caddy service'); return problems; }
  if (!(caddy.profiles ?? []).includes('https')) problems.push('the caddy service is not under the profile "https"');
  const caddyVols = (caddy.volumes ?? []).map(composeVolume);
  const cf = caddyVols.find((v) => v.target === '/etc/caddy/Caddyfile');
  if (!cf) problems.push('the caddy service does not mount a Caddyfile on /etc/caddy/Caddyfile');
  else if (path.resolve(composeDir, cf.source) !== path.join(project.root, 'docker', 'Caddyfile')) problems.push(`the caddy service mounts ${cf.source}, not docker/Caddyfile`);
  if (!caddyVols.some((v) => v.target === '/data')) problems.push('the caddy service keeps its certificates nowhere (/data)');
  const caddyPorts = (caddy.ports ?? []).map(composePort).map((p) => p.container);
  for (const p of [80, 443]) if (!caddyPorts.includes(p)) problems.push(`the caddy service does not publish ${p}`);

  let sites = [];
  try { sites = parseCaddyfile(project.caddyfile); } catch (e) { problems.push(e.message); }
  if (sites.length === 0) problems.push('the Caddyfile has no site');
  for (const site of sites) {
    const proxies = site.directives.filter((d) => d[0] === 'reverse_proxy');
    if (proxies.length === 0) problems.push(`Caddyfile site ${site.address} has no reverse_proxy`);
    for (const d of proxies) {
      for (const upstream of d.slice(1)) {
        const m = upstream.replace(/^https?:\/\//, '').match(/^([\w.-]+):(\d+)$/);
        if (!m) { problems.push(`Caddyfile: cannot read upstream ${upstream}`); continue; }
        if (!services[m[1]]) problems.push(`Caddyfile proxies to ${m[1]}, which is no compose service`);
        if (Number(m[2]) !== facts.exposePort) problems.push(`Caddyfile proxies to port ${m[2]}, the server listens on ${facts.exposePort}`);
      }
    }
    const vars = [...site.address.matchAll(/\{\$([A-Za-z_]\w*)/g)].map((m) => m[1]);
    if (vars.length === 0) problems.push(`Caddyfile site ${site.address} does not take its address from {$DOMAIN}`);
    const caddyEnv = composeEnv(caddy.environment);
    for (const v of vars) if (!Object.hasOwn(caddyEnv, v)) problems.push(`the caddy service does not pass ${v}, which the Caddyfile reads`);
  }
  return problems;
}

/** README and .ci/run tell the same commands the scripts implement. */
export function checkDocs(project) {
  const problems = [];
  const r = project.readme;
  for (const needle of ['bash scripts/run.sh', 'bash scripts/test.sh', 'docker compose -f docker/compose.yaml up -d', '--profile https', 'DOMAIN', 'BASE_URL', '.backup', 'Upgrade', 'X-Forwarded-Proto', 'docs/protocol-details.md']) {
    if (!r.includes(needle)) problems.push(`README.md does not mention ${needle}`);
  }
  for (const m of r.matchAll(/\]\(([^)\s]+)\)/g)) {
    const target = m[1].split('#')[0];
    if (!target || /^[a-z]+:/.test(target)) continue;
    if (!fs.existsSync(path.join(project.root, target))) problems.push(`README.md links to ${target}, which does not exist`);
  }
  const ciCommands = project.ciRun.split('\n').filter((l) => l.trim() && !l.startsWith('#') && !/^(set|cd)\b/.test(l.trim()));
  if (ciCommands.length !== 1 || ciCommands[0].trim() !== 'bash scripts/test.sh') problems.push(`.ci/run should run exactly "bash scripts/test.sh", runs ${JSON.stringify(ciCommands)}`);
  return problems;
}
