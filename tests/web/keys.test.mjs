import test from 'node:test';
import assert from 'node:assert/strict';
import { roomKeyAction } from '../../web-client/js/turn/keyboard.js';

const key = (k, extra = {}) => ({ key: k, tag: 'BODY', onBody: true, ...extra });
const idle = { hasDraft: false, myTurn: true };
const drafting = { hasDraft: true, myTurn: true };

test('the room keys', () => {
  assert.equal(roomKeyAction(key('r'), idle), 'rotate');
  assert.equal(roomKeyAction(key('R'), idle), 'rotate');
  assert.equal(roomKeyAction(key('Enter'), drafting), 'confirm');
  assert.equal(roomKeyAction(key('Enter'), idle), null, 'nothing to confirm');
  assert.equal(roomKeyAction(key('Escape'), drafting), 'cancel');
  assert.equal(roomKeyAction(key('ArrowLeft'), idle), 'step');
  assert.equal(roomKeyAction(key('ArrowLeft'), { hasDraft: false, myTurn: false }), null, 'arrows only on my turn');
  assert.equal(roomKeyAction(key('f'), idle), 'fit');
  assert.equal(roomKeyAction(key('+'), idle), 'zoomIn');
  assert.equal(roomKeyAction(key('='), idle), 'zoomIn');
  assert.equal(roomKeyAction(key('-'), idle), 'zoomOut');
  assert.equal(roomKeyAction(key('x'), idle), null);
  assert.equal(roomKeyAction(key('m'), drafting), 'meeple');
  assert.equal(roomKeyAction(key('M'), drafting), 'meeple');
  assert.equal(roomKeyAction(key('m'), idle), null, 'no tile placed yet');
});

test('typing, modifiers and focused buttons keep their keys', () => {
  for (const tag of ['INPUT', 'TEXTAREA', 'SELECT']) assert.equal(roomKeyAction(key('r', { tag, onBody: false }), idle), null, tag);
  for (const mod of ['ctrlKey', 'metaKey', 'altKey']) assert.equal(roomKeyAction(key('r', { [mod]: true }), idle), null, mod);
  assert.equal(roomKeyAction(key('Enter', { tag: 'BUTTON', onBody: false }), drafting), null, 'a focused button does what it says, even with a placement');
  assert.equal(roomKeyAction(key('Enter', { tag: 'A', onBody: false }), drafting), null, 'a focused link too');
  assert.equal(roomKeyAction(key('Enter', { tag: 'OL', onBody: false }), drafting), null, 'the focused log shows its line');
  assert.equal(roomKeyAction(key('Enter', { tag: 'g', onBody: false, onBoard: true }), drafting), 'confirm', 'Enter on the tile being placed confirms');
  assert.equal(roomKeyAction(key('Enter', { tag: 'BUTTON', onBody: false }), idle), null, 'without a placement, Enter presses the focused button');
  assert.equal(roomKeyAction(key(' ', { tag: 'BUTTON', onBody: false }), drafting), null, 'Space presses the focused button');
  assert.equal(roomKeyAction(key('Enter', { tag: 'INPUT', onBody: false }), drafting), null, 'not while typing');
  assert.equal(roomKeyAction(key('r', { tag: 'BUTTON', onBody: false }), idle), 'rotate');
});
