// The rule options in the web client (docs/options.md): the lobby's option messages, the
// room's options read from its state, every language's words, and the end screen without
// a fields column when fields are not played.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { optionIds, optionsOf, optionToggleMessage } from '../../web-client/js/options/registry.js';
import * as strings from '../../web-client/js/options/strings.js';
import { breakdownKinds } from '../../web-client/js/end/breakdown.js';
import { parseRecord } from '../../web-client/js/game/record.js';
import { hasExpansions } from '../../web-client/js/replay/server-replay.js';

test('options: ids in the server order, toggles keep the others, unknown ids ignored', () => {
  assert.deepEqual(optionIds(), ['no_fields', 'small_city']);
  assert.deepEqual(optionsOf({ settings: { options: ['small_city', 'bogus', 'no_fields'] } }), ['no_fields', 'small_city']);
  assert.deepEqual(optionsOf({ settings: {} }), []);
  assert.deepEqual(optionToggleMessage(['small_city'], 'no_fields', true), { type: 'settings', options: ['no_fields', 'small_city'] });
  assert.deepEqual(optionToggleMessage(['no_fields', 'small_city'], 'no_fields', false), { type: 'settings', options: ['small_city'] });
  assert.equal(optionToggleMessage([], 'tiny', true), null);
});

test('options: every language names every option and says what it does', () => {
  for (const code of ['en', 'ja', 'fr', 'de', 'es']) {
    const dict = strings[code];
    assert.ok(dict, code);
    assert.deepEqual(Object.keys(dict).sort(), Object.keys(strings.en).sort(), code);
    for (const id of optionIds()) {
      assert.ok(dict[`opt.${id}`], `${code} opt.${id}`);
      assert.ok(dict[`opt.${id}.what`], `${code} opt.${id}.what`);
    }
  }
});

test('options: no fields column when the breakdown has no field row', () => {
  const base = [{ game: { road: 1, city: 4, monastery: 0 }, end: { road: 0, city: 0, monastery: 0, field: 3 } }];
  assert.deepEqual(breakdownKinds(base), ['road', 'city', 'monastery', 'field']);
  const noFields = [{ game: { road: 1, city: 2, monastery: 0 }, end: { road: 0, city: 0, monastery: 0 } }];
  assert.deepEqual(breakdownKinds(noFields), ['road', 'city', 'monastery']);
});

test('options: a record with options is replayed by the server, never by the base rules here', () => {
  const moves = [{ tile: 'E', x: 0, y: -1, rotation: 180, meeple: 'S' }];
  assert.equal(parseRecord({ players: 2, moves }).players, 2);
  assert.equal(parseRecord({ players: 2, options: [], moves }).players, 2);
  assert.equal(parseRecord({ players: 2, options: ['small_city'], moves }).reason?.code, 'expansions');
  assert.equal(hasExpansions({ players: 2, options: ['small_city'], moves }), true);
  assert.equal(hasExpansions({ players: 2, options: null, moves }), false);
});
