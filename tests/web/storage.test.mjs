import test from 'node:test';
import assert from 'node:assert/strict';
import { KEYS, safeStorage } from '../../web-client/js/platform/storage.js';
import { cleanCatalog } from '../../web-client/js/tiles/tile-catalog.js';
import { joinMessage } from '../../web-client/js/room/join.js';

function memoryArea() {
  const m = new Map();
  return {
    get length() { return m.size; },
    key: (i) => [...m.keys()][i] ?? null,
    getItem: (k) => (m.has(k) ? m.get(k) : null),
    setItem: (k, v) => { m.set(k, String(v)); },
    removeItem: (k) => { m.delete(k); },
  };
}

test('the seat token key other tools rely on', () => {
  assert.equal(KEYS.token('room_123'), 'carc.token.room_123');
});

test('storage works, and never throws when the browser refuses it', () => {
  const s = safeStorage(memoryArea);
  const area = memoryArea();
  const same = safeStorage(() => area);
  same.set('a', 1);
  assert.equal(same.get('a'), '1');
  assert.deepEqual(same.keys(), ['a']);
  same.del('a');
  assert.equal(same.get('a'), null);
  assert.equal(s.get('nothing'), null);
  const broken = safeStorage(() => { throw new Error('SecurityError'); });
  assert.equal(broken.get('a'), null);
  assert.doesNotThrow(() => broken.set('a', 'b'));
  assert.doesNotThrow(() => broken.del('a'));
  assert.deepEqual(broken.keys(), []);
  const full = safeStorage(() => ({ ...memoryArea(), setItem() { throw new Error('QuotaExceededError'); } }));
  assert.doesNotThrow(() => full.set('a', 'b'));
});

test('the catalog keeps only well-formed tiles', () => {
  const { catalog, tiles } = cleanCatalog({
    ports: ['N'],
    tiles: [
      { letter: 'D', sides: [], features: [] },
      { letter: '<x>', sides: [], features: [] },
      { letter: 'E', sides: 'cfff', features: [] },
      null,
    ],
  });
  assert.deepEqual(catalog.tiles.map((tl) => tl.letter), ['D']);
  assert.deepEqual(Object.keys(tiles), ['D']);
  assert.deepEqual(catalog.ports, ['N']);
  assert.deepEqual(cleanCatalog(null).catalog.tiles, []);
});

test('the join message of each intent', () => {
  assert.deepEqual(joinMessage({ type: 'token', token: 't' }), { type: 'join', token: 't' });
  assert.deepEqual(joinMessage({ type: 'name', name: 'Ann' }), { type: 'join', name: 'Ann' });
  assert.deepEqual(joinMessage({ type: 'watch' }), { type: 'watch' });
  assert.equal(joinMessage(null), null);
});
