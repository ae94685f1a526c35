import test from 'node:test';
import assert from 'node:assert/strict';
import { clockOffset, remainingMs, formatClock, crossed, trackAway, awayFor, presence, TurnTicker } from '../../web-client/js/game/clock.js';

test('clock: offset, remaining time, format and the 10-second warning', () => {
  const off = clockOffset(10_000, 9_000);
  assert.equal(off, 1000);
  const state = { phase: 'playing', turn: { deadline: 40_000 } };
  assert.equal(remainingMs(state, off, 9_000), 30_000);
  assert.equal(remainingMs(state, off, 50_000), 0);
  assert.equal(remainingMs({ phase: 'playing', turn: { deadline: null } }, 0, 0), null);
  assert.equal(remainingMs({ phase: 'finished', turn: { deadline: 5 } }, 0, 0), null);
  assert.equal(formatClock(42_000), '0:42');
  assert.equal(formatClock(41_001), '0:42');
  assert.equal(formatClock(725_000), '12:05');
  assert.equal(formatClock(3_723_000), '1:02:03');
  assert.equal(formatClock(-5), '0:00');
  assert.equal(crossed(10_400, 9_900), true);
  assert.equal(crossed(9_900, 9_400), false, 'once only');
  assert.equal(crossed(null, 9_000), false, 'not when the page opens late in the turn');
});

test('presence: away since when, bots and computer-played seats', () => {
  const st = (c1) => ({ players: [{ seat: 0, connected: true }, { seat: 1, connected: c1 }] });
  assert.deepEqual(trackAway({}, st(false), 5000, true), { 1: null }, 'already away when first seen: since unknown');
  const a = trackAway({}, st(false), 5000);
  assert.deepEqual(a, { 1: 5000 });
  assert.deepEqual(trackAway(a, st(false), 9000), { 1: 5000 }, 'keeps the first time');
  assert.deepEqual(trackAway(a, st(true), 9000), {}, 'back');
  assert.deepEqual(trackAway({}, { players: [{ seat: 2, connected: false, bot: 'easy' }] }, 1), {}, 'a computer seat is never away');
  assert.deepEqual(awayFor(5000, 50_000), { unit: 's', n: 45 });
  assert.deepEqual(awayFor(0, 150_000), { unit: 'min', n: 2 });
  assert.deepEqual(awayFor(0, 7_300_000), { unit: 'h', n: 2 });
  assert.equal(awayFor(null, 1), null);
  assert.equal(awayFor(1000, 3000), null, 'just gone: no figure yet');
  assert.equal(presence({ bot: 'hard', connected: true }), 'bot');
  assert.equal(presence({ bot: null, away: true, connected: false }), 'auto');
  assert.equal(presence({ bot: null, away: false, connected: false }), 'away');
  assert.equal(presence({ connected: true }), null);
});

test('the turn ticker counts down and warns once at 10 s, only for the player whose turn it is', () => {
  let now = 1_000_000;
  const ticks = [];
  let warned = 0;
  let interval = null;
  const tk = new TurnTicker({
    now: () => now, onTick: (ms) => ticks.push(ms), onWarn: () => warned++,
    setInterval: (f) => { interval = f; return 1; }, clearInterval: () => { interval = null; },
  });
  tk.sync(now + 500); // the server's clock is 0.5 s ahead
  const state = { phase: 'playing', turn: { number: 3, deadline: now + 500 + 12_000 } };
  tk.update(state, true);
  assert.equal(ticks.at(-1), 12_000);
  assert.ok(interval, 'ticking');
  now += 1500; interval();
  assert.equal(warned, 0);
  now += 1000; interval();
  assert.equal(warned, 1, 'warned when passing 10 s');
  now += 1000; interval();
  assert.equal(warned, 1, 'once');
  // Someone else's turn with a clock: counts down, never warns.
  tk.update({ phase: 'playing', turn: { number: 4, deadline: now + 500 + 11_000 } }, false);
  now += 2000; interval();
  assert.equal(warned, 1);
  assert.equal(ticks.at(-1), 9_000);
  // No clock: stops.
  tk.update({ phase: 'playing', turn: { number: 5, deadline: null } }, true);
  assert.equal(interval, null);
  assert.equal(ticks.at(-1), null);
});
