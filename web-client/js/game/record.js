// Game records (docs/record-format.md): reading one, and replaying it with the rules of
// ./rules.js to what a replay prints (scores after each move, final scores, supply,
// winners), plus the events and the scoring breakdown. A refusal names the move's index
// and a reason {code, ...details} (reasonText words it in English).
//
//   replay(record) -> { scores_after_move, final_scores, meeples_in_supply, winners, breakdown, events }
//                   | { error, reason, move }

import { Game, TILES, PORTS, reasonText } from './rules.js';

export { reasonText };

const isInt = (v) => typeof v === 'number' && Number.isInteger(v);
const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

const FORMAT_TEXT = {
  not_object: 'a record must be an object',
  format: 'unsupported format',
  players: 'players must be 2..5',
  final: 'final must be a boolean',
  moves: 'moves must be an array',
  move_not_object: 'a move must be an object',
  discard_type: 'discard must be a boolean',
  rotation: 'rotation must be 0, 90, 180 or 270',
  figure: 'a figure the base game does not have',
  return: 'a take-back the base game does not have',
  expansions: 'a record of a game with expansions replays on the server (these rules are the base game)',
};

function refuse(code, move = null, details = {}) {
  const reason = { code, ...details };
  let error = FORMAT_TEXT[code];
  if (code === 'unknown_tile') error = `unknown tile ${JSON.stringify(details.tile)}`;
  if (code === 'coordinate') error = `${details.key} must be an integer`;
  if (code === 'unknown_port') error = `unknown port ${JSON.stringify(details.port)}`;
  return { error: error ?? reasonText(reason), reason, move };
}

function parseMove(m, i) {
  if (!isObject(m)) return refuse('move_not_object', i);
  if (typeof m.tile !== 'string' || !Object.hasOwn(TILES, m.tile)) return refuse('unknown_tile', i, { tile: m.tile });
  if (m.discard !== undefined && m.discard !== null && typeof m.discard !== 'boolean') return refuse('discard_type', i);
  if (m.discard === true) return { move: { tile: m.tile, discard: true } };
  for (const k of ['x', 'y', 'rotation']) if (!isInt(m[k])) return refuse('coordinate', i, { key: k });
  if (![0, 90, 180, 270].includes(m.rotation)) return refuse('rotation', i);
  // The base game has normal meeples only and no actions (docs/expansions.md).
  if (m.figure !== undefined && m.figure !== null && m.figure !== 'meeple') return refuse('figure', i, { figure: String(m.figure) });
  if (m.return !== undefined && m.return !== null) return refuse('return', i);
  let meeple = null;
  if (m.meeple !== undefined && m.meeple !== null) {
    if (typeof m.meeple !== 'string' || !PORTS.has(m.meeple)) return refuse('unknown_port', i, { port: m.meeple });
    meeple = m.meeple;
  }
  return { move: { tile: m.tile, x: m.x, y: m.y, rotation: m.rotation, meeple } };
}

/** {players, moves, final} with every move checked for its shape, or a refusal. */
export function parseRecord(record) {
  if (!isObject(record)) return refuse('not_object');
  if (record.format !== undefined && record.format !== 'carcassonne-record/1') return refuse('format');
  if (!isInt(record.players) || record.players < 2 || record.players > 5) return refuse('players');
  // These rules are the base game, kept as the independent oracle: a game with expansions
  // (docs/expansions.md) or rule options (docs/options.md) is replayed by the server instead.
  for (const exp of [record.expansions, record.options]) {
    if (exp !== undefined && exp !== null && !(Array.isArray(exp) && exp.length === 0)) {
      return refuse('expansions', null, { expansions: Array.isArray(exp) ? exp.filter((e) => typeof e === 'string').join(', ') : '?' });
    }
  }
  if (record.final !== undefined && record.final !== null && typeof record.final !== 'boolean') return refuse('final');
  if (!Array.isArray(record.moves)) return refuse('moves');
  const moves = [];
  for (let i = 0; i < record.moves.length; i++) {
    const r = parseMove(record.moves[i], i);
    if (r.error) return r;
    moves.push(r.move);
  }
  return { players: record.players, moves, final: record.final !== false };
}

/** Points per seat by kind, during the game and at the end, as the server's result has them. */
export function breakdown(players, events) {
  const rows = Array.from({ length: players }, (_, seat) => ({
    seat, game: { road: 0, city: 0, monastery: 0 }, end: { road: 0, city: 0, monastery: 0, field: 0 }, total: 0,
  }));
  for (const e of events) {
    if (e.type !== 'scored') continue;
    for (const s of e.seats) {
      const part = e.end ? rows[s].end : rows[s].game;
      if (e.kind in part) part[e.kind] += e.points;
      rows[s].total += e.points;
    }
  }
  return rows;
}

export function replay(record) {
  const parsed = parseRecord(record);
  if (parsed.error) return parsed;
  const game = new Game(parsed.players);
  const scoresAfterMove = [];
  const events = [];
  for (let i = 0; i < parsed.moves.length; i++) {
    const before = game.events.length;
    const reason = game.play(parsed.moves[i]);
    if (reason) return { error: reasonText(reason), reason, move: i };
    for (const e of game.events.slice(before)) events.push({ ...e, move: i });
    scoresAfterMove.push([...game.scores]);
  }
  const supply = [...game.supply];
  if (parsed.final) {
    const before = game.events.length;
    game.finish();
    events.push(...game.events.slice(before));
  }
  const best = Math.max(...game.scores);
  return {
    scores_after_move: scoresAfterMove,
    final_scores: [...game.scores],
    meeples_in_supply: supply,
    winners: game.scores.map((s, i) => (s === best ? i : -1)).filter((i) => i >= 0),
    breakdown: breakdown(parsed.players, events),
    events,
  };
}

// The number of legal placements (cell x rotation, all four rotations counted) of `letter`
// on the board a record's moves build.
export function legalPlacementCount(record, letter) {
  const parsed = parseRecord(record);
  if (parsed.error) throw new Error(parsed.error);
  const game = new Game(parsed.players);
  for (const m of parsed.moves) {
    const reason = game.play(m);
    if (reason) throw new Error(reasonText(reason));
  }
  return game.board.legalPlacements(letter).length;
}
