import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  rotatePort, unrotatePort, rotatePoint, rotatedSides, tileShapes, meepleAnchor, featureAt, pennantPoints, pointInPolygon,
  distToPolyline, ROTATIONS, HALVES, SIDES,
} from '../../web-client/js/tiles/geometry.js';

const catalog = JSON.parse(readFileSync(new URL('./fixtures/tiles.json', import.meta.url)));
const byLetter = Object.fromEntries(catalog.tiles.map((t) => [t.letter, t]));

test('ports rotate clockwise as in tiles.md', () => {
  assert.equal(rotatePort('N', 90), 'E');
  assert.equal(rotatePort('W', 90), 'N');
  assert.equal(rotatePort('NL', 90), 'EL');
  assert.equal(rotatePort('NR', 180), 'SR');
  assert.equal(rotatePort('WL', 270), 'SL');
  assert.equal(rotatePort('C', 270), 'C');
  for (const p of [...SIDES, ...HALVES, 'C']) {
    for (const r of ROTATIONS) assert.equal(unrotatePort(rotatePort(p, r), r), p);
    assert.equal(rotatePort(p, 360), p);
  }
  // Tile J at rotation 90: city east, road S-W, inside-the-curve field SR/WL.
  const J = byLetter.J;
  assert.equal(featureAt(J, 90, 'E').kind, 'city');
  assert.equal(featureAt(J, 90, 'S').kind, 'road');
  assert.equal(featureAt(J, 90, 'W').id, featureAt(J, 90, 'S').id);
  assert.equal(featureAt(J, 90, 'SR').id, featureAt(J, 90, 'WL').id);
  assert.deepEqual(rotatedSides(byLetter.D, 90), ['road', 'city', 'road', 'field']);
});

test('points rotate about the tile centre, matching port rotation', () => {
  assert.deepEqual(rotatePoint([50, 0], 90), [100, 50]);
  assert.deepEqual(rotatePoint([25, 5], 90), [95, 25]);
  assert.deepEqual(rotatePoint([10, 20], 360), [10, 20]);
  assert.deepEqual(rotatePoint(rotatePoint([13, 71], 90), 270), [13, 71]);
});

test('catalog fixture has the 72 tiles', () => {
  assert.equal(catalog.tiles.length, 24);
  assert.equal(catalog.tiles.reduce((a, t) => a + t.count, 0), 72);
});

test('every tile has a shape and a meeple anchor for every feature', () => {
  for (const t of catalog.tiles) {
    const s = tileShapes(t);
    for (const f of t.features) {
      assert.ok(s.anchors[f.id], `${t.letter} feature ${f.id} has an anchor`);
      if (f.kind === 'city') assert.ok(s.cities.find((c) => c.id === f.id)?.area, `${t.letter} city ${f.id} drawn`);
      if (f.kind === 'road') assert.ok(s.roads.find((r) => r.id === f.id)?.d, `${t.letter} road ${f.id} drawn`);
      if (f.kind === 'monastery') assert.equal(s.monastery.id, f.id);
      if (f.kind === 'field') assert.ok(s.fields.find((x) => x.id === f.id), `${t.letter} field ${f.id}`);
    }
    assert.equal(pennantPoints(t, 0).length, t.pennants, `${t.letter} coats of arms`);
  }
});

test('anchors lie on their own feature: cities inside the city, fields off roads and cities, roads on the road', () => {
  for (const t of catalog.tiles) {
    const s = tileShapes(t);
    for (const f of t.features) {
      const a = s.anchors[f.id];
      if (f.kind === 'city') assert.ok(pointInPolygon(a, s.cities.find((c) => c.id === f.id).polygon), `${t.letter} city ${f.id} ${a}`);
      if (f.kind === 'road') assert.ok(distToPolyline(a, s.roads.find((r) => r.id === f.id).points) < 1, `${t.letter} road ${f.id}`);
      if (f.kind === 'field') {
        for (const c of s.cities) assert.ok(!pointInPolygon(a, c.polygon), `${t.letter} field ${f.id} not in a city (${a})`);
        for (const r of s.roads) assert.ok(distToPolyline(a, r.points) > 6, `${t.letter} field ${f.id} not on a road (${a})`);
      }
    }
    // Distinct features get visibly distinct spots.
    const pts = Object.values(s.anchors);
    for (let i = 0; i < pts.length; i++) {
      for (let j = i + 1; j < pts.length; j++) {
        const d = Math.hypot(pts[i][0] - pts[j][0], pts[i][1] - pts[j][1]);
        assert.ok(d >= 14, `${t.letter}: anchors ${pts[i]} and ${pts[j]} too close (${d.toFixed(1)})`);
      }
    }
  }
});

test('every letter under every rotation: each port of each feature yields an anchor inside the tile', () => {
  for (const t of catalog.tiles) {
    for (const rot of ROTATIONS) {
      for (const f of t.features) {
        for (const port of f.ports) {
          const boardPort = rotatePort(port, rot);
          assert.equal(featureAt(t, rot, boardPort).id, f.id);
          const a = meepleAnchor(t, rot, boardPort);
          assert.ok(a, `${t.letter}@${rot} ${boardPort}`);
          assert.ok(a[0] > 3 && a[0] < 97 && a[1] > 3 && a[1] < 97, `${t.letter}@${rot} ${boardPort} anchor ${a} inside`);
          // Rotating the anchor back gives the catalog anchor.
          assert.deepEqual(rotatePoint(a, 360 - rot).map(Math.round), tileShapes(t).anchors[f.id].map(Math.round));
        }
      }
      for (const p of pennantPoints(t, rot)) assert.ok(p[0] > 0 && p[0] < 100 && p[1] > 0 && p[1] < 100);
    }
  }
});

test('field anchors of separate fields land in the right region (D: north strip vs south)', () => {
  const D = tileShapes(byLetter.D);
  assert.ok(D.anchors[2][1] < 45, `D field1 is between the city and the road: ${D.anchors[2]}`);
  assert.ok(D.anchors[3][1] > 55, `D field2 is south of the road: ${D.anchors[3]}`);
  const X = tileShapes(byLetter.X);
  assert.ok(X.anchors[4][0] > 55 && X.anchors[4][1] < 45, 'X NE field'); // field [NR EL]
  assert.ok(X.anchors[7][0] < 45 && X.anchors[7][1] < 45, 'X NW field'); // field [WR NL]
  assert.ok(X.junction, 'X has a junction');
  assert.ok(tileShapes(byLetter.A).monastery);
});
