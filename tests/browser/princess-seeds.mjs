// Finds a seed for princess-game.test.mjs (a tool, not a test): plays the test's game over the
// protocol against the test server (carcassonne-server-test, CARC_TEST_SEED), the human's
// choices from princess-plan.mjs, and prints for each seed the goals reached, the turns and
// the time. The same seed then plays the same game in the browser.
//
//   node tests/browser/princess-seeds.mjs FIRST [LAST]

import { startServer, testServerBin } from './helpers.mjs';
import { WsClient } from './wsclient.mjs';
import { cleanCatalog } from '../../web-client/js/tiles/tile-catalog.js';
import { GOALS, decide, dragonChoice, goalsIn } from './princess-plan.mjs';

export const EXPANSIONS = ['river', 'abbot', 'inns', 'traders', 'princess'];

/** The play message of a decision (princess-plan.mjs's decide). */
export function playMessage(d, version) {
  const { x, y, rotation } = d.entry;
  const msg = { type: 'play', version, x, y, rotation, meeple: null };
  if (d.kind === 'meeple') msg.meeple = d.at;
  if (d.kind === 'portal') Object.assign(msg, { meeple: d.target.at, portal: { x: d.target.x, y: d.target.y } });
  if (d.kind === 'princess' || d.kind === 'fairy') msg[d.kind] = { ...d.target };
  return msg;
}

async function playSeed(seed) {
  const server = await startServer({ bin: testServerBin, env: { CARC_TEST_SEED: String(seed) } });
  const t0 = Date.now();
  try {
    const { tiles } = cleanCatalog(await (await fetch(`${server.base}/api/tiles`)).json());
    const { room } = await (await fetch(`${server.base}/api/rooms`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' })).json();
    const c = await WsClient.connect(server.base, room);
    c.send({ type: 'join', name: 'Hildegard' });
    await c.next('welcome', 0);
    c.send({ type: 'settings', expansions: EXPANSIONS });
    await c.until((x) => (x.state.settings?.expansions ?? []).length === EXPANSIONS.length, 'the expansions');
    for (const n of [2, 3]) {
      c.send({ type: 'add_bot', level: 'easy' });
      await c.until((x) => x.state.players.length === n, 'a bot');
    }
    c.send({ type: 'start' });
    await c.until((x) => x.state.phase === 'playing', 'the start');
    const done = {};
    let turns = 0;
    let seen = 0;
    const volcanoes = [];
    for (;;) {
      await c.until((x) => x.state.phase === 'finished' || (x.state.turn.stage === 'dragon' ? x.state.turn.dragon.seat === 0 : x.state.turn.seat === 0), 'my turn', 120000);
      const s = c.state;
      for (const g of Object.keys(goalsIn(s, 0, seen))) if (!done[g]) done[g] = turns;
      seen = s.events.length;
      if (s.phase === 'finished') break;
      const v = c.version;
      if (s.turn.stage === 'dragon') {
        c.send({ type: 'dragon', version: v, to: dragonChoice(s, 0) });
      } else {
        turns++;
        if (tiles[s.turn.tile]?.symbol === 'volcano') volcanoes.push(turns);
        c.send(playMessage(decide(s, 0, tiles, done), v));
      }
      await c.until((x) => x.version > v || x.messages.at(-1)?.type === 'error', 'the answer');
      if (c.messages.at(-1)?.type === 'error') throw new Error(`seed ${seed}: ${JSON.stringify(c.messages.at(-1))}`);
    }
    await c.close();
    if (process.env.DUMP) console.log(JSON.stringify(c.state.result.breakdown));
    const missing = GOALS.filter((g) => !done[g]);
    return { seed, turns, ms: Date.now() - t0, missing, at: done, volcanoes, scores: c.state.result?.final_scores };
  } finally {
    await server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const first = Number(process.argv[2] ?? 1);
  const last = Number(process.argv[3] ?? first);
  for (let seed = first; seed <= last; seed++) console.log(JSON.stringify(await playSeed(seed)));
}
