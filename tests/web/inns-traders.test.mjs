// The web client's part of Inns & Cathedrals and Traders & Builders (the pages of
// docs/expansions/): the marks on the tiles and field I, the special figures, the figure
// picker in the draft and the play message, the builder's extra part in words, goods and
// figures in the log, the feature map's strength, and the end screen's columns.

import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { cleanCatalog } from '../../web-client/js/tiles/tile-catalog.js';
import { tileShapes, meepleAnchor, pointInPolygon, distToPolyline } from '../../web-client/js/tiles/geometry.js';
import { tileMarks, markPoints } from '../../web-client/js/tiles/marks.js';
import { tileOverlayMarkup, PLAYER_COLORS, SEAT_COLORS } from '../../web-client/js/tiles/tileart.js';
import { specialFigureMarkup, SPECIAL_FIGURES } from '../../web-client/js/tiles/figures-art.js';
import { figureMarkup, entrySpots, parseSpot, playFields } from '../../web-client/js/game/figure-spots.js';
import { pickerMode, pickerFigures, pickedFigure, visibleSpots, pickFigure } from '../../web-client/js/game/figure-picker.js';
import { startDraft, toggleMeeple, rotateDraft, cycleMeeple, playMessage, draftView } from '../../web-client/js/turn/draft.js';
import { isExtra, extraKey, extraAnnouncement } from '../../web-client/js/turn/extra-turn.js';
import { breakdownKinds, splitText } from '../../web-client/js/end/breakdown.js';
import { expansionLine, goodsWords } from '../../web-client/js/expansions/traders/log.js';
import { narrate } from '../../web-client/js/game/narrate.js';
import { FeatureMap } from '../../web-client/js/game/features.js';
import { projectSpots, tileWords } from '../../web-client/js/board/spots.js';
import { expansionsOf, toggleMessage } from '../../web-client/js/tiles/game-tiles.js';
import { setLanguage, t } from '../../web-client/js/i18n/i18n.js';

const four = cleanCatalog(JSON.parse(readFileSync(new URL('./fixtures/tiles-four.json', import.meta.url))));
const tileOf = (id) => four.tiles[id];

test('the catalog of all four expansions: 18 inns tiles, 24 traders tiles, their marks', () => {
  const inns = four.catalog.tiles.filter((x) => x.expansion === 'inns');
  const traders = four.catalog.tiles.filter((x) => x.expansion === 'traders');
  assert.equal(inns.reduce((n, x) => n + x.count, 0) + 2, 18, 'I3 and I15 give way to their garden copies');
  assert.equal(traders.reduce((n, x) => n + x.count, 0) + 2, 24, 'T8 and T11 give way to theirs');
  const marks = four.catalog.tiles.flatMap((x) => tileMarks(x).map((m) => m.mark));
  assert.equal(marks.filter((m) => m === 'inn').length, 6, 'I11..I14, I16 and I15g (I15 gives way to it)');
  assert.equal(marks.filter((m) => m === 'cathedral').length, 1, 'I1 (one kind, two copies)');
  assert.equal(marks.filter((m) => m === 'wine').length, 9, 'nine wine tiles, T8g for T8');
  assert.equal(marks.filter((m) => m === 'grain').length, 6);
  assert.equal(marks.filter((m) => m === 'cloth').length, 5, 'five cloth tiles, T11g for T11');
});

test('every mark stands on its tile, the inn beside its road, a city mark in its city, clear of the meeple spots', () => {
  for (const def of four.catalog.tiles) {
    const marks = tileMarks(def);
    if (!marks.length) continue;
    const s = tileShapes(def);
    const pts = markPoints(def, 0);
    assert.equal(pts.length, marks.length, `${def.letter}: every mark placed`);
    marks.forEach((m, i) => {
      const p = pts.find((q) => q.mark === m.mark);
      assert.ok(p.x >= 8 && p.x <= 92 && p.y >= 8 && p.y <= 92, `${def.letter} ${m.mark} inside the tile: ${p.x},${p.y}`);
      for (const a of Object.values(s.anchors)) assert.ok(Math.hypot(a[0] - p.x, a[1] - p.y) >= 12, `${def.letter} ${m.mark} clear of a meeple spot`);
      if (m.mark === 'inn') {
        const road = s.roads.find((r) => r.id === m.feature);
        const d = distToPolyline([p.x, p.y], road.points);
        assert.ok(d >= 10 && d <= 22, `${def.letter} inn beside its road (${d.toFixed(1)})`);
        assert.ok(!s.cities.some((c) => pointInPolygon([p.x, p.y], c.polygon)), `${def.letter} inn not in a city`);
      } else {
        const city = s.cities.find((c) => c.id === m.feature);
        assert.ok(pointInPolygon([p.x, p.y], city.polygon), `${def.letter} ${m.mark} in its city`);
      }
      void i;
    });
    // Upright: turning the tile moves the marks round the centre, and they are drawn as such.
    const turned = markPoints(def, 90);
    assert.ok(Math.abs(turned[0].x - (100 - pts[0].y)) < 1e-9 && Math.abs(turned[0].y - pts[0].x) < 1e-9);
    const svg = tileOverlayMarkup(def, 90);
    for (const m of marks) assert.match(svg, new RegExp(`href="#sym-${m.mark}"`), `${def.letter} draws its ${m.mark}`);
  }
});

test('field I lies in the middle, in no city, and its figure stands there (I3, T3, T4, T6, T14, I3g)', () => {
  for (const id of ['I3g', 'T3', 'T4', 'T6', 'T14']) {
    const def = tileOf(id);
    const field = def.features.find((f) => f.ports.includes('I'));
    const s = tileShapes(def);
    const a = s.anchors[field.id];
    assert.ok(a, `${id}: an anchor for field I`);
    assert.ok(!s.cities.some((c) => pointInPolygon(a, c.polygon)), `${id}: field I's spot is in no city (${a})`);
    assert.ok(a[0] > 20 && a[0] < 80 && a[1] > 20 && a[1] < 92, `${id}: in the middle part (${a})`);
    assert.deepEqual(meepleAnchor(def, 90, 'I'), [100 - a[1], a[0]], 'port I turns with the tile');
    if (s.garden) assert.ok(Math.hypot(a[0] - s.garden.center[0], a[1] - s.garden.center[1]) > 12, `${id}: not on the garden`);
  }
  // Two cities never cover one another's spots on these tiles.
  for (const id of ['T3', 'T6', 'T14']) {
    const s = tileShapes(tileOf(id));
    for (const c of s.cities) {
      const a = s.anchors[c.id];
      assert.equal(s.cities.filter((o) => pointInPolygon(a, o.polygon)).length, 1, `${id} city ${c.id}: its spot in it alone`);
    }
  }
});

test('the big meeple, builder and pig are figures of their own, in all six colours', () => {
  assert.deepEqual(SEAT_COLORS, ['red', 'blue', 'green', 'yellow', 'black', 'pink']);
  assert.ok(PLAYER_COLORS.pink && PLAYER_COLORS.pink.glyph !== PLAYER_COLORS.red.glyph);
  const glyphs = new Set(SEAT_COLORS.map((c) => PLAYER_COLORS[c].glyph));
  assert.equal(glyphs.size, 6, 'six colours, six glyphs');
  const marks = SPECIAL_FIGURES.map((f) => specialFigureMarkup(f, 0, 0, 'pink'));
  assert.match(marks[0], /sym-meeple.*scale\(1\.35\)/s);
  assert.match(marks[1], /sym-builder/);
  assert.match(marks[2], /sym-pig/);
  assert.equal(new Set(marks).size, 3);
  for (const f of SPECIAL_FIGURES) {
    assert.match(figureMarkup(f, 'blue'), new RegExp(`data-figure="${f}"`));
    assert.match(figureMarkup(f, 'blue'), /#0072B2/);
  }
  assert.equal(specialFigureMarkup('meeple', 0, 0, 'red'), null);
});

const entry = {
  x: 1, y: 0, rotation: 90, meeples: ['N', 'EL'],
  figures: { big: ['N', 'EL'], builder: ['N'], pig: [], abbot: [] },
};
const state = (legal, extra = false) => ({
  phase: 'playing', players: [{ seat: 0, name: 'Ann', color: 'red' }, { seat: 1, name: 'Bo', color: 'pink' }],
  turn: { number: 7, seat: 0, tile: 'T21', extra, legal }, board: [],
});

test('the figure picker offers only what turn.legal allows, and the board shows the picked figure only', () => {
  assert.equal(pickerMode({ meeples: ['C'], figures: { abbot: ['C'] } }), false, 'the abbot alone keeps its spots side by side');
  assert.equal(pickerMode(entry), true);
  assert.deepEqual(pickerFigures(entry), [{ figure: 'meeple', ports: ['N', 'EL'] }, { figure: 'big', ports: ['N', 'EL'] }, { figure: 'builder', ports: ['N'] }]);
  assert.deepEqual(pickerFigures({ ...entry, meeples: [] }).map((f) => f.figure), ['big', 'builder'], 'no meeple left: no meeple button');
  const s = state([entry]);
  let d = startDraft(s, 1, 0);
  assert.equal(pickedFigure(entry, d), 'meeple');
  const store = { state: s, seat: 0, version: 12 };
  assert.deepEqual(draftView(d, store).spots, ['N', 'EL']);
  d = pickFigure(d, 'builder');
  assert.deepEqual(draftView(d, store).spots, ['builder:N']);
  d = toggleMeeple(d, 'builder:N');
  assert.deepEqual(playMessage(d, 12), { type: 'play', version: 12, x: 1, y: 0, rotation: 90, meeple: 'N', figure: 'builder' });
  // Picking another figure drops the builder's spot; the big meeple's spots show.
  d = pickFigure(d, 'big');
  assert.equal(d.meeple, null);
  assert.deepEqual(draftView(d, store).spots, ['big:N', 'big:EL']);
  d = toggleMeeple(d, 'big:EL');
  assert.deepEqual(playMessage(d, 12), { type: 'play', version: 12, x: 1, y: 0, rotation: 90, meeple: 'EL', figure: 'big' });
  // M goes through every figure's spots; the picker follows the chosen spot.
  d = cycleMeeple(pickFigure(d, 'meeple'));
  assert.equal(d.meeple, 'N');
  const seen = [d.meeple];
  for (let i = 0; i < 5; i++) { d = cycleMeeple(d); seen.push(d.meeple); }
  assert.deepEqual(seen, ['N', 'EL', 'big:N', 'big:EL', 'builder:N', null]);
  assert.equal(pickedFigure(entry, { ...d, meeple: 'builder:N', figure: 'meeple' }), 'builder');
  assert.deepEqual(visibleSpots(entry, { figure: 'pig' }, entrySpots(entry)), ['N', 'EL'], 'a figure not offered falls back to the first');
  assert.deepEqual(parseSpot('pig:I'), { port: 'I', figure: 'pig' });
  assert.deepEqual(playFields(entry, 'pig:SR'), { meeple: 'SR', figure: 'pig' });
  assert.equal(parseSpot('giant:N'), null);
  // A rotation keeps the picked figure; the spot goes when the new rotation lacks it.
  const two = { ...entry, rotation: 180, figures: { big: [], builder: [], pig: ['I'], abbot: [] }, meeples: ['I'] };
  let r = toggleMeeple(pickFigure(startDraft(state([entry, two]), 1, 0), 'builder'), 'builder:N');
  r = rotateDraft(r);
  assert.equal(r.meeple, null);
  assert.deepEqual(pickerFigures(two).map((f) => f.figure), ['meeple', 'pig']);
});

test('the builder\'s extra part: said to its player, and to the others who plays it', () => {
  setLanguage('en');
  const legal = [{ x: 1, y: 0, rotation: 0, meeples: [] }, { x: 2, y: 0, rotation: 0, meeples: [] }];
  const s = state(legal, true);
  assert.equal(isExtra(s), true);
  assert.equal(isExtra(state(legal, false)), false);
  assert.equal(extraAnnouncement(null, s, 0), 'Your builder: place another tile. It fits on 2 squares.');
  assert.equal(extraAnnouncement(null, s, 1), 'Ann plays a builder’s extra tile.');
  assert.equal(extraAnnouncement(extraKey(s), s, 0), null, 'said once');
  assert.equal(extraAnnouncement(null, state(legal, false), 0), null);
  setLanguage('ja');
  assert.match(extraAnnouncement(null, s, 0), /建築士/);
  setLanguage('fr');
  assert.match(extraAnnouncement(null, s, 0), /bâtisseur/);
  setLanguage('en');
});

test('goods and the builder in the log; a big meeple counts 2, a builder and a pig nothing', () => {
  setLanguage('en');
  assert.deepEqual(expansionLine({ id: 4, type: 'goods', turn: 3, seat: 1, goods: { wine: 1, grain: 0, cloth: 2 }, x: 0, y: -2 }),
    { type: 'goods', id: 4, seat: 1, goods: { wine: 1, grain: 0, cloth: 2 }, cells: [[0, -2]] });
  assert.equal(goodsWords({ wine: 1, grain: 0, cloth: 2 }), '1 wine, 2 cloth');
  assert.equal(expansionLine({ id: 9, type: 'extra', turn: 6, seat: 0 }).type, 'extra');
  assert.equal(expansionLine({ id: 9, type: 'scored' }), null);
  // tests/core/data/traders_worked_example.json through narrate(): the builder, the pig, the extra tile.
  const ev = (o) => ({ type: 'placed', ...o });
  const events = [
    ev({ id: 1, turn: 1, seat: 0, tile: 'T15', x: 0, y: -1, rotation: 90, meeple: 'N' }),
    ev({ id: 2, turn: 2, seat: 1, tile: 'E', x: 0, y: -2, rotation: 180, meeple: null }),
    { id: 3, type: 'goods', turn: 2, seat: 1, goods: { wine: 1, grain: 0, cloth: 0 }, x: 0, y: -2 },
    ev({ id: 4, turn: 3, seat: 0, tile: 'U', x: 1, y: 0, rotation: 0, meeple: 'E' }),
    ev({ id: 5, turn: 4, seat: 1, tile: 'B', x: 1, y: -1, rotation: 0, meeple: 'SL' }),
    ev({ id: 6, turn: 5, seat: 0, tile: 'U', x: 2, y: 0, rotation: 0, meeple: 'E', figure: 'builder' }),
    ev({ id: 7, turn: 6, seat: 1, tile: 'B', x: 2, y: -1, rotation: 0, meeple: 'WL', figure: 'pig' }),
    ev({ id: 8, turn: 7, seat: 0, tile: 'A', x: -1, y: 0, rotation: 270, meeple: 'C' }),
    { id: 9, type: 'extra', turn: 7, seat: 0 },
    ev({ id: 10, turn: 7, seat: 0, tile: 'A', x: 3, y: 0, rotation: 90, meeple: 'C', extra: true }),
  ];
  const tiles = { ...four.tiles };
  const { lines } = narrate(events, tiles, { tile: 'D', x: 0, y: 0, rotation: 0 });
  const byId = Object.fromEntries(lines.map((l) => [l.id, l]));
  assert.equal(byId[3].type, 'goods');
  assert.equal(byId[6].figure, 'builder');
  assert.equal(byId[6].what, 'claimed');
  assert.equal(byId[7].figure, 'pig');
  assert.equal(byId[9].type, 'extra');
  assert.equal(byId[10].extra, true);
  assert.equal(byId[8].extra, false);
  // Strength: seat 1's big meeple (2) beats seat 0's meeple; a builder and a pig add nothing.
  const map = new FeatureMap(tiles);
  map.place({ tile: 'D', x: 0, y: 0, rotation: 0 });
  map.place({ tile: 'U', x: 1, y: 0, rotation: 0, meeple: 'E', seat: 0 });
  map.place({ tile: 'U', x: -1, y: 0, rotation: 0, meeple: 'W', seat: 1, figure: 'big' });
  const root = map.nodeAt(0, 0, 'E');
  assert.deepEqual(map.owners(root), [1]);
  map.place({ tile: 'U', x: 2, y: 0, rotation: 0, meeple: 'E', seat: 0, figure: 'builder' });
  assert.deepEqual(map.owners(map.nodeAt(0, 0, 'E')), [1], 'a builder is no follower');
  map.place({ tile: 'U', x: -2, y: 0, rotation: 0, meeple: 'W', seat: 0 });
  assert.deepEqual(map.owners(map.nodeAt(0, 0, 'E')), [0, 1], 'two meeples tie a big meeple');
});

test('inn roads and cathedral cities in the meeple step\'s points; the marks in words', () => {
  setLanguage('en');
  const tiles = four.tiles;
  // I16 (inn, road W-S) east of the start tile, as in tests/core/data/inns_worked_example.json.
  const s = { board: [{ x: 0, y: 0, tile: 'D', rotation: 0, meeple: null }] };
  const info = projectSpots(s, tiles, { x: 1, y: 0, tile: 'I16', rotation: 0, ports: ['W'], seat: 0 });
  assert.equal(info.W.points, 0, 'an unfinished inn road is worth nothing at the end');
  const city = projectSpots(s, tiles, { x: 0, y: -1, tile: 'I1', rotation: 0, ports: ['N'], seat: 0 });
  assert.equal(city.N.points, 0, 'nor an unfinished cathedral city');
  const plain = projectSpots(s, tiles, { x: 1, y: 0, tile: 'V', rotation: 0, ports: ['W'], seat: 0 });
  assert.equal(plain.W.points, 2);
  assert.match(tileWords(tiles.I16), /an inn/);
  assert.match(tileWords(tiles.I1), /a cathedral/);
  assert.match(tileWords(tiles.T2), /a wine symbol/);
});

test('the end screen: inns, cathedrals, pigs and goods as their own columns; the lobby offers both expansions', () => {
  const rows = [{ seat: 0, game: { road: 4, city: 6, monastery: 0, inn: 4, cathedral: 0 }, end: { road: 2, city: 3, monastery: 0, field: 6, inn: -2, cathedral: -3, pig: 2, goods: 10 }, total: 32 }];
  assert.deepEqual(breakdownKinds(rows), ['road', 'city', 'monastery', 'field', 'inn', 'cathedral', 'pig', 'goods']);
  assert.equal(splitText(4, -2), '4-2');
  assert.equal(splitText(4, 2), '4+2');
  setLanguage('ja');
  assert.equal(t('end.goods'), '交易品');
  setLanguage('en');
  const st = { settings: { expansions: ['traders', 'inns', 'river'] } };
  assert.deepEqual(expansionsOf(st), ['river', 'inns', 'traders']);
  assert.deepEqual(toggleMessage(['river'], 'traders', true), { type: 'settings', expansions: ['river', 'traders'] });
});

test('the lobby: six seats with inns (five without), and inns stays ticked while six are seated', async () => {
  const { lobbyControls, maxSeats } = await import('../../web-client/js/lobby/lobbylife.js');
  const seat = (i) => ({ seat: i, name: `P${i}`, color: 'red', host: i === 0, bot: i ? 'easy' : null });
  const lobby = (n, expansions) => ({ phase: 'lobby', players: Array.from({ length: n }, (_, i) => seat(i)), settings: { expansions } });
  assert.equal(maxSeats(lobby(2, [])), 5);
  assert.equal(maxSeats(lobby(2, ['traders', 'inns'])), 6);
  assert.equal(lobbyControls(lobby(5, ['inns']), 0).canAddBot, true, 'a sixth seat with inns');
  assert.equal(lobbyControls(lobby(5, ['traders']), 0).canAddBot, false);
  assert.equal(lobbyControls(lobby(6, ['inns']), 0).full, true);
});

test('the score chart counts a pig\'s bonus and the goods majorities', async () => {
  const { scoreSeries } = await import('../../web-client/js/end/chart.js');
  const events = [
    { type: 'placed', turn: 1, seat: 0 }, { type: 'placed', turn: 2, seat: 1 },
    { type: 'scored', turn: 2, kind: 'road', end: false, points: 4, seats: [0], inn: true },
    { type: 'scored', kind: 'field', end: true, points: 6, seats: [0, 1], bonus: [0, 2, 0, 0, 0] },
    { type: 'goods_scored', good: 'wine', points: 10, seats: [1], held: [0, 2] },
  ];
  const s = scoreSeries(events, [0, 1]);
  assert.deepEqual(s.seats.map((x) => x.final), [10, 18]);
  assert.deepEqual(s.seats[1].steps.map((x) => [x.kind, x.points, x.end]), [['field', 8, true], ['goods', 10, true]]);
});

test('a hint or a better move with a builder or pig is drawn with that figure', async () => {
  const { moveGhost } = await import('../../web-client/js/turn/hint.js');
  const g = moveGhost({ x: 1, y: 0, rotation: 0, meeple: 'N', figure: 'builder' }, 'T21', four.tiles.T21, 'pink', '');
  assert.equal(g.meeple, 'builder:N');
  assert.equal(g.spots[0].figure, 'builder');
});

test('a room\'s traders game replays from its events with goods and the special figures in supply', async () => {
  const { replayFromState } = await import('../../web-client/js/replay/event-replay.js');
  const ev = (o) => ({ type: 'placed', ...o });
  const events = [
    { id: 0, type: 'started' },
    ev({ id: 1, turn: 1, seat: 0, tile: 'T15', x: 0, y: -1, rotation: 90, meeple: 'N' }),
    ev({ id: 2, turn: 2, seat: 1, tile: 'E', x: 0, y: -2, rotation: 180, meeple: null }),
    { id: 3, type: 'scored', turn: 2, kind: 'city', end: false, points: 6, seats: [0], tiles: 3, pennants: 0, cells: [] },
    { id: 4, type: 'goods', turn: 2, seat: 1, goods: { wine: 1, grain: 0, cloth: 0 }, x: 0, y: -2 },
    ev({ id: 5, turn: 3, seat: 0, tile: 'U', x: 1, y: 0, rotation: 0, meeple: 'E' }),
    ev({ id: 6, turn: 4, seat: 1, tile: 'U', x: 2, y: 0, rotation: 0, meeple: null }),
    ev({ id: 7, turn: 5, seat: 0, tile: 'U', x: 3, y: 0, rotation: 0, meeple: 'E', figure: 'builder' }),
  ];
  const players = [0, 1].map((seat) => ({ seat, name: `P${seat}`, color: ['red', 'blue'][seat], figures: { builder: 1, pig: 1 } }));
  const state = { room: 'r', phase: 'playing', settings: { expansions: ['traders'] }, players, board: [{ x: 0, y: 0, tile: 'D', rotation: 0, meeple: null }], events, result: null };
  const r = replayFromState(state, { moves: [] }, four.tiles, { bagSize: 95, counts: {} });
  assert.equal(r.ok, true);
  assert.deepEqual(r.frames[1].players[1].goods, { wine: 0, grain: 0, cloth: 0 });
  assert.deepEqual(r.frames[2].players[1].goods, { wine: 1, grain: 0, cloth: 0 }, 'seat 1 took the wine when it closed the city');
  assert.deepEqual(r.frames[5].players[0].figures, { builder: 0, pig: 1 }, 'the builder is on the board');
  assert.equal(r.frames[5].players[0].meeples, 6, 'one meeple out (the first came home with the city)');
  assert.equal(r.frames[5].board.find((b) => b.x === 3).meeple.figure, 'builder');
});

test('an unfinished cathedral city or inn road is read in its own column: Cities 0, not +15 and -15', async () => {
  const { cellParts } = await import('../../web-client/js/end/breakdown.js');
  // The server: a plain city at the end (+15), taken back under the cathedral (-15); a
  // finished cathedral city during the game (+6 beside its 12 city points).
  const row = { game: { road: 4, city: 12, inn: 4, cathedral: 6 }, end: { road: 3, city: 15, inn: -3, cathedral: -15 }, total: 26 };
  const cells = Object.fromEntries(['road', 'city', 'inn', 'cathedral'].map((k) => [k, cellParts(row, k)]));
  assert.deepEqual(cells.city, { during: 12, final: 0 });
  assert.deepEqual(cells.cathedral, { during: 6, final: 0 });
  assert.deepEqual(cells.road, { during: 4, final: 0 });
  assert.deepEqual(cells.inn, { during: 4, final: 0 });
  const sum = Object.values(cells).reduce((n, c) => n + c.during + c.final, 0);
  assert.equal(sum, 4 + 12 + 4 + 6 + 3 + 15 - 3 - 15, 'the row still adds up');
  assert.deepEqual(cellParts({ game: {}, end: { field: 9 } }, 'field'), { during: 0, final: 9 }, 'farms: the end only');
  assert.deepEqual(cellParts({ game: { abbot: 4 }, end: { abbot: 2 } }, 'abbot'), { during: 4, final: 0 }, 'the abbot: during the game only');
});
