import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildReplay, readRecordText, clampStep, stepForKey, stepEvents, problemText } from '../../web-client/js/replay/replay.js';
import { replay } from '../../web-client/js/game/record.js';
import { randomGame } from '../reference/random-game.mjs';

const data = join(dirname(fileURLToPath(import.meta.url)), '..', 'core', 'data');
const load = (f) => JSON.parse(readFileSync(join(data, f), 'utf8'));

test('the record format example, step by step', () => {
  const r = buildReplay(load('record_format_example.json'), { room: 'abc' });
  assert.equal(r.ok, true);
  assert.equal(r.steps, 4);
  assert.equal(r.frames.length, 5);
  const [start, s1, s2, , end] = r.frames;
  assert.deepEqual(start.board, [{ x: 0, y: 0, tile: 'D', rotation: 0, meeple: null }]);
  assert.equal(start.phase, 'playing');
  assert.deepEqual(start.turn, { number: 1, seat: 0, tile: 'E', legal: [], deadline: null });
  assert.deepEqual(start.players.map((p) => p.tile), ['E', 'C', 'U'], 'each holds the tile of their next move');
  // Seat 0 closes the start city with E: 4 points at once, the meeple comes back.
  assert.deepEqual(s1.players.map((p) => p.score), [4, 0, 0]);
  assert.deepEqual(s1.players.map((p) => p.meeples), [7, 7, 7]);
  assert.deepEqual(s1.board[1], { x: 0, y: -1, tile: 'E', rotation: 180, meeple: null });
  assert.deepEqual(stepEvents(r, 1).map((e) => e.type), ['placed', 'scored']);
  assert.equal(stepEvents(r, 1)[1].points, 4);
  // Seat 1 discards C and keeps the turn with V.
  assert.deepEqual(stepEvents(r, 2).map((e) => [e.type, e.seat, e.tile]), [['discarded', 1, 'C']]);
  assert.equal(s2.turn.seat, 1);
  assert.equal(s2.players[1].tile, 'V');
  assert.equal(s2.board.length, 2, 'a discard adds no tile');
  // The end: the road with seat 2's meeple scores 3, the game is over.
  assert.equal(end.phase, 'finished');
  assert.equal(end.turn, null);
  assert.deepEqual(end.players.map((p) => p.score), [4, 0, 3]);
  assert.deepEqual(end.players.map((p) => p.meeples), [7, 7, 6]);
  assert.deepEqual(end.result.final_scores, [4, 0, 3]);
  assert.deepEqual(end.result.winners, [0]);
  assert.deepEqual(end.board.at(-1).meeple, { seat: 2, at: 'W' }, 'meeples stay on the board at the end');
  assert.deepEqual(end.events.map((e) => e.id), end.events.map((_, i) => i), 'ids count from the started event');
  assert.equal(end.events[0].type, 'started');
  assert.equal(end.events.at(-1).type, 'game_over');
  assert.equal(end.players[2].name, 'Player 3');
});

test('whole random games: every step agrees with the record replay, and the state adds up', () => {
  for (let i = 0; i < 12; i++) {
    const players = 2 + (i % 4);
    const record = randomGame(players, 700 + i);
    const summary = replay(record);
    const r = buildReplay({ ...record, result: { final_scores: summary.final_scores } });
    assert.equal(r.ok, true);
    assert.equal(r.mismatch, null);
    assert.equal(r.steps, record.moves.length);
    for (let k = 1; k <= r.steps; k++) {
      const f = r.frames[k];
      const want = k === r.steps ? summary.final_scores : summary.scores_after_move[k - 1];
      assert.deepEqual(f.players.map((p) => p.score), want, `game ${i}, step ${k}: scores`);
      const placements = record.moves.slice(0, k).filter((m) => !m.discard).length;
      assert.equal(f.board.length, 1 + placements, `game ${i}, step ${k}: tiles on the board`);
      const onBoard = f.board.filter((b) => b.meeple).length;
      assert.equal(f.players.reduce((a, p) => a + 7 - p.meeples, 0), onBoard, `game ${i}, step ${k}: every meeple is somewhere`);
      if (k < r.steps) {
        assert.equal(f.turn.tile, record.moves[k].tile);
        assert.equal(f.players[f.turn.seat].tile, f.turn.tile, 'the seat to play holds the tile it plays');
        const held = f.players.filter((p) => p.tile).length;
        assert.equal(Object.values(f.bag.tiles).reduce((a, b) => a + b, 0), f.bag.left, `game ${i}, step ${k}: bag`);
        assert.equal(f.bag.left + held + k + 1, 72, 'every tile is in the bag, held, played or the start tile');
      }
    }
    assert.deepEqual(r.result.final_scores, summary.final_scores);
    assert.deepEqual(r.result.breakdown, summary.breakdown);
    assert.deepEqual(r.frames.at(-1).players.map((p) => p.meeples), summary.meeples_in_supply);
  }
});

test('moves a computer made for an absent player are marked', () => {
  const ex = load('record_format_example.json');
  const r = buildReplay({ ...ex, moves: ex.moves.map((m, i) => (i === 2 ? { ...m, auto: true } : m)) });
  assert.deepEqual(r.auto, [false, false, true, false]);
});

test('a stated result that differs from the rules is reported', () => {
  const r = buildReplay({ ...load('record_format_example.json'), result: { final_scores: [4, 0, 4] } });
  assert.equal(r.ok, true);
  assert.deepEqual(r.mismatch, { stated: [4, 0, 4], replayed: [4, 0, 3] });
});

test('a record that breaks a rule names the move and the reason', () => {
  for (const f of readdirSync(data).filter((n) => n.endsWith('.json'))) {
    const record = load(f);
    if (!record.expect || !('error' in record.expect)) continue;
    const r = buildReplay(record);
    assert.equal(r.ok, false, f);
    // The browser's rules are the base game: an expansion record is refused (it replays on
    // the server, POST /api/replay).
    if (Array.isArray(record.expansions) && record.expansions.length) {
      // A record refused as a whole for its player count may be refused for that first.
      const codes = record.expect.move === null ? ['expansions', 'players'] : ['expansions'];
      assert.ok(r.move === null && codes.includes(r.reason.code), `${f}: ${r.reason.code}`);
      continue;
    }
    assert.equal(r.move, record.expect.move, `${f}: the move`);
    assert.equal(typeof r.reason.code, 'string', `${f}: a reason code`);
  }
  const ex = load('record_format_example.json');
  const bad = { ...ex, moves: [...ex.moves] };
  bad.moves[2] = { ...bad.moves[2], x: 5 };
  const r = buildReplay(bad);
  assert.deepEqual([r.ok, r.move, r.reason.code], [false, 2, 'illegal_placement']);
  assert.deepEqual(buildReplay({ ...ex, players: 7 }), { ok: false, move: null, reason: { code: 'players' } });
  const discard = { ...ex, moves: [{ tile: 'E', discard: true }] };
  assert.deepEqual(buildReplay(discard).reason, { code: 'discard_legal', tile: 'E' });
});

test('names: given, carried by the record, or the default', () => {
  const ex = load('record_format_example.json');
  assert.deepEqual(buildReplay(ex, { names: (s) => `P${s}` }).frames[0].players.map((p) => p.name), ['P0', 'P1', 'P2']);
  assert.deepEqual(buildReplay({ ...ex, names: ['Ann', 'Bo', 'Cy'] }).frames[0].players.map((p) => p.name), ['Ann', 'Bo', 'Cy']);
  assert.equal(buildReplay({ ...ex, names: ['Ann'] }).frames[0].players[0].name, 'Player 1', 'a wrong names list is ignored');
  const bots = buildReplay(ex, { bots: (s) => (s === 1 ? 'hard' : null) });
  assert.deepEqual(bots.frames.at(-1).players.map((p) => p.bot), [null, 'hard', null], 'computer players keep their level');
});

test('reading a file', () => {
  assert.deepEqual(readRecordText('{"players":2,"moves":[]}'), { record: { players: 2, moves: [] } });
  assert.deepEqual(readRecordText('not json'), { error: { code: 'not_json' } });
  assert.deepEqual(readRecordText('[1,2]'), { error: { code: 'not_record' } });
  assert.deepEqual(readRecordText('{"hello":1}'), { error: { code: 'not_record' } });
  assert.deepEqual(readRecordText('x'.repeat(2 << 20)), { error: { code: 'too_large' } });
  const empty = buildReplay(readRecordText('{"players":2,"moves":[],"final":false}').record);
  assert.equal(empty.steps, 0);
  assert.equal(empty.frames.length, 1);
});

test('stepping', () => {
  assert.equal(clampStep(-3, 10), 0);
  assert.equal(clampStep(99, 10), 10);
  assert.equal(clampStep(NaN, 10), 0);
  assert.equal(stepForKey('ArrowRight', 3, 10), 4);
  assert.equal(stepForKey('ArrowLeft', 0, 10), 0);
  assert.equal(stepForKey('ArrowRight', 10, 10), 10);
  assert.equal(stepForKey('PageDown', 5, 10), 10);
  assert.equal(stepForKey('Home', 5, 10), 0);
  assert.equal(stepForKey('End', 5, 10), 10);
  assert.equal(stepForKey('x', 5, 10), null);
});

test('problems in words: the move (counted from 1) and the reason, in each language', () => {
  const ex = load('record_format_example.json');
  const bad = { ...ex, moves: [...ex.moves] };
  bad.moves[2] = { ...bad.moves[2], x: 5 };
  const r = buildReplay(bad);
  assert.equal(problemText(r, 'en'), 'Move 3 breaks a rule: tile V cannot go at (5, 0) turned 90°.');
  assert.match(problemText(r, 'fr'), /^Le coup 3 enfreint une règle : la tuile V ne peut pas aller en \(5, 0\)/);
  assert.match(problemText(r, 'ja'), /^3手目がルールに反しています/);
  assert.equal(problemText({ move: null, reason: { code: 'not_json' } }, 'en'), 'This file is not a game record: it is not JSON text.');
  // Every reason the replay can give has words in every language.
  const codes = ['not_json', 'too_large', 'not_record', 'not_object', 'format', 'players', 'final', 'moves', 'move_not_object',
    'unknown_tile', 'discard_type', 'coordinate', 'rotation', 'unknown_port', 'game_over', 'no_copy', 'discard_legal',
    'illegal_placement', 'no_feature', 'no_meeple_left', 'occupied', 'figure', 'return', 'expansions'];
  for (const lang of ['en', 'ja', 'fr']) {
    for (const code of codes) assert.doesNotMatch(problemText({ move: 0, reason: { code } }, lang), /replay\.why/, `${lang} ${code}`);
  }
  for (const f of readdirSync(data).filter((n) => n.endsWith('.json'))) {
    const rec = load(f);
    const out = buildReplay(rec);
    if (!out.ok) assert.ok(codes.includes(out.reason.code), `${f}: ${out.reason.code} is a known reason`);
  }
});

test('a record file: its text, and files too large or unreadable', async () => {
  const { readRecordFile } = await import('../../web-client/js/replay/recordfile.js');
  const file = (text, size = text.length) => ({ size, text: async () => text });
  assert.deepEqual(await readRecordFile(file('{"players":2,"moves":[]}')), { record: { players: 2, moves: [] } });
  assert.deepEqual(await readRecordFile(file('{', 5 << 20)), { error: { code: 'too_large' } });
  assert.deepEqual(await readRecordFile({ size: 3, text: async () => { throw new Error('gone'); } }), { error: { code: 'not_json' } });
  assert.deepEqual(await readRecordFile(null), { error: { code: 'not_record' } });
});
