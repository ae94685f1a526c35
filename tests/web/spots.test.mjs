import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { spotLayout, closestPair, projectSpots, spotName, spotPoints, tileWords } from '../../web-client/js/board/spots.js';
import { rotatePort } from '../../web-client/js/tiles/geometry.js';
import { setLanguage } from '../../web-client/js/i18n/i18n.js';

const catalog = JSON.parse(readFileSync(new URL('./fixtures/tiles.json', import.meta.url)));
const tiles = Object.fromEntries(catalog.tiles.map((t) => [t.letter, t]));

test('meeple spots never overlap, on every tile, in every rotation, at both ring sizes', () => {
  for (const def of catalog.tiles) {
    for (const rotation of [0, 90, 180, 270]) {
      const ports = def.features.map((f) => rotatePort(f.ports[0], rotation));
      for (const ring of [24, 26]) {
        const spots = spotLayout(def, rotation, ports, ring);
        assert.equal(spots.length, ports.length, `${def.letter}@${rotation}: a spot for each feature`);
        assert.ok(closestPair(spots) >= ring + 1.9, `${def.letter}@${rotation}: rings of ${ring} apart (${closestPair(spots)})`);
        for (const s of spots) assert.ok(s.x >= ring / 2 && s.x <= 100 - ring / 2 && s.y >= ring / 2 && s.y <= 100 - ring / 2, 'inside the tile');
      }
    }
  }
});

test('a spot says what it claims and what it is worth', () => {
  setLanguage('en');
  const state = { board: [{ x: 0, y: 0, tile: 'D', rotation: 0, meeple: null }] };
  // A straight road west of the start tile's road: 2 tiles, open.
  const info = projectSpots(state, tiles, { x: -1, y: 0, tile: 'U', rotation: 0, ports: ['E'], seat: 0 });
  assert.deepEqual(info.E, { kind: 'road', tiles: 2, pennants: 0, complete: false, points: 2 });
  const spot = { port: 'E', figure: 'meeple', kind: 'road' };
  assert.equal(spotName(spot, info.E), 'meeple on the road, 2 tiles');
  assert.equal(spotPoints(spot, info.E), 'worth 2 points so far');
  // A city cap north of the start tile's city closes it: 2 tiles, 4 points now.
  const city = projectSpots(state, tiles, { x: 0, y: -1, tile: 'E', rotation: 180, ports: ['S'], seat: 0 });
  assert.equal(city.S.complete, true);
  assert.equal(city.S.points, 4);
  assert.equal(spotPoints({ kind: 'city' }, city.S), 'completes it: +4 now');
  assert.equal(spotName({ figure: 'meeple', kind: 'field' }, null), 'meeple on the field');
  // The farmer beside that city, completed by the same tile: 3 points at the end.
  const farm = projectSpots(state, tiles, { x: 0, y: -1, tile: 'E', rotation: 180, ports: ['NL'], seat: 0 });
  assert.equal(farm.NL.kind, 'field');
  assert.equal(farm.NL.points, 3);
  assert.equal(spotPoints({ kind: 'field' }, farm.NL), '3 points at the end as it stands (3 per completed city)');
  const open = projectSpots(state, tiles, { x: -1, y: 0, tile: 'U', rotation: 0, ports: ['NL'], seat: 0 });
  assert.equal(open.NL.points, 0, 'a field by no completed city: nothing yet');
  setLanguage('de');
  assert.equal(spotName(spot, info.E), 'Gefolgsmann auf der Straße, 2 Plättchen');
  setLanguage('en');
});

test('a tile in words for the bag', () => {
  setLanguage('en');
  assert.equal(tileWords(tiles.D), 'a city, a road and 2 fields');
  assert.equal(tileWords(tiles.B), 'a monastery and a field');
});

test('spots of several figures are laid out together, each keeping its figure', () => {
  const spots = spotLayout(tiles.A, 0, [{ port: 'C', figure: 'meeple' }, { port: 'S', figure: 'meeple' }, { port: 'C', figure: 'abbot' }], 24);
  assert.deepEqual(spots.map((s) => s.figure), ['meeple', 'meeple', 'abbot']);
  assert.ok(closestPair(spots) >= 25.9, 'no two overlap, even on the same feature');
});
