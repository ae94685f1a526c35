import test from 'node:test';
import assert from 'node:assert/strict';
import { parseRoute, moveParam, roomPath, replayPath, inviteUrl } from '../../web-client/js/pages/routes.js';

test('pages by path', () => {
  assert.deepEqual(parseRoute('/'), { page: 'home' });
  assert.deepEqual(parseRoute('/r/abc-DEF_123'), { page: 'room', room: 'abc-DEF_123' });
  assert.deepEqual(parseRoute('/r/abc-DEF_123/'), { page: 'room', room: 'abc-DEF_123' });
  assert.deepEqual(parseRoute('/replay/abc_123', '?move=12'), { page: 'replay', room: 'abc_123', move: 12 });
  assert.deepEqual(parseRoute('/replay/abc_123'), { page: 'replay', room: 'abc_123', move: null });
  assert.deepEqual(parseRoute('/r/a%20b'), { page: 'home' }, 'not a room id');
  assert.deepEqual(parseRoute('/r/abc/extra'), { page: 'home' });
  assert.deepEqual(parseRoute('/index.html'), { page: 'home' });
});

test('?move=K is a whole number or nothing', () => {
  assert.equal(moveParam('?move=0'), 0);
  assert.equal(moveParam('?x=1&move=42'), 42);
  for (const bad of ['', '?move=', '?move=-1', '?move=1.5', '?move=abc', '?move=1e3', '?move=99999999']) {
    assert.equal(moveParam(bad), null, bad);
  }
});

test('paths and links', () => {
  assert.equal(roomPath('abc'), '/r/abc');
  assert.equal(replayPath('abc'), '/replay/abc');
  assert.equal(replayPath('abc', 0), '/replay/abc?move=0');
  assert.equal(inviteUrl('https://x.example', 'abc'), 'https://x.example/r/abc');
});
