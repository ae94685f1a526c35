// The web client's part of the Princess & the Dragon (docs/web-client-expansions.md, "The
// Princess & the Dragon"), from states written after the expansion's worked example (two
// seats: P5 volcano west of the start, a portal knight on the start city, P26's princess
// sending it home, the fairy moved next to seat 1's road meeple, P12's dragon move): the
// dragon's stage as the page sees it, the figure step's portal, princess and fairy choices
// and the `play` they send, the volcano's "no figure", the log's lines, the tiles' marks,
// board entries with several figures, the fairy's column, and what the lobby offers.

import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { cleanCatalog } from '../../web-client/js/tiles/tile-catalog.js';
import { tileShapes, pointInPolygon } from '../../web-client/js/tiles/geometry.js';
import { tileMarks, markPointsCatalog } from '../../web-client/js/tiles/marks.js';
import { isMyTurn, mustAct, turnStage } from '../../web-client/js/game/state.js';
import { entryChoices, playFields } from '../../web-client/js/game/figure-spots.js';
import { startDraft, toggleMeeple, rotateDraft, cycleMeeple, playMessage } from '../../web-client/js/turn/draft.js';
import { choiceHint } from '../../web-client/js/turn/choice-hint.js';
import { cleanBoard, meeplesMarkup, expansionLayerMarkup } from '../../web-client/js/board/boardart.js';
import { narrate } from '../../web-client/js/game/narrate.js';
import { breakdownKinds, expansionLabels } from '../../web-client/js/end/breakdown.js';
import { ask, offeredIds, offerFrom, expansionIds } from '../../web-client/js/expansions/registry.js';
import { dragonStage, dragonMessage } from '../../web-client/js/expansions/princess/dragon.js';
import { portalTargets, princessTargets, fairyTargets, parseChoice } from '../../web-client/js/expansions/princess/choices.js';
import { princessAction } from '../../web-client/js/expansions/princess/board-layer.js';
import { princessLogLine } from '../../web-client/js/expansions/princess/log.js';
import { setLanguage, t, errorText, DICTS } from '../../web-client/js/i18n/i18n.js';

const { catalog, tiles } = cleanCatalog(JSON.parse(readFileSync(new URL('./fixtures/tiles-princess.json', import.meta.url))));
const players = [{ seat: 0, name: 'Ann', color: 'red', meeples: 6 }, { seat: 1, name: 'Ben', color: 'blue', meeples: 6 }];

// The board after move 5 of the example (the fairy by seat 1's road meeple at (1,0)), in the
// `meeples` form of rooms with the expansion.
const board = [
  { x: 0, y: 0, tile: 'D', rotation: 0, meeples: [] },
  { x: -1, y: 0, tile: 'P5', rotation: 0, meeples: [] },
  { x: 1, y: 0, tile: 'U', rotation: 0, meeples: [{ seat: 1, at: 'E' }] },
  { x: 2, y: 0, tile: 'P18', rotation: 0, meeples: [] },
  { x: 0, y: -1, tile: 'P26', rotation: 180, meeples: [] },
  { x: 0, y: 1, tile: 'B', rotation: 0, meeples: [{ seat: 0, at: 'C' }] },
  { x: 1, y: -1, tile: 'E', rotation: 270, meeples: [] },
];
const fairy = { x: 1, y: 0, next_to: { x: 1, y: 0, at: 'E', seat: 1 } };

// Move 6 in its dragon stage: P12 placed at (3,0) by seat 0; seat 0 made step 1 to (0,0);
// seat 1 makes step 2: (0,-1) or (0,1), not (1,0), the fairy's tile.
const dragonState = {
  phase: 'playing', players, fairy, dragon: { x: 0, y: 0 }, dragon_tiles_waiting: 0,
  board: [...board, { x: 3, y: 0, tile: 'P12', rotation: 0, meeples: [] }],
  turn: {
    number: 7, seat: 0, tile: 'P12', stage: 'dragon', legal: [], fairy: [],
    dragon: { seat: 1, step: 2, options: [{ x: 0, y: -1 }, { x: 0, y: 1 }], visited: [{ x: -1, y: 0 }, { x: 0, y: 0 }] },
  },
};

test('the dragon stage from the state: whose step, where it may go, its path; the same for a page that just reconnected', () => {
  const s = dragonStage(dragonState, 1);
  assert.equal(s.seat, 1);
  assert.equal(s.step, 2);
  assert.equal(s.placer, 0, 'turn.seat stays the placer\'s');
  assert.equal(s.mine, true);
  assert.deepEqual(s.options, [{ x: 0, y: -1 }, { x: 0, y: 1 }]);
  assert.deepEqual(s.path, [{ x: -1, y: 0 }, { x: 0, y: 0 }], 'from the volcano to the start tile, where it stands');
  assert.equal(dragonStage(dragonState, 0).mine, false);
  assert.equal(dragonStage(dragonState, null).mine, false, 'a spectator');
  // A welcome's state in the middle of the move (a reload): the same stage, nothing remembered.
  assert.deepEqual(dragonStage(JSON.parse(JSON.stringify(dragonState)), 1), s);
  assert.equal(dragonStage({ ...dragonState, turn: { ...dragonState.turn, stage: 'place' } }, 1), null);
  assert.equal(dragonStage({ ...dragonState, phase: 'finished' }, 1), null);
  // Before step 1 the dragon's own tile is its path's only point; it is drawn once.
  const first = { ...dragonState, dragon: { x: -1, y: 0 }, turn: { ...dragonState.turn, dragon: { seat: 0, step: 1, options: [{ x: 0, y: 0 }], visited: [{ x: -1, y: 0 }] } } };
  assert.deepEqual(dragonStage(first, 0).path, [{ x: -1, y: 0 }]);
});

test('a dragon step: only the stepping seat sends it, only to one of the options, with the state\'s version', () => {
  const mine = dragonStage(dragonState, 1);
  assert.deepEqual(dragonMessage(mine, { x: 0, y: 1 }, 41), { type: 'dragon', version: 41, to: { x: 0, y: 1 } });
  assert.equal(dragonMessage(mine, { x: 1, y: 0 }, 41), null, 'the fairy\'s tile is no option');
  assert.equal(dragonMessage(dragonStage(dragonState, 0), { x: 0, y: 1 }, 41), null, 'the placer waits for seat 1');
  assert.deepEqual(princessAction('dragon:0,-1', { state: dragonState, seat: 1, version: 7 }), { send: { type: 'dragon', version: 7, to: { x: 0, y: -1 } } });
  assert.equal(princessAction('dragon:0,-1', { state: dragonState, seat: 0, version: 7 }), null);
  assert.equal(princessAction('dragon:9,9', { state: dragonState, seat: 1, version: 7 }), null);
  assert.deepEqual(ask('boardAction', 'dragon:0,1', { state: dragonState, seat: 1, version: 8 }), { send: { type: 'dragon', version: 8, to: { x: 0, y: 1 } } }, 'through the registry');
});

test('during the dragon stage nobody places; the banner names the seat whose step it is, the page calls that seat', () => {
  const store = (seat) => ({ state: dragonState, seat, version: 40 });
  assert.equal(isMyTurn(store(0)), false, 'the placer\'s tile is down: no legal cells, no draft');
  assert.equal(mustAct(store(0)), false);
  assert.equal(mustAct(store(1)), true, 'seat 1 must step');
  const stage = turnStage(dragonState);
  assert.equal(stage.seat, 1);
  assert.deepEqual(stage.cells, [{ x: 0, y: -1 }, { x: 0, y: 1 }], 'the board brings them into view for seat 1');
  setLanguage('en');
  assert.equal(t(stage.mineKey, stage.params), 'The dragon: your step (2 of 6)');
  assert.equal(t(stage.hintKey, stage.params), 'Move the dragon: choose a highlighted tile (step 2 of 6)');
  assert.equal(t(stage.otherKey, { ...stage.params, name: 'Ben' }), 'Ben moves the dragon (step 2 of 6)…');
  const placing = { ...dragonState, turn: { ...dragonState.turn, stage: 'place', dragon: undefined } };
  assert.equal(isMyTurn({ state: placing, seat: 0 }), true, 'outside the stage the placer places');
  assert.equal(turnStage(placing), null);
});

test('the board during the dragon stage: the path, the options as buttons for the stepping seat only, the dragon and the fairy', () => {
  const b = cleanBoard(dragonState);
  const forSeat = (seat) => expansionLayerMarkup(dragonState, b, tiles, { seat });
  const seat1 = forSeat(1);
  assert.match(seat1, /data-testid="dragon-path" data-steps="1"/);
  assert.equal((seat1.match(/data-action="dragon:/g) ?? []).length, 2);
  assert.match(seat1, /data-action="dragon:0,1"/);
  assert.match(seat1, /aria-label="Move the dragon to the tile at 0, 1"/);
  const seat0 = forSeat(0);
  assert.equal((seat0.match(/data-testid="dragon-option"/g) ?? []).length, 2, 'everybody sees where it may go');
  assert.doesNotMatch(seat0, /data-action/, 'but only seat 1 can choose');
  assert.match(seat0, /data-testid="dragon" transform="translate\(50\.0 50\.0\)/, 'the dragon on the start tile');
  // The fairy stands beside seat 1's road meeple on (1,0), not on the tile's middle.
  const m = /data-testid="fairy" transform="translate\(([\d.]+) ([\d.]+)\)/.exec(seat0);
  assert.ok(m);
  const [fx, fy] = [Number(m[1]), Number(m[2])];
  assert.ok(fx > 100 && fx < 200 && fy < 50, `fairy at ${fx},${fy}: on (1,0), above the road`);
  assert.equal(expansionLayerMarkup({ phase: 'playing', board: [], turn: {} }, [], tiles, {}), '', 'nothing without dragon or fairy');
});

// Move 2 of the example: seat 0 holds P18 (a portal) and places it at (2,0).
const portalEntry = {
  x: 2, y: 0, rotation: 0, meeples: ['N', 'E', 'NL'], figures: {}, princess: [],
  portal: [{ x: 0, y: 0, meeples: ['N', 'WR', 'ER'], figures: { big: ['N'], abbot: [] } }, { x: 1, y: 9, meeples: ['Q'] }, { x: 'a', meeples: ['N'] }],
};
const portalState = {
  phase: 'playing', players, dragon: { x: -1, y: 0 }, fairy: null, dragon_tiles_waiting: 0,
  board: board.filter((b) => ['D', 'P5', 'U'].includes(b.tile)),
  turn: { number: 3, seat: 0, tile: 'P18', stage: 'place', fairy: [], legal: [portalEntry, { ...portalEntry, rotation: 90, portal: [] }] },
};

test('the portal: every other tile\'s spot is a choice, and the play sends the figure with "portal"', () => {
  assert.deepEqual(portalTargets(portalEntry).map((s) => `${s.x},${s.y},${s.at},${s.figure}`), ['0,0,N,meeple', '0,0,WR,meeple', '0,0,ER,meeple', '0,0,N,big'], 'malformed tiles and ports are left out');
  let d = startDraft(portalState, 2, 0);
  assert.deepEqual(entryChoices(d.options[0], d.turn).slice(3), ['portal:0,0,N', 'portal:0,0,WR', 'portal:0,0,ER', 'portal:0,0,N,big']);
  d = toggleMeeple(d, 'portal:0,0,N');
  assert.deepEqual(playMessage(d, 12), { type: 'play', version: 12, x: 2, y: 0, rotation: 0, meeple: 'N', portal: { x: 0, y: 0 } });
  assert.deepEqual(playMessage(toggleMeeple(d, 'portal:0,0,N,big'), 12), { type: 'play', version: 12, x: 2, y: 0, rotation: 0, meeple: 'N', figure: 'big', portal: { x: 0, y: 0 } });
  assert.deepEqual(playMessage(toggleMeeple(d, 'N'), 12).meeple, 'N', 'a meeple on the placed tile goes without "portal"');
  assert.equal('portal' in playMessage(toggleMeeple(d, 'N'), 12), false);
  assert.equal(rotateDraft(d).meeple, null, 'the next rotation offers no portal: the choice is dropped');
  assert.deepEqual(playFields(portalEntry, 'portal:5,5,N'), { meeple: null }, 'a portal spot the server did not offer sends nothing');
  setLanguage('en');
  assert.equal(choiceHint(tiles.P18, portalEntry, 'portal:0,0,N,big'), 'Your big meeple goes through the magic portal to the tile at 0, 0');
  // On the board: a ring per portal spot on the older tile (the meeple's where the big meeple may go too), the chosen one pressed.
  const layer = expansionLayerMarkup(portalState, cleanBoard(portalState), tiles, { seat: 0, entry: portalEntry, choice: 'portal:0,0,N', turn: portalState.turn });
  assert.equal((layer.match(/data-testid="portal-target"/g) ?? []).length, 3);
  assert.doesNotMatch(layer, /choose:portal:0,0,N,big/);
  assert.match(layer, /aria-pressed="true"[^>]*data-action="choose:portal:0,0,N"/);
  assert.match(layer, /aria-label="meeple through the magic portal: city at 0, 0"/);
  assert.deepEqual(ask('boardAction', 'choose:portal:0,0,WR', { state: portalState, seat: 0, version: 1 }), { choose: 'portal:0,0,WR' });
});

test('the princess: the knights of the princess city are choices; the play sends "princess" and no figure', () => {
  // Move 3: seat 1 places P26 turned 180 at (0,-1); seat 0's knight stands in the start city.
  const entry = { x: 0, y: -1, rotation: 180, meeples: [], figures: {}, princess: [{ x: 0, y: 0, at: 'N' }, { x: 0, y: 0, at: 'X' }] };
  const state = {
    phase: 'playing', players, dragon: { x: -1, y: 0 }, fairy: null,
    board: [{ x: 0, y: 0, tile: 'D', rotation: 0, meeples: [{ seat: 0, at: 'N' }] }, ...board.slice(1, 4)],
    turn: { number: 4, seat: 1, tile: 'P26', stage: 'place', fairy: [], legal: [entry, { ...entry, rotation: 0, princess: [] }] },
  };
  assert.deepEqual(princessTargets(entry), [{ x: 0, y: 0, at: 'N' }]);
  let d = startDraft(state, 0, -1);
  d = cycleMeeple(d);
  assert.equal(d.meeple, 'princess:0,0,N', 'M reaches the princess (no spot on a city that holds a knight)');
  assert.deepEqual(playMessage(d, 20), { type: 'play', version: 20, x: 0, y: -1, rotation: 180, meeple: null, princess: { x: 0, y: 0, at: 'N' } });
  assert.equal(cycleMeeple(d).meeple, null, 'then nothing');
  setLanguage('fr');
  assert.equal(choiceHint(tiles.P26, entry, d.meeple), 'La princesse renvoie le chevalier en 0, 0');
  setLanguage('en');
  const layer = expansionLayerMarkup(state, cleanBoard(state), tiles, { seat: 1, entry, choice: d.meeple, turn: state.turn });
  assert.match(layer, /data-testid="princess-target" data-x="0" data-y="0" data-at="N" data-action="choose:princess:0,0,N"/);
});

test('the fairy: its followers are choices beside every placement\'s own; the play sends "fairy"', () => {
  // Move 5: seat 1 places E turned 270 at (1,-1) and moves the fairy next to its road meeple.
  const entry = { x: 1, y: -1, rotation: 270, meeples: ['W'], figures: {}, princess: [] };
  const turn = { number: 6, seat: 1, tile: 'E', stage: 'place', fairy: [{ x: 1, y: 0, at: 'E' }, { x: 1, y: 0, at: 'Z' }], legal: [entry, { ...entry, rotation: 0, meeples: ['N'] }] };
  const state = { phase: 'playing', players, dragon: { x: -1, y: 0 }, fairy: null, board, turn };
  assert.deepEqual(fairyTargets(turn), [{ x: 1, y: 0, at: 'E' }]);
  let d = startDraft(state, 1, -1);
  assert.deepEqual(entryChoices(d.options[0], d.turn), ['W', 'fairy:1,0,E']);
  d = toggleMeeple(d, 'fairy:1,0,E');
  assert.deepEqual(playMessage(d, 30), { type: 'play', version: 30, x: 1, y: -1, rotation: 270, meeple: null, fairy: { x: 1, y: 0, at: 'E' } });
  assert.equal(rotateDraft(d).meeple, 'fairy:1,0,E', 'the same for every placement: a rotation keeps it');
  assert.equal(parseChoice('fairy:1,0,E,big'), null, 'only the portal names a figure');
  const msg = playMessage(d, 30);
  assert.equal(['princess', 'portal', 'return'].some((k) => k in msg), false, 'one action per play');
});

test('a volcano offers no figure and says why; a tile with no spot for another reason says nothing of the volcano', () => {
  const volcano = { x: -1, y: 0, rotation: 0, meeples: [], figures: { big: [] }, princess: [] };
  assert.equal(ask('figureNote', volcano, tiles.P5), 'princess.volcanoNoFigure');
  setLanguage('en');
  assert.equal(t('princess.volcanoNoFigure'), 'No figure on a volcano: the dragon lands on it');
  assert.equal(ask('figureNote', { ...volcano }, tiles.U), null);
  assert.equal(ask('figureNote', { ...volcano, meeples: ['E'] }, tiles.P5), null);
});

test('the log: the dragon\'s flight and steps with what it ate, the dragon tiles, the fairy, the princess, the fairy\'s points', () => {
  const events = [
    { id: 0, type: 'started' },
    // As the server sends them: the dragon's flight and the dragon tiles before the volcano's placement.
    { id: 1, type: 'dragon_flew', turn: 0, seat: 0, x: -1, y: 0 },
    { id: 2, type: 'dragon_tiles', turn: 0, count: 12 },
    { id: 3, type: 'placed', turn: 1, seat: 0, tile: 'P5', x: -1, y: 0, rotation: 0, meeple: null },
    { id: 4, type: 'fairy', turn: 6, seat: 1, x: 1, y: 0, at: 'E' },
    { id: 5, type: 'princess', turn: 4, seat: 1, owner: 0, x: 0, y: 0, at: 'N' },
    { id: 6, type: 'dragon_step', turn: 7, seat: 0, step: 1, from: { x: -1, y: 0 }, to: { x: 0, y: 0 }, eaten: [] },
    { id: 7, type: 'dragon_step', turn: 7, seat: 1, step: 2, from: { x: 0, y: 0 }, to: { x: 0, y: 1 }, eaten: [{ seat: 0, x: 0, y: 1, at: 'C' }] },
    { id: 8, type: 'scored', turn: 8, feature: 'fairy', end: false, points: 1, seats: [1] },
    { id: 9, type: 'scored', turn: 9, feature: 'fairy', end: false, points: 3, seats: [1] },
    { id: 10, type: 'scored', feature: 'fairy', end: true, points: 3, seats: [0] },
  ];
  const { lines } = narrate(events, tiles, { tile: 'D', x: 0, y: 0, rotation: 0 });
  assert.deepEqual(lines.slice(0, 4).map((l) => l.id), [0, 3, 1, 2], 'the log says the volcano\'s placement, then the dragon flying to it');
  const own = lines.filter((l) => !['started', 'placed'].includes(l.type));
  assert.deepEqual(own.map((l) => l.type), ['dragon_flew', 'dragon_tiles', 'fairy_moved', 'princess', 'dragon_step', 'dragon_step', 'fairy_points', 'fairy_points', 'fairy_points']);
  assert.deepEqual(own[0].cells, [[-1, 0]]);
  assert.deepEqual(own[5].cells, [[0, 1], [0, 0]], 'the step\'s tile first, then where it came from');
  assert.deepEqual(own[5].eaten, [{ seat: 0, x: 0, y: 1, at: 'C', figure: 'meeple' }]);
  assert.deepEqual(own.slice(6).map((l) => [l.points, l.bonus, l.end]), [[1, false, false], [3, true, false], [3, true, true]], 'the bonus at the end too, not a "final" feature line');
  // The words, through log.js's helpers (fill, who, namesOf), in English.
  setLanguage('en');
  const said = (line) => {
    const out = [];
    const li = { classList: { add: (c) => out.push(`.${c}`) } };
    const fill = (_li, key, params, names) => out.push(t(key, { ...params, ...Object.fromEntries(Object.entries(names ?? {}).map(([k, v]) => [k, v])) }));
    const ok = princessLogLine(li, line, { fill, who: (s) => players[s]?.name, namesOf: (seats) => seats.map((s) => players[s].name).join(', ') });
    return ok ? out.join(' ') : null;
  };
  assert.deepEqual(own.map(said), [
    'The dragon flies to the volcano at -1, 0',
    'The dragon tiles join the bag (12)',
    'Ben moved the fairy',
    'Ben’s princess sent Ann’s knight home',
    'Ann moved the dragon to 0, 0',
    'Ben moved the dragon to 0, 1: it ate a figure of Ann .eaten',
    'The fairy: Ben +1 .scored',
    'The fairy’s follower scored: Ben +3 more .scored',
    'The fairy’s follower scored: Ann +3 more .scored',
  ]);
  assert.equal(said({ type: 'closed' }), null, 'other lines are the base log\'s');
});

test('the log follows the figures: a portal figure on the older tile, the knight sent home, the monk eaten', () => {
  const placed = (id, turn, seat, tile, x, y, rotation, meeple = null, more = {}) => ({ id, type: 'placed', turn, seat, tile, x, y, rotation, meeple, ...more });
  const events = [
    { id: 0, type: 'started' },
    placed(1, 1, 0, 'P5', -1, 0, 0),
    { id: 2, type: 'dragon_flew', turn: 1, seat: 0, x: -1, y: 0 },
    placed(3, 2, 1, 'U', 1, 0, 0, 'E'),
    placed(4, 3, 0, 'P18', 2, 0, 0, 'N', { portal: { x: 0, y: 0 } }),
    placed(5, 4, 1, 'P26', 0, -1, 180),
    { id: 6, type: 'princess', turn: 4, seat: 1, owner: 0, x: 0, y: 0, at: 'N' },
    placed(7, 5, 0, 'B', 0, 1, 0, 'C'),
    placed(8, 7, 0, 'P12', 3, 0, 0),
    { id: 9, type: 'dragon_step', turn: 7, seat: 0, step: 1, from: { x: -1, y: 0 }, to: { x: 0, y: 0 }, eaten: [] },
    { id: 10, type: 'dragon_step', turn: 7, seat: 1, step: 2, from: { x: 0, y: 0 }, to: { x: 0, y: 1 }, eaten: [{ seat: 0, x: 0, y: 1, at: 'C' }] },
  ];
  const upTo = (id) => narrate(events.filter((e) => e.id <= id), tiles, { tile: 'D', x: 0, y: 0, rotation: 0 });
  const portal = upTo(4).lines.find((l) => l.id === 4);
  assert.equal(portal.what, 'claimed');
  assert.deepEqual(portal.feature, { kind: 'city', tiles: 1 }, 'the knight is in the start tile\'s city, not on P18\'s road');
  assert.deepEqual(portal.away, { x: 0, y: 0 });
  setLanguage('en');
  assert.equal(ask('placedNote', portal), '(through the magic portal)');
  assert.deepEqual(upTo(4).map.owners(upTo(4).map.nodeAt(0, 0, 'N')), [0]);
  assert.deepEqual(upTo(4).map.owners(upTo(4).map.nodeAt(2, 0, 'N')), [1], 'P18\'s road N-W (on to U\'s) holds seat 1\'s meeple only');
  const afterPrincess = upTo(6).map;
  assert.deepEqual(afterPrincess.owners(afterPrincess.nodeAt(0, 0, 'N')), [], 'sent home');
  assert.deepEqual(upTo(7).map.owners(upTo(7).map.nodeAt(0, 1, 'C')), [0]);
  const end = upTo(10).map;
  assert.deepEqual(end.owners(end.nodeAt(0, 1, 'C')), [], 'eaten');
  assert.deepEqual(end.owners(end.nodeAt(1, 0, 'E')), [1], 'seat 1\'s road meeple, by the fairy, is still there');
});

test('a room\'s game replays from its events: the portal\'s knight, sent home; the monk, eaten; the dragon and the fairy where they are', async () => {
  const { replayFromState } = await import('../../web-client/js/replay/event-replay.js');
  const placed = (id, turn, seat, tile, x, y, rotation, meeple = null, more = {}) => ({ id, type: 'placed', turn, seat, tile, x, y, rotation, meeple, ...more });
  const events = [
    { id: 0, type: 'started' },
    placed(1, 1, 0, 'P5', -1, 0, 0), { id: 2, type: 'dragon_flew', turn: 1, seat: 0, x: -1, y: 0 },
    placed(3, 2, 1, 'U', 1, 0, 0, 'E'),
    placed(4, 3, 0, 'P18', 2, 0, 0, 'N', { portal: { x: 0, y: 0 } }),
    placed(5, 4, 1, 'P26', 0, -1, 180), { id: 6, type: 'princess', turn: 4, seat: 1, owner: 0, x: 0, y: 0, at: 'N' },
    placed(7, 5, 0, 'B', 0, 1, 0, 'C'),
    placed(8, 6, 1, 'E', 1, -1, 270), { id: 9, type: 'fairy', turn: 6, seat: 1, x: 1, y: 0, at: 'E' },
    placed(10, 7, 0, 'P12', 3, 0, 0),
    { id: 11, type: 'dragon_step', turn: 7, seat: 0, step: 1, from: { x: -1, y: 0 }, to: { x: 0, y: 0 }, eaten: [] },
    { id: 12, type: 'dragon_step', turn: 7, seat: 1, step: 2, from: { x: 0, y: 0 }, to: { x: 0, y: 1 }, eaten: [{ seat: 0, x: 0, y: 1, at: 'C' }] },
  ];
  const state = { room: 'r', phase: 'playing', settings: { expansions: ['princess'] }, players, board: [{ x: 0, y: 0, tile: 'D', rotation: 0, meeples: [] }], events, result: null };
  const r = replayFromState(state, { moves: [] }, tiles, { bagSize: 101, counts: {} });
  assert.equal(r.ok, true);
  const figuresAt = (frame, x, y) => frame.board.find((b) => b.x === x && b.y === y)?.meeples;
  assert.deepEqual(r.frames[0].dragon, null);
  assert.deepEqual(r.frames[1].dragon, { x: -1, y: 0 }, 'the volcano');
  assert.deepEqual(figuresAt(r.frames[3], 0, 0), [{ seat: 0, at: 'N' }], 'the portal\'s knight on the start tile');
  assert.deepEqual(figuresAt(r.frames[3], 2, 0), [], 'none on P18 itself');
  assert.equal(r.frames[3].players[0].meeples, 6);
  assert.deepEqual(figuresAt(r.frames[4], 0, 0), [], 'sent home by the princess');
  assert.equal(r.frames[4].players[0].meeples, 7);
  assert.deepEqual(figuresAt(r.frames[5], 0, 1), [{ seat: 0, at: 'C' }]);
  assert.deepEqual(r.frames[6].fairy, { x: 1, y: 0, next_to: { x: 1, y: 0, at: 'E', seat: 1 } });
  assert.deepEqual(figuresAt(r.frames[7], 0, 1), [], 'eaten');
  assert.deepEqual(r.frames[7].dragon, { x: 0, y: 1 });
  const base = replayFromState({ ...state, settings: { expansions: [] }, board: [{ x: 0, y: 0, tile: 'D', rotation: 0, meeple: null }], events: events.filter((e) => e.type === 'started') }, { moves: [] }, tiles, { bagSize: 71, counts: {} });
  assert.equal('dragon' in base.frames[0], false, 'a game without the expansion has no dragon key');
});

test('the tiles\' marks: a volcano, the dragon\'s sign or a portal on the tile, the princess in her city', () => {
  const ours = catalog.tiles.filter((x) => x.expansion === 'princess');
  assert.equal(ours.length, 29);
  const marks = (id) => tileMarks(tiles[id]).map((m) => `${m.mark}@${m.feature}`);
  assert.deepEqual(marks('P5'), ['volcano@null']);
  assert.deepEqual(marks('P12'), ['dragonmark@null']);
  assert.deepEqual(marks('P18'), ['portal@null']);
  assert.deepEqual(marks('P26'), ['princess@0']);
  assert.deepEqual(marks('P25'), ['princess@0'], 'the north city only');
  const count = (m) => ours.filter((x) => tileMarks(x).some((k) => k.mark === m)).length;
  assert.deepEqual(['volcano', 'dragonmark', 'portal', 'princess'].map(count), [6, 11, 6, 6], 'P11 is one entry of two copies');
  assert.deepEqual(tileMarks(tiles.D), [], 'a base tile shows none');
  for (const tl of ours) {
    const shapes = tileShapes(tl);
    for (const p of markPointsCatalog(tl)) {
      assert.ok(p.x > 8 && p.x < 92 && p.y > 8 && p.y < 92, `${tl.letter} ${p.mark} inside the tile: ${p.x},${p.y}`);
      const inCity = shapes.cities.some((c) => pointInPolygon([p.x, p.y], c.polygon));
      if (p.mark === 'princess') assert.ok(inCity, `${tl.letter}: the princess in her city`);
      else assert.ok(!inCity, `${tl.letter} ${p.mark} in the fields, not on a city`);
    }
  }
});

test('a board entry with several figures (`meeples`) draws each and counts each on its feature', async () => {
  const state = { players, board: [{ x: 0, y: 0, tile: 'D', rotation: 0, meeples: [{ seat: 0, at: 'N' }, { seat: 1, at: 'E', figure: 'big' }, { seat: 1, at: 'nope' }] }] };
  const b = cleanBoard(state);
  assert.deepEqual(b[0].figures.map((m) => m.at), ['N', 'E']);
  assert.equal(b[0].meeple.at, 'N');
  const svg = meeplesMarkup(b, tiles, state);
  assert.equal((svg.match(/data-testid="board-meeple"/g) ?? []).length, 2);
  assert.match(svg, /data-at="E" data-figure="big"/);
  const { FeatureMap } = await import('../../web-client/js/game/features.js');
  const { placeOnMap } = await import('../../web-client/js/board/boardart.js');
  const map = new FeatureMap(tiles);
  placeOnMap(map, b[0]);
  assert.deepEqual(map.owners(map.nodeAt(0, 0, 'E')), [1], 'the road is seat 1\'s');
  assert.deepEqual(map.owners(map.nodeAt(0, 0, 'N')), [0], 'the city seat 0\'s');
  // The base form still reads.
  assert.deepEqual(cleanBoard({ board: [{ x: 0, y: 0, tile: 'D', rotation: 0, meeple: { seat: 1, at: 'C' } }] })[0].figures, [{ seat: 1, at: 'C' }]);
});

test('the end screen\'s fairy column; the new error codes in every language', () => {
  setLanguage('en');
  const rows = [{ seat: 0, game: { road: 6, fairy: 4 }, end: { fairy: 3 }, total: 13 }];
  assert.ok(breakdownKinds(rows).includes('fairy'));
  assert.ok(!breakdownKinds([{ seat: 0, game: { road: 6 }, end: {} }]).includes('fairy'), 'no column without fairy points');
  assert.equal(expansionLabels().fairy, 'Fairy');
  for (const lang of Object.keys(DICTS)) {
    for (const code of ['illegal_fairy', 'illegal_princess', 'illegal_dragon']) {
      assert.ok(DICTS[lang][`err.${code}`], `${lang} ${code}`);
      assert.equal(errorText({ code }, lang), DICTS[lang][`err.${code}`]);
    }
  }
});

test('the start page and the lobby offer only the expansions the server\'s catalog has', () => {
  try {
    assert.ok(expansionIds().includes('princess'), 'the client knows it');
    offerFrom({ tiles: [{ letter: 'A', expansion: null }, { letter: 'RS', expansion: 'river' }, { letter: 'Eg', expansion: 'abbot' }, { letter: 'I1', expansion: 'inns' }, { letter: 'T1', expansion: 'traders' }] });
    assert.deepEqual(offeredIds(), ['river', 'abbot', 'inns', 'traders'], 'a server without its tiles does not get it asked for');
    offerFrom(catalog);
    assert.deepEqual(offeredIds(), ['princess'], 'this catalog has base and princess tiles only');
  } finally {
    offerFrom(null);
  }
  assert.deepEqual(offeredIds(), expansionIds(), 'before the catalog: every known one');
});
