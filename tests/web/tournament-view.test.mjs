// The tournament page's pure parts (web-client/js/tournament/tournament-view.js) and its
// route (docs/tournaments.md).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isEntrant, pointsText, roundRows, standingRows } from '../../web-client/js/tournament/tournament-view.js';
import { parseRoute, tournamentPath } from '../../web-client/js/pages/routes.js';

const answer = {
  entrants: [{ player: 'aaaa', name: 'Ann', dropped_after: null }, { player: 'bbbb', name: 'Bob', dropped_after: 1 },
    { player: 'cccc', name: 'Cat', dropped_after: null }],
  rounds: [
    { round: 1, tables: [{ table: 0, game: 0, players: ['aaaa', 'bbbb'], room: 'room1aaaaaa', bye: false,
      result: [{ player: 'aaaa', score: 30, gone: false, place: 1 }, { player: 'bbbb', score: 12, gone: true, place: 2 }] },
    { table: 1, game: 0, players: ['cccc'], room: null, bye: true, result: [{ player: 'cccc', score: 0, gone: false, place: 1 }] }] },
    { round: 2, tables: [{ table: 0, game: 0, players: ['cccc', 'aaaa'], room: 'room2aaaaaa', bye: false, result: null }] },
  ],
  standings: [{ player: 'aaaa', rank: 1, points: 1, buchholz: 0.5, scored: 30, dropped: false },
    { player: 'cccc', rank: 1, points: 1, buchholz: 0, scored: 0, dropped: false },
    { player: 'bbbb', rank: 3, points: 0, buchholz: 1, scored: 12, dropped: true }],
};

test('standings carry names, points as shown and the dropped', () => {
  const rows = standingRows(answer);
  assert.deepEqual(rows.map((r) => [r.rank, r.name, r.points, r.buchholz, r.dropped]),
    [[1, 'Ann', '1', '0.5', false], [1, 'Cat', '1', '0', false], [3, 'Bob', '0', '1', true]]);
  assert.equal(pointsText(2 / 3), '0.67');
});

test('rounds newest first, with scores, the gone and byes', () => {
  const rounds = roundRows(answer);
  assert.deepEqual(rounds.map((r) => r.round), [2, 1]);
  assert.equal(rounds[0].tables[0].done, false);
  assert.deepEqual(rounds[1].tables[0].seats.map((s) => [s.name, s.score, s.gone]), [['Ann', 30, false], ['Bob', 12, true]]);
  assert.equal(rounds[1].tables[1].bye, true);
});

test('an entrant is registered and not dropped', () => {
  assert.equal(isEntrant(answer, 'aaaa'), true);
  assert.equal(isEntrant(answer, 'bbbb'), false);
  assert.equal(isEntrant(answer, null), false);
});

test('/t/<id> is the tournament page', () => {
  assert.deepEqual(parseRoute('/t/abcDEF123_-x'), { page: 'tournament', id: 'abcDEF123_-x' });
  assert.deepEqual(parseRoute('/t/'), { page: 'home' });
  assert.equal(tournamentPath('abc'), '/t/abc');
});

test('the new tournament form sends the settings the API takes: rounds only for a Swiss, numbers as numbers', async () => {
  const { createBody } = await import('../../web-client/js/tournament/tournament-create.js');
  assert.deepEqual(createBody({ name: ' Cup ', format: 'swiss', rounds: '3', seats: '8', pace: 'live', rated: true }),
    { name: 'Cup', format: 'swiss', seats: 8, pace: 'live', rated: true, rounds: 3 });
  assert.deepEqual(createBody({ name: 'K', format: 'single_elimination', rounds: '3', seats: '4', pace: 'turn_based', rated: false }),
    { name: 'K', format: 'single_elimination', seats: 4, pace: 'turn_based', rated: false });
  assert.deepEqual(parseRoute('/t/new'), { page: 'tournament', id: 'new' });
});

test('the new tournament form sends the clock of its pace only, in the API\'s units, and one request per computer entrant', async () => {
  const { createBody, botRequests } = await import('../../web-client/js/tournament/tournament-create.js');
  const clock = { turnSeconds: '90', bankDays: '2', incrementHours: '12', roundHours: '48' };
  assert.deepEqual(createBody({ name: 'L', format: 'round_robin', seats: '4', pace: 'live', rated: false, ...clock }),
    { name: 'L', format: 'round_robin', seats: 4, pace: 'live', rated: false, turn_seconds: 90 });
  assert.deepEqual(createBody({ name: 'T', format: 'round_robin', seats: '4', pace: 'turn_based', rated: false, ...clock }),
    { name: 'T', format: 'round_robin', seats: 4, pace: 'turn_based', rated: false, bank_seconds: 172800, increment_seconds: 43200, round_hours: 48 });
  // An emptied field keeps the server's default.
  assert.deepEqual(createBody({ name: 'T', format: 'round_robin', seats: '4', pace: 'turn_based', rated: false, bankDays: '', incrementHours: '0' }),
    { name: 'T', format: 'round_robin', seats: 4, pace: 'turn_based', rated: false, increment_seconds: 0 });
  assert.deepEqual(botRequests('2', 'hard'), [{ level: 'hard' }, { level: 'hard' }]);
  assert.deepEqual(botRequests('', 'easy'), []);
  assert.deepEqual(botRequests('-3', 'easy'), []);
});
