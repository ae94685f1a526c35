// The web client's part of the River and the Abbot (docs/expansions.md): tile ids beyond
// one letter, the water and gardens on the tiles, the abbot's spots and the take-back in
// the draft and in the play message, the game's tile set, the log of a take-back, the end
// screen's columns, and expansion records in the browser's base-game replay.

import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { cleanCatalog } from '../../web-client/js/tiles/tile-catalog.js';
import { tileShapes, meepleAnchor, rotatePort, distToPolyline } from '../../web-client/js/tiles/geometry.js';
import { tileBodyMarkup } from '../../web-client/js/tiles/tileart.js';
import { RIVER_HALF_WIDTH } from '../../web-client/js/expansions/river/geometry.js';
import { entrySpots, entryReturn, playFields, parseSpot, choiceFits, spotFigures, spotChoice } from '../../web-client/js/game/figure-spots.js';
import { describeSpots, closestPair } from '../../web-client/js/board/spots.js';
import { expansionsOf, toggleMessage, localGameCatalog } from '../../web-client/js/tiles/game-tiles.js';
import { breakdownKinds } from '../../web-client/js/end/breakdown.js';
import { startDraft, toggleMeeple, rotateDraft, cycleMeeple, playMessage, draftView } from '../../web-client/js/turn/draft.js';
import { FeatureMap } from '../../web-client/js/game/features.js';
import { narrate } from '../../web-client/js/game/narrate.js';
import { buildReplay, problemText } from '../../web-client/js/replay/replay.js';
import { cleanBoard, validPlacement, draftMarkup } from '../../web-client/js/board/boardart.js';
import { setLanguage } from '../../web-client/js/i18n/i18n.js';

const load = (name) => JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url)));
const game = cleanCatalog(load('tiles-river-abbot.json'));
const all = cleanCatalog(load('tiles-all.json'));
const data = (name) => JSON.parse(readFileSync(new URL(`../core/data/${name}`, import.meta.url)));

test('expansion tile ids pass the catalog and the board; junk does not', () => {
  for (const id of ['RS', 'RL', 'R1', 'R6g', 'Eg', 'Vg']) assert.ok(game.tiles[id], `${id} in the catalog`);
  assert.equal(all.catalog.tiles.length, 43, 'the full catalog: 24 base tiles, 10 river tiles, 9 garden copies');
  assert.ok(validPlacement({ x: 0, y: 0, rotation: 0, tile: 'R6g' }));
  for (const bad of ['r1', 'R6g"', '<b>', 'RIVERS', '']) assert.equal(validPlacement({ x: 0, y: 0, rotation: 0, tile: bad }), false, bad);
  const board = cleanBoard({ board: [{ x: 1, y: 0, rotation: 90, tile: 'Vg', meeple: { seat: 1, at: 'G', figure: 'abbot' } }] });
  assert.deepEqual(board[0].meeple, { seat: 1, at: 'G', figure: 'abbot' });
  assert.equal(rotatePort('G', 270), 'G');
});

test('river tiles: water in every river tile, no meeple spot in the water, the lake bigger than the spring', () => {
  const river = game.catalog.tiles.filter((t) => t.expansion === 'river');
  assert.equal(river.length, 10);
  for (const def of river) {
    const s = tileShapes(def);
    assert.ok(s.rivers.length === 1, `${def.letter}: one river`);
    assert.match(tileBodyMarkup(def), /stroke="url\(#pat-water\)"/, `${def.letter}: drawn as water`);
    for (const f of def.features.filter((x) => x.kind !== 'river')) {
      for (const rot of [0, 90, 180, 270]) {
        const port = rotatePort(f.ports[0], rot);
        const a = meepleAnchor(def, rot, port);
        assert.ok(a && a[0] > 0 && a[0] < 100 && a[1] > 0 && a[1] < 100, `${def.letter} ${f.kind} ${f.id}: a spot on the tile`);
      }
      const a = s.anchors[f.id];
      const d = distToPolyline(a, s.rivers[0].points);
      assert.ok(d > RIVER_HALF_WIDTH + 2, `${def.letter} ${f.kind} ${f.id}: its spot (${a}) is ${d.toFixed(1)} from the water`);
    }
  }
  assert.ok(tileShapes(game.tiles.RL).rivers[0].pond > tileShapes(game.tiles.RS).rivers[0].pond);
  // The two banks of a straight river are two fields with spots on either side of it.
  const r1 = tileShapes(game.tiles.R1);
  const ys = r1.fields.map((f) => r1.anchors[f.id][1]).sort((a, b) => a - b);
  assert.ok(ys[0] < 50 - RIVER_HALF_WIDTH && ys[1] > 50 + RIVER_HALF_WIDTH, `fields on both banks: ${ys}`);
});

test('gardens: drawn only on garden copies, with their spot off the roads and walls', () => {
  for (const def of game.catalog.tiles) {
    const hasGarden = def.features.some((f) => f.kind === 'garden');
    assert.equal(/data-garden/.test(tileBodyMarkup(def)), hasGarden, def.letter);
    if (!hasGarden) continue;
    const s = tileShapes(def);
    const g = s.garden.center;
    for (const r of s.roads) assert.ok(distToPolyline(g, r.points) > 15, `${def.letter}: the garden clears its road`);
    for (const other of def.features.filter((f) => f.kind !== 'garden' && f.kind !== 'river')) {
      const a = s.anchors[other.id];
      assert.ok(Math.hypot(a[0] - g[0], a[1] - g[1]) > 12, `${def.letter}: the ${other.kind} spot is apart from the garden`);
    }
  }
  assert.equal(/data-garden/.test(tileBodyMarkup(game.tiles.E)), false);
});

test('the abbot in the draft: its own spots, the take-back, and what play sends', () => {
  const legal = [
    { x: 1, y: 0, rotation: 0, meeples: ['C', 'S'], figures: { abbot: ['C'] }, return: null, return_points: 0 },
    { x: 1, y: 0, rotation: 90, meeples: ['C'], figures: { abbot: ['C'] }, return: { x: 4, y: 2 }, return_points: 6 },
    { x: 2, y: 0, rotation: 0, meeples: ['N'], figures: { abbot: [] }, return: { x: 4, y: 2 }, return_points: 7 },
  ];
  const state = { phase: 'playing', turn: { number: 5, seat: 0, tile: 'B', legal }, players: [{ seat: 0, color: 'red' }] };
  assert.deepEqual(entrySpots(legal[0]), ['C', 'S', 'abbot:C']);
  assert.deepEqual(entryReturn(legal[2]), { x: 4, y: 2, points: 7 });
  assert.equal(entryReturn(legal[0]), null);
  assert.deepEqual(spotFigures(entrySpots(legal[0])), [{ figure: 'meeple', ports: ['C', 'S'] }, { figure: 'abbot', ports: ['C'] }]);
  assert.deepEqual(spotFigures(['abbot:G', 'return', 'king:C']), [{ figure: 'meeple', ports: [] }, { figure: 'abbot', ports: ['G'] }]);
  assert.deepEqual([spotChoice('C', 'abbot'), spotChoice('C', 'meeple'), spotChoice('S')], ['abbot:C', 'C', 'S']);

  let d = startDraft(state, 1, 0);
  d = toggleMeeple(d, 'abbot:C');
  assert.deepEqual(playMessage(d, 9), { type: 'play', version: 9, x: 1, y: 0, rotation: 0, meeple: 'C', figure: 'abbot' });
  assert.deepEqual(draftView(d, { state, seat: 0 }).spots, ['C', 'S', 'abbot:C']);
  // On the board (spots.js, boardart.js): the abbot's spot and the monk's share port C, are
  // laid out apart, are named for their figure, and only the abbot's is the chosen one.
  const dv = { ...draftView(d, { state, seat: 0 }), meeple: d.meeple };
  setLanguage('en');
  dv.spots = describeSpots({ ...state, board: [] }, game.tiles, dv, 24, 0, spotFigures(dv.spots));
  assert.deepEqual(dv.spots.map((sp) => [sp.figure, sp.port]), [['meeple', 'C'], ['abbot', 'C']], 'tile B has no road: S has no spot');
  assert.ok(closestPair(dv.spots) >= 24, 'no ring covers another');
  assert.equal(dv.spots[1].name, 'abbot on the monastery, 1 of 9 tiles around');
  assert.equal(dv.spots[1].points, 'worth 1 point so far');
  const markup = draftMarkup(dv, game.tiles, 24);
  assert.match(markup, /class="spot chosen spot-abbot"[^>]*data-spot="C" data-figure="abbot"/);
  assert.equal((markup.match(/class="spot chosen/g) ?? []).length, 1, 'the monk on the same port is not chosen');
  const garden = { x: 0, y: 1, tile: 'Eg', rotation: 0, spots: ['abbot:G'] };
  const [g] = describeSpots({ ...state, board: [{ x: 0, y: 0, tile: 'RS', rotation: 0 }] }, game.tiles, garden, 24, 0, spotFigures(garden.spots));
  assert.deepEqual([g.kind, g.name], ['garden', 'abbot in the garden, 2 of 9 tiles around'], 'a garden counts the tiles around it');
  setLanguage('de');
  assert.equal(describeSpots({ ...state, board: [] }, game.tiles, dv, 24, 0, spotFigures(['abbot:C']))[0].name.split(',')[0], 'Abt im Kloster');
  setLanguage('en');
  d = rotateDraft(d);
  assert.equal(d.meeple, 'abbot:C', 'the abbot stays on a rotation that offers it');
  d = toggleMeeple(d, 'return');
  assert.deepEqual(playMessage(d, 9), { type: 'play', version: 9, x: 1, y: 0, rotation: 90, meeple: null, return: { x: 4, y: 2 } });
  d = rotateDraft(d);
  assert.equal(d.meeple, null, 'a rotation without the take-back drops it');
  assert.deepEqual(playMessage(d, 9), { type: 'play', version: 9, x: 1, y: 0, rotation: 0, meeple: null });
  // M goes through the meeple spots, then the abbot's, then none.
  const seen = [];
  for (let i = 0; i < 4; i++) {
    d = cycleMeeple(d);
    seen.push(d.meeple);
  }
  assert.deepEqual(seen, ['C', 'S', 'abbot:C', null], 'no take-back on this rotation');
  d = cycleMeeple(rotateDraft(d));
  assert.deepEqual([d.idx, d.meeple], [1, 'C']);
  d = cycleMeeple(cycleMeeple(d));
  assert.equal(d.meeple, 'return', 'M reaches the take-back after the spots');
  d = rotateDraft(d);
  d = toggleMeeple(d, 'S');
  assert.deepEqual(playMessage(d, 9), { type: 'play', version: 9, x: 1, y: 0, rotation: 0, meeple: 'S' });

  for (const bad of ['abbot:ZZ', 'king:C', 'abbot:', '<b>', null, 7]) assert.equal(parseSpot(bad), null, String(bad));
  assert.deepEqual(playFields(legal[0], 'abbot:ZZ'), { meeple: null });
  assert.deepEqual(playFields(legal[0], 'return'), { meeple: null }, 'no take-back where none is offered');
  assert.equal(choiceFits(legal[0], 'return'), false);
  assert.equal(choiceFits(legal[2], 'abbot:C'), false);
});

test('the game\'s tile set and the lobby\'s toggles', () => {
  assert.deepEqual(expansionsOf({ settings: { expansions: ['abbot', 'river', 'tunnels'] } }), ['river', 'abbot']);
  assert.deepEqual(expansionsOf({ settings: {} }), []);
  assert.deepEqual(toggleMessage(['abbot'], 'river', true), { type: 'settings', expansions: ['river', 'abbot'] });
  assert.deepEqual(toggleMessage(['river', 'abbot'], 'river', false), { type: 'settings', expansions: ['abbot'] });
  assert.equal(toggleMessage([], 'tunnels', true), null);
  const ids = (exps) => localGameCatalog(all.catalog, exps).tiles.map((t) => t.letter);
  assert.equal(ids([]).length, 24);
  assert.ok(!ids([]).some((id) => id.length > 1), 'the base game: base tiles only');
  assert.ok(ids(['abbot']).includes('Eg') && !ids(['abbot']).includes('R6g') && !ids(['abbot']).includes('R1'));
  assert.ok(ids(['river']).includes('R6') && !ids(['river']).includes('R6g') && !ids(['river']).includes('Eg'));
  assert.deepEqual(ids(['river', 'abbot']).sort(), game.catalog.tiles.map((t) => t.letter).sort(), 'river + abbot: the server\'s set');
});

test('the end screen\'s columns: gardens and abbots only when the result has them', () => {
  assert.deepEqual(breakdownKinds([{ game: { road: 1 }, end: { field: 2 } }]), ['road', 'city', 'monastery', 'field']);
  assert.deepEqual(breakdownKinds([{ game: { road: 0, garden: 0, abbot: 4 }, end: { garden: 3 } }]), ['road', 'city', 'monastery', 'field', 'garden', 'abbot']);
});

test('the log of the Abbot\'s worked example: the abbot placed, taken back (+4), placed again', () => {
  // The events the server sends for tests/core/data/abbot_worked_example.json (start tile D).
  const ex = data('abbot_worked_example.json');
  const events = [{ id: 0, type: 'started' }];
  ex.moves.forEach((m, i) => {
    events.push({ id: events.length, type: 'placed', turn: i + 1, seat: i % 2, tile: m.tile, x: m.x, y: m.y, rotation: m.rotation, meeple: m.meeple ?? null, ...(m.figure ? { figure: m.figure } : {}), ...(m.return ? { return: m.return } : {}) });
    if (m.return) events.push({ id: events.length, type: 'scored', turn: i + 1, kind: 'garden', end: false, abbot_return: true, points: 4, seats: [1], tiles: 1, cells: [m.return] });
  });
  const { lines, map } = narrate(events, all.tiles);
  const placed = lines.filter((l) => l.type === 'placed');
  assert.deepEqual(placed.map((l) => [l.what, l.feature?.kind ?? null, l.figure]), [
    ['claimed', 'monastery', 'abbot'], ['claimed', 'garden', 'abbot'], ['extendedFree', 'road', null],
    ['plain', null, null], ['claimed', 'road', null], ['claimed', 'garden', 'abbot'],
  ]);
  const back = lines.find((l) => l.type === 'abbot_back');
  assert.deepEqual([back.kind, back.points, back.seats, back.cells], ['garden', 4, [1], [[1, 0]]]);
  // On the board after it: seat 0's abbot on B, seat 1's on Eg, seat 0's meeple on the road;
  // the garden of Vg is empty again.
  const left = map.occupied().map((f) => `${f.kind}:${f.meeples.map((m) => `${m.seat}${m.figure ? `/${m.figure}` : ''}@${m.x},${m.y}`).join(' ')}`).sort();
  assert.deepEqual(left, ['garden:1/abbot@-1,1', 'monastery:0/abbot@0,1', 'road:0@1,1']);
});

test('a garden is complete when its eight neighbours are filled', () => {
  const map = new FeatureMap(all.tiles);
  map.place({ tile: 'D', x: 0, y: 0, rotation: 0 });
  map.place({ tile: 'Ug', x: 0, y: 1, rotation: 0, meeple: 'G', figure: 'abbot', seat: 0 });
  const around = [[-1, 0], [1, 0], [-1, 1], [1, 1], [-1, 2], [0, 2]];
  for (const [x, y] of around) assert.equal(map.place({ tile: 'B', x, y, rotation: 0 }).completed.filter((f) => f.kind === 'garden').length, 0);
  const last = map.place({ tile: 'B', x: 1, y: 2, rotation: 0 });
  const garden = last.completed.find((f) => f.kind === 'garden');
  assert.ok(garden, 'the garden completes with the eighth neighbour');
  assert.deepEqual(garden.owners, [0]);
});

test('expansion records: the browser\'s base rules refuse them with a clear word, base records replay as before', () => {
  for (const name of ['river_worked_example.json', 'abbot_worked_example.json']) {
    const r = buildReplay(data(name));
    assert.deepEqual([r.ok, r.move, r.reason.code], [false, null, 'expansions'], name);
    assert.match(problemText(r, 'en'), /^This game used expansions \((river|abbot)\): its record is replayed by the server/);
    assert.match(problemText(r, 'fr'), /rejoué par le serveur/);
    assert.match(problemText(r, 'ja'), /サーバーが再生/);
  }
  assert.equal(buildReplay({ ...data('record_format_example.json'), expansions: [] }).ok, true, 'an empty list is the base game');
  const figure = buildReplay({ ...data('record_format_example.json'), moves: [{ tile: 'B', x: 0, y: 1, rotation: 0, meeple: 'C', figure: 'abbot' }] });
  assert.deepEqual([figure.move, figure.reason.code], [0, 'figure']);
  assert.match(problemText(figure, 'en'), /no figure "abbot"/);
});

test('a room\'s expansion game replays from its events: figures, the take-back, scores, the bag', async () => {
  const { replayFromState } = await import('../../web-client/js/replay/event-replay.js');
  const ex = data('abbot_worked_example.json');
  const events = [{ id: 0, type: 'started' }];
  ex.moves.forEach((m, i) => {
    events.push({ id: events.length, type: 'placed', turn: i + 1, seat: i % 2, tile: m.tile, x: m.x, y: m.y, rotation: m.rotation, meeple: m.meeple ?? null, ...(m.figure ? { figure: m.figure } : {}), ...(m.return ? { return: m.return } : {}) });
    if (m.return) events.push({ id: events.length, type: 'scored', turn: i + 1, kind: 'garden', end: false, abbot_return: true, points: 4, seats: [1], tiles: 1, cells: [m.return] });
  });
  events.push({ id: events.length, type: 'scored', kind: 'monastery', end: true, points: 6, seats: [0], cells: [{ x: 0, y: 1 }] });
  const state = {
    room: 'r', phase: 'finished', settings: { expansions: ['abbot'] },
    players: [{ seat: 0, name: 'A', color: 'red', score: 10 }, { seat: 1, name: 'B', color: 'blue', score: 8, bot: 'easy' }],
    board: [{ x: 0, y: 0, tile: 'D', rotation: 0, meeple: null }], events,
    result: { final_scores: [10, 8], winners: [0], breakdown: [] },
  };
  const counts = { D: 4, B: 4, E: 4, Eg: 1, U: 7, Vg: 1 };
  const r = replayFromState(state, { expansions: ['abbot'], moves: ex.moves.map((m, i) => (i === 2 ? { ...m, auto: true } : m)) }, all.tiles, { bagSize: 71, counts });
  assert.equal(r.ok, true);
  assert.deepEqual([r.steps, r.frames.length, r.seatOf, r.auto], [6, 7, [0, 1, 0, 1, 0, 1], [false, false, true, false, false, false]]);
  const meeple = (f, x, y) => f.board.find((b) => b.x === x && b.y === y)?.meeple ?? null;
  assert.deepEqual(meeple(r.frames[2], 1, 0), { seat: 1, at: 'G', figure: 'abbot' });
  assert.deepEqual(r.frames[2].players.map((p) => p.figures), [{ abbot: 0 }, { abbot: 0 }]);
  assert.equal(meeple(r.frames[4], 1, 0), null, 'the take-back takes the abbot off');
  assert.deepEqual(r.frames[4].players.map((p) => [p.score, p.figures.abbot, p.meeples]), [[0, 0, 7], [4, 1, 7]]);
  assert.deepEqual(r.frames[0].turn, { number: 1, seat: 0, tile: 'B', legal: [], deadline: null });
  assert.deepEqual(r.frames[0].players.map((p) => p.tile), ['B', 'Vg'], 'each player holds their next tile');
  assert.deepEqual([r.frames[0].bag.left, r.frames[0].bag.tiles.D, r.frames[0].bag.tiles.B], [69, 3, 3]);
  assert.deepEqual(r.frames[4].events.map((e) => e.type), ['started', 'placed', 'placed', 'placed', 'placed', 'scored']);
  const last = r.frames[6];
  assert.deepEqual([last.phase, last.players.map((p) => p.score), last.result.winners, last.events.length], ['finished', [10, 8], [0], events.length]);
  assert.equal(replayFromState({ ...state, board: [] }, {}, all.tiles).ok, false, 'no start tile: not replayable here');
});

test('a record file with expansions: the server\'s replay turned into steps; its refusal named', async () => {
  const { expansionReplay } = await import('../../web-client/js/replay/server-replay.js');
  const record = data('abbot_worked_example.json');
  const answers = { '/api/replay': load('replay-abbot-example.json'), '/api/tiles?expansions=abbot': load('tiles-abbot.json') };
  const calls = [];
  const fetchFn = async (url, opts) => {
    calls.push([url, opts?.method ?? 'GET']);
    return { ok: true, status: 200, json: async () => answers[url] };
  };
  const { replay } = await expansionReplay(record, all.tiles, { fetchFn, names: (s) => `P${s + 1}` });
  assert.deepEqual(calls.sort(), [['/api/replay', 'POST'], ['/api/tiles?expansions=abbot', 'GET']]);
  assert.deepEqual([replay.steps, replay.final, replay.frames[6].phase], [6, true, 'finished']);
  assert.deepEqual(replay.frames.slice(1).map((f) => f.players.map((p) => p.score)).slice(0, 5), load('replay-abbot-example.json').scores_after_move.slice(0, 5));
  assert.deepEqual(replay.frames[6].players.map((p) => [p.name, p.score]), [['P1', 10], ['P2', 8]]);
  assert.equal(replay.frames[4].board.find((b) => b.x === 1 && b.y === 0).meeple, null, 'the abbot taken back');
  assert.ok(!replay.frames[4].events.some((e) => e.type === 'returned'), 'the replay\'s "returned" is told by its scored line');
  const refused = await expansionReplay(record, all.tiles, { fetchFn: async () => ({ ok: false, status: 422, json: async () => ({ error: 'no meeple can go there (illegal_meeple)', move: 1 }) }) });
  assert.equal(refused.problem, 'Move 2 breaks a rule: no meeple can go there (illegal_meeple).');
  const down = await expansionReplay(record, all.tiles, { fetchFn: async () => { throw new Error('offline'); } });
  assert.match(down.problem, /replayed by the server, which could not be reached/);
});
