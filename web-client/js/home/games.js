// "Your games": the rooms this browser holds a seat in (a kept `carc.token.<room>`), with
// what the room page last noted about each (`carc.game.<room>`: the seat, the name, when).
// Pure: the storage is passed in (storage.js's safeStorage), so node tests it.

import { KEYS } from '../platform/storage.js';
import { Game } from '../game/rules.js';
import { parseRecord } from '../game/record.js';

const TOKEN_PREFIX = KEYS.token('');
const ROOM_ID = /^[A-Za-z0-9_-]{1,64}$/;

function readNote(store, room) {
  try {
    const n = JSON.parse(store.get(KEYS.game(room)) ?? 'null');
    return n && typeof n === 'object' ? n : null;
  } catch {
    return null;
  }
}

/** [{room, seat, name, updated}], the most recently seen first. */
export function knownGames(store) {
  const games = [];
  for (const key of store.keys()) {
    if (!key.startsWith(TOKEN_PREFIX)) continue;
    const room = key.slice(TOKEN_PREFIX.length);
    if (!ROOM_ID.test(room) || !store.get(key)) continue;
    const note = readNote(store, room) ?? {};
    games.push({
      room,
      seat: Number.isInteger(note.seat) ? note.seat : null,
      name: typeof note.name === 'string' ? note.name : null,
      updated: Number.isFinite(note.updated) ? note.updated : 0,
    });
  }
  return games.sort((a, b) => b.updated - a.updated || a.room.localeCompare(b.room));
}

/** Notes the seat this browser holds in `room` (the room page calls it on every welcome). */
export function rememberGame(store, room, { seat, name }, now = Date.now()) {
  store.set(KEYS.game(room), JSON.stringify({ seat, name: name ?? null, updated: now }));
}

/** Forgets the seat: its token and the note. */
export function forgetGame(store, room) {
  store.del(KEYS.token(room));
  store.del(KEYS.game(room));
}

/** The seat to play after a record's moves (null when the game is over or the record is bad). */
export function nextSeat(record) {
  const parsed = parseRecord(record);
  if (parsed.error) return null;
  const game = new Game(parsed.players);
  for (const m of parsed.moves) if (game.play(m)) return null;
  return game.holds.some(Boolean) ? game.turn : null;
}

/**
 * One line of the list from GET /api/rooms/<id> (`info`, or null when the server does not
 * know the room), the note and, for a game in play, the seat to play.
 *   {room, state: 'ok'|'gone'|'offline', phase, players: [{seat, name, bot, me}], turnSeat, mine, replay}
 */
export function describeGame(game, info, { turnSeat = null, offline = false } = {}) {
  if (offline) return { room: game.room, state: 'offline', phase: null, players: [], turnSeat: null, mine: false, replay: false };
  if (!info) return { room: game.room, state: 'gone', phase: null, players: [], turnSeat: null, mine: false, replay: false };
  const phase = ['lobby', 'playing', 'finished'].includes(info.phase) ? info.phase : null;
  const players = (Array.isArray(info.players) ? info.players : [])
    .filter((p) => p && Number.isInteger(p.seat))
    .map((p) => ({ seat: p.seat, name: String(p.name ?? ''), bot: p.bot ?? null, me: p.seat === game.seat }));
  const seat = phase === 'playing' ? (Number.isInteger(info.turn?.seat) ? info.turn.seat : turnSeat) : null;
  const deadline = phase === 'playing' && Number.isFinite(info.turn?.deadline) ? info.turn.deadline : null;
  return {
    room: game.room, state: 'ok', phase, players, turnSeat: seat,
    mine: seat !== null && seat === game.seat, replay: phase === 'finished',
    turnBased: info.pace === 'turn_based', deadline,
  };
}

/**
 * "Your games" in the order of the start page (docs/turn-based.md): the games waiting for you first
 * (the nearest deadline first), then the others going on or gathering, then finished ones;
 * games not described yet keep their place among the others.
 */
export function orderGames(games, lines) {
  const rank = (g) => {
    const l = lines.get(g.room);
    if (l?.mine) return 0;
    if (l?.phase === 'finished' || l?.state === 'gone') return 2;
    return 1;
  };
  const due = (g) => lines.get(g.room)?.deadline ?? Infinity;
  return games
    .map((g, i) => ({ g, i }))
    .sort((a, b) => rank(a.g) - rank(b.g) || (rank(a.g) === 0 ? due(a.g) - due(b.g) : 0) || a.i - b.i)
    .map(({ g }) => g);
}

/** How many games wait for this player (the title's and the favicon's count). */
export function waitingCount(lines) {
  let n = 0;
  for (const l of lines.values()) if (l?.mine) n++;
  return n;
}

/** The time left on a bank, in days and hours: clock.js's bankParts, the same words as the room's. */
export { bankParts as timeLeft } from '../game/clock.js';
