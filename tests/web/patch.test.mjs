import test from 'node:test';
import assert from 'node:assert/strict';
import { applyPatch, PatchError, parsePointer, getAt } from '../../web-client/js/game/patch.js';

test('pointer parsing and escaping (RFC 6901)', () => {
  assert.deepEqual(parsePointer(''), []);
  assert.deepEqual(parsePointer('/foo/0'), ['foo', '0']);
  assert.deepEqual(parsePointer('/a~1b/m~0n'), ['a/b', 'm~n']);
  assert.deepEqual(parsePointer('/~01'), ['~1']);
  assert.deepEqual(parsePointer('/'), ['']);
  assert.throws(() => parsePointer('foo'), PatchError);
  assert.throws(() => parsePointer('/a~2'), PatchError);
  const doc = { foo: ['bar', 'baz'], '': 0, 'a/b': 1, 'c%d': 2, 'e^f': 3, 'g|h': 4, 'i\\j': 5, 'k"l': 6, ' ': 7, 'm~n': 8 };
  assert.equal(getAt(doc, ''), doc);
  assert.deepEqual(getAt(doc, '/foo'), ['bar', 'baz']);
  assert.equal(getAt(doc, '/foo/0'), 'bar');
  assert.equal(getAt(doc, '/'), 0);
  assert.equal(getAt(doc, '/a~1b'), 1);
  assert.equal(getAt(doc, '/c%d'), 2);
  assert.equal(getAt(doc, '/ '), 7);
  assert.equal(getAt(doc, '/m~0n'), 8);
});

// RFC 6902 appendix A.
const cases = [
  ['A.1 add an object member', { foo: 'bar' }, [{ op: 'add', path: '/baz', value: 'qux' }], { baz: 'qux', foo: 'bar' }],
  ['A.2 add an array element', { foo: ['bar', 'baz'] }, [{ op: 'add', path: '/foo/1', value: 'qux' }], { foo: ['bar', 'qux', 'baz'] }],
  ['A.3 remove an object member', { baz: 'qux', foo: 'bar' }, [{ op: 'remove', path: '/baz' }], { foo: 'bar' }],
  ['A.4 remove an array element', { foo: ['bar', 'qux', 'baz'] }, [{ op: 'remove', path: '/foo/1' }], { foo: ['bar', 'baz'] }],
  ['A.5 replace a value', { baz: 'qux', foo: 'bar' }, [{ op: 'replace', path: '/baz', value: 'boo' }], { baz: 'boo', foo: 'bar' }],
  ['A.6 move a value', { foo: { bar: 'baz', waldo: 'fred' }, qux: { corge: 'grault' } },
    [{ op: 'move', from: '/foo/waldo', path: '/qux/thud' }],
    { foo: { bar: 'baz' }, qux: { corge: 'grault', thud: 'fred' } }],
  ['A.7 move an array element', { foo: ['all', 'grass', 'cows', 'eat'] }, [{ op: 'move', from: '/foo/1', path: '/foo/3' }],
    { foo: ['all', 'cows', 'eat', 'grass'] }],
  ['A.8 test success', { baz: 'qux', foo: ['a', 2, 'c'] },
    [{ op: 'test', path: '/baz', value: 'qux' }, { op: 'test', path: '/foo/1', value: 2 }], { baz: 'qux', foo: ['a', 2, 'c'] }],
  ['A.10 add a nested member object', { foo: 'bar' }, [{ op: 'add', path: '/child', value: { grandchild: {} } }],
    { foo: 'bar', child: { grandchild: {} } }],
  ['A.11 ignore unrecognized elements', { foo: 'bar' }, [{ op: 'add', path: '/baz', value: 'qux', xyz: 123 }], { foo: 'bar', baz: 'qux' }],
  ['A.14 ~ escape ordering', { '/': 9, '~1': 10 }, [{ op: 'test', path: '/~01', value: 10 }], { '/': 9, '~1': 10 }],
  ['A.16 add an array value', { foo: ['bar'] }, [{ op: 'add', path: '/foo/-', value: ['abc', 'def'] }], { foo: ['bar', ['abc', 'def']] }],
  ['copy', { a: { b: [1, 2] } }, [{ op: 'copy', from: '/a/b', path: '/c' }], { a: { b: [1, 2] }, c: [1, 2] }],
  ['replace the root', { a: 1 }, [{ op: 'replace', path: '', value: [1] }], [1]],
  ['add at array end by index', [1, 2], [{ op: 'add', path: '/2', value: 3 }], [1, 2, 3]],
  ['test deep equality ignores key order', { a: { x: 1, y: [1, { z: 2 }] } },
    [{ op: 'test', path: '/a', value: { y: [1, { z: 2 }], x: 1 } }], { a: { x: 1, y: [1, { z: 2 }] } }],
  ['add replaces an existing member', { a: 1 }, [{ op: 'add', path: '/a', value: 2 }], { a: 2 }],
  ['escaped member names', { 'a/b': 1 }, [{ op: 'replace', path: '/a~1b', value: 2 }, { op: 'add', path: '/m~0n', value: 3 }],
    { 'a/b': 2, 'm~n': 3 }],
];
for (const [name, doc, ops, expected] of cases) {
  test(`RFC 6902 ${name}`, () => assert.deepEqual(applyPatch(doc, ops), expected));
}

const failures = [
  ['A.9 test failure', { baz: 'qux', foo: ['a', 2, 'c'] }, [{ op: 'test', path: '/baz', value: 'bar' }]],
  ['A.12 add to a nonexistent target', { foo: 'bar' }, [{ op: 'add', path: '/baz/bat', value: 'qux' }]],
  ['A.15 comparing strings and numbers', { '/': 9, '~1': 10 }, [{ op: 'test', path: '/~01', value: '10' }]],
  ['remove missing member', { a: 1 }, [{ op: 'remove', path: '/b' }]],
  ['remove out of range', { a: [1] }, [{ op: 'remove', path: '/a/1' }]],
  ['replace missing member', { a: 1 }, [{ op: 'replace', path: '/b', value: 1 }]],
  ['add index past the end', { a: [1] }, [{ op: 'add', path: '/a/3', value: 1 }]],
  ['leading zero index', { a: [1, 2] }, [{ op: 'replace', path: '/a/01', value: 1 }]],
  ['move into own child', { a: { b: 1 } }, [{ op: 'move', from: '/a', path: '/a/b/c' }]],
  ['unknown op', { a: 1 }, [{ op: 'frobnicate', path: '/a' }]],
  ['missing value', { a: 1 }, [{ op: 'add', path: '/b' }]],
  ['copy from missing', { a: 1 }, [{ op: 'copy', from: '/x', path: '/b' }]],
  ['not an array', { a: 1 }, { op: 'add', path: '/b', value: 1 }],
];
for (const [name, doc, ops] of failures) {
  test(`fails: ${name}`, () => assert.throws(() => applyPatch(doc, ops), PatchError));
}

test('a failed patch leaves the document untouched (atomic)', () => {
  const doc = { players: [{ score: 1 }], list: [1, 2, 3], obj: { k: 'v' } };
  const snapshot = JSON.parse(JSON.stringify(doc));
  assert.throws(() =>
    applyPatch(doc, [
      { op: 'replace', path: '/players/0/score', value: 99 },
      { op: 'remove', path: '/list/0' },
      { op: 'add', path: '/obj/new', value: 1 },
      { op: 'test', path: '/obj/k', value: 'nope' },
    ]),
  );
  assert.deepEqual(doc, snapshot);
});

test('a successful patch does not mutate the input or share values with ops', () => {
  const doc = { a: { b: [1] } };
  const value = { deep: [1] };
  const out = applyPatch(doc, [{ op: 'add', path: '/a/c', value }, { op: 'add', path: '/a/b/-', value: 2 }]);
  assert.deepEqual(doc, { a: { b: [1] } });
  value.deep.push(2);
  assert.deepEqual(out.a.c, { deep: [1] });
});

test('error names the failing operation index', () => {
  try {
    applyPatch({ a: 1 }, [{ op: 'replace', path: '/a', value: 2 }, { op: 'remove', path: '/zz' }]);
    assert.fail('should throw');
  } catch (e) {
    assert.ok(e instanceof PatchError);
    assert.equal(e.index, 1);
  }
});
