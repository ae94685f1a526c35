// The human's side of princess-game.test.mjs, as a function of the public state alone, so
// that the browser test and princess-seeds.mjs (the same game over the protocol, to find a
// seed) make the same choices and, with the test server's fixed seed, play the same game.
//
// The human steers towards the Princess & the Dragon's four events (docs/expansions/
// princess-dragon.md): a farmer early (the fairy's follower: a field is never completed, so
// the fairy still stands by it when the next turn starts) and a knight in an open city (a
// princess tile may then join it); the princess as soon as a placement offers her, a
// follower through the magic portal as soon as a portal tile offers one, the fairy moved
// next to the farmer; in the dragon's move, a tile without the human's own figures.

import { featureAt } from '../../web-client/js/tiles/geometry.js';

export const GOALS = ['dragon', 'princess', 'portal', 'fairy', 'fairyPoint'];

const FOLLOWERS = [undefined, null, 'big', 'abbot'];

/** The kind of feature at board port `at` of the placed tile `b` (`tiles`: the catalog by id). */
export function kindOn(tiles, b, at) {
  return featureAt(tiles[b.tile], b.rotation, at)?.kind ?? null;
}

/** The seat's followers on the board: [{x, y, at, kind}]. */
export function followersOf(state, tiles, seat) {
  const out = [];
  for (const b of state.board) {
    for (const m of b.meeples ?? []) {
      if (m.seat === seat && FOLLOWERS.includes(m.figure)) out.push({ x: b.x, y: b.y, at: m.at, kind: kindOn(tiles, b, m.at) });
    }
  }
  return out;
}

/** The dragon's step the seat chooses: a tile without its own figures, else the first offered. */
export function dragonChoice(state, seat) {
  const own = (c) => (state.board.find((b) => b.x === c.x && b.y === c.y)?.meeples ?? []).some((m) => m.seat === seat);
  const options = state.turn.dragon.options;
  return options.find((o) => !own(o)) ?? options[0];
}

/**
 * The placement of the seat's turn: {entry, kind, at?, target?} with kind null (no figure),
 * 'meeple' (on port `at` of the placed tile), 'portal' (a meeple through the portal onto
 * target {x, y, at}), 'princess' (the knight at target sent home) or 'fairy' (the fairy next
 * to the follower at target). `done`: the goals reached so far (GOALS).
 */
export function decide(state, seat, tiles, done) {
  const turn = state.turn;
  const legal = turn.legal;
  const me = state.players.find((p) => p.seat === seat);
  const placedKind = (e, at) => featureAt(tiles[turn.tile], e.rotation, at)?.kind ?? null;
  if (!done.princess) {
    // Another player's knight first, else the human's own.
    const all = legal.flatMap((e) => (e.princess ?? []).map((target) => ({ e, target })));
    const owner = ({ target }) => state.board.find((b) => b.x === target.x && b.y === target.y)?.meeples?.find((m) => m.at === target.at)?.seat;
    const pick = all.find((c) => owner(c) !== seat) ?? all[0];
    if (pick) return { entry: pick.e, kind: 'princess', target: pick.target };
  }
  if (!done.portal && me.meeples > 0) {
    for (const e of legal) {
      const tile = (e.portal ?? []).find((p) => (p.meeples ?? []).length);
      if (tile) return { entry: e, kind: 'portal', target: { x: tile.x, y: tile.y, at: tile.meeples[0] } };
    }
  }
  const mine = followersOf(state, tiles, seat);
  const fairyByMe = state.fairy?.next_to?.seat === seat;
  const plain = legal[(turn.number * 7) % legal.length];
  if (!done.fairyPoint && !fairyByMe) {
    const targets = turn.fairy ?? [];
    const farmer = targets.find((f) => mine.some((m) => m.x === f.x && m.y === f.y && m.at === f.at && m.kind === 'field'));
    if (farmer) return { entry: plain, kind: 'fairy', target: farmer };
  }
  // A farmer (for the fairy), then a knight in a city (for the princess).
  const want = me.meeples > 0 && !mine.some((m) => m.kind === 'field') && !done.fairyPoint ? 'field'
    : me.meeples > 1 && !mine.some((m) => m.kind === 'city') && !done.princess ? 'city' : null;
  if (want) {
    for (const e of legal) {
      const at = (e.meeples ?? []).find((p) => placedKind(e, p) === want);
      if (at) return { entry: e, kind: 'meeple', at };
    }
  }
  return { entry: plain, kind: null };
}

/** The goals a new state shows reached, from its events since `from` (an index into state.events). */
export function goalsIn(state, seat, from) {
  const got = {};
  for (const ev of state.events.slice(from)) {
    if (ev.type === 'dragon_step' && ev.seat === seat) got.dragon = true;
    if (ev.type === 'princess' && ev.seat === seat) got.princess = true;
    if (ev.type === 'placed' && ev.seat === seat && ev.portal) got.portal = true;
    if (ev.type === 'fairy' && ev.seat === seat) got.fairy = true;
    // The point at the start of a turn (1); the bonus of a scoring is 3.
    if (ev.type === 'scored' && ev.feature === 'fairy' && ev.seat === seat && ev.points === 1) got.fairyPoint = true;
  }
  return got;
}
