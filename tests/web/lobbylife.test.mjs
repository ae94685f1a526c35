import test from 'node:test';
import assert from 'node:assert/strict';
import {
  seatChange, hostChange, lobbyControls, freeSeatMessage, clockChoices, settingsMessage, durationParts, rematchOffer, soloStep, soloPlan, soloText, soloRematchReady,
  TURN_CHOICES, AWAY_CHOICES,
} from '../../web-client/js/lobby/lobbylife.js';

const player = (seat, name, extra = {}) => ({ seat, name, color: 'red', score: 0, meeples: 7, connected: true, tile: null, host: false, bot: null, away: false, ...extra });
const lobby = (players, extra = {}) => ({ room: 'r', phase: 'lobby', players, settings: { turn_seconds: null, away_seconds: 60 }, rematch: null, ...extra });

test('what a welcome says about my seat', () => {
  assert.equal(seatChange(null, { type: 'welcome', seat: 0 }), null, 'a first join');
  assert.equal(seatChange(1, { type: 'welcome', seat: 1 }), null, 'a rejoin');
  assert.deepEqual(seatChange(1, { type: 'welcome', seat: null, token: null }), { kind: 'left', seat: null });
  assert.deepEqual(seatChange(2, { type: 'welcome', seat: null, token: null, kicked: true }), { kind: 'kicked', seat: null });
  assert.deepEqual(seatChange(3, { type: 'welcome', seat: 2, token: 't' }), { kind: 'moved', seat: 2 });
  assert.equal(seatChange(1, { type: 'state' }), null);
});

test('host hand-over', () => {
  const before = lobby([player(0, 'Ann', { host: true }), player(1, 'Ben'), player(2, 'Cy')]);
  const annLeft = lobby([player(0, 'Ben', { host: true }), player(1, 'Cy')]);
  assert.deepEqual(hostChange(before, annLeft, 1, 0), { me: true }, 'Ben moved up to seat 0 and is the host');
  assert.deepEqual(hostChange(before, annLeft, 2, 1), { me: false, player: annLeft.players[0] }, 'Cy hears Ben is the host');
  const benLeft = lobby([player(0, 'Ann', { host: true }), player(1, 'Cy')]);
  assert.equal(hostChange(before, benLeft, 2, 1), null, 'the host stays');
  assert.equal(hostChange(before, before, 0, 0), null);
  assert.equal(hostChange(before, { ...annLeft, phase: 'playing' }, 1, 0), null);
});

test('lobby controls: the host kicks humans, removes computer players, adds them, sets the clock', () => {
  const s = lobby([player(0, 'Ann', { host: true }), player(1, 'Bot 2 (easy)', { bot: 'easy' }), player(2, 'Cy')]);
  const host = lobbyControls(s, 0);
  assert.deepEqual([host.isHost, host.canStart, host.canAddBot, host.canLeave, host.canSetClock], [true, true, true, true, true]);
  assert.deepEqual(host.seats, [
    { seat: 0, kick: false, removeBot: false },
    { seat: 1, kick: false, removeBot: true },
    { seat: 2, kick: true, removeBot: false },
  ]);
  const guest = lobbyControls(s, 2);
  assert.deepEqual([guest.isHost, guest.canStart, guest.canAddBot, guest.canLeave, guest.canSetClock], [false, false, false, true, false]);
  assert.ok(guest.seats.every((x) => !x.kick && !x.removeBot));
  const watcher = lobbyControls(s, null);
  assert.deepEqual([watcher.seated, watcher.canLeave], [false, false]);
  const full = lobby([0, 1, 2, 3, 4].map((i) => player(i, `P${i}`, { host: i === 0 })));
  assert.equal(lobbyControls(full, 0).canAddBot, false);
  assert.equal(lobbyControls(lobby([player(0, 'Ann', { host: true })]), 0).canStart, false, 'one seat cannot start');
  assert.equal(lobbyControls({ ...s, phase: 'playing' }, 0).canLeave, false);
  assert.deepEqual(freeSeatMessage(s, 1), { type: 'remove_bot', seat: 1 });
  assert.deepEqual(freeSeatMessage(s, 2), { type: 'kick', seat: 2 });
  assert.equal(freeSeatMessage(s, 4), null);
});

test('the clock: choices within the protocol\'s ranges', () => {
  for (const v of TURN_CHOICES) assert.ok(settingsMessage('turn_seconds', v), `turn ${v}`);
  for (const v of AWAY_CHOICES) assert.ok(settingsMessage('away_seconds', v), `away ${v}`);
  assert.deepEqual(settingsMessage('turn_seconds', 60), { type: 'settings', turn_seconds: 60 });
  assert.deepEqual(settingsMessage('away_seconds', null), { type: 'settings', away_seconds: null });
  assert.equal(settingsMessage('turn_seconds', 5), null);
  assert.equal(settingsMessage('away_seconds', 100000), null);
  assert.equal(settingsMessage('turn_seconds', 1.5), null);
  assert.equal(settingsMessage('other', 10), null);
  assert.deepEqual(clockChoices('away_seconds', 60), AWAY_CHOICES);
  assert.deepEqual(clockChoices('away_seconds', 45), [null, 15, 30, 45, 60, 120, 300, 900], 'a value set elsewhere is kept');
  assert.deepEqual(durationParts(45), { unit: 's', n: 45 });
  assert.deepEqual(durationParts(120), { unit: 'min', n: 2 });
  assert.deepEqual(durationParts(7200), { unit: 'h', n: 2 });
  assert.deepEqual(durationParts(86400), { unit: 'd', n: 1 });
});

test('the rematch on offer', () => {
  const done = { ...lobby([player(0, 'Ann', { host: true }), player(1, 'Ben')]), phase: 'finished' };
  assert.equal(rematchOffer({ ...done, phase: 'playing' }, 0), null);
  assert.deepEqual(rematchOffer(done, 1), { ask: true });
  assert.equal(rematchOffer(done, null), null, 'a spectator cannot ask');
  assert.deepEqual(rematchOffer({ ...done, rematch: 'newroom1234' }, 0), { room: 'newroom1234', join: true });
  assert.deepEqual(rematchOffer({ ...done, rematch: 'newroom1234' }, null), { room: 'newroom1234', join: false });
});

test('a game against the computer: add a bot, then start', () => {
  const alone = lobby([player(0, 'Ann', { host: true })]);
  assert.deepEqual(soloStep(alone, 0, 'medium'), { type: 'add_bot', level: 'medium' });
  assert.deepEqual(soloStep(alone, 0, 'nonsense'), { type: 'add_bot', level: 'medium' });
  const withBot = lobby([player(0, 'Ann', { host: true }), player(1, 'Bot 2 (medium)', { bot: 'medium' })]);
  assert.deepEqual(soloStep(withBot, 0, 'medium'), { type: 'start' });
  assert.equal(soloStep({ ...withBot, phase: 'playing' }, 0, 'medium'), 'done');
  assert.equal(soloStep(lobby([player(0, 'Ann', { host: true }), player(1, 'Ben')]), 1, 'medium'), null, 'not the host: wait');
  assert.equal(soloStep(null, 0, 'medium'), null);
});

test('a game against the computer with several computer players of a level, and its "Play again"', () => {
  assert.deepEqual(soloPlan('hard:3'), { level: 'hard', count: 3 });
  assert.deepEqual(soloPlan('easy'), { level: 'easy', count: 1 });
  assert.deepEqual(soloPlan('evil:9'), { level: 'medium', count: 1 });
  assert.equal(soloText({ level: 'hard', count: 2 }), 'hard:2');
  const one = lobby([player(0, 'Ann', { host: true }), player(1, 'Bot 2 (hard)', { bot: 'hard' })]);
  assert.deepEqual(soloStep(one, 0, 'hard:2'), { type: 'add_bot', level: 'hard' }, 'a second computer player');
  const two = lobby([...one.players, player(2, 'Bot 3 (hard)', { bot: 'hard' })]);
  assert.deepEqual(soloStep(two, 0, 'hard:2'), { type: 'start' });
  assert.equal(soloRematchReady(two, 0), true, 'the host and computer players only: start at once');
  assert.equal(soloRematchReady(lobby([player(0, 'Ann', { host: true }), player(1, 'Ben')]), 0), false, 'another human: wait for them');
  assert.equal(soloRematchReady(two, 1), false, 'not the host');
  assert.equal(soloRematchReady({ ...two, phase: 'playing' }, 0), false);
});

test('the start page\'s expansions and pace: kept as text, sent once by the host, done when the room has them', async () => {
  const { setupText, setupPlan, setupStep, soloPlan, soloStep } = await import('../../web-client/js/lobby/lobbylife.js');
  assert.equal(setupText({ expansions: [], pace: 'live' }), null, 'a base game played live: nothing to set');
  assert.equal(setupText({ expansions: ['inns', 'river', 'nope'], pace: 'live' }), 'river,inns|live');
  assert.deepEqual(setupPlan('river,inns|turn_based'), { expansions: ['river', 'inns'], pace: 'turn_based' });
  assert.deepEqual(setupPlan('|turn_based'), { expansions: [], pace: 'turn_based' });
  const lobby = (settings, host = 0) => ({ phase: 'lobby', settings, players: [{ seat: 0, host: host === 0 }, { seat: 1, host: host === 1 }] });
  assert.deepEqual(setupStep(lobby({ expansions: [], pace: 'live' }), 0, 'river|turn_based'), { type: 'settings', expansions: ['river'], pace: 'turn_based' });
  assert.equal(setupStep(lobby({ expansions: ['river'], pace: 'turn_based' }), 0, 'river|turn_based'), 'done');
  assert.equal(setupStep(lobby({ expansions: [], pace: 'live' }, 1), 0, 'river|live'), null, 'only the host sets it');
  assert.equal(setupStep({ phase: 'playing' }, 0, 'river|live'), 'done');
  // Five computer players once Inns & Cathedrals gives a sixth seat; four otherwise.
  assert.equal(soloPlan('easy:5').count, 5);
  const five = { phase: 'lobby', settings: { expansions: [] }, players: [0, 1, 2, 3, 4].map((s) => ({ seat: s, host: s === 0, bot: s ? 'easy' : null })) };
  assert.deepEqual(soloStep(five, 0, 'easy:5'), { type: 'start' }, 'five seats taken: start');
  const six = { ...five, settings: { expansions: ['inns'] } };
  assert.deepEqual(soloStep(six, 0, 'easy:5'), { type: 'add_bot', level: 'easy' }, 'the sixth seat of Inns & Cathedrals');
});

test('a turn-based room\'s bank and increment: choices with the current value, never "no limit", in range only', async () => {
  const { clockChoices, settingsMessage, BANK_CHOICES } = await import('../../web-client/js/lobby/lobbylife.js');
  const { bankParts } = await import('../../web-client/js/game/clock.js');
  assert.deepEqual(clockChoices('bank_seconds', 259200), BANK_CHOICES);
  assert.ok(clockChoices('bank_seconds', 7200).includes(7200) && !clockChoices('bank_seconds', 7200).includes(null), 'a current value of its own, no null');
  assert.deepEqual(settingsMessage('bank_seconds', 432000), { type: 'settings', bank_seconds: 432000 });
  assert.deepEqual(settingsMessage('increment_seconds', 0), { type: 'settings', increment_seconds: 0 });
  assert.equal(settingsMessage('bank_seconds', null), null);
  assert.equal(settingsMessage('bank_seconds', 60), null, 'under an hour');
  assert.equal(settingsMessage('increment_seconds', 604801), null, 'over a week');
  // The bank in days and hours: the words of the room, the lobby and "your games".
  assert.deepEqual(bankParts(5 * 86400000 - 1), ['tb.days', { n: 4, h: 23 }]);
  assert.deepEqual(bankParts(3 * 86400000), ['tb.daysOnly', { n: 3 }]);
  assert.deepEqual(bankParts(12 * 3600000), ['tb.hoursOnly', { h: 12 }]);
});
