// A game record replayed step by step in the browser, with no server state: step k shows
// the game after its first k moves (0: only the start tile), as a public state of the same
// shape as the server's (docs/protocol.md), so the board, the players panel and the
// log draw it with the code the live room uses. The rules are game/rules.js (via game/record.js).
// Pure: no DOM, so node tests it.

import { Game, TILES } from '../game/rules.js';
import { parseRecord, breakdown } from '../game/record.js';
import { t } from '../i18n/i18n.js';

const SEAT_COLORS = ['red', 'blue', 'green', 'yellow', 'black']; // docs/protocol.md, by seat
const MAX_FILE_BYTES = 1 << 20; // a whole game's record with its result is about 30 KB

/** The text of a file as a record: {record} or {error: {code}} (not JSON, too large, ...). */
export function readRecordText(text) {
  if (typeof text !== 'string' || text.length > MAX_FILE_BYTES) return { error: { code: 'too_large' } };
  let record;
  try {
    record = JSON.parse(text);
  } catch {
    return { error: { code: 'not_json' } };
  }
  if (!record || typeof record !== 'object' || Array.isArray(record) || !('moves' in record || 'format' in record)) {
    return { error: { code: 'not_record' } };
  }
  return { record };
}

/** The names a record may carry (an extra `names` key: one string per seat), else null. */
function recordNames(record, players) {
  const n = record?.names;
  if (!Array.isArray(n) || n.length !== players || !n.every((x) => typeof x === 'string')) return null;
  return n.map((x) => x.trim().slice(0, 24));
}

function bagOf(game, held) {
  const tiles = {};
  for (const [letter, def] of Object.entries(TILES)) tiles[letter] = def.count - game.used[letter];
  for (const l of held) if (l && tiles[l] > 0) tiles[l]--;
  return { left: game.inBag, tiles };
}

/**
 * Replays a record. `names(seat)` names the players (a record has no names unless it
 * carries `names`), `bots(seat)` gives a computer player's level (or null); `room` goes into
 * each step's state.
 * -> {ok: true, players, steps, final, frames: [state for steps 0..steps], result, mismatch}
 *  | {ok: false, move: index | null, reason: {code, ...}}
 * `mismatch` is set when the record states a result that differs from the replay's.
 */
export function buildReplay(record, { names = (s) => `Player ${s + 1}`, bots = () => null, room = null } = {}) {
  const parsed = parseRecord(record);
  if (parsed.error) return { ok: false, move: parsed.move, reason: parsed.reason };
  const { players, moves, final } = parsed;
  const given = recordNames(record, players);
  const nameOf = (s) => given?.[s] || names(s);

  const game = new Game(players);
  const snaps = []; // after k moves, k = 0..moves.length
  const seatOf = []; // who makes move k
  const snap = () => ({
    board: [...game.board.cells.values()].map((c) => ({
      x: c.x, y: c.y, tile: c.letter, rotation: c.q * 90, meeple: c.meeple ? { seat: c.meeple.seat, at: c.meeple.at } : null,
    })),
    scores: [...game.scores],
    supply: [...game.supply],
    events: game.events.length,
    game: { used: { ...game.used }, inBag: game.inBag },
  });
  snaps.push(snap());
  for (let i = 0; i < moves.length; i++) {
    seatOf.push(game.turn);
    const reason = game.play(moves[i]);
    if (reason) return { ok: false, move: i, reason };
    snaps.push(snap());
  }
  const supplyBeforeEnd = [...game.supply];
  if (final) game.finish();
  const last = snaps[snaps.length - 1];
  if (final) {
    last.scores = [...game.scores];
    last.events = game.events.length;
  }

  // Ids as the server gives them, after its "started" event.
  const events = [{ id: 0, type: 'started' }, ...game.events.map((e, i) => ({ id: i + 1, ...e }))];
  const best = Math.max(...game.scores);
  const result = {
    final_scores: [...game.scores],
    winners: game.scores.map((s, i) => (s === best ? i : -1)).filter((i) => i >= 0),
    breakdown: breakdown(players, game.events),
    meeples_in_supply: supplyBeforeEnd,
  };
  const stated = record.result?.final_scores;
  const mismatch = Array.isArray(stated) && JSON.stringify(stated) !== JSON.stringify(result.final_scores)
    ? { stated, replayed: result.final_scores } : null;

  const steps = moves.length;
  const frames = snaps.map((s, k) => {
    const done = k === steps && final;
    // Each player holds the tile of their next move (public, as in the live game).
    const held = Array.from({ length: players }, (_, seat) => {
      const j = seatOf.findIndex((who, m) => m >= k && who === seat);
      return j >= 0 ? moves[j].tile : null;
    });
    return {
      room,
      phase: done ? 'finished' : 'playing',
      players: Array.from({ length: players }, (_, seat) => ({
        seat, name: nameOf(seat), color: SEAT_COLORS[seat], score: s.scores[seat], meeples: s.supply[seat],
        connected: true, tile: done ? null : held[seat], host: false, bot: bots(seat) ?? null, away: false,
      })),
      turn: k < steps ? { number: k + 1, seat: seatOf[k], tile: moves[k].tile, legal: [], deadline: null } : null,
      board: s.board,
      bag: bagOf(s.game, done ? [] : held),
      spectators: 0,
      events: events.slice(0, s.events + 1),
      chat: [],
      result: done ? result : null,
    };
  });
  // Moves a computer made for an absent player carry "auto": true (docs/record-format.md).
  const auto = record.moves.map((m) => m?.auto === true);
  return { ok: true, players, steps, final, frames, result, mismatch, seatOf, auto };
}

/** A step number within 0..steps (anything else: the nearest end). */
export function clampStep(k, steps) {
  const n = Number.isFinite(k) ? Math.trunc(k) : 0;
  return Math.max(0, Math.min(steps, n));
}

/** The step a key asks for, or null: arrows one move, Page keys ten, Home and End the ends. */
export function stepForKey(key, step, steps) {
  switch (key) {
    case 'ArrowLeft': return clampStep(step - 1, steps);
    case 'ArrowRight': return clampStep(step + 1, steps);
    case 'PageUp': return clampStep(step - 10, steps);
    case 'PageDown': return clampStep(step + 10, steps);
    case 'Home': return 0;
    case 'End': return steps;
    default: return null;
  }
}

/** The events of the move that led to step k (none for step 0), in order. */
export function stepEvents(replay, k) {
  if (k <= 0) return [];
  const from = replay.frames[k - 1].events.length;
  return replay.frames[k].events.slice(from);
}

/**
 * What to tell about a record that cannot be replayed: a file-level problem, or the move
 * (numbered from 1, as the slider counts) and why.
 */
export function problemText({ move = null, reason }, lang) {
  if (reason?.code === 'expansions') return t('replay.expansions', reason, lang);
  const why = t(`replay.why.${reason?.code}`, reason ?? {}, lang);
  return move === null || move === undefined
    ? t('replay.badFile', { reason: why }, lang)
    : t('replay.badMove', { n: move + 1, reason: why }, lang);
}
