// Lobby life, pure (docs/protocol.md): what a welcome says about this connection's
// seat (left, removed, moved up), who became the host, which lobby controls a player has,
// the clock's choices, the rematch on offer, and the steps of a game against the computer.
// No DOM, so node tests it.

import { playerBySeat } from '../game/state.js';
import { expansionIds, expansionById } from '../expansions/registry.js';

export const BOT_LEVELS = ['easy', 'medium', 'hard'];
export const MAX_SEATS = 5;
/** Seats of a lobby: five, or more with an expansion that brings more (expansions/registry.js: seats). */
export function maxSeats(state) {
  return Math.max(MAX_SEATS, ...[].concat(state?.settings?.expansions ?? []).map((id) => expansionById(id)?.seats ?? 0));
}

/**
 * What a `welcome` says about the seat this connection held before it (`prevSeat`):
 * null (nothing changed, or a first join), or {kind: 'left'|'kicked'|'moved', seat}.
 */
export function seatChange(prevSeat, msg) {
  if (msg?.type !== 'welcome' || prevSeat === null || prevSeat === undefined) return null;
  const seat = msg.seat ?? null;
  if (seat === null) return { kind: msg.kicked === true ? 'kicked' : 'left', seat: null };
  if (seat !== prevSeat) return { kind: 'moved', seat };
  return null;
}

/**
 * The host changed in the lobby: {me: true} when this player became it, {me: false, player}
 * when someone else did, else null. A seat moving up keeps its host: the host is the same
 * player when the name stays (the server keeps the host's seat through any shift).
 */
export function hostChange(prev, next, prevSeat, mySeat) {
  if (!prev || !next || prev.phase !== 'lobby' || next.phase !== 'lobby') return null;
  const before = (prev.players ?? []).find((p) => p.host);
  const after = (next.players ?? []).find((p) => p.host);
  if (!before || !after) return null;
  const wasMe = prevSeat !== null && before.seat === prevSeat;
  const isMe = mySeat !== null && after.seat === mySeat;
  if (isMe && !wasMe) return { me: true };
  if (!isMe && after.name !== before.name) return { me: false, player: after };
  return null;
}

/** Which lobby controls this player has, and on which seats. */
export function lobbyControls(state, mySeat) {
  const players = state?.players ?? [];
  const me = playerBySeat(state, mySeat);
  const isHost = !!me?.host;
  const lobby = state?.phase === 'lobby';
  const humans = players.filter((p) => !p.bot).length;
  return {
    isHost,
    seated: !!me,
    full: players.length >= maxSeats(state),
    canStart: isHost && lobby && players.length >= 2 && humans >= 1,
    canAddBot: isHost && lobby && players.length < maxSeats(state),
    canLeave: !!me && lobby,
    canSetClock: isHost && lobby,
    seats: players.map((p) => ({
      seat: p.seat,
      kick: isHost && lobby && !p.bot && p.seat !== mySeat,
      removeBot: isHost && lobby && !!p.bot,
    })),
  };
}

/** The message that frees a seat: remove_bot for a computer player, kick for a human. */
export function freeSeatMessage(state, seat) {
  const p = playerBySeat(state, seat);
  if (!p) return null;
  return p.bot ? { type: 'remove_bot', seat } : { type: 'kick', seat };
}

// The clock's choices, in seconds (docs/protocol.md: turn_seconds null or 10..604800,
// away_seconds null or 5..86400); null is "no limit" / "wait for them".
export const TURN_CHOICES = [null, 30, 60, 120, 300, 900, 3600, 86400];
export const AWAY_CHOICES = [null, 15, 30, 60, 120, 300, 900];
// A turn-based room's bank and what each move adds (docs/turn-based.md: bank_seconds 3600..2592000,
// increment_seconds 0..604800; neither can be "no limit").
export const BANK_CHOICES = [86400, 172800, 259200, 432000, 604800, 1209600, 2592000];
export const INCREMENT_CHOICES = [0, 21600, 43200, 86400, 172800, 259200, 604800];
const RANGE = { turn_seconds: [10, 604800], away_seconds: [5, 86400], bank_seconds: [3600, 2592000], increment_seconds: [0, 604800] };
const CHOICES = { turn_seconds: TURN_CHOICES, away_seconds: AWAY_CHOICES, bank_seconds: BANK_CHOICES, increment_seconds: INCREMENT_CHOICES };
const NULLABLE = new Set(['turn_seconds', 'away_seconds']);

/** The choices for one setting, with the room's current value among them. */
export function clockChoices(key, current) {
  const base = CHOICES[key] ?? AWAY_CHOICES;
  if (current === null || current === undefined || base.includes(current)) return base;
  const values = [...base.filter((v) => v !== null), current].sort((a, b) => a - b);
  return NULLABLE.has(key) ? [null, ...values] : values;
}

/** The settings message for one choice, or null when the value is out of range. */
export function settingsMessage(key, value) {
  if (!(key in RANGE)) return null;
  if (value === null && !NULLABLE.has(key)) return null;
  if (value !== null) {
    const [lo, hi] = RANGE[key];
    if (!Number.isInteger(value) || value < lo || value > hi) return null;
  }
  return { type: 'settings', [key]: value };
}

/** A duration in its largest whole unit: {unit: 's'|'min'|'h'|'d', n}. */
export function durationParts(seconds) {
  if (seconds % 86400 === 0) return { unit: 'd', n: seconds / 86400 };
  if (seconds % 3600 === 0) return { unit: 'h', n: seconds / 3600 };
  if (seconds % 60 === 0) return { unit: 'min', n: seconds / 60 };
  return { unit: 's', n: seconds };
}

/**
 * The rematch on offer at the end: null while the game runs; {ask: true} when this seated
 * player may ask for it; {room, join: true} once it exists (a seated player sends `rematch`
 * again and gets their seat in it), {room, join: false} for a spectator (just a link).
 */
export function rematchOffer(state, mySeat) {
  if (state?.phase !== 'finished') return null;
  const seated = mySeat !== null && mySeat !== undefined && !!playerBySeat(state, mySeat);
  if (typeof state.rematch === 'string' && state.rematch) return { room: state.rematch, join: seated };
  return seated ? { ask: true } : null;
}

/**
 * A game against the computer as the start page asks for it: {level, count} from what the
 * session keeps ("hard:2"; a bare level, as before, is one computer player).
 */
export function soloPlan(text) {
  const [level, n] = String(text ?? '').split(':');
  const count = Number(n ?? 1);
  // Up to five computer players: a sixth seat when an expansion brings one (soloStep stops at the room's seats).
  return { level: BOT_LEVELS.includes(level) ? level : 'medium', count: Number.isInteger(count) && count >= 1 && count <= MAX_SEATS ? count : 1 };
}

export const soloText = ({ level, count }) => `${level}:${count}`;

/**
 * The next step of setting up a game against the computer, for the host who asked for it:
 * a message to send, 'done' once the game runs, or null to wait. `plan`: soloPlan's
 * {level, count} (or a bare level).
 */
export function soloStep(state, mySeat, plan) {
  if (!state) return null;
  if (state.phase !== 'lobby') return 'done';
  const me = playerBySeat(state, mySeat);
  if (!me?.host) return null;
  const { level, count } = typeof plan === 'object' && plan ? plan : soloPlan(plan);
  const players = state.players ?? [];
  const bots = players.filter((p) => p.bot).length;
  if (bots < count && players.length < maxSeats(state)) return { type: 'add_bot', level };
  if (players.length >= 2) return { type: 'start' };
  return null;
}

/**
 * A rematch lobby of a game against the computer: this player is the host and everybody
 * else is a computer player, so "Play again" starts the game at once.
 */
export function soloRematchReady(state, mySeat) {
  if (state?.phase !== 'lobby') return false;
  const players = state.players ?? [];
  const me = playerBySeat(state, mySeat);
  return !!me?.host && players.length >= 2 && players.every((p) => p.seat === mySeat || p.bot);
}

/**
 * The game the start page chose, kept for the room page: "<expansion>,<expansion>|turn_based" (the
 * expansions, then the pace), or null for a base game played live (nothing to set).
 */
export function setupText({ expansions = [], pace = 'live' }) {
  const exps = expansionIds().filter((e) => expansions.includes(e));
  if (!exps.length && pace !== 'turn_based') return null;
  return `${exps.join(',')}|${pace === 'turn_based' ? 'turn_based' : 'live'}`;
}

/** setupText's plan back: {expansions, pace}; known expansions only. */
export function setupPlan(text) {
  const [exps, pace] = String(text ?? '').split('|');
  return { expansions: expansionIds().filter((e) => (exps ?? '').split(',').includes(e)), pace: pace === 'turn_based' ? 'turn_based' : 'live' };
}

/**
 * The room's settings for the start page's plan, for its host in the lobby: the settings
 * message to send, 'done' once the room has them (or the game runs), or null to wait.
 */
export function setupStep(state, mySeat, plan) {
  if (!state) return null;
  if (state.phase !== 'lobby') return 'done';
  if (!playerBySeat(state, mySeat)?.host) return null;
  const { expansions, pace } = typeof plan === 'object' && plan ? plan : setupPlan(plan);
  const has = expansionIds().filter((e) => (state.settings?.expansions ?? []).includes(e));
  if (has.join() === expansions.join() && (state.settings?.pace ?? 'live') === pace) return 'done';
  return { type: 'settings', expansions, pace };
}
