import test from 'node:test';
import assert from 'node:assert/strict';
import { backoffDelay, wsUrl } from '../../web-client/js/platform/net.js';

test('the WebSocket URL follows the page: ws for http, wss for https, same host', () => {
  assert.equal(wsUrl({ protocol: 'http:', host: 'localhost:8080' }, 'abc_DEF-123'), 'ws://localhost:8080/ws/abc_DEF-123');
  assert.equal(wsUrl({ protocol: 'https:', host: 'carc.example.org' }, 'room12345678'), 'wss://carc.example.org/ws/room12345678');
});

test('reconnect delays grow exponentially, with jitter, up to a cap', () => {
  const mid = () => 0.5;
  assert.equal(backoffDelay(0, mid), 500);
  assert.equal(backoffDelay(1, mid), 1000);
  assert.equal(backoffDelay(2, mid), 2000);
  assert.equal(backoffDelay(20, mid), 15000);
  assert.ok(backoffDelay(3, () => 0) < backoffDelay(3, () => 0.999));
  for (let i = 0; i < 30; i++) assert.ok(backoffDelay(i) <= 18000);
});

test('while the page is visible, every retry comes within 2 s', () => {
  for (let i = 0; i < 30; i++) {
    assert.ok(backoffDelay(i, Math.random, true) < 2000, `attempt ${i}`);
    assert.ok(backoffDelay(i, () => 0.999, true) < 2000, `attempt ${i}, the most jitter`);
  }
  assert.equal(backoffDelay(0, () => 0.5, true), 500, 'the first retry is as quick as before');
  assert.equal(backoffDelay(20, () => 0.5, false), 15000, 'a background tab backs off');
});
