// A room's game with expansions, replayed from the server's own account of it: the public
// state of the room holds every event of the game (docs/protocol.md), so each step's
// board, figures and scores follow from the events, with no rules in the browser (rules.js
// stays the base game). The result has the shape of replay.js buildReplay, so the viewer
// draws it the same way. Pure: no DOM, so node tests it.

import { FeatureMap } from '../game/features.js';
import { expansionById, ask, hooks } from '../expansions/registry.js';

const isMove = (ev) => ev?.type === 'placed' || ev?.type === 'discarded';

/**
 * state: the room's public state (players, board[0] = the start tile, events, result,
 * settings); record: its record (moves, for `auto`); tiles: {id: catalog tile};
 * bagSize and counts ({id: n}) of the game's draw pile (GET /api/tiles?expansions=...).
 * -> {ok: true, players, steps, final, frames, result, mismatch: null, seatOf, auto}
 *  | {ok: false, move: null, reason: {code: 'expansions', expansions}}
 */
export function replayFromState(state, record, tiles, { bagSize = 0, counts = {} } = {}) {
  const events = Array.isArray(state?.events) ? state.events : [];
  const start = state?.board?.[0];
  const players = (state?.players ?? []).length;
  const exps = (state?.settings?.expansions ?? []).map(expansionById).filter(Boolean);
  // The special figures of the game (one each): those the room's players have, else those
  // its expansions give (expansions/registry.js: replayFigures).
  const figureKinds = Object.keys(state?.players?.[0]?.figures ?? Object.assign({}, ...exps.map((e) => e.replayFigures ?? {})));
  // What each player holds (expansions/registry.js: tokens): {name: {kind: n}} per seat.
  const tokenKinds = exps.flatMap((e) => e.tokens ?? []);
  const holdings = Array.from({ length: players }, () => Object.fromEntries(tokenKinds.map((k) => [k.name, k.start()])));
  const refuse = { ok: false, move: null, reason: { code: 'expansions', expansions: (record?.expansions ?? []).join(', ') } };
  if (!start || !tiles[start.tile] || players < 2) return refuse;
  const moves = events.filter(isMove);
  const steps = moves.length;
  const seatOf = moves.map((ev) => ev.seat);
  const map = new FeatureMap(tiles);
  try {
    map.place({ ...start, meeple: null, seat: null });
  } catch {
    return refuse;
  }
  const placed = [{ x: start.x, y: start.y, tile: start.tile, rotation: start.rotation }];
  const scores = new Array(players).fill(0);
  const used = {}; // tiles drawn so far (the start tile is not in the draw pile)
  const frames = [];
  const finished = state.phase === 'finished';

  // A room whose board lists every figure of a tile (`meeples`, a tile may hold several).
  const lists = Array.isArray(start.meeples);
  const snap = (k, upTo, done) => {
    const on = new Map(); // "x,y" -> [{seat, at, figure?}]
    const normal = new Array(players).fill(0);
    const special = Array.from({ length: players }, () => ({})); // figure -> on the board
    for (const f of map.occupied()) {
      for (const m of f.meeples) {
        const key = `${m.x},${m.y}`;
        on.set(key, [...(on.get(key) ?? []), { seat: m.seat, at: m.at, ...(m.figure ? { figure: m.figure } : {}) }]);
        if (m.figure && m.figure !== 'meeple') special[m.seat][m.figure] = (special[m.seat][m.figure] ?? 0) + 1;
        else normal[m.seat]++;
      }
    }
    const held = Array.from({ length: players }, (_, seat) => {
      if (done) return null;
      const j = seatOf.findIndex((who, m) => m >= k && who === seat);
      return j >= 0 ? moves[j].tile : null;
    });
    const bagTiles = {};
    for (const [id, n] of Object.entries(counts)) bagTiles[id] = Math.max(0, n - (used[id] ?? 0) - (id === start.tile ? 1 : 0));
    for (const id of held) if (id && bagTiles[id] > 0) bagTiles[id]--;
    return {
      room: state.room ?? null,
      phase: done ? 'finished' : 'playing',
      settings: state.settings,
      players: state.players.map((p) => ({
        seat: p.seat, name: p.name, color: p.color, score: scores[p.seat], meeples: 7 - normal[p.seat],
        ...(figureKinds.length ? { figures: Object.fromEntries(figureKinds.map((f) => [f, 1 - (special[p.seat][f] ?? 0)])) } : {}),
        ...Object.fromEntries(tokenKinds.map((k) => [k.name, { ...holdings[p.seat][k.name] }])),
        connected: true, tile: held[p.seat], host: false, bot: p.bot ?? null, away: false,
      })),
      turn: k < steps ? { number: k + 1, seat: seatOf[k], tile: moves[k].tile, legal: [], deadline: null } : null,
      board: placed.map((b) => (lists ? { ...b, meeples: on.get(`${b.x},${b.y}`) ?? [] } : { ...b, meeple: on.get(`${b.x},${b.y}`)?.[0] ?? null })),
      // What an expansion keeps besides (expansions/registry.js: replayState, e.g. where a neutral figure stands).
      ...Object.assign({}, ...exps.filter((e) => typeof e.replayState === 'function').map((e) => e.replayState(events.slice(0, upTo)) ?? {})),
      bag: { left: Math.max(0, bagSize - k - held.filter(Boolean).length), tiles: bagTiles },
      spectators: 0,
      events: events.slice(0, upTo),
      chat: [],
      result: done ? state.result ?? null : null,
    };
  };

  let k = 0;
  for (let i = 0; i <= events.length; i++) {
    const ev = events[i];
    // A step ends where the next move begins (its scores are in), or where the end scoring does.
    if (i === events.length || isMove(ev) || (ev.type === 'scored' && ev.end)) {
      if (frames.length === k) frames.push(snap(k, i, false));
      if (i === events.length || (ev.type === 'scored' && ev.end)) break;
    }
    if (ev.type === 'placed') {
      const ret = ev.return && Number.isInteger(ev.return.x) ? ev.return : null;
      const away = ev.meeple ? ask('figureCell', ev) : null; // the figure stands on another tile (expansions/registry.js)
      try {
        map.place({ x: ev.x, y: ev.y, tile: ev.tile, rotation: ev.rotation, meeple: away ? null : ev.meeple ?? null, seat: ev.seat, figure: ev.figure ?? null, ret });
        if (away) map.addFigure(away.x, away.y, { seat: ev.seat, at: ev.meeple, figure: ev.figure ?? null });
      } catch {
        return refuse;
      }
      placed.push({ x: ev.x, y: ev.y, tile: ev.tile, rotation: ev.rotation });
      used[ev.tile] = (used[ev.tile] ?? 0) + 1;
      k++;
    } else if (ev.type === 'discarded') {
      used[ev.tile] = (used[ev.tile] ?? 0) + 1;
      k++;
    } else if (ev.type === 'scored' && !ev.end) {
      for (const s of ev.seats ?? []) if (s >= 0 && s < players) scores[s] += ev.points ?? 0;
    } else {
      for (const gone of hooks('figuresGone').flatMap((f) => f(ev) ?? [])) map.removeFigure(gone.x, gone.y, gone.at); // eaten, sent home
      // Tokens taken (a token kind's event names how many of each).
      for (const k of tokenKinds.filter((x) => x.event === ev.type && holdings[ev.seat])) {
        const mine = holdings[ev.seat][k.name];
        for (const g of Object.keys(mine)) mine[g] += Number.isInteger(ev[k.name]?.[g]) ? ev[k.name][g] : 0;
      }
    }
  }
  while (frames.length <= steps) frames.push(snap(frames.length, events.length, false));
  if (finished) {
    // The last step shows the end: the final scores and the result.
    const last = snap(steps, events.length, true);
    last.players.forEach((p) => { p.score = state.result?.final_scores?.[p.seat] ?? state.players.find((q) => q.seat === p.seat)?.score ?? p.score; });
    frames[steps] = last;
  }
  const auto = Array.from({ length: steps }, (_, i) => record?.moves?.[i]?.auto === true);
  return { ok: true, players, steps, final: finished, frames, result: state.result ?? null, mismatch: null, seatOf, auto };
}

const SEAT_COLORS = ['red', 'blue', 'green', 'yellow', 'black', 'pink']; // docs/protocol.md, by seat

/**
 * A record with expansions replayed by the server (POST /api/replay: the engine's replay,
 * nothing stored) and turned into the viewer's steps. names(seat), bots(seat) as in
 * replay.js. -> {replay} | {problem: {move, message}}.
 */
export async function recordExpansionReplay(record, tiles, { names = (s) => `Player ${s + 1}`, bots = () => null, room = null, fetchFn = (u, o) => fetch(u, o) } = {}) {
  const exps = (Array.isArray(record?.expansions) ? record.expansions : []).filter((e) => typeof e === 'string' && /^[a-z]+$/.test(e));
  let answer;
  let cat;
  try {
    const [res, catRes] = await Promise.all([
      fetchFn('/api/replay', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(record) }),
      fetchFn(`/api/tiles?expansions=${exps.join(',')}`),
    ]);
    answer = await res.json();
    cat = catRes.ok ? await catRes.json() : null;
  } catch {
    return { problem: { move: null, message: null } };
  }
  if (typeof answer?.error === 'string') return { problem: { move: Number.isInteger(answer.move) ? answer.move : null, message: answer.error } };
  if (!Array.isArray(answer?.events) || !cat?.start) return { problem: { move: null, message: null } };
  const players = record.players;
  const given = Array.isArray(record.names) && record.names.length === players ? record.names : null;
  const events = [{ id: 0, type: 'started' }, ...answer.events.filter((e) => e.type !== 'returned').map((e, i) => ({ id: i + 1, ...e }))];
  const final = record.final !== false;
  const state = {
    room, phase: final ? 'finished' : 'playing', settings: { expansions: exps },
    players: Array.from({ length: players }, (_, seat) => ({
      seat, name: String(given?.[seat] ?? '').trim().slice(0, 24) || names(seat), color: SEAT_COLORS[seat], bot: bots(seat), score: answer.final_scores?.[seat] ?? 0,
    })),
    board: [{ ...cat.start, meeple: null }],
    events,
    result: final ? { final_scores: answer.final_scores, winners: answer.winners, breakdown: answer.breakdown ?? [] } : null,
  };
  const counts = Object.fromEntries((cat.tiles ?? []).map((t) => [t.letter, t.count]));
  const replay = replayFromState(state, record, tiles, { bagSize: cat.bag ?? 0, counts });
  if (!replay.ok) return { problem: { move: null, message: null } };
  const stated = record.result?.final_scores;
  if (Array.isArray(stated) && JSON.stringify(stated) !== JSON.stringify(answer.final_scores)) replay.mismatch = { stated, replayed: answer.final_scores };
  return { replay };
}
/** The room's public state, once, as a spectator (null when it cannot be had in time). */
export function fetchRoomState(url, { timeoutMs = 8000, WebSocketImpl = globalThis.WebSocket } = {}) {
  return new Promise((resolve) => {
    let ws;
    const done = (v) => {
      clearTimeout(timer);
      try { ws?.close(); } catch { /* closing anyway */ }
      resolve(v);
    };
    const timer = setTimeout(() => done(null), timeoutMs);
    try {
      ws = new WebSocketImpl(url);
    } catch {
      done(null);
      return;
    }
    ws.onopen = () => ws.send(JSON.stringify({ type: 'watch' }));
    ws.onmessage = (m) => {
      let msg = null;
      try { msg = JSON.parse(m.data); } catch { /* not ours */ }
      if (msg?.type === 'welcome' && msg.state) done(msg.state);
    };
    ws.onerror = () => done(null);
  });
}

/**
 * The replay of room `room`'s expansion game for the viewer: its public state (every event)
 * and its tile set, or null (then the viewer says such records replay on a server).
 */
export async function roomExpansionReplay(record, room, tiles, { wsUrl, fetchFn = (u) => fetch(u) }) {
  const exps = (record.expansions ?? []).filter((e) => /^[a-z]+$/.test(e));
  const [state, cat] = await Promise.all([
    fetchRoomState(wsUrl),
    fetchFn(`/api/tiles?expansions=${exps.join(',')}`).then((r) => (r.ok ? r.json() : null)).catch(() => null),
  ]);
  if (!state || state.room !== room || !Array.isArray(state.events)) return null;
  const counts = Object.fromEntries((cat?.tiles ?? []).map((t) => [t.letter, t.count]));
  const replay = replayFromState(state, record, tiles, { bagSize: cat?.bag ?? 0, counts });
  return replay.ok ? replay : null;
}
